/**
 * `avellaneda-stoikov`: Avellaneda & Stoikov (2008), MM-NOTES §3.1, with the order size Δ explicit:
 *   r = s − q·γ·σ²·(T−t),   spread = γ·σ²·(T−t)·Δ + (2/(γΔ))·ln(1 + γΔ/k) + 2·costs,
 *   bid/ask = r ∓ spread/2,   r capped to MAX_SKEW_BPS around s.
 * Units (consistent, so the formula holds as written):
 * - s in quote tokens per base token; σ in quote per √second (the engine's volatility estimator);
 * - T−t in seconds; q the POSITION in base tokens (base held − target), Δ the order size in base
 *   tokens (AS_ORDER_SIZE, or AS_ORDER_NOTIONAL / s rounded to the lot; the paper trades unit
 *   lots: Δ = 1 gives its formulas back);
 * - hence γ per (quote price unit × base token), which is per quote token, and k per quote price
 *   unit. The keys and the arrival fit give k per bp of s (it carries across instruments); it is
 *   turned into k per price unit at s here: k = k_bps·10⁴/s.
 * With the order size a notional N and k per bp, every term over s depends only on γ·N, k_bps and
 * σ/s: the same keys quote the same bps and the same notional on ETH and on BTC (docs/strategies.md).
 * Costs = maker fee (negative for a rebate) and gas per fill per base token, added to each half-spread.
 * Unlike hummingbot (MM-NOTES §3.1, "as coded"), σ enters squared as in the paper and q is a
 * position in tokens rather than a fraction of the portfolio.
 */
import { describeKeys, envKey, notBoth, readKeys, values as v, type InventoryView, type MarketView, type ParamsOf, type StrategyDefinition } from '../src/core/index.ts';
import type { ExplainedStrategy, QuoteExplanation } from './explained.ts';
import { buildModelKeys, checkSpreadBounds } from './model-keys.ts';
import { checkSizeKeys, modelSizeOf, strategySizeOf } from './order-sizing.ts';
import {
  applySpreadFloor,
  bpsToPrice,
  capOffset,
  expandLevels,
  fillCostPerUnit,
  finalizeQuotes,
  isPositiveFinite,
  nonNegativeOrZero,
  perBpsToPerPrice,
  referencePrice,
} from './passive-quotes.ts';

/** Inputs of the Avellaneda–Stoikov formulas, in the units of the module comment. */
export interface AvellanedaStoikovInput {
  readonly mid: number;
  /** q: the position in base tokens relative to the target (positive = long). */
  readonly inventory: number;
  /** γ > 0, per (quote price unit × base token). */
  readonly gamma: number;
  /** σ, quote price units per √second. */
  readonly volatility: number;
  /** T−t in seconds. */
  readonly timeLeftS: number;
  /** k > 0, per quote price unit. */
  readonly kappa: number;
  /** Δ, the order size in the units of q (base tokens); default 1 (the paper's unit lots). */
  readonly orderSize?: number;
}

/** Reservation price and optimal total spread (both in quote price units). */
export interface AvellanedaStoikovResult {
  readonly reservationPrice: number;
  readonly spread: number;
}

/** The two formulas of MM-NOTES §3.1. */
export function computeAvellanedaStoikov(input: AvellanedaStoikovInput): AvellanedaStoikovResult {
  const inventoryRisk = input.gamma * input.volatility * input.volatility * input.timeLeftS;
  const lot = input.gamma * (input.orderSize ?? 1);
  return {
    reservationPrice: input.mid - input.inventory * inventoryRisk,
    // log1p keeps precision when γΔ/k is tiny (the spread then tends to 2/k).
    spread: inventoryRisk * (input.orderSize ?? 1) + (2 / lot) * Math.log1p(lot / input.kappa),
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

/** The strategy's env keys. Defaults suit ETH/USDC (γ per USDC); k is per bp of the reference price. */
export const AVELLANEDA_STOIKOV_KEYS = {
  gamma: envKey({
    key: 'AS_GAMMA',
    default: '20',
    unit: '1/(quote price unit × base token)',
    doc: 'Risk aversion γ per base token of position: the reservation price moves γσ²(T−t) per base token held; larger γ also narrows the (2/(γΔ))ln(1+γΔ/k) part of the spread',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1e6 }),
  }),
  horizonS: envKey({
    key: 'AS_HORIZON_S',
    default: 'inf',
    unit: 's',
    doc: 'Session length T: finite sessions restart every this many seconds (T−t counts down within each); inf = infinite horizon with T−t = 1 s (hummingbot)',
    parse: v.keywordOrNumber('inf', { min: 0, minExclusive: true, max: 31_536_000, unit: 's' }),
  }),
  kappa: envKey({
    key: 'AS_KAPPA',
    default: 'auto',
    unit: 'auto|1/quote price unit',
    doc: 'Order-arrival decay k in λ(δ) = A·e^(−kδ); auto = online fit from trades, AS_KAPPA_FALLBACK_PER_BPS until the fit is ready. A number fixes k per quote price unit: deprecated (it does not carry to another instrument), set AS_KAPPA_PER_BPS instead',
    parse: v.keywordOrNumber('auto', { min: 0, minExclusive: true, max: 1e9 }),
  }),
  kappaPerBps: envKey({
    key: 'AS_KAPPA_PER_BPS',
    default: 'off',
    unit: '1/bps of reference',
    doc: 'A fixed k per bp of distance from the reference price instead of the fit (per price unit it is this × 10000 / price, so it carries across instruments); off = AS_KAPPA',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, max: 1e9 }),
  }),
  kappaFallback: envKey({
    key: 'AS_KAPPA_FALLBACK',
    default: 'off',
    unit: '1/quote price unit',
    doc: 'Deprecated (it does not carry to another instrument; kept one release): AS_KAPPA_FALLBACK_PER_BPS per quote price unit. off = that key',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, max: 1e9 }),
  }),
  kappaFallbackPerBps: envKey({
    key: 'AS_KAPPA_FALLBACK_PER_BPS',
    default: '0.25',
    unit: '1/bps of reference',
    doc: 'k used while AS_KAPPA=auto has no fit yet (quoting never waits for data), per bp of distance from the reference price (0.25 ≈ 1 per USDC at ETH 2500)',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
  }),
  ...buildModelKeys('AS', { orderSize: '0.01', minSpreadBps: '0', maxSpreadBps: '200', maxSkewBps: '20' }),
};

/** Parsed Avellaneda–Stoikov parameters (see `AVELLANEDA_STOIKOV_KEYS`). */
export type AvellanedaStoikovParams = ParamsOf<typeof AVELLANEDA_STOIKOV_KEYS>;

/** Where the k used came from. */
export type KappaSource = 'fit' | 'fixed' | 'fallback';

/** The model values behind one set of Avellaneda–Stoikov quotes. */
export interface AvellanedaStoikovExplanation extends QuoteExplanation {
  /** q: the position in base tokens. */
  readonly inventory: number;
  readonly volatility: number;
  readonly timeLeftS: number;
  /** k per quote price unit, as the formula takes it. */
  readonly kappa: number;
  /** The same k per bp of the reference price. */
  readonly kappaPerBps: number;
  readonly kappaSource: KappaSource;
  /** Δ, one order's size in base tokens. */
  readonly orderSize: number;
  /** Why nothing is quoted although the model ran: the notional buys less than the minimum size, or has no price. */
  readonly sizeSkipped: 'below-minimum' | 'no-price' | undefined;
  /** r after the MAX_SKEW_BPS cap. */
  readonly reservationPrice: number;
  /** The formula's spread, before the cap, the costs and the floor. */
  readonly modelSpread: number;
  /** Maker fee and gas per fill, per base token (price units), added to each half spread. */
  readonly cost: number;
  /** Level-0 bid and ask after the cap and floor (raw; the engine rounds and clamps them). */
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
  const [kappa, kappaSource] = resolveKappa(params, view, reference);

  const position = Number.isFinite(inventory.base - inventory.targetBase) ? inventory.base - inventory.targetBase : 0;
  // A notional too small for the venue's minimum quotes nothing (no more than asked); the model
  // still runs, for the explanation.
  const { size, skipped } = modelSizeOf(params, reference, view);
  const volatility = nonNegativeOrZero(view.volatility);
  const timeLeftS = computeTimeLeftS(view.timeMs, params.horizonS);
  const model = computeAvellanedaStoikov({ mid: reference, inventory: position, gamma: params.gamma, volatility, timeLeftS, kappa, orderSize: size });
  const cost = fillCostPerUnit(view, reference, size);
  const spread = Math.min(model.spread, bpsToPrice(params.maxSpreadBps, reference)) + 2 * cost;
  const reservationPrice = capOffset(model.reservationPrice, reference, bpsToPrice(params.maxSkewBps, reference));
  // At least one tick wide, so rounding (bids down, asks up) can never lock our own quotes.
  const minSpread = Math.max(bpsToPrice(params.minSpreadBps, reference), view.tickSize);
  const { bid, ask } = applySpreadFloor(reservationPrice - spread / 2, reservationPrice + spread / 2, minSpread);
  const levels = skipped === undefined ? params.levels : 0;
  const quotes = expandLevels({
    bid,
    ask,
    bidLevels: levels,
    askLevels: levels,
    spacing: bpsToPrice(params.levelSpacingBps, reference),
    bidSize: size,
    askSize: size,
    reference: reservationPrice,
  });
  return {
    reference,
    quotes: finalizeQuotes(quotes),
    inventory: position,
    volatility,
    timeLeftS,
    kappa,
    kappaPerBps: (kappa * reference) / 10_000,
    kappaSource,
    orderSize: size,
    sizeSkipped: skipped,
    reservationPrice,
    modelSpread: model.spread,
    cost,
    bid,
    ask,
  };
}

/**
 * k per quote price unit at `reference`, and where it came from: a fixed k (per bp, or the
 * deprecated per price unit), the fit (per bp), or the fallback (per bp, or deprecated per price unit).
 */
function resolveKappa(params: AvellanedaStoikovParams, view: MarketView, reference: number): [number, KappaSource] {
  if (params.kappaPerBps !== 'off') return [perBpsToPerPrice(params.kappaPerBps, reference), 'fixed'];
  if (params.kappa !== 'auto') return [params.kappa, 'fixed'];
  const fitted = view.arrival?.kPerBps;
  if (fitted !== undefined && isPositiveFinite(fitted)) return [perBpsToPerPrice(fitted, reference), 'fit'];
  return [params.kappaFallback === 'off' ? perBpsToPerPrice(params.kappaFallbackPerBps, reference) : params.kappaFallback, 'fallback'];
}

/** The `avellaneda-stoikov` strategy. */
export const AVELLANEDA_STOIKOV: StrategyDefinition<AvellanedaStoikovParams> = {
  name: 'avellaneda-stoikov',
  summary: 'Avellaneda–Stoikov reservation price and optimal spread, finite or infinite horizon, online σ and k, costs inside the spread, capped skew',
  keys: describeKeys(AVELLANEDA_STOIKOV_KEYS),
  parseParams: (env) =>
    readKeys(AVELLANEDA_STOIKOV_KEYS, env, [
      checkSpreadBounds('AS'),
      checkSizeKeys('AS'),
      notBoth('AS_KAPPA', 'AS_KAPPA_PER_BPS', 'k'),
      notBoth('AS_KAPPA_FALLBACK', 'AS_KAPPA_FALLBACK_PER_BPS', 'the fallback k'),
    ]),
  create: (params) => createAvellanedaStoikov(params),
};

/** An Avellaneda–Stoikov strategy for fixed parameters. */
export function createAvellanedaStoikov(params: AvellanedaStoikovParams): ExplainedStrategy<AvellanedaStoikovExplanation> {
  return {
    name: 'avellaneda-stoikov',
    ...strategySizeOf(params),
    explain: (view, inventory) => explainAvellanedaStoikov(params, view, inventory),
    quote: (view, inventory) => explainAvellanedaStoikov(params, view, inventory)?.quotes ?? [],
  };
}
