/**
 * The thin venue's model properties of issue 30, each on its own: price-elastic takers, a
 * competing maker under strict price-time priority, arbitrage against both legs' costs.
 */
import { describe, expect, it } from 'vitest';
import { START_MS, ThinHarness, type HarnessOptions } from './thin-harness.ts';

/** No background maker in the way (far out), arbitrageurs off. */
const ALONE: HarnessOptions = { background: { halfSpreadBps: 4_000, lagMs: 0 }, arbitrage: { enabled: false } };

describe('price-elastic takers', () => {
  /** Lots our resting ask at `quoteTicks` sells to 2 000 buyers' twins of trades at 300 010, the reference unmoved. */
  const soldAt = (quoteTicks: number, limit: HarnessOptions['uninformed']): number => {
    const h = new ThinHarness({ ...ALONE, seed: 7, uninformed: { share: 1, ...limit } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const ask = h.place('sell', quoteTicks, 1_000_000);
    for (let i = 1; i <= 2_000; i++) h.at(START_MS + i).referenceTrade('buy', 300_010, 1);
    return h.order(ask).filledLots;
  };

  it('fill a wider quote less at a fixed reference (elastic, the default): roughly as e^(−δ/mean)', () => {
    const elastic = { limitModel: 'elastic' as const, slackMeanBps: 5 };
    // 1, 3, 6 and 12 bps past the reference ask (300 010).
    const filled = [300_040, 300_100, 300_190, 300_370].map((quote) => soldAt(quote, elastic));
    for (let i = 1; i < filled.length; i++) expect(filled[i]).toBeLessThan(filled[i - 1] as number);
    filled.forEach((lots, i) => expect(lots / 2_000).toBeCloseTo(Math.exp(-[1, 3, 6, 12][i]! / 5), 1));
  });

  it('fill every quote within a fixed limit alike (the model before issue 30, --thin-taker-limit-model fixed)', () => {
    const fixed = { limitModel: 'fixed' as const, limitBps: 10 };
    expect([300_040, 300_100, 300_190, 300_310, 300_320].map((quote) => soldAt(quote, fixed))).toEqual([2_000, 2_000, 2_000, 2_000, 0]);
  });

  it("do not trade below the venue's smallest order, as the venue refuses it (the embedded exchange's flow alike)", () => {
    // Minimum 3 lots: twins of 1, 2, 3 and 5 lots; only the last two trade, and the draws are taken alike.
    const h = new ThinHarness({ ...ALONE, seed: 7, minQty: 3n * 10n ** 14n, uninformed: { share: 1, limitModel: 'fixed', limitBps: 10 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const ask = h.place('sell', 300_010, 1_000);
    [1, 2, 3, 5].forEach((lots, i) => h.at(START_MS + 1 + i).referenceTrade('buy', 300_010, lots));
    expect(h.order(ask).filledLots).toBe(8);
    expect(h.exchange.stats().uninformedTakers).toBe(2);
  });
});

describe('a competing maker and price-time priority', () => {
  /** A competing maker at the reference touch showing 1 % of its 10 000 lots (100), 100 ms late; share-1 twins with a wide fixed limit. */
  const venue = (): ThinHarness => new ThinHarness({ ...ALONE, competitor: { depthShare: 0.01, offsetTicks: 0, halfSpreadBps: 0.01, lagMs: 100 }, uninformed: { share: 1, limitModel: 'fixed', limitBps: 100 } });
  /** That venue once the maker shows its 100 lots at the reference ask, and our 50-lot ask joined behind it. */
  const joined = (): { h: ThinHarness; ours: string } => {
    const h = venue();
    h.at(START_MS).referenceTop(299_990, 300_010, 10_000);
    h.at(START_MS + 100);
    return { h, ours: h.place('sell', 300_010, 50) };
  };

  it('fills a better competing quote first', () => {
    const h = venue();
    h.at(START_MS).referenceTop(299_990, 300_010, 10_000);
    h.at(START_MS + 100);
    expect(h.exchange.book.bestAskPrice()).toBe(300_010);
    // Our ask one tick worse than the competing maker's.
    const ours = h.place('sell', 300_011, 50);
    h.at(START_MS + 110).referenceTrade('buy', 300_010, 120);
    expect(h.trades.map((trade) => [trade.priceTicks, trade.lots])).toEqual([
      [300_010, 100],
      [300_011, 20],
    ]);
    expect(h.order(ours).filledLots).toBe(20);
  });

  it('puts us behind a maker already at our price, and moves us up only as it trades or leaves', () => {
    const { h, ours } = joined();
    // 60 lots: all from the maker who was there first.
    h.at(START_MS + 110).referenceTrade('buy', 300_010, 60);
    expect(h.order(ours).filledLots).toBe(0);
    // 60 more: the maker's 40 left, then 20 of ours.
    h.at(START_MS + 120).referenceTrade('buy', 300_010, 60);
    expect(h.order(ours).filledLots).toBe(20);
    // It re-posts its level one lag after it was first taken (at 210), behind us: the next twin takes the rest of ours first.
    h.at(START_MS + 220).referenceTrade('buy', 300_010, 40);
    expect(h.order(ours).filledLots).toBe(50);
    expect(h.trades.at(-1)).toMatchObject({ priceTicks: 300_010, lots: 10 });
  });

  it('moves us up as the queue ahead of us shrinks (cancels at the reference); a maker that tops up goes behind us, its whole quote (one order a side: kind to us)', () => {
    const { h, ours } = joined();
    // The reference's queue at the touch halves: the maker ahead of us shows 50, still ahead.
    h.at(START_MS + 110).referenceTop(299_990, 300_010, 5_000);
    h.at(START_MS + 210);
    expect(h.exchange.book.sizeAt('sell', 300_010)).toBe(50);
    // It grows back to 200: the top-up goes behind us.
    h.at(START_MS + 220).referenceTop(299_990, 300_010, 20_000);
    h.at(START_MS + 320).referenceTrade('buy', 300_010, 60);
    expect(h.order(ours).filledLots).toBe(50);
    expect(h.trades.map((trade) => trade.lots)).toEqual([50, 10]);
  });

  it('moves us to the front when the maker ahead of us leaves the level', () => {
    const { h, ours } = joined();
    // The reference ask moves up a tick: the maker re-quotes at 300 011 (one lag later) and leaves our level.
    h.at(START_MS + 105).referenceTop(299_991, 300_011, 10_000);
    h.at(START_MS + 205);
    expect(h.exchange.book.bestAskPrice()).toBe(300_011);
    expect(h.exchange.book.sizeAt('sell', 300_010)).toBe(0);
    h.at(START_MS + 210).referenceTrade('buy', 300_011, 30);
    expect(h.order(ours).filledLots).toBe(30);
  });

  it('lets a maker join our price or improve on it, never cross it (post-only)', () => {
    const h = new ThinHarness({ ...ALONE, competitor: { depthShare: 0.01, offsetTicks: -1, halfSpreadBps: 0.01, lagMs: 0 } });
    // A three-tick reference spread: one tick inside is 299 991 / 299 992.
    h.at(START_MS).referenceTop(299_990, 299_993, 10_000);
    expect([h.exchange.book.bestBidPrice(), h.exchange.book.bestAskPrice()]).toEqual([299_991, 299_992]);
    // We join its bid, behind it.
    h.place('buy', 299_991, 5);
    expect(h.exchange.book.sizeAt('buy', 299_991)).toBe(100);
    // The reference drops: its new ask (299 987) would cross our bid, so that side is refused; its bid is posted.
    h.at(START_MS + 5).referenceTop(299_985, 299_988, 10_000);
    expect(h.exchange.book.bestBidPrice()).toBe(299_986);
    // The only ask left is the far background maker's.
    expect(h.exchange.book.bestAskPrice()).toBeGreaterThan(400_000);
    expect(h.exchange.stats().makerRefusals).toBe(1);
  });
});

describe('arbitrage against both legs', () => {
  // Venue taker fee 10 bps, the reference's 2.4 bps, no edge, no gas; latency 50 ms; our ask at 300 000.
  const stale = (referenceBidTicks: number): { taken: boolean; atMs: number | undefined } => {
    const h = new ThinHarness({ uninformed: { share: 0 }, background: { halfSpreadBps: 4_000, lagMs: 0 }, arbitrage: { enabled: true, latencyMs: 50, edgeBps: 0, referenceFeeBps: 2.4 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const ask = h.place('sell', 300_000, 500);
    h.at(START_MS + 100).referenceTop(referenceBidTicks, referenceBidTicks + 10);
    h.at(START_MS + 149);
    const early = h.order(ask).filledLots;
    h.at(START_MS + 150);
    expect(early).toBe(0);
    const fill = h.fills.find((heard) => heard.orderId === ask);
    return { taken: h.order(ask).filledLots === 500, atMs: fill === undefined ? undefined : fill.timeMs - START_MS };
  };

  it('picks off a quote stale by more than the venue fee + the reference fee, exactly after its latency, and not one stale by less', () => {
    // Gain g ticks against 300 ticks (10 bps of 300 000) + 2.4 bps of (300 000 + g): g > 372.09.
    expect(stale(300_373)).toEqual({ taken: true, atMs: 150 });
    expect(stale(300_372)).toEqual({ taken: false, atMs: undefined });
    // The venue leg alone (the model before issue 30 without an edge) would have taken it at 301 ticks.
    expect(stale(300_301)).toEqual({ taken: false, atMs: undefined });
  });
});
