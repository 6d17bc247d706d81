import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LocalBook, type BookLevelUnits } from '../../../src/exchange/book/index.ts';

const level = (price: bigint, qty: bigint, orders = 1): BookLevelUnits => ({ price, qty, orders });

function synced(): LocalBook {
  const book = new LocalBook();
  book.applySnapshot([level(100n, 5n), level(99n, 3n)], [level(101n, 4n), level(103n, 1n)], 10n);
  return book;
}

describe('local book', () => {
  it('keeps bids and asks best first from a snapshot', () => {
    const book = synced();
    expect(book.bestBid()).toEqual(level(100n, 5n));
    expect(book.bestAsk()).toEqual(level(101n, 4n));
    expect(book.levels('sell').map((l) => l.price)).toEqual([101n, 103n]);
    expect(book.midPrice()).toBe(100n);
  });

  it('applies the next delta with absolute volumes, zero deleting a level', () => {
    const book = synced();
    expect(book.applyDelta({ bids: [level(100n, 0n), level(99n, 7n)], asks: [level(102n, 2n)], msgIdStart: 11n, msgIdEnd: 12n })).toEqual({ kind: 'applied' });
    expect(book.bestBid()).toEqual(level(99n, 7n));
    expect(book.levels('sell').map((l) => l.price)).toEqual([101n, 102n, 103n]);
    expect(book.msgId).toBe(12n);
  });

  it('ignores a delta the book already includes', () => {
    const book = synced();
    expect(book.applyDelta({ bids: [level(100n, 1n)], asks: [], msgIdStart: 9n, msgIdEnd: 10n })).toEqual({ kind: 'stale' });
    expect(book.bestBid()?.qty).toBe(5n);
  });

  it('applies a delta that overlaps the book and ends after it', () => {
    const book = synced();
    expect(book.applyDelta({ bids: [level(100n, 2n)], asks: [], msgIdStart: 9n, msgIdEnd: 11n }).kind).toBe('applied');
    expect(book.msgId).toBe(11n);
  });

  it('reports a gap when ids are missing', () => {
    const book = synced();
    expect(book.applyDelta({ bids: [], asks: [], msgIdStart: 12n, msgIdEnd: 12n })).toEqual({ kind: 'gap', expected: 11n, got: 12n });
    expect(book.msgId).toBe(10n);
  });

  it('buffers nothing itself before a snapshot: it says unsynced', () => {
    expect(new LocalBook().applyDelta({ bids: [], asks: [], msgIdStart: 1n, msgIdEnd: 1n })).toEqual({ kind: 'unsynced' });
  });

  it('detects a crossed copy', () => {
    const book = synced();
    book.applyDelta({ bids: [level(102n, 1n)], asks: [], msgIdStart: 11n, msgIdEnd: 11n });
    expect(book.isCrossed()).toBe(true);
  });

  it('equals a plain map model after any sequence of contiguous deltas', () => {
    const update = fc.record({ bid: fc.boolean(), price: fc.bigInt({ min: 1n, max: 30n }), qty: fc.bigInt({ min: 0n, max: 5n }) });
    fc.assert(
      fc.property(fc.array(fc.array(update, { maxLength: 5 }), { maxLength: 40 }), (deltas) => {
        const book = new LocalBook();
        book.applySnapshot([], [], 0n);
        const model = { bid: new Map<bigint, bigint>(), ask: new Map<bigint, bigint>() };
        deltas.forEach((updates, index) => {
          const bids = updates.filter((u) => u.bid).map((u) => level(u.price, u.qty));
          const asks = updates.filter((u) => !u.bid).map((u) => level(u.price, u.qty));
          book.applyDelta({ bids, asks, msgIdStart: BigInt(index + 1), msgIdEnd: BigInt(index + 1) });
          for (const u of updates) {
            const side = u.bid ? model.bid : model.ask;
            if (u.qty === 0n) side.delete(u.price);
            else side.set(u.price, u.qty);
          }
        });
        const sorted = (map: Map<bigint, bigint>, descending: boolean): [bigint, bigint][] =>
          [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1) * (descending ? -1 : 1));
        expect(book.levels('buy').map((l) => [l.price, l.qty])).toEqual(sorted(model.bid, true));
        expect(book.levels('sell').map((l) => [l.price, l.qty])).toEqual(sorted(model.ask, false));
      }),
    );
  });
});
