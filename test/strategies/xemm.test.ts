/**
 * `xemm` as a pure function: quotes at the hedge book walked for each level's size, with both
 * venues' fees, the gas per fill and the minimum profit inside; sizes the hedge book and the hedge
 * account can absorb all at once; and a quote the hedge book's move made unprofitable is the
 * first thing the outbound budget sends (its cancel).
 */
import { describe, expect, it } from 'vitest';
import { createXemm, XEMM } from '../../strategies/index.ts';
import { DEFAULT_ENGINE_SETTINGS, diffQuotes, rankActions, runQuotePipeline, resolveRiskLimits, type LiveQuote } from '../../src/engine/index.ts';
import { makeHedgeView, makeInventory, makeView, parseOrThrow } from './fixtures.ts';
import { ETH_USDC, eth, usdc } from '../engine/fixtures.ts';

const params = (env: Record<string, string> = {}) => parseOrThrow(XEMM, env);
const flat = makeInventory({ base: 1, targetBase: 1 });

/** Profit per unit of base of a bid filled at `bid`, hedged at `hedgePrice`, as a share of the bid. */
function bidProfit(bid: number, hedgePrice: number, makerFee: number, takerFee: number, gasPerFill: number, size: number): number {
  const received = 1 - makerFee; // the quoted venue takes its maker fee from the base received
  const proceeds = received * hedgePrice * (1 - takerFee); // sold on the hedge venue, its fee in quote
  return (proceeds - bid - gasPerFill / size) / bid;
}

/** Profit per unit of an ask filled at `ask`, bought back on the hedge venue (its fee in base). */
function askProfit(ask: number, hedgePrice: number, makerFee: number, takerFee: number, gasPerFill: number, size: number): number {
  const received = ask * (1 - makerFee);
  const cost = hedgePrice / (1 - takerFee); // buy enough that one unit is left after the fee in base
  return (received - cost - gasPerFill / size) / ask;
}

describe('xemm', () => {
  it('keeps HEDGE_MIN_PROFIT_BPS after both venues\' fees and the gas per fill, not before them (hummingbot #1661)', () => {
    const hedge = makeHedgeView(2000, { minProfit: 0.0005, takerFee: 0.001 });
    const view = makeView({ makerFee: 0.0002, gasPerFill: 0.02, hedge });
    const quotes = createXemm(params({ XEMM_ORDER_SIZE: '0.5' })).quote(view, flat);
    const bid = quotes.find((quote) => quote.side === 'buy');
    const ask = quotes.find((quote) => quote.side === 'sell');
    expect(bid).toBeDefined();
    expect(ask).toBeDefined();
    // Half an ETH (and the ask's hedge, a little more to cover the fee in base) fits in the first level.
    const walkedBid = 1999.995;
    expect(bidProfit(bid!.price, walkedBid, 0.0002, 0.001, 0.02, 0.5)).toBeCloseTo(0.0005, 9);
    const walkedAsk = 2000.005;
    expect(askProfit(ask!.price, walkedAsk, 0.0002, 0.001, 0.02, 0.5)).toBeCloseTo(0.0005, 9);
    // The profit computed without fees (hummingbot's) would have quoted inside these prices.
    expect(bid!.price).toBeLessThan(walkedBid * (1 - 0.0005) - 2);
    expect(ask!.price).toBeGreaterThan(walkedAsk * (1 + 0.0005) + 2);
  });

  it('prices each level on the hedge book walked for its size, not the top of the book', () => {
    // A thin top (0.1 ETH) in front of a level 1 USDT worse: 1 ETH is hedged mostly at the second level.
    const hedge = makeHedgeView(2000, {
      bids: [
        { price: 1999.99, qty: 0.1 },
        { price: 1998.99, qty: 5 },
      ],
      asks: [
        { price: 2000.01, qty: 0.1 },
        { price: 2001.01, qty: 5 },
      ],
    });
    const view = makeView({ hedge });
    const explained = createXemm(params({ XEMM_ORDER_SIZE: '1' })).explain(view, flat);
    const bid = explained?.levels.find((level) => level.side === 'buy');
    expect(bid?.hedgePrice).toBeCloseTo(0.1 * 1999.99 + 0.9 * 1998.99, 6);
    expect(bid?.hedgePrice).toBeLessThan(1999.99);
    const ask = explained?.levels.find((level) => level.side === 'sell');
    expect(ask?.hedgePrice).toBeGreaterThan(2000.9);
  });

  it('sizes every level that could fill at once within the hedge account\'s free balance: three bids with balance for two become two (hummingbot #855)', () => {
    const hedge = makeHedgeView(2000, { sellableBase: 1.0, spendableQuote: 0.6 * 2000 * 1.0011 });
    const explained = createXemm(params({ XEMM_ORDER_SIZE: '0.5', XEMM_LEVELS: '3' })).explain(makeView({ hedge }), flat);
    const sizes = (side: 'buy' | 'sell'): number => explained!.quotes.filter((quote) => quote.side === side).reduce((sum, quote) => sum + quote.size, 0);
    expect(sizes('buy')).toBe(1.0);
    expect(explained?.bidsLimitedBy).toBe('balance');
    expect(sizes('sell')).toBe(0.5);
    expect(explained?.asksLimitedBy).toBe('balance');
  });

  it('quotes no more than the configured share of the hedge book, deeper levels on deeper slices', () => {
    const hedge = makeHedgeView(2000, { levels: 3, qty: 1 });
    const explained = createXemm(params({ XEMM_ORDER_SIZE: '0.5', XEMM_LEVELS: '5', XEMM_BOOK_SHARE: '0.5' })).explain(makeView({ hedge }), flat);
    const bids = explained!.levels.filter((level) => level.side === 'buy');
    expect(bids.length).toBe(3);
    expect(explained?.bidsLimitedBy).toBe('book');
    expect(bids[2]!.hedgePrice).toBeLessThan(bids[0]!.hedgePrice);
    expect(bids[1]!.price).toBeLessThan(bids[0]!.price);
  });

  it('quotes nothing without a hedge book, or when the order size is below the hedge venue\'s minimum', () => {
    expect(createXemm(params()).quote(makeView(), flat)).toEqual([]);
    expect(createXemm(params({ XEMM_ORDER_SIZE: '0.001' })).quote(makeView({ hedge: makeHedgeView(2000, { minQty: 0.0025 }) }), flat)).toEqual([]);
  });

  it('cancels a bid the hedge book\'s fall made unprofitable before anything else goes out', () => {
    const strategy = createXemm(params({ XEMM_ORDER_SIZE: '0.1' }));
    const limits = resolveRiskLimits({ ...DEFAULT_ENGINE_SETTINGS.risk, maxDrawdownQuote: 0 }, { orderSizeUnits: eth(0.1), fairUnits: usdc(2000), rules: ETH_USDC });
    const pipeline = (mid: number) =>
      runQuotePipeline({
        quotes: strategy.quote(makeView({ bestBid: 1990, bestAsk: 2010, hedge: makeHedgeView(mid) }), flat),
        fair: 2000,
        fairUnits: usdc(2000),
        touch: { bestBidUnits: usdc(1990), bestAskUnits: usdc(2010) },
        rules: ETH_USDC,
        tickSize: 0.01,
        holdings: { baseUnits: eth(1), targetUnits: eth(1), quoteUnits: usdc(10_000) },
        limits,
        minEdgeBps: 0,
        edge: { rules: ETH_USDC, makerFeePbips: 0, steps: { trade: 0, cancel: 0, nonce: 0, withdraw: 0 }, gas: undefined, conversionMargin: 0 },
        tolerance: DEFAULT_ENGINE_SETTINGS.requoteTolerance,
      });
    const before = pipeline(2000);
    const restingBid = before.find((quote) => quote.side === 'buy')!;
    // The hedge book falls 5 bps: the resting bid would now lose money once hedged.
    const after = pipeline(1999);
    const wantedBid = after.find((quote) => quote.side === 'buy')!;
    expect(wantedBid.priceUnits).toBeLessThan(restingBid.priceUnits);
    const live: LiveQuote = { orderId: 'bid-1', side: 'buy', priceUnits: restingBid.priceUnits, remainingUnits: restingBid.qtyUnits, filledUnits: 0n, createdAtMs: 0 };
    const options = { toleranceSizeFraction: 0.1, maxOrderAgeMs: 0, nowMs: 0 };
    const bidDiff = diffQuotes(after.filter((quote) => quote.side === 'buy'), [live], options);
    const askDiff = diffQuotes(after.filter((quote) => quote.side === 'sell'), [], options);
    expect(bidDiff.cancel).toEqual([live]);
    const actions = rankActions(
      [
        { side: 'sell', diff: askDiff, wanted: after.filter((quote) => quote.side === 'sell') },
        { side: 'buy', diff: bidDiff, wanted: after.filter((quote) => quote.side === 'buy') },
      ],
      { holdings: { baseUnits: eth(1), targetUnits: eth(1), quoteUnits: usdc(10_000) }, limits, touch: { bestBidUnits: usdc(1990), bestAskUnits: usdc(2010) } },
    );
    expect(actions[0]).toMatchObject({ side: 'buy', cancel: live, group: 0 });
    expect(actions[0]?.place).toBeUndefined();
  });
});
