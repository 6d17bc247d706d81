import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario, START_MS, ThinHarness } from './thin-harness.ts';

const QUIET = { uninformed: { share: 0 }, arbitrage: { enabled: false } };

describe('the background maker', () => {
  it('quotes the reference mid ± its half-spread only once its lag has passed, and follows the mid as late', () => {
    const h = new ThinHarness({ ...QUIET, background: { halfSpreadBps: 10, lagMs: 1_000, depthQuote: 9_000 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    h.at(START_MS + 999);
    expect(h.exchange.book.bestBidPrice()).toBeUndefined();
    h.at(START_MS + 1_000);
    expect([h.exchange.book.bestBidPrice(), h.exchange.book.bestAskPrice()]).toEqual([299_700, 300_300]);
    // 9 000 quote at 2 997 (0.2997 a lot): 30 030 lots.
    expect(h.exchange.book.sizeAt('buy', 299_700)).toBe(30_030);
    h.at(START_MS + 1_500).referenceTop(300_990, 301_010);
    h.at(START_MS + 2_499);
    expect(h.exchange.book.bestBidPrice()).toBe(299_700);
    h.at(START_MS + 2_500);
    expect(h.exchange.book.bestBidPrice()).toBe(300_699);
    expect(h.bookChanges).toBe(2);
  });

  it('re-posts a level an uninformed taker emptied one lag later', () => {
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false }, background: { lagMs: 200, depthQuote: 30 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    h.at(START_MS + 200);
    const lots = h.exchange.book.sizeAt('sell', 300_300);
    expect(lots).toBe(99);
    h.at(START_MS + 300).referenceTrade('buy', 300_010, 500);
    expect(h.trades).toEqual([{ timeMs: START_MS + 300, aggressor: 'buy', priceTicks: 300_300, lots: 99 }]);
    expect(h.exchange.book.bestAskPrice()).toBeUndefined();
    h.at(START_MS + 499);
    expect(h.exchange.book.bestAskPrice()).toBeUndefined();
    h.at(START_MS + 500);
    expect(h.exchange.book.sizeAt('sell', 300_300)).toBe(99);
  });

  it('never quotes through our resting orders (post-only): the side that would cross is refused, stays empty and is tried again one lag later', () => {
    const h = new ThinHarness({ ...QUIET, background: { halfSpreadBps: 10, lagMs: 100 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    h.at(START_MS + 100);
    const ask = h.place('sell', 300_500, 10);
    h.referenceTop(300_990, 301_010);
    h.at(START_MS + 200);
    // Its bid would be 300 699, through our ask at 300 500: refused, no bid; its ask is posted.
    expect(h.exchange.book.bestBidPrice()).toBeUndefined();
    expect(h.exchange.book.bestAskPrice()).toBe(301_301);
    expect(h.exchange.stats().makerRefusals).toBe(1);
    h.exchange.cancel(ask);
    h.at(START_MS + 299);
    expect(h.exchange.book.bestBidPrice()).toBeUndefined();
    h.at(START_MS + 300);
    expect(h.exchange.book.bestBidPrice()).toBe(300_699);
  });
});

describe('takers at the venue', () => {
  it('take the best price first, and at one price whoever was there first', () => {
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 100 }, arbitrage: { enabled: false }, background: { lagMs: 0, halfSpreadBps: 10, depthQuote: 30 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    // The background maker's ask is at 300 300 (99 lots) and was there first.
    const behind = h.place('sell', 300_300, 5);
    const inside = h.place('sell', 300_200, 7);
    h.at(START_MS + 10).referenceTrade('buy', 300_010, 110);
    expect(h.fills.map((fill) => [fill.orderId, fill.lots, fill.tag?.counterparty])).toEqual([
      [inside, 7, 'uninformed'],
      [behind, 4, 'uninformed'],
    ]);
    expect(h.trades.map((trade) => [trade.priceTicks, trade.lots])).toEqual([
      [300_200, 7],
      [300_300, 99],
      [300_300, 4],
    ]);
    expect(h.order(behind).filledLots).toBe(4);
  });

  it('stop at their limit, set from the reference trade price', () => {
    const h = new ThinHarness({ uninformed: { share: 1, limitBps: 10 }, ...{ arbitrage: { enabled: false } }, background: { halfSpreadBps: 1_000, lagMs: 0 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const far = h.place('sell', 300_311, 5);
    const near = h.place('sell', 300_310, 5);
    h.at(START_MS + 10).referenceTrade('buy', 300_010, 50);
    expect(h.fills.map((fill) => fill.orderId)).toEqual([near]);
    expect(h.order(far).filledLots).toBe(0);
  });

  it('come only for reference trades with a known side', () => {
    const h = new ThinHarness({ uninformed: { share: 1 }, arbitrage: { enabled: false } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    h.place('sell', 300_020, 5);
    h.referenceTrade(undefined, 300_010, 50);
    expect(h.fills).toEqual([]);
    expect(h.exchange.stats().referenceTrades).toBe(0);
  });
});

describe('our orders', () => {
  it('take the background maker as takers when they cross it, and are refused when post-only', () => {
    const h = new ThinHarness({ ...QUIET, background: { lagMs: 0, depthQuote: 30 } });
    h.at(START_MS).referenceTop(299_990, 300_010);
    const refused = h.place('buy', 300_300, 10, true);
    expect(h.order(refused).status).toBe('NOT_PROCESSED');
    expect(h.reports.at(-1)?.matcherResult).toBe('FAILED_VALIDATION');
    const taker = h.place('buy', 300_400, 150, false);
    expect(h.fills.map((fill) => [fill.lots, fill.priceTicks, fill.isMaker, fill.tag?.counterparty])).toEqual([[99, 300_300, false, 'background-maker']]);
    expect(h.trades.at(-1)).toEqual({ timeMs: START_MS, aggressor: 'buy', priceTicks: 300_300, lots: 99 });
    expect(h.order(taker).status).toBe('PARTIALLY_FILLED');
    expect(h.exchange.restingOrders().map((order) => order.orderId)).toEqual([taker]);
  });

  it('are cancelled once, and all of them at once', () => {
    const h = new ThinHarness(QUIET);
    h.at(START_MS).referenceTop(299_990, 300_010);
    const a = h.place('buy', 299_980, 1);
    h.place('sell', 300_020, 1);
    expect(h.exchange.cancel(a)).toBe(true);
    expect(h.exchange.cancel(a)).toBe(false);
    expect(h.exchange.cancelAll()).toBe(1);
    expect(h.exchange.restingOrders()).toEqual([]);
  });
});

describe('a random run', () => {
  it('keeps its invariants: no taker past its limit, no book crossing ours, fills within sizes, arbitrage only when on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 1_500 }),
        fc.integer({ min: 1, max: 300 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, scenarioSeed, arbitrage, latencyMs, lagMs, stepTicks, share) => {
          const run = runScenario({
            seed,
            scenarioSeed,
            durationMs: 3_000,
            stepTicks,
            halfSpreadTicks: 30,
            uninformed: { share, limitBps: 10 },
            arbitrage: { enabled: arbitrage, latencyMs },
            background: { lagMs },
          });
          expect(run.pastLimit).toEqual([]);
          expect(run.crossings).toBe(0);
          const filled = new Map<string, number>();
          for (const fill of run.harness.fills) {
            expect(fill.lots).toBeGreaterThan(0);
            filled.set(fill.orderId, (filled.get(fill.orderId) ?? 0) + fill.lots);
            if (!arbitrage) expect(fill.tag?.counterparty).toBe('uninformed');
          }
          for (const [orderId, lots] of filled) expect(lots).toBe(run.harness.order(orderId).filledLots);
          for (const [orderId, lots] of filled) expect(lots).toBeLessThanOrEqual(run.harness.order(orderId).qtyLots);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('repeats exactly for the same seed, and differs for another', () => {
    const options = { scenarioSeed: 3, durationMs: 20_000, stepTicks: 400, halfSpreadTicks: 40, uninformed: { share: 0.2 } };
    const a = runScenario({ ...options, seed: 11 }).harness;
    const b = runScenario({ ...options, seed: 11 }).harness;
    const c = runScenario({ ...options, seed: 12 }).harness;
    expect(a.fills.length).toBeGreaterThan(10);
    expect(a.fills.some((fill) => fill.tag?.counterparty === 'arbitrage')).toBe(true);
    expect(b.fills).toEqual(a.fills);
    expect(b.exchange.stats()).toEqual(a.exchange.stats());
    expect(c.fills).not.toEqual(a.fills);
  });
});
