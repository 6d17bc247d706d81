/**
 * The hedger's pure parts: fills counted once per order and cumulative size (across restarts), the
 * sizing of a hedge (never more than is uncovered, dust below the venue's minimums, what the
 * account can pay), and, as a property over random fills and executions, that hedges never move
 * more than the fills did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HedgeRules } from '../../../src/core/index.ts';
import { HedgeExposure, HedgeStats, MemoryHedgeJournal, planHedge, replayJournal } from '../../../src/engine/index.ts';

const SCALE = { venueDecimals: 8, pairDecimals: 18 };
const ETH18 = (tokens: number): bigint => BigInt(Math.round(tokens * 1e8)) * 10n ** 10n;
const RULES: HedgeRules = {
  symbol: 'ETHUSDT',
  base: 'ETH',
  quote: 'USDT',
  status: 'TRADING',
  baseDecimals: 8,
  quoteDecimals: 8,
  priceTick: 1_000_000n,
  minPrice: 0n,
  maxPrice: 0n,
  lotStep: 10_000n,
  minQty: 10_000n,
  maxQty: 900_000_000_000n,
  marketStep: 10_000n,
  marketMinQty: 10_000n,
  marketMaxQty: 900_000_000_000n,
  minNotional: 500_000_000n,
  maxNotional: 0n,
  minNotionalForMarket: true,
  maxNotionalForMarket: false,
  takerFeeE8: 100_000n,
};
const BOOK = { bids: [{ price: 1999.99, qty: 50 }], asks: [{ price: 2000.01, qty: 50 }] };
const sizing = { scale: SCALE, rules: RULES, book: BOOK, feeE8: 100_000n, orderType: 'market' as const, iocSlippageBps: 20, balances: undefined };

describe('hedge books', () => {
  it('counts a fill once however often it is reported, and only the new part of a report that spans fills counted before a restart', () => {
    const books = new HedgeExposure(SCALE);
    expect(books.addFill({ orderId: 'a', cumulativeUnits: ETH18(0.1), qtyUnits: ETH18(0.1), baseDeltaUnits: ETH18(0.1) })).toBe(ETH18(0.1));
    expect(books.addFill({ orderId: 'a', cumulativeUnits: ETH18(0.1), qtyUnits: ETH18(0.1), baseDeltaUnits: ETH18(0.1) })).toBe(0n);
    // After a restart the order table starts from 0: one report carries 0 → 0.3, of which 0.1 is known.
    expect(books.addFill({ orderId: 'a', cumulativeUnits: ETH18(0.3), qtyUnits: ETH18(0.3), baseDeltaUnits: ETH18(0.3) })).toBe(ETH18(0.2));
    expect(books.uncoveredUnits()).toBe(ETH18(0.3));
  });

  it('rebuilds from its journal: counted fills stay counted, a hedge without an outcome is open', () => {
    const journal = new MemoryHedgeJournal();
    journal.append({ t: 'fill', orderId: 'a', cum: ETH18(0.1).toString(), qty: ETH18(0.1).toString(), delta: ETH18(0.1).toString(), timeMs: 1 });
    journal.append({ t: 'hedge', id: 'h1', side: 'sell', qty: '5000000', expected: (-ETH18(0.05)).toString(), ref: '0', timeMs: 2 });
    journal.append({ t: 'result', id: 'h1', executed: '5000000', quote: '10000000000', commission: '10000000', final: true, timeMs: 3 });
    journal.append({ t: 'hedge', id: 'h2', side: 'sell', qty: '5000000', expected: (-ETH18(0.05)).toString(), ref: '0', timeMs: 4 });
    const books = new HedgeExposure(SCALE);
    expect(replayJournal(journal.records(), books)).toEqual(['h2']);
    expect(books.uncoveredUnits()).toBe(ETH18(0.05));
    expect(books.toHedgeUnits()).toBe(0n);
    expect(books.addFill({ orderId: 'a', cumulativeUnits: ETH18(0.1), qtyUnits: ETH18(0.1), baseDeltaUnits: ETH18(0.1) })).toBe(0n);
  });

  it('sizes a sell hedge to what is uncovered, down to the lot; a buy so that what it receives after the fee in base stays within it', () => {
    expect(planHedge({ ...sizing, toHedgeUnits: ETH18(0.12345) })).toMatchObject({ kind: 'order', side: 'sell', qtyVenueUnits: 12_340_000n, expectedUnits: -ETH18(0.1234) });
    const buy = planHedge({ ...sizing, toHedgeUnits: -ETH18(0.1) });
    expect(buy).toMatchObject({ kind: 'order', side: 'buy' });
    if (buy.kind !== 'order') return;
    expect(buy.expectedUnits).toBeLessThanOrEqual(ETH18(0.1));
    expect(buy.qtyVenueUnits).toBe(10_010_000n);
  });

  it('keeps an amount below the minimum notional or lot as dust instead of sending it (hummingbot #5688, #6055)', () => {
    expect(planHedge({ ...sizing, toHedgeUnits: ETH18(0.002) })).toEqual({ kind: 'dust', units: ETH18(0.002), reason: 'notional below the minimum 5 USDT' });
    expect(planHedge({ ...sizing, toHedgeUnits: ETH18(0.00005) })).toMatchObject({ kind: 'dust', reason: 'below the lot minimum 0.0001 ETH' });
  });

  it('hedges what the account can pay and no more; blocks when it cannot pay the smallest hedge', () => {
    const balances = { baseFree: 5_000_000n, baseLocked: 0n, quoteFree: 0n, quoteLocked: 0n, timeMs: 0 };
    expect(planHedge({ ...sizing, balances, toHedgeUnits: ETH18(0.2) })).toMatchObject({ kind: 'order', qtyVenueUnits: 5_000_000n });
    expect(planHedge({ ...sizing, balances, toHedgeUnits: -ETH18(0.2) })).toMatchObject({ kind: 'blocked', reason: 'balance-short' });
    expect(planHedge({ ...sizing, book: undefined, toHedgeUnits: ETH18(0.2) })).toMatchObject({ kind: 'blocked', reason: 'no-book' });
  });

  it('uses an IOC limit no better than the book walked for the size plus the slippage allowance (never a resting order)', () => {
    const plan = planHedge({ ...sizing, orderType: 'ioc', book: { bids: [{ price: 2000, qty: 0.05 }, { price: 1999, qty: 5 }], asks: BOOK.asks }, toHedgeUnits: ETH18(0.1) });
    expect(plan).toMatchObject({ kind: 'order', side: 'sell', type: 'ioc', limitPriceUnits: 199_500_000_000n });
  });

  it('never hedges more than the fills moved, whatever the fills, fees and partial executions (hummingbot #627)', () => {
    const fill = fc.record({ side: fc.constantFrom('buy', 'sell'), size: fc.integer({ min: 1, max: 5_000_000 }), feePbips: fc.integer({ min: 0, max: 2_000 }) });
    const step = fc.record({ fills: fc.array(fill, { maxLength: 3 }), executedShare: fc.double({ min: 0, max: 1, noNaN: true }), hedgeFeeE8: fc.integer({ min: 0, max: 200_000 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const books = new HedgeExposure(SCALE);
        let order = 0;
        let id = 0;
        for (const { fills, executedShare, hedgeFeeE8 } of steps) {
          for (const { side, size, feePbips } of fills) {
            const qty = BigInt(size) * 10n ** 12n;
            const fee = side === 'buy' ? (qty * BigInt(feePbips) + 999_999n) / 1_000_000n : 0n;
            books.addFill({ orderId: `o${order++}`, cumulativeUnits: qty, qtyUnits: qty, baseDeltaUnits: side === 'buy' ? qty - fee : -qty });
          }
          const plan = planHedge({ ...sizing, feeE8: BigInt(hedgeFeeE8), toHedgeUnits: books.toHedgeUnits() });
          if (plan.kind !== 'order') continue;
          const before = books.uncoveredUnits();
          const hedgeId = `h${id++}`;
          books.beginHedge({ id: hedgeId, side: plan.side, qtyVenueUnits: plan.qtyVenueUnits, expectedUnits: plan.expectedUnits, sentAtMs: 0, referencePriceUnits: 0n });
          const executed = (plan.qtyVenueUnits * BigInt(Math.floor(executedShare * 1000))) / 1000n;
          const commission = plan.side === 'buy' ? (executed * BigInt(hedgeFeeE8) + 99_999_999n) / 100_000_000n : 0n;
          books.progress(hedgeId, executed, executed * 2000n, commission, true);
          const after = books.uncoveredUnits();
          // A hedge only ever moves the uncovered position towards zero, never past it.
          if (before > 0n) expect(after >= 0n && after <= before).toBe(true);
          if (before < 0n) expect(after <= 0n && after >= before).toBe(true);
          expect(books.volumes.hedged <= books.volumes.filled).toBe(true);
        }
      }),
      { numRuns: 500, seed: 15 },
    );
  });

  it('measures fill-to-hedge latency per piece of exposure, first in first out, ignoring dust left behind', () => {
    const stats = new HedgeStats();
    stats.dustUnits = 10n;
    stats.exposureChanged(0, 0n, 100n, false);
    stats.exposureChanged(5, 100n, 150n, false);
    stats.exposureChanged(20, 150n, 58n, true);
    stats.exposureChanged(40, 58n, 5n, true);
    expect(stats.figures(40).latencyMsP50).toBe(27.5);
  });
});
