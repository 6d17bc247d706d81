/**
 * `tick-grid`: resting orders on fixed tick levels, for a thin large-tick book (issue 30: NEXOUSDT,
 * a 0.001 tick ≈ 8 bps and a one-tick spread most of the time). On such a book a fill goes to the
 * queue at a price level, first come first served: a strategy that cancels and requotes whenever
 * its fair price moves a fraction of a tick keeps going to the back of the queue. The grid places
 * each order on a whole tick, once, and asks for the very same price as long as that tick is still
 * one of the grid's levels, so the engine's diff keeps the order and its queue place; a fair price
 * that moves less than the grid's rounding changes nothing.
 *
 * The grid (all distances in ticks of the view's tick size):
 * - a centre: the fair price shifted against the position by GRID_SKEW_TICKS per order held
 *   (position in orders = (base − target) / one order's size);
 * - level 0 of the bids on the highest whole tick at least GRID_HALF_SPREAD_TICKS plus the
 *   costs of a fill (maker fee, gas per fill) under the centre, level 0 of the asks on the lowest
 *   whole tick as far over it; level i one GRID_SPACING_TICKS further out each;
 * - never crossing: a bid at or above the best ask (an ask at or below the best bid) is left
 *   out, not moved, so the other levels keep their ticks; our own bids stay under our asks;
 * - GRID_MAX_POSITION_ORDERS: a side quotes only the levels that, all filled, keep the position
 *   within that many orders;
 * - GRID_MIN_TOUCH_NOTIONAL, the queue rule: a level at the touch is quoted only while the
 *   resting notional there is at least this much (a thin queue is about to be eaten through and
 *   the fill that empties it is the worst one), and a level that would improve on the touch (no
 *   queue ahead at all) only when the rule is off.
 */
import {
  describeKeys,
  envKey,
  readKeys,
  values as v,
  type DesiredQuote,
  type InventoryView,
  type MarketView,
  type ParamsOf,
  type StrategyDefinition,
} from '../src/core/index.ts';
import { modelInternals, type ExplainedStrategy, type QuoteExplanation } from './explained.ts';
import { buildSizeKeys, checkSizeKeys, orderAmountOf, orderSizeOf, strategySizeOf } from './order-sizing.ts';
import { fillCostPerUnit, finalizeQuotes, levelsWithinPosition, referencePrice } from './passive-quotes.ts';

/** The grid's env keys. Defaults: one 0.01-base order a side half a tick plus costs from the fair price. */
export const TICK_GRID_KEYS = {
  levels: envKey({
    key: 'GRID_LEVELS',
    default: '1',
    unit: 'orders per side',
    doc: 'Number of grid levels on each side',
    parse: v.numberIn({ min: 1, max: 50, integer: true }),
  }),
  spacingTicks: envKey({
    key: 'GRID_SPACING_TICKS',
    default: '1',
    unit: 'ticks',
    doc: 'Distance between two neighbouring levels of a side, whole ticks',
    parse: v.numberIn({ min: 1, max: 10_000, integer: true }),
  }),
  halfSpreadTicks: envKey({
    key: 'GRID_HALF_SPREAD_TICKS',
    default: '0.5',
    unit: 'ticks',
    doc: 'Least distance of level 0 from the (skewed) fair price, after costs (the maker fee and gas per fill are added to it), ticks; may be fractional: the level is the nearest whole tick at least this far, so with a fair price between the ticks a smaller value joins the touch more often',
    parse: v.numberIn({ min: 0, max: 10_000, unit: 'ticks' }),
  }),
  skewTicks: envKey({
    key: 'GRID_SKEW_TICKS',
    default: '0',
    unit: 'ticks per order',
    doc: 'The grid\'s centre moves this many ticks against the position for each order\'s size held away from the target (down when long, up when short); 0 = no price skew',
    parse: v.numberIn({ min: 0, max: 1_000, unit: 'ticks' }),
  }),
  maxPositionOrders: envKey({
    key: 'GRID_MAX_POSITION_ORDERS',
    default: 'off',
    unit: 'orders',
    doc: 'A side quotes only the levels that, all filled, keep |base − target| within this many orders\' sizes: the side that would grow the position past it stops adding; off = no limit (the engine\'s caps still apply)',
    parse: v.keywordOrNumber('off', { min: 0, minExclusive: true, unit: 'orders' }),
  }),
  ...buildSizeKeys('GRID', { orderSize: '0.01', sizeDoc: 'Size of each grid order' }),
  minTouchNotional: envKey({
    key: 'GRID_MIN_TOUCH_NOTIONAL',
    default: '0',
    unit: 'quote tokens',
    doc: 'Queue rule: a level at the best bid (ask) is quoted only while the book shows at least this notional resting there (the venue book the engine reads; on a live venue our own order counts), and a level better than the touch only when this is 0; 0 = join and improve freely',
    parse: v.numberIn({ min: 0, unit: 'quote tokens' }),
  }),
};

/** Parsed grid parameters (see `TICK_GRID_KEYS` for units and defaults). */
export type TickGridParams = ParamsOf<typeof TICK_GRID_KEYS>;

/** Float noise allowed when a price in ticks is snapped to a whole tick. */
const SNAP_TICKS = 1e-6;

/** The grid's model values for one input. */
export interface TickGridExplanation extends QuoteExplanation {
  /** One order's size, base tokens (0 when the notional buys less than the venue's minimum). */
  readonly orderSize: number;
  /** (base − target) / order size: the position in orders. */
  readonly positionOrders: number;
  /** The skewed centre, quote per base. */
  readonly centre: number;
  /** Level 0 of each side in whole ticks (before the touch and position rules drop any level). */
  readonly bidTick: number;
  readonly askTick: number;
  /** Levels each side quotes after the position rule. */
  readonly bidLevels: number;
  readonly askLevels: number;
}

/** A price in ticks, snapped to the whole tick when float noise is all that separates them. */
function inTicks(price: number, tick: number): number {
  const ticks = price / tick;
  const nearest = Math.round(ticks);
  return Math.abs(ticks - nearest) <= SNAP_TICKS ? nearest : ticks;
}

/** A whole number of ticks as a price (the engine snaps the float product onto the tick). */
function priceOfTicks(ticks: number, tick: number): number {
  return ticks * tick;
}

/** Builds the grid for one input; undefined without a usable fair price or tick. */
export function explainTickGrid(params: TickGridParams, view: MarketView, inventory: InventoryView): TickGridExplanation | undefined {
  const fair = referencePrice(view, 'fair');
  if (fair === undefined) return undefined;
  const tick = view.tickSize;
  const sized = orderSizeOf(params, fair, view);
  // The position is counted in orders even when the notional is under the venue's minimum: the
  // unrounded amount still tells how far from the target we are.
  const amount = orderAmountOf(params);
  const unitSize = sized.kind === 'ok' ? sized.size : amount.baseTokens + amount.notionalQuote / fair;
  const position = inventory.base - inventory.targetBase;
  const positionOrders = unitSize > 0 ? position / unitSize : 0;
  const centre = fair - params.skewTicks * positionOrders * tick;
  const cost = fillCostPerUnit(view, centre, unitSize);
  const centreTicks = inTicks(centre, tick);
  // Level 0: the nearest whole ticks at least half-spread + costs from the centre, and never
  // crossing each other (a rebate larger than the half-spread would otherwise meet them).
  let bidTick = Math.floor(inTicks(centre - cost, tick) - params.halfSpreadTicks + SNAP_TICKS);
  let askTick = Math.ceil(inTicks(centre + cost, tick) + params.halfSpreadTicks - SNAP_TICKS);
  bidTick = Math.min(bidTick, Math.ceil(centreTicks) - 1);
  askTick = Math.max(askTick, Math.floor(centreTicks) + 1);

  const limit = params.maxPositionOrders === 'off' ? 'off' : params.maxPositionOrders;
  const bidLevels = levelsWithinPosition('buy', positionOrders, 1, params.levels, limit);
  const askLevels = levelsWithinPosition('sell', positionOrders, 1, params.levels, limit);

  const bestBidTick = view.bestBid === undefined ? undefined : Math.round(view.bestBid / tick);
  const bestAskTick = view.bestAsk === undefined ? undefined : Math.round(view.bestAsk / tick);
  const raw: DesiredQuote[] = [];
  if (sized.kind === 'ok') {
    const size = sized.size;
    const levels = Math.max(bidLevels, askLevels);
    for (let level = 0; level < levels; level++) {
      const bid = bidTick - level * params.spacingTicks;
      if (level < bidLevels && bid >= 1 && mayRest(bid, 'buy', bestBidTick, bestAskTick, view.bestBidSize, view.bestBid, params.minTouchNotional)) {
        raw.push({ side: 'buy', price: priceOfTicks(bid, tick), size, level, reference: centre });
      }
      const ask = askTick + level * params.spacingTicks;
      if (level < askLevels && mayRest(ask, 'sell', bestBidTick, bestAskTick, view.bestAskSize, view.bestAsk, params.minTouchNotional)) {
        raw.push({ side: 'sell', price: priceOfTicks(ask, tick), size, level, reference: centre });
      }
    }
  }
  return {
    reference: fair,
    quotes: finalizeQuotes(raw),
    orderSize: sized.size,
    positionOrders,
    centre,
    bidTick,
    askTick,
    bidLevels,
    askLevels,
  };
}

/**
 * Whether a level at `ticks` may rest: never crossing the other side's touch, and at or inside
 * its own side's touch only as the queue rule allows.
 */
function mayRest(
  ticks: number,
  side: 'buy' | 'sell',
  bestBidTick: number | undefined,
  bestAskTick: number | undefined,
  touchSize: number,
  touchPrice: number | undefined,
  minTouchNotional: number,
): boolean {
  const opposite = side === 'buy' ? bestAskTick : bestBidTick;
  if (opposite !== undefined && (side === 'buy' ? ticks >= opposite : ticks <= opposite)) return false;
  if (minTouchNotional <= 0) return true;
  const own = side === 'buy' ? bestBidTick : bestAskTick;
  if (own === undefined) return false;
  const improves = side === 'buy' ? ticks > own : ticks < own;
  if (improves) return false;
  if (ticks !== own) return true;
  return touchPrice !== undefined && touchSize * touchPrice >= minTouchNotional;
}

/** The `tick-grid` strategy. */
export const TICK_GRID: StrategyDefinition<TickGridParams> = {
  name: 'tick-grid',
  summary: 'Resting orders on fixed whole-tick levels that keep their queue place: half-spread and spacing in ticks, skew per order held, a position limit, a queue rule at the touch',
  keys: describeKeys(TICK_GRID_KEYS),
  parseParams: (env) => readKeys(TICK_GRID_KEYS, env, [checkSizeKeys('GRID')]),
  create: (params) => createTickGrid(params),
};

/**
 * A grid for fixed parameters. Its quotes depend on a few inputs (fair price, touch, touch sizes
 * when the queue rule is on, tick, lot, costs, inventory); most book changes move none of them:
 * `quote` returns its previous array for the same inputs. The array is shared: read it, do not change it.
 */
export function createTickGrid(params: TickGridParams): ExplainedStrategy<TickGridExplanation> {
  const readsSizes = params.minTouchNotional > 0;
  let last: { readonly view: MarketView; readonly base: number; readonly targetBase: number; readonly quotes: DesiredQuote[] } | undefined;
  const same = (a: MarketView, b: MarketView): boolean =>
    Object.is(a.fair, b.fair) &&
    Object.is(a.bestBid, b.bestBid) &&
    Object.is(a.bestAsk, b.bestAsk) &&
    (!readsSizes || (Object.is(a.bestBidSize, b.bestBidSize) && Object.is(a.bestAskSize, b.bestAskSize))) &&
    Object.is(a.tickSize, b.tickSize) &&
    Object.is(a.lotSize, b.lotSize) &&
    Object.is(a.minSize, b.minSize) &&
    Object.is(a.makerFee, b.makerFee) &&
    Object.is(a.gasPerFill, b.gasPerFill);
  return {
    name: 'tick-grid',
    ...strategySizeOf(params),
    explain: (view, inventory) => explainTickGrid(params, view, inventory),
    internals: (view, inventory) => {
      const e = explainTickGrid(params, view, inventory);
      if (e === undefined) return undefined;
      const tick = view.tickSize;
      const levelZero = { bid: priceOfTicks(e.bidTick, tick), ask: priceOfTicks(e.askTick, tick) };
      return modelInternals(view, e.reference, levelZero, { signals: { positionOrders: e.positionOrders } });
    },
    quote: (view, inventory) => {
      if (last !== undefined && Object.is(inventory.base, last.base) && Object.is(inventory.targetBase, last.targetBase) && same(view, last.view)) return last.quotes;
      const quotes = explainTickGrid(params, view, inventory)?.quotes ?? [];
      last = { view, base: inventory.base, targetBase: inventory.targetBase, quotes };
      return quotes;
    },
  };
}
