/**
 * `avellaneda-stoikov`: Avellaneda & Stoikov (2008), MM-NOTES §3.1.
 *   r = s − q·γ·σ²·(T−t),   spread = γ·σ²·(T−t) + (2/γ)·ln(1 + γ/k),   bid/ask = r ∓ spread/2.
 * Units (consistent, so the formula holds as written):
 * - s in quote tokens per base token; σ in quote per √second (the engine's volatility estimator);
 * - T−t in seconds; q dimensionless: inventory in order-size units, q = (base − target) / ORDER_SIZE;
 * - hence γ in 1 / quote price unit (per USDC for ETH/USDC), k in 1 / quote price unit.
 * Unlike hummingbot (MM-NOTES §3.1, "as coded"), σ enters squared as in the paper and q counts
 * orders rather than a fraction of the portfolio.
 */
import type { InventoryView, MarketView, StrategyDefinition } from '../src/core/index.ts';
import { describeKeys, envKey, keywordOrNumber, numberIn, readKeys, type EnvKeyValues } from './env-keys.ts';
import type { ExplainedStrategy, QuoteExplanation } from './explained.ts';
import { buildModelKeys, checkSpreadBounds } from './model-keys.ts';
import { applySpreadFloor, bpsToPrice, expandLevels, finalizeQuotes, isPositiveFinite, nonNegativeOrZero, referencePrice } from './passive-quotes.ts';

/** Inputs of the Avellaneda–Stoikov formulas, in the units of the module comment. */
export interface AvellanedaStoikovInput {
  readonly mid: number;
  /** q: inventory in order-size units relative to the target (positive = long). */
  readonly inventory: number;
  /** γ > 0, per quote price unit. */
  readonly gamma: number;
  /** σ, quote price units per √second. */
  readonly volatility: number;
  /** T−t in seconds. */
  readonly timeLeftS: number;
  /** k > 0, per quote price unit. */
  readonly kappa: number;
}

/** Reservation price and optimal total spread (both in quote price units). */
export interface AvellanedaStoikovResult {
  readonly reservationPrice: number;
  readonly spread: number;
}

/** The two formulas of MM-NOTES §3.1. */
export function computeAvellanedaStoikov(input: AvellanedaStoikovInput): AvellanedaStoikovResult {
  const inventoryRisk = input.gamma * input.volatility * input.volatility * input.timeLeftS;
  return {
    reservationPrice: input.mid - input.inventory * inventoryRisk,
    // log1p keeps precision when γ/k is tiny (the spread then tends to 2/k).
    spread: inventoryRisk + (2 / input.gamma) * Math.log1p(input.gamma / input.kappa),
  };
}

/**
 * T−t in seconds. A finite horizon of H seconds cycles on sessions aligned to multiples of H since
 * the epoch: T−t runs from H down towards 0, then restarts. `inf` uses T−t = 1 s as hummingbot's
 * infinite mode does (τ = 1), so the inventory term is γσ² times one second of variance and γ
 * alone sets its strength.
 */
export function computeTimeLeftS(timeMs: number, horizonS: number | 'inf'): number {
  if (horizonS === 'inf') return 1;
  const horizonMs = horizonS * 1000;
  const intoSessionMs = ((timeMs % horizonMs) + horizonMs) % horizonMs;
  return (horizonMs - intoSessionMs) / 1000;
}

/** The strategy's env keys. Defaults suit ETH/USDC (γ and k per USDC). */
export const AVELLANEDA_STOIKOV_KEYS = {
  gamma: envKey({
    key: 'AS_GAMMA',
    default: '2',
    unit: '1/quote price unit',
    doc: 'Risk aversion γ: the inventory skew per order held is γσ²(T−t); larger γ also narrows the (2/γ)ln(1+γ/k) part of the spread',
    parse: numberIn({ min: 0, minExclusive: true, max: 1e6 }),
  }),
  horizonS: envKey({
    key: 'AS_HORIZON_S',
    default: 'inf',
    unit: 's',
    doc: 'Session length T: finite sessions restart every this many seconds (T−t counts down within each); inf = infinite horizon with T−t = 1 s (hummingbot)',
    parse: keywordOrNumber('inf', { min: 0, minExclusive: true, max: 31_536_000, unit: 's' }),
  }),
  kappa: envKey({
    key: 'AS_KAPPA',
    default: 'auto',
    unit: '1/quote price unit',
    doc: 'Order-arrival decay k in λ(δ) = A·e^(−kδ); auto = online fit from trades, AS_KAPPA_FALLBACK until the fit is ready',
    parse: keywordOrNumber('auto', { min: 0, minExclusive: true, max: 1e9 }),
  }),
  kappaFallback: envKey({
    key: 'AS_KAPPA_FALLBACK',
    default: '1',
    unit: '1/quote price unit',
    doc: 'k used while AS_KAPPA=auto has no fit yet (quoting never waits for data)',
    parse: numberIn({ min: 0, minExclusive: true, max: 1e9 }),
  }),
  ...buildModelKeys('AS', { orderSize: '0.01', minSpreadBps: '4', maxSpreadBps: '200' }),
};

/** Parsed Avellaneda–Stoikov parameters (see `AVELLANEDA_STOIKOV_KEYS`). */
export type AvellanedaStoikovParams = EnvKeyValues<typeof AVELLANEDA_STOIKOV_KEYS>;

/** Where the k used came from. */
export type KappaSource = 'fit' | 'fixed' | 'fallback';

/** The model values behind one set of Avellaneda–Stoikov quotes. */
export interface AvellanedaStoikovExplanation extends QuoteExplanation {
  /** q in order-size units. */
  readonly inventory: number;
  readonly volatility: number;
  readonly timeLeftS: number;
  readonly kappa: number;
  readonly kappaSource: KappaSource;
  readonly reservationPrice: number;
  /** The formula's spread, before the cap and floor. */
  readonly modelSpread: number;
  /** Level-0 bid and ask after the cap and floor, before the post-only clamp. */
  readonly bid: number;
  readonly ask: number;
}

/** Runs the model for one input; undefined without a usable reference price. */
export function explainAvellanedaStoikov(
  params: AvellanedaStoikovParams,
  view: MarketView,
  inventory: InventoryView,
): AvellanedaStoikovExplanation | undefined {
  const reference = referencePrice(view, params.priceSource);
  if (reference === undefined) return undefined;
  const fitted = view.arrival?.k;
  let kappa: number;
  let kappaSource: KappaSource;
  if (params.kappa !== 'auto') [kappa, kappaSource] = [params.kappa, 'fixed'];
  else if (fitted !== undefined && isPositiveFinite(fitted)) [kappa, kappaSource] = [fitted, 'fit'];
  else [kappa, kappaSource] = [params.kappaFallback, 'fallback'];

  const q = (inventory.base - inventory.targetBase) / params.orderSize;
  const inventoryUnits = Number.isFinite(q) ? q : 0;
  const volatility = nonNegativeOrZero(view.volatility);
  const timeLeftS = computeTimeLeftS(view.timeMs, params.horizonS);
  const model = computeAvellanedaStoikov({ mid: reference, inventory: inventoryUnits, gamma: params.gamma, volatility, timeLeftS, kappa });
  const spread = Math.min(model.spread, bpsToPrice(params.maxSpreadBps, reference));
  // At least one tick wide, so rounding (bids down, asks up) can never lock our own quotes.
  const minSpread = Math.max(bpsToPrice(params.minSpreadBps, reference), view.tickSize);
  const { bid, ask } = applySpreadFloor(model.reservationPrice - spread / 2, model.reservationPrice + spread / 2, minSpread);
  const quotes = expandLevels({
    bid,
    ask,
    levels: params.levels,
    spacing: bpsToPrice(params.levelSpacingBps, reference),
    bidSize: params.orderSize,
    askSize: params.orderSize,
    quoteBids: true,
    quoteAsks: true,
  });
  return {
    reference,
    quotes: finalizeQuotes(quotes, view),
    inventory: inventoryUnits,
    volatility,
    timeLeftS,
    kappa,
    kappaSource,
    reservationPrice: model.reservationPrice,
    modelSpread: model.spread,
    bid,
    ask,
  };
}

/** The `avellaneda-stoikov` strategy. */
export const AVELLANEDA_STOIKOV: StrategyDefinition<AvellanedaStoikovParams> = {
  name: 'avellaneda-stoikov',
  summary: 'Avellaneda–Stoikov reservation price and optimal spread, finite or infinite horizon, online σ and k',
  keys: describeKeys(AVELLANEDA_STOIKOV_KEYS),
  parseParams: (env) => readKeys(AVELLANEDA_STOIKOV_KEYS, env, [checkSpreadBounds('AS')]),
  create: (params) => createAvellanedaStoikov(params),
};

/** An Avellaneda–Stoikov strategy for fixed parameters. */
export function createAvellanedaStoikov(params: AvellanedaStoikovParams): ExplainedStrategy<AvellanedaStoikovExplanation> {
  return {
    name: 'avellaneda-stoikov',
    explain: (view, inventory) => explainAvellanedaStoikov(params, view, inventory),
    quote: (view, inventory) => explainAvellanedaStoikov(params, view, inventory)?.quotes ?? [],
  };
}
