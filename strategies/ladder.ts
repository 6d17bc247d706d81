/**
 * `ladder`: hummingbot-style pure market making (MM-NOTES §1): separate bid and ask spreads in
 * bps of the reference price, N levels with spacing and a size increment, inventory skew on size
 * (hummingbot's 0–2× scaling) and on price, a minimum spread, a price band and ping-pong. Like
 * hummingbot's `add_transaction_costs`, the maker fee (negative for a rebate) and the gas per fill
 * are added to each spread: the spreads are what a fill earns after costs. Sizes are base tokens
 * (LADDER_ORDER_SIZE, LADDER_LEVEL_SIZE_INCREMENT) or quote notionals (LADDER_ORDER_NOTIONAL,
 * LADDER_LEVEL_NOTIONAL_INCREMENT) turned into base tokens at the reference price, skew included,
 * rounded to the lot once.
 */
import {
  describeKeys,
  envKey,
  notBoth,
  orderSizeAt,
  readKeys,
  values as v,
  type DesiredQuote,
  type InventoryView,
  type MarketView,
  type OrderAmount,
  type ParamsOf,
  type StrategyDefinition,
} from '../src/core/index.ts';
import { modelInternals, type ExplainedStrategy, type QuoteExplanation } from './explained.ts';
import { computeInventoryRatio, computeSkewRatios, computeTotalLadderSize } from './inventory-skew.ts';
import { buildSizeKeys, checkSizeKeys, strategySizeOf } from './order-sizing.ts';
import { PRICE_SOURCES, applySpreadFloor, bpsToPrice, fillCostPerUnit, finalizeQuotes, referencePrice } from './passive-quotes.ts';

/** The ladder's env keys. Defaults quote one 0.01 ETH level 0.5 bps plus costs either side of the fair price. */
export const LADDER_KEYS = {
  bidSpreadBps: envKey({
    key: 'LADDER_BID_SPREAD_BPS',
    default: '0.5',
    unit: 'bps of reference',
    doc: 'Distance of the level-0 bid below the reference price, after costs (maker fee and gas per fill are added to it)',
    parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
  }),
  askSpreadBps: envKey({
    key: 'LADDER_ASK_SPREAD_BPS',
    default: '0.5',
    unit: 'bps of reference',
    doc: 'Distance of the level-0 ask above the reference price, after costs (maker fee and gas per fill are added to it)',
    parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
  }),
  levels: envKey({
    key: 'LADDER_LEVELS',
    default: '1',
    unit: 'orders per side',
    doc: 'Number of price levels on each side',
    parse: v.numberIn({ min: 1, max: 50, integer: true }),
  }),
  levelSpacingBps: envKey({
    key: 'LADDER_LEVEL_SPACING_BPS',
    default: '10',
    unit: 'bps of reference',
    doc: 'Extra distance of each deeper level from the one before it',
    parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
  }),
  volSpreadMultiple: envKey({
    key: 'LADDER_VOL_SPREAD_MULTIPLE',
    default: '0',
    unit: '√s',
    doc: 'Each spread (bid and ask, every level) grows by this × σ, the volatility every model reads (bps of the reference per √s, the engine\'s exponentially weighted estimate): the ladder widens as the market moves faster; 0 = fixed spreads',
    parse: v.numberIn({ min: 0, max: 1_000 }),
  }),
  ...buildSizeKeys('LADDER', { orderSize: '0.01', sizeDoc: 'Size of each level-0 order' }),
  levelSizeIncrement: envKey({
    key: 'LADDER_LEVEL_SIZE_INCREMENT',
    default: '0',
    unit: 'base tokens',
    doc: 'Size added at each deeper level (level i has ORDER_SIZE + i × this); LADDER_LEVEL_NOTIONAL_INCREMENT says it in quote tokens',
    parse: v.numberIn({ min: 0, unit: 'base tokens' }),
  }),
  levelNotionalIncrement: envKey({
    key: 'LADDER_LEVEL_NOTIONAL_INCREMENT',
    default: 'off',
    unit: 'quote tokens',
    doc: 'Instead of LADDER_LEVEL_SIZE_INCREMENT: notional added at each deeper level (level i has ORDER_NOTIONAL + i × this), turned into base tokens at the reference price like LADDER_ORDER_NOTIONAL; off = LADDER_LEVEL_SIZE_INCREMENT',
    parse: v.keywordOrNumber('off', { min: 0, unit: 'quote tokens' }),
  }),
  inventorySkew: envKey({
    key: 'LADDER_INVENTORY_SKEW',
    default: 'off',
    unit: 'bool',
    doc: 'Skew sizes (hummingbot 0–2×) and prices (LADDER_PRICE_SKEW_BPS) to push base inventory towards its target',
    parse: v.boolean,
  }),
  inventoryRangeBase: envKey({
    key: 'LADDER_INVENTORY_RANGE_BASE',
    default: 'auto',
    unit: 'base tokens',
    doc: 'Distance from the target at which the skew is full (one side ×0, the other ×2); auto = total size of both ladders, as hummingbot',
    parse: v.keywordOrNumber('auto', { min: 0, minExclusive: true, unit: 'base tokens' }),
  }),
  priceSkewBps: envKey({
    key: 'LADDER_PRICE_SKEW_BPS',
    default: '0',
    unit: 'bps of reference',
    doc: 'Shift of the whole ladder at full skew: down when long, up when short, proportional to (base − target) / range; 0 = size skew only',
    parse: v.numberIn({ min: 0, max: 5_000, unit: 'bps' }),
  }),
  minSpreadBps: envKey({
    key: 'LADDER_MIN_SPREAD_BPS',
    default: '0',
    unit: 'bps of mid',
    doc: 'Quotes closer to the mid than this are dropped (hummingbot minimum_spread); negative lets skewed quotes pass the mid',
    parse: v.numberIn({ min: -10_000, max: 5_000, unit: 'bps' }),
  }),
  priceCeiling: envKey({
    key: 'LADDER_PRICE_CEILING',
    default: 'off',
    unit: 'quote per base',
    doc: 'At or above this reference price only sell (no bids); off = no ceiling',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, unit: 'quote per base' }),
  }),
  priceFloor: envKey({
    key: 'LADDER_PRICE_FLOOR',
    default: 'off',
    unit: 'quote per base',
    doc: 'At or below this reference price only buy (no asks); off = no floor',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, unit: 'quote per base' }),
  }),
  pingPong: envKey({
    key: 'LADDER_PING_PONG',
    default: 'off',
    unit: 'bool',
    doc: 'After a buy fill quote only asks, after a sell fill only bids, until the other side fills',
    parse: v.boolean,
  }),
  priceSource: envKey({
    key: 'LADDER_PRICE_SOURCE',
    default: 'fair',
    unit: 'fair|mid|microprice',
    doc: 'Reference price the ladder is built around: fair = the engine\'s FAIR_PRICE; mid or microprice = the venue book\'s own',
    parse: v.oneOf(PRICE_SOURCES, { anyCase: true }),
  }),
};

/** Parsed ladder parameters (see `LADDER_KEYS` for units and defaults). */
export type LadderParams = ParamsOf<typeof LADDER_KEYS>;

/** Level 0's amount and what each deeper level adds: base tokens and quote notional, each from the keys in effect. */
function ladderAmounts(params: LadderParams): { readonly zero: OrderAmount; readonly step: OrderAmount } {
  return {
    zero: params.orderNotional === 'off' ? { baseTokens: params.orderSize, notionalQuote: 0 } : { baseTokens: 0, notionalQuote: params.orderNotional },
    step: params.levelNotionalIncrement === 'off' ? { baseTokens: params.levelSizeIncrement, notionalQuote: 0 } : { baseTokens: 0, notionalQuote: params.levelNotionalIncrement },
  };
}

/** Level `level`'s amount before the skew. */
function levelAmount(params: LadderParams, level: number): OrderAmount {
  const { zero, step } = ladderAmounts(params);
  return { baseTokens: zero.baseTokens + level * step.baseTokens, notionalQuote: zero.notionalQuote + level * step.notionalQuote };
}

/** An amount in base tokens at `price`, unrounded (a range, a cost per unit). */
function baseTokensOf(amount: OrderAmount, price: number): number {
  return amount.notionalQuote === 0 ? amount.baseTokens : amount.baseTokens + amount.notionalQuote / price;
}

/** The ladder's model values for one input. */
export interface LadderExplanation extends QuoteExplanation {
  /** Inventory range in base tokens (resolved from `auto`). */
  readonly inventoryRangeBase: number;
  /** (base − target) / range, clamped to [−1, 1]; 0 when the skew is off. */
  readonly inventoryRatio: number;
  /** Centre of the ladder after the price skew. */
  readonly centre: number;
  /** What LADDER_VOL_SPREAD_MULTIPLE added to each spread, bps (0 while it is off or σ unknown). */
  readonly volSpreadBps: number;
  readonly bidSizeFactor: number;
  readonly askSizeFactor: number;
  /** Why a side is not quoted, if it is not. */
  readonly bidsOff: 'price-ceiling' | 'ping-pong' | undefined;
  readonly asksOff: 'price-floor' | 'ping-pong' | undefined;
}

/** Builds the ladder for one input; undefined without a usable reference price. */
export function explainLadder(params: LadderParams, view: MarketView, inventory: InventoryView): LadderExplanation | undefined {
  const reference = referencePrice(view, params.priceSource);
  if (reference === undefined) return undefined;
  // A notional ladder's range is its total size at the reference price, so it moves with the price as the sizes do.
  const amounts = ladderAmounts(params);
  const inventoryRangeBase =
    params.inventoryRangeBase === 'auto'
      ? computeTotalLadderSize(baseTokensOf(amounts.zero, reference), baseTokensOf(amounts.step, reference), params.levels)
      : params.inventoryRangeBase;
  const skew = params.inventorySkew;
  const inventoryRatio = skew ? computeInventoryRatio(inventory.base, inventory.targetBase, inventoryRangeBase) : 0;
  const factors = skew ? computeSkewRatios(inventory.base, inventory.targetBase, inventoryRangeBase) : { bid: 1, ask: 1 };
  const centre = reference * (1 - (inventoryRatio * params.priceSkewBps) / 10_000);

  let bidsOff: LadderExplanation['bidsOff'];
  let asksOff: LadderExplanation['asksOff'];
  if (params.priceCeiling !== 'off' && reference >= params.priceCeiling) bidsOff = 'price-ceiling';
  if (params.priceFloor !== 'off' && reference <= params.priceFloor) asksOff = 'price-floor';
  if (params.pingPong && inventory.lastFill !== undefined) {
    if (inventory.lastFill.side === 'buy') bidsOff ??= 'ping-pong';
    else asksOff ??= 'ping-pong';
  }

  const volSpreadBps = volatilitySpreadBps(params.volSpreadMultiple, view.volatility, reference);
  const minDistance = bpsToPrice(params.minSpreadBps, reference);
  const raw: DesiredQuote[] = [];
  for (let level = 0; level < params.levels; level++) {
    const amount = levelAmount(params, level);
    const size = baseTokensOf(amount, reference);
    const extraBps = level * params.levelSpacingBps + volSpreadBps;
    const cost = fillCostPerUnit(view, centre, size);
    // At least one tick between a level's bid and ask, so rounding can never lock our own quotes.
    // A maker rebate (a negative cost) moves a level in, up to the centre and never past it: a
    // spread narrower than the rebate still quotes on its own side.
    const { bid, ask } = applySpreadFloor(
      Math.min(centre * (1 - (params.bidSpreadBps + extraBps) / 10_000) - cost, centre),
      Math.max(centre * (1 + (params.askSpreadBps + extraBps) / 10_000) + cost, centre),
      view.tickSize,
    );
    // The skew scales the amount before the one rounding to the lot; a notional level the skew
    // shrinks below the venue's minimum is left out (finalizeQuotes drops a size of 0).
    if (bidsOff === undefined && reference - bid >= minDistance) raw.push({ side: 'buy', price: bid, size: skewedSize(amount, factors.bid, reference, view), level, reference: centre });
    if (asksOff === undefined && ask - reference >= minDistance) raw.push({ side: 'sell', price: ask, size: skewedSize(amount, factors.ask, reference, view), level, reference: centre });
  }
  return {
    reference,
    quotes: finalizeQuotes(raw),
    inventoryRangeBase,
    inventoryRatio,
    centre,
    volSpreadBps,
    bidSizeFactor: factors.bid,
    askSizeFactor: factors.ask,
    bidsOff,
    asksOff,
  };
}

/** The spread σ adds, bps: multiple × σ in bps of the reference per √s (σ is in quote tokens per √s); 0 while off. */
function volatilitySpreadBps(multiple: number, volatility: number, reference: number): number {
  if (multiple === 0 || !(volatility > 0) || !Number.isFinite(volatility)) return 0;
  return (multiple * volatility * 10_000) / reference;
}

/** A level's size after the skew factor: base tokens as before, a notional rounded to the lot once (0 under the minimum). */
function skewedSize(amount: OrderAmount, factor: number, price: number, view: MarketView): number {
  if (amount.notionalQuote === 0) return amount.baseTokens * factor;
  return orderSizeAt({ baseTokens: amount.baseTokens * factor, notionalQuote: amount.notionalQuote * factor }, price, view).size;
}

/** The `ladder` strategy. */
export const LADDER: StrategyDefinition<LadderParams> = {
  name: 'ladder',
  summary: 'Hummingbot-style pure market making: fixed bps spreads, levels, inventory skew, price band, ping-pong',
  keys: describeKeys(LADDER_KEYS),
  parseParams: (env) =>
    readKeys(LADDER_KEYS, env, [
      (values, rawOf) =>
        values.bidSpreadBps + values.askSpreadBps > 0
          ? []
          : [{ key: LADDER_KEYS.askSpreadBps.key, value: rawOf(LADDER_KEYS.askSpreadBps.key), allowed: 'LADDER_BID_SPREAD_BPS + LADDER_ASK_SPREAD_BPS > 0 (bid below ask)' }],
      (values, rawOf) =>
        values.priceFloor === 'off' || values.priceCeiling === 'off' || values.priceFloor < values.priceCeiling
          ? []
          : [{ key: LADDER_KEYS.priceFloor.key, value: rawOf(LADDER_KEYS.priceFloor.key), allowed: `below LADDER_PRICE_CEILING (${values.priceCeiling})` }],
      checkSizeKeys('LADDER'),
      notBoth('LADDER_LEVEL_SIZE_INCREMENT', 'LADDER_LEVEL_NOTIONAL_INCREMENT', 'the size step between levels'),
    ]),
  create: (params) => createLadder(params),
};

/**
 * A ladder strategy for fixed parameters. Its quotes depend on a few inputs only (fair, or mid
 * and microprice for those price sources, tick, lot, costs, inventory and the last fill's side), and most book changes move none of
 * them (a size at the touch changed): `quote` returns its previous array for the same inputs.
 * The array is shared: read it, do not change it.
 */
export function createLadder(params: LadderParams): ExplainedStrategy<LadderExplanation> {
  const last = {
    quotes: undefined as DesiredQuote[] | undefined,
    fair: 0 as number | undefined,
    mid: 0 as number | undefined,
    microprice: 0 as number | undefined,
    volatility: 0,
    tickSize: 0,
    lotSize: 0,
    minSize: 0,
    makerFee: 0,
    gasPerFill: 0,
    base: 0,
    targetBase: 0,
    lastFillSide: undefined as string | undefined,
  };
  // Built around the fair price, the ladder reads neither the mid nor the microprice, and the
  // microprice moves with every size at the touch: comparing it would rebuild the same ladder.
  const readsBook = params.priceSource !== 'fair';
  // σ moves with every mid change: compared only when the spread reads it.
  const readsVolatility = params.volSpreadMultiple !== 0;
  return {
    name: 'ladder',
    ...strategySizeOf(params),
    explain: (view, inventory) => explainLadder(params, view, inventory),
    internals: (view, inventory) => {
      const e = explainLadder(params, view, inventory);
      if (e === undefined) return undefined;
      // Level 0 of each side; a side that is off mirrors the other around the centre.
      const bid = e.quotes.find((q) => q.side === 'buy' && q.level === 0)?.price;
      const ask = e.quotes.find((q) => q.side === 'sell' && q.level === 0)?.price;
      const levelZero = { bid: bid ?? 2 * e.centre - (ask ?? e.centre), ask: ask ?? 2 * e.centre - (bid ?? e.centre) };
      return modelInternals(view, e.reference, levelZero, {
        // The σ term only when its key is on: a report of the plain ladder stays as it was.
        signals: { inventoryRatio: e.inventoryRatio, bidSizeFactor: e.bidSizeFactor, askSizeFactor: e.askSizeFactor, ...(params.volSpreadMultiple === 0 ? {} : { volSpreadBps: e.volSpreadBps }) },
      });
    },
    quote: (view, inventory) => {
      const lastFillSide = inventory.lastFill?.side;
      if (
        last.quotes !== undefined &&
        Object.is(view.fair, last.fair) &&
        (!readsBook || (Object.is(view.mid, last.mid) && Object.is(view.microprice, last.microprice))) &&
        (!readsVolatility || Object.is(view.volatility, last.volatility)) &&
        Object.is(view.tickSize, last.tickSize) &&
        Object.is(view.lotSize, last.lotSize) &&
        Object.is(view.minSize, last.minSize) &&
        Object.is(view.makerFee, last.makerFee) &&
        Object.is(view.gasPerFill, last.gasPerFill) &&
        Object.is(inventory.base, last.base) &&
        Object.is(inventory.targetBase, last.targetBase) &&
        lastFillSide === last.lastFillSide
      ) {
        return last.quotes;
      }
      const quotes = explainLadder(params, view, inventory)?.quotes ?? [];
      last.quotes = quotes;
      last.fair = view.fair;
      last.mid = view.mid;
      last.microprice = view.microprice;
      last.volatility = view.volatility;
      last.tickSize = view.tickSize;
      last.lotSize = view.lotSize;
      last.minSize = view.minSize;
      last.makerFee = view.makerFee;
      last.gasPerFill = view.gasPerFill;
      last.base = inventory.base;
      last.targetBase = inventory.targetBase;
      last.lastFillSide = lastFillSide;
      return quotes;
    },
  };
}
