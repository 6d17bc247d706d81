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

  it('lists working and live orders the same as a scan of every order would, whatever the history', () => {
    const action = fc.record({
      kind: fc.constantFrom('add', 'open', 'cancel', 'done', 'fill', 'prune'),
      id: fc.integer({ min: 0, max: 8 }),
      side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 80 }), (actions) => {
        const table = new OrderTable();
        let now = 0;
        for (const step of actions) {
          const id = `o${step.id}`;
          now += 10;
          if (step.kind === 'add') table.addPending(id, step.side, 2n, 100n, now);
          else if (step.kind === 'open') table.markOpen(id);
          else if (step.kind === 'cancel') table.markCancelling(id, now);
          else if (step.kind === 'done') table.markDone(id, 'CANCELLED');
          else if (step.kind === 'fill') table.applyReport({ ...report(100n, 'FILLED'), orderId: id });
          else {
            const before = [...Array(9).keys()].map((i) => table.get(`o${i}`));
            table.prune(now, 30);
            before.forEach((order, i) => {
              const isOldAndDone = order !== undefined && order.phase === 'done' && now - order.createdAtMs > 30;
              expect(table.get(`o${i}`)).toBe(isOldAndDone ? undefined : order);
            });
          }
          const all = [...Array(9).keys()].map((i) => table.get(`o${i}`)).filter((order) => order !== undefined);
          const isWorking = (order: (typeof all)[number]): boolean => order.phase === 'open' || order.phase === 'pending-new';
          for (const side of ['buy', 'sell'] as const) {
            const expected = all.filter((order) => isWorking(order) && order.side === side).map((order) => order.orderId).sort();
            expect(table.working(side).map((order) => order.orderId).sort()).toEqual(expected);
            expect(table.workingCount(side)).toBe(expected.length);
          }
          expect(table.live().map((order) => order.orderId).sort()).toEqual(all.filter((order) => order.phase !== 'done').map((order) => order.orderId).sort());
          expect(table.liveCount()).toBe(table.live().length);
        }
      }),
    );
  });
});
