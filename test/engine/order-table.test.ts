import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderReport, OrderStatus } from '../../src/core/index.ts';
import { OrderTable } from '../../src/engine/index.ts';

const report = (filled: bigint, status: OrderStatus, quote = filled * 2n): OrderReport => ({
  orderId: 'a',
  status,
  side: 'buy',
  priceUnits: 2n,
  qtyUnits: 100n,
  filledQtyUnits: filled,
  filledQuoteUnits: quote,
  lastFillPriceUnits: 2n,
  lastFillIsMaker: true,
  matcherResult: 'OK',
  timeMs: 0,
});

describe('OrderTable', () => {
  it('turns cumulative reports into fill increments', () => {
    const table = new OrderTable();
    table.addPending('a', 'buy', 2n, 100n, 0);
    expect(table.applyReport(report(30n, 'PARTIALLY_FILLED')).fill?.qtyUnits).toBe(30n);
    expect(table.applyReport(report(70n, 'PARTIALLY_FILLED')).fill).toMatchObject({ qtyUnits: 40n, quoteUnits: 80n });
    const last = table.applyReport(report(100n, 'FILLED'));
    expect(last.fill?.qtyUnits).toBe(30n);
    expect(last.becameDone).toBe(true);
    expect(table.liveCount()).toBe(0);
  });

  it('counts each fill once however reports are duplicated or reordered', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 20 }), (cumulatives) => {
        const sorted = [...cumulatives].sort((a, b) => a - b);
        const table = new OrderTable();
        table.addPending('a', 'buy', 2n, 100n, 0);
        let total = 0n;
        // The true sequence, then the same reports again shuffled by fast-check's order.
        for (const c of [...sorted, ...cumulatives]) total += table.applyReport(report(BigInt(c), 'PARTIALLY_FILLED')).fill?.qtyUnits ?? 0n;
        expect(total).toBe(BigInt(Math.max(...cumulatives)));
      }),
    );
  });

  it('reports unknown orders as unknown and leaves the table alone', () => {
    const table = new OrderTable();
    expect(table.applyReport(report(10n, 'OPEN'))).toEqual({ fill: undefined, known: false, becameDone: false });
    expect(table.liveCount()).toBe(0);
  });
});
