import { describe, expect, it } from 'vitest';
import { OrderTracker, orderIdOf } from '../../../src/exchange/venue/index.ts';
import type { ExecutionReport } from '../../../src/exchange/stream/index.ts';
import type { OrderStatus } from '../../../src/core/index.ts';

const HASH = 0xabcn;
const ID = orderIdOf(HASH);

function exec(acc: bigint, status: OrderStatus, fill = 0n): ExecutionReport {
  return {
    orderHash: HASH,
    client: undefined,
    pair: { base: 'ETH', quote: 'USDC' },
    fillPrice: 3000n,
    fillBaseQty: fill,
    fillQuoteQty: fill * 3000n,
    accBaseQty: acc,
    accQuoteQty: acc * 3000n,
    isSellSide: false,
    status,
    matcherResult: 'OK',
    timeMs: 1,
    receivedMs: 1,
  };
}

function tracked(): OrderTracker {
  const tracker = new OrderTracker();
  tracker.register(ID, { side: 'buy', priceUnits: 3000n, qtyUnits: 10n, postOnly: true }, 0);
  return tracker;
}

describe('order reports', () => {
  it('carry cumulative fills with the order price and size and the latest fill as maker', () => {
    const tracker = tracked();
    expect(tracker.onExecution(exec(4n, 'PARTIALLY_FILLED', 4n), 1)).toMatchObject({
      orderId: ID,
      status: 'PARTIALLY_FILLED',
      side: 'buy',
      priceUnits: 3000n,
      qtyUnits: 10n,
      filledQtyUnits: 4n,
      filledQuoteUnits: 12_000n,
      lastFillPriceUnits: 3000n,
      lastFillIsMaker: true,
    });
  });

  it('drop a duplicated report', () => {
    const tracker = tracked();
    expect(tracker.onExecution(exec(4n, 'PARTIALLY_FILLED', 4n), 1)).toBeDefined();
    expect(tracker.onExecution(exec(4n, 'PARTIALLY_FILLED', 4n), 2)).toBeUndefined();
    expect(tracker.dropped).toBe(1);
  });

  it('drop a report that arrives after a newer one, unless it brings a trade not seen yet (fees are per trade)', () => {
    const tracker = tracked();
    tracker.onExecution(exec(10n, 'FILLED', 6n), 1);
    // The first trade's report, late: the state stays the newer one, the trade is passed on.
    const late = tracker.onExecution(exec(4n, 'PARTIALLY_FILLED', 4n), 2);
    expect(late).toMatchObject({ status: 'FILLED', filledQtyUnits: 10n });
    expect(late?.lastTrade).toMatchObject({ qtyUnits: 4n, cumulativeQtyUnits: 4n });
    expect(tracker.onExecution(exec(4n, 'PARTIALLY_FILLED', 4n), 3)).toBeUndefined();
    expect(tracker.onExecution(exec(0n, 'OPEN'), 3)).toBeUndefined();
  });

  it('never leave a final state, but still learn a fill counted late', () => {
    const tracker = tracked();
    tracker.onExecution(exec(4n, 'CANCELLED'), 1);
    const late = tracker.onExecution(exec(6n, 'PARTIALLY_FILLED', 2n), 2);
    expect(late).toMatchObject({ status: 'CANCELLED', filledQtyUnits: 6n });
  });

  it('let OPEN through after the registration, ACC not', () => {
    const tracker = tracked();
    expect(tracker.onExecution(exec(0n, 'ACC'), 1)).toBeUndefined();
    expect(tracker.onExecution(exec(0n, 'OPEN'), 1)).toMatchObject({ status: 'OPEN', lastFillPriceUnits: undefined });
  });

  it('report an order never registered (a leftover) with what the report says', () => {
    const tracker = new OrderTracker();
    expect(tracker.onExecution({ ...exec(2n, 'PARTIALLY_FILLED', 2n), isSellSide: true }, 1)).toMatchObject({ side: 'sell', filledQtyUnits: 2n, lastFillIsMaker: undefined });
  });

  it('merge REST state as matched = filled − failed, never backwards', () => {
    const tracker = tracked();
    tracker.onExecution(exec(6n, 'PARTIALLY_FILLED', 6n), 1);
    const base = { hash: HASH, maker: 1n, base: {} as never, quote: {} as never, price: 3000n, baseQty: 10n, quoteQty: 0n, isSellSide: false, postOnly: true, isEcosystemBook: true, filledQuote: 0n, failedQuote: 0n, createdAtS: 1, nonce: 1 };
    expect(tracker.onVenueOrder(ID, { ...base, status: 'PARTIALLY_FILLED', filledBase: 5n, failedBase: 0n }, 2).filledQtyUnits).toBe(6n);
    expect(tracker.onVenueOrder(ID, { ...base, status: 'FILLED', filledBase: 10n, failedBase: 1n }, 3)).toMatchObject({ status: 'FILLED', filledQtyUnits: 9n });
  });
});
