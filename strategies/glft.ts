/**
 * `glft`: the Guéant–Lehalle–Fernandez-Tapia closed form in Guéant's (2017) generalisation
 * (MM-NOTES §3.3), with the order size Δ explicit:
 *   c1 = (1/(ξΔ))·ln(1 + ξΔ/k),   c2 = √( γ/(2AΔk) · (1 + ξΔ/k)^(k/(ξΔ) + 1) ),
 *   half-spread = (c1 + (Δ/2)·σ·c2)·adj1 + costs,   skew = σ·c2·adj2,
 *   bid = r − half-spread,   ask = r + half-spread,   r = fair − skew·q (capped by MAX_SKEW_BPS),
 * with ξ = γ (CARA objective), costs = maker fee and gas per fill per base token.
 *
 * Units (consistent, so the formula holds as written): q is the POSITION in base tokens
 * (base held − target), Δ the order size in base tokens (GLFT_ORDER_SIZE, or GLFT_ORDER_NOTIONAL
 * / fair rounded to the lot), prices and δ in quote price units, σ in quote per √second, A in
 * arrivals per second, k per quote price unit, hence γ per (quote price unit × base token), which
 * is per quote token. The keys and the arrival fit give k per bp of the fair price (it carries
 * across instruments); it is turned into k per price unit at the fair price here: k = k_bps·10⁴/fair.
 * With a notional order size and k per bp, the quotes in bps depend only on γ·notional, k_bps, A
 * and σ/fair: the same keys quote alike on ETH and on BTC (docs/strategies.md).
 * hftbacktest counts q and Δ in orders (Δ = 1) and prices in ticks: its γ_ticks equals
 * γ × tick × Δ here.
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
  levelsWithinPosition,
  nonNegativeOrZero,
  perBpsToPerPrice,
  referencePrice,
} from './passive-quotes.ts';

/** Inputs of the GLFT coefficients (units in the module comment). */
export interface GlftCoefficientInput {
  /** γ > 0, per (quote price unit × base token). */
  readonly gamma: number;
  /** ξ; default γ. */
  readonly xi?: number;
  /** Δ, order size in the units of q (base tokens here); default 1. */
  readonly delta?: number;
  /** A > 0, arrivals per second at the fair price. */
  readonly a: number;
  /** k > 0, per quote price unit. */
  readonly k: number;
}

/** c1 (quote price units) and c2 (so that σ·c2 is in quote price units). */
export interface GlftCoefficients {
  readonly c1: number;
  readonly c2: number;
}

/** c1 and c2 of MM-NOTES §3.3. */
export function computeGlftCoefficients(input: GlftCoefficientInput): GlftCoefficients {
  const xi = input.xi ?? input.gamma;
  const delta = input.delta ?? 1;
  const ratio = (xi * delta) / input.k;
  const logTerm = Math.log1p(ratio);
  // (1 + x)^(1/x + 1) computed as exp((1/x + 1)·ln(1 + x)): finite for any x > 0, and tends to e
  // (not 1, as a naive power would in floating point) when ξΔ ≪ k.
  const power = Math.exp((1 / ratio + 1) * logTerm);
  return {
    c1: logTerm / (xi * delta),
    c2: Math.sqrt((input.gamma / (2 * input.a * delta * input.k)) * power),
  };
}

/** Inputs of one GLFT quote pair. */
export interface GlftQuoteInput extends GlftCoefficients {
  readonly fair: number;
  /** q, the position in base tokens (positive = long). */
  readonly inventory: number;
  /** σ, quote price units per √second. */
  readonly volatility: number;
  readonly delta?: number;
  readonly adj1?: number;
  readonly adj2?: number;
}

/** Half spread, skew per unit of q, and the level-0 bid and ask. */
export interface GlftQuote {
  readonly halfSpread: number;
  readonly skew: number;
  readonly bid: number;
  readonly ask: number;
}

/** hftbacktest's rewrite of Guéant (2017) eqs. 4.6–4.7 with its adj1/adj2 tuning factors. */
export function computeGlftQuote(input: GlftQuoteInput): GlftQuote {
  const delta = input.delta ?? 1;
  const halfSpread = (input.c1 + (delta / 2) * input.volatility * input.c2) * (input.adj1 ?? 1);
  const skew = input.volatility * input.c2 * (input.adj2 ?? 1);
  return {
    halfSpread,
    skew,
    bid: input.fair - (halfSpread + skew * input.inventory),
    ask: input.fair + (halfSpread - skew * input.inventory),
  };
}

/** The strategy's env keys. Defaults suit ETH/USDC-like books (γ per USDC); k is per bp of the fair price. */
export const GLFT_KEYS = {
  gamma: envKey({
    key: 'GLFT_GAMMA',
    default: '20',
    unit: '1/(quote price unit × base token)',
    doc: 'Risk aversion γ (ξ = γ), per quote price unit per base token of position. An hftbacktest γ (per tick, q in orders) is γ / (tick × ORDER_SIZE) here',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
  }),
  adj1: envKey({
    key: 'GLFT_ADJ1',
    default: '1',
    unit: 'factor',
    doc: 'Multiplier on the model half spread (hftbacktest adj1); costs are added after it',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1_000 }),
  }),
  adj2: envKey({
    key: 'GLFT_ADJ2',
    default: '1',
    unit: 'factor',
    doc: 'Multiplier on the inventory skew (hftbacktest adj2); 0 = no skew',
    parse: v.numberIn({ min: 0, max: 1_000 }),
  }),
  maxPosition: envKey({
    key: 'GLFT_MAX_POSITION',
    default: 'off',
    unit: 'base tokens',
    doc: 'Largest |base − target| the model aims at: a side quotes only the levels that, all filled, keep the position inside; off = leave it to RISK_MAX_INVENTORY_BASE',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, unit: 'base tokens' }),
  }),
  fitArrival: envKey({
    key: 'GLFT_FIT_ARRIVAL',
    default: 'on',
    unit: 'bool',
    doc: 'Use the online fit of A and k from trades once it is ready; off = always GLFT_A and GLFT_K_PER_BPS',
    parse: v.boolean,
  }),
  a: envKey({
    key: 'GLFT_A',
    default: '1',
    unit: 'trades/s',
    doc: 'Arrival intensity A at the fair price, used until the fit is ready (or always with GLFT_FIT_ARRIVAL=off)',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
  }),
  k: envKey({
    key: 'GLFT_K',
    default: 'off',
    unit: '1/quote price unit',
    doc: 'Deprecated (it does not carry to another instrument; kept one release): GLFT_K_PER_BPS per quote price unit. off = that key',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, max: 1e9 }),
  }),
  kPerBps: envKey({
    key: 'GLFT_K_PER_BPS',
    default: '0.25',
    unit: '1/bps of fair',
    doc: 'Arrival decay k per bp of distance from the fair price, used until the fit is ready (or always with GLFT_FIT_ARRIVAL=off); 0.25 ≈ 1 per USDC at ETH 2500',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
  }),
  ...buildModelKeys('GLFT', { orderSize: '0.01', minSpreadBps: '0', maxSpreadBps: '200', maxSkewBps: '20' }),
};

/** Parsed GLFT parameters (see `GLFT_KEYS`). */
export type GlftParams = ParamsOf<typeof GLFT_KEYS>;

/** The model values behind one set of GLFT quotes. */
export interface GlftExplanation extends QuoteExplanation {
  /** q: the position in base tokens (base − target). */
  readonly inventory: number;
  readonly volatility: number;
  readonly a: number;
  /** k per quote price unit, as the formula takes it, and the same per bp of the fair price. */
  readonly k: number;
  readonly kPerBps: number;
  readonly arrivalSource: 'fit' | 'fallback';
  /** Δ, one order's size in base tokens. */
  readonly orderSize: number;
  /** Why nothing is quoted although the model ran: the notional buys less than the minimum size, or has no price. */
  readonly sizeSkipped: 'below-minimum' | 'no-price' | undefined;
  readonly c1: number;
  readonly c2: number;
  /** Maker fee and gas per fill, per base token (price units), inside the half spread. */
  readonly cost: number;
  /** Half spread after adj1, the cap and the costs; skew per base token held after adj2. */
  readonly halfSpread: number;
  readonly skew: number;
  /** fair − skew·q, capped to MAX_SKEW_BPS around fair. */
  readonly reservationPrice: number;
  /** Level-0 bid and ask after the cap and floor (raw; the engine rounds and clamps them). */
  readonly bid: number;
  readonly ask: number;
  /** A side left out by the position limit. */
  readonly bidsOff: 'max-position' | undefined;
  readonly asksOff: 'max-position' | undefined;
}

/** Runs the model for one input; undefined without a usable reference price. */
export function explainGlft(params: GlftParams, view: MarketView, inventory: InventoryView): GlftExplanation | undefined {
  const fair = referencePrice(view, params.priceSource);
  if (fair === undefined) return undefined;
  const fit = view.arrival;
  const useFit = params.fitArrival && fit !== undefined && isPositiveFinite(fit.a) && isPositiveFinite(fit.kPerBps);
  const a = useFit ? fit.a : params.a;
  const k = useFit ? perBpsToPerPrice(fit.kPerBps, fair) : params.k === 'off' ? perBpsToPerPrice(params.kPerBps, fair) : params.k;
  // A notional too small for the venue's minimum quotes nothing (no more than asked); the model
  // still runs, for the explanation.
  const { size, skipped } = modelSizeOf(params, fair, view);
  const { c1, c2 } = computeGlftCoefficients({ gamma: params.gamma, delta: size, a, k });

  const position = Number.isFinite(inventory.base - inventory.targetBase) ? inventory.base - inventory.targetBase : 0;
  const volatility = nonNegativeOrZero(view.volatility);
  const model = computeGlftQuote({ c1, c2, fair, inventory: position, volatility, delta: size, adj1: params.adj1, adj2: params.adj2 });
  const cost = fillCostPerUnit(view, fair, size);
  const halfSpread = Math.min(model.halfSpread, bpsToPrice(params.maxSpreadBps, fair) / 2) + cost;
  const reservationPrice = capOffset(fair - model.skew * position, fair, bpsToPrice(params.maxSkewBps, fair));
  // At least one tick wide, so rounding (bids down, asks up) can never lock our own quotes.
  const minSpread = Math.max(bpsToPrice(params.minSpreadBps, fair), view.tickSize);
  const { bid, ask } = applySpreadFloor(reservationPrice - halfSpread, reservationPrice + halfSpread, minSpread);

  const levels = skipped === undefined ? params.levels : 0;
  const bidLevels = levelsWithinPosition('buy', position, size, levels, params.maxPosition);
  const askLevels = levelsWithinPosition('sell', position, size, levels, params.maxPosition);
  const quotes = expandLevels({
    bid,
    ask,
    bidLevels,
    askLevels,
    spacing: bpsToPrice(params.levelSpacingBps, fair),
    bidSize: size,
    askSize: size,
    reference: reservationPrice,
  });
  return {
    reference: fair,
    quotes: finalizeQuotes(quotes),
    inventory: position,
    volatility,
    a,
    k,
    kPerBps: (k * fair) / 10_000,
    arrivalSource: useFit ? 'fit' : 'fallback',
    orderSize: size,
    sizeSkipped: skipped,
    c1,
    c2,
    cost,
    halfSpread,
    skew: model.skew,
    reservationPrice,
    bid,
    ask,
    bidsOff: levels > 0 && bidLevels === 0 ? 'max-position' : undefined,
    asksOff: levels > 0 && askLevels === 0 ? 'max-position' : undefined,
  };
}

/** The `glft` strategy. */
export const GLFT: StrategyDefinition<GlftParams> = {
  name: 'glft',
  summary: 'Guéant–Lehalle–Fernandez-Tapia closed form (Guéant 2017, order size explicit) with online A and k, costs inside the spread, capped skew',
  keys: describeKeys(GLFT_KEYS),
  parseParams: (env) =>
    readKeys(GLFT_KEYS, env, [
      checkSpreadBounds('GLFT'),
      checkSizeKeys('GLFT'),
      notBoth('GLFT_K', 'GLFT_K_PER_BPS', 'k'),
      // A notional's size is known only at quote time: the position limit is then checked by quoting.
      (values, rawOf) =>
        values.maxPosition === 'off' || values.orderNotional !== 'off' || values.maxPosition >= values.orderSize
          ? []
          : [{ key: GLFT_KEYS.maxPosition.key, value: rawOf(GLFT_KEYS.maxPosition.key), allowed: `off or at least GLFT_ORDER_SIZE (${values.orderSize}), else nothing is ever quoted` }],
    ]),
  create: (params) => createGlft(params),
};

/** A GLFT strategy for fixed parameters. */
export function createGlft(params: GlftParams): ExplainedStrategy<GlftExplanation> {
  return {
    name: 'glft',
    ...strategySizeOf(params),
    explain: (view, inventory) => explainGlft(params, view, inventory),
    quote: (view, inventory) => explainGlft(params, view, inventory)?.quotes ?? [],
  };
}
