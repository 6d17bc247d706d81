/**
 * `xemm`: cross-venue market making (hummingbot's cross-exchange market making, bbgo's xmaker).
 * Quotes on the thin venue at what hedging the fill on the deep venue would cost now, plus a
 * profit kept after every cost, so each fill hedged at once locks that profit in:
 *
 *   bid_i = ((1 − f_maker)·(1 − f_taker)·P_bid(slice_i) − gas/size) / (1 + m + i·spacing)
 *   ask_i = (P_ask(slice_i)/(1 − f_taker) + gas/size) / (1 − f_maker − m − i·spacing)
 *
 * P(slice_i) is the hedge book walked for the slice a level's fill would take once every level
 * nearer the touch filled too (not the top: a quote of size is hedged at the depth it needs),
 * f_taker the hedge venue's fee, f_maker this venue's, gas the expected gas per fill, m
 * HEDGE_MIN_PROFIT_BPS. Sizes stop where the hedge book, a share of it, or the hedge account's
 * free balance could no longer absorb every quote of the side filling at once. Pure: the hedge
 * market comes in the view (`MarketView.hedge`, filled in by the engine's hedger); without it
 * nothing is quoted. Each quote's `reference` is its break-even before this venue's costs, so the
 * engine's edge filter sees the profit it keeps, and a quote a move of the hedge book takes below
 * it is more aggressive than wanted: its cancel goes first.
 */
import { describeKeys, envKey, orderSizeAt, readKeys, values as v, walkLevels, type DesiredQuote, type HedgeMarketView, type InventoryView, type MarketView, type ParamsOf, type Side, type StrategyDefinition } from '../src/core/index.ts';
import type { ExplainedStrategy, QuoteExplanation } from './explained.ts';
import { buildSizeKeys, checkSizeKeys, orderAmountOf, strategySizeOf } from './order-sizing.ts';
import { finalizeQuotes, isPositiveFinite } from './passive-quotes.ts';

/** The strategy's env keys (the profit it keeps is HEDGE_MIN_PROFIT_BPS, with the hedge keys). */
export const XEMM_KEYS = {
  ...buildSizeKeys('XEMM', { orderSize: '0.05', sizeDoc: 'Size of each level (a notional is turned into base tokens at the hedge book\'s mid)' }),
  levels: envKey({
    key: 'XEMM_LEVELS',
    default: '1',
    unit: 'orders per side',
    doc: 'Levels per side; level i is priced on the hedge book slice its fill would take after levels 0..i−1 filled',
    parse: v.numberIn({ min: 1, max: 20, integer: true }),
  }),
  levelSpacingBps: envKey({
    key: 'XEMM_LEVEL_SPACING_BPS',
    default: '2',
    unit: 'bps',
    doc: 'Extra profit each deeper level keeps over the one before it',
    parse: v.numberIn({ min: 0, max: 1_000, unit: 'bps' }),
  }),
  bookShare: envKey({
    key: 'XEMM_BOOK_SHARE',
    default: '0.5',
    unit: 'fraction',
    doc: 'Largest share of the hedge book (the levels the hedger sees) one side\'s quotes may need, all filled at once',
    parse: v.numberIn({ min: 0, minExclusive: true, max: 1 }),
  }),
};

/** Parsed xemm parameters. */
export type XemmParams = ParamsOf<typeof XEMM_KEYS>;

/** One level and why it sits where it does. */
export interface XemmLevel {
  readonly side: Side;
  readonly level: number;
  readonly size: number;
  /** Average hedge price of the slice (quoted-pair price units). */
  readonly hedgePrice: number;
  /** Break-even before this venue's maker fee and gas. */
  readonly breakEven: number;
  readonly price: number;
}

/** The model values behind one set of quotes. */
export interface XemmExplanation extends QuoteExplanation {
  readonly levels: readonly XemmLevel[];
  /** Why a side quotes fewer levels than configured. */
  readonly bidsLimitedBy: 'book' | 'balance' | undefined;
  readonly asksLimitedBy: 'book' | 'balance' | undefined;
}

/** Total size a side may quote: the share of the book and the account's free balance (asks in quote at `price`). */
function capacity(side: Side, hedge: HedgeMarketView, share: number, price: number): { book: number; balance: number } {
  const levels = side === 'buy' ? hedge.bids : hedge.asks;
  const depth = levels.reduce((sum, level) => sum + level.qty, 0);
  const balance = side === 'buy' ? hedge.sellableBase : price > 0 ? hedge.spendableQuote / (price * (1 + hedge.takerFee)) : 0;
  return { book: depth * share, balance };
}

/** The levels of one side. */
function sideLevels(side: Side, params: XemmParams, size: number, view: MarketView, hedge: HedgeMarketView): { levels: XemmLevel[]; limitedBy: 'book' | 'balance' | undefined } {
  const book = side === 'buy' ? hedge.bids : hedge.asks;
  const top = book[0]?.price;
  if (top === undefined) return { levels: [], limitedBy: 'book' };
  const room = capacity(side, hedge, params.bookShare, top);
  // A maker rebate (a negative fee) is income: the quote may give it away and still keep its profit.
  const makerFee = Number.isFinite(view.makerFee) ? view.makerFee : 0;
  const takerFee = isPositiveFinite(hedge.takerFee) ? hedge.takerFee : 0;
  const gas = isPositiveFinite(view.gasPerFill) ? view.gasPerFill / size : 0;
  const levels: XemmLevel[] = [];
  let limitedBy: 'book' | 'balance' | undefined;
  let quoted = 0;
  for (let level = 0; level < params.levels; level++) {
    // Every quote of the side could fill at once: level i's hedge is the slice after all before it.
    if (quoted + size > room.book) {
      limitedBy = 'book';
      break;
    }
    if (quoted + size > room.balance) {
      limitedBy = 'balance';
      break;
    }
    const hedgeSize = side === 'buy' ? size : size / (1 - takerFee);
    const walk = walkLevels(book, quoted, quoted + hedgeSize);
    if (walk.averagePrice === undefined || walk.qty < hedgeSize * (1 - 1e-9)) {
      limitedBy = 'book';
      break;
    }
    const profit = hedge.minProfit + (level * params.levelSpacingBps) / 10_000;
    const breakEven = side === 'buy' ? (1 - takerFee) * walk.averagePrice : walk.averagePrice / (1 - takerFee);
    const price = side === 'buy' ? ((1 - makerFee) * breakEven - gas) / (1 + profit) : (breakEven + gas) / (1 - makerFee - profit);
    if (!isPositiveFinite(price)) break;
    levels.push({ side, level, size, hedgePrice: walk.averagePrice, breakEven, price });
    quoted += hedgeSize;
  }
  return { levels, limitedBy };
}

/** Runs the model; undefined without a hedge market to price on. */
export function explainXemm(params: XemmParams, view: MarketView, _inventory: InventoryView): XemmExplanation | undefined {
  const hedge = view.hedge;
  if (hedge === undefined || hedge.bids.length === 0 || hedge.asks.length === 0) return undefined;
  const reference = (hedge.bids[0]!.price + hedge.asks[0]!.price) / 2;
  const minSize = Math.max(view.minSize, hedge.minQty);
  // A notional's size at the hedge mid, rounded to the lot once; under either venue's minimum
  // nothing is quoted (never more than asked, never a fill the hedge venue cannot take).
  const sized = orderSizeAt(orderAmountOf(params), reference, { lotSize: view.lotSize, minSize });
  if (sized.kind !== 'ok' || sized.size < minSize) return { reference, quotes: [], levels: [], bidsLimitedBy: 'book', asksLimitedBy: 'book' };
  const bids = sideLevels('buy', params, sized.size, view, hedge);
  const asks = sideLevels('sell', params, sized.size, view, hedge);
  const levels = [...bids.levels, ...asks.levels];
  const quotes: DesiredQuote[] = levels.map((level) => ({ side: level.side, price: level.price, size: level.size, level: level.level, reference: level.breakEven }));
  return {
    reference,
    quotes: finalizeQuotes(quotes),
    levels,
    bidsLimitedBy: bids.limitedBy,
    asksLimitedBy: asks.limitedBy,
  };
}

/** The `xemm` strategy. */
export const XEMM: StrategyDefinition<XemmParams> = {
  name: 'xemm',
  summary: 'cross-venue market making: quotes at the hedge book walked for each level\'s size plus HEDGE_MIN_PROFIT_BPS, both venues\' fees and gas inside; needs HEDGE',
  keys: describeKeys(XEMM_KEYS),
  parseParams: (env) => readKeys(XEMM_KEYS, env, [checkSizeKeys('XEMM')]),
  create: (params) => createXemm(params),
};

/** An xemm strategy for fixed parameters. */
export function createXemm(params: XemmParams): ExplainedStrategy<XemmExplanation> {
  return {
    name: 'xemm',
    ...strategySizeOf(params),
    explain: (view, inventory) => explainXemm(params, view, inventory),
    quote: (view, inventory) => explainXemm(params, view, inventory)?.quotes ?? [],
  };
}
