import { describe, expect, it } from 'vitest';
import { createRng, createSilentLogger, ManualClock } from '../../../src/core/index.ts';
import { BookSync } from '../../../src/exchange/stream/index.ts';
import type { BookSnapshot } from '../../../src/exchange/client/index.ts';
import type { BookDelta } from '../../../src/exchange/book/index.ts';

function delta(start: number, end: number, bidPrice: bigint, qty: bigint): BookDelta {
  return { bids: [{ price: bidPrice, qty, orders: 1 }], asks: [], msgIdStart: BigInt(start), msgIdEnd: BigInt(end) };
}

function harness(snapshots: (BookSnapshot | Error)[]) {
  const clock = new ManualClock();
  let fetches = 0;
  let release: (() => void) | undefined;
  const sync = new BookSync({
    clock,
    rng: createRng(1),
    logger: createSilentLogger(),
    fetchSnapshot: async () => {
      const next = snapshots[Math.min(fetches++, snapshots.length - 1)];
      await new Promise<void>((resolve) => (release = resolve));
      if (next instanceof Error || next === undefined) throw next ?? new Error('none');
      return next;
    },
  });
  return { sync, clock, fetches: () => fetches, release: async () => {
    await Promise.resolve();
    release?.();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  } };
}

const snapshot = (msgId: number): BookSnapshot => ({ bids: [{ price: 100n, qty: 1n, orders: 1 }], asks: [{ price: 200n, qty: 1n, orders: 1 }], msgId: BigInt(msgId) });

describe('book sync', () => {
  it('buffers deltas during the snapshot and replays only the newer ones', async () => {
    const { sync, release } = harness([snapshot(10)]);
    sync.resync('subscribed');
    sync.onDelta(delta(9, 10, 100n, 9n));
    sync.onDelta(delta(11, 11, 101n, 2n));
    await release();
    expect(sync.book.msgId).toBe(11n);
    expect(sync.book.bestBid()).toEqual({ price: 101n, qty: 2n, orders: 1 });
    expect(sync.book.levels('buy').find((l) => l.price === 100n)?.qty).toBe(1n);
  });

  it('resyncs from a fresh snapshot on a sequence gap', async () => {
    const { sync, release, fetches } = harness([snapshot(10), snapshot(20)]);
    sync.resync('subscribed');
    await release();
    sync.onDelta(delta(12, 12, 150n, 1n));
    expect(sync.stats.gaps).toBe(1);
    expect(sync.book.isSynced()).toBe(false);
    expect(fetches()).toBe(2);
    sync.onDelta(delta(21, 21, 160n, 1n));
    await release();
    expect(sync.book.msgId).toBe(21n);
    expect(sync.book.bestBid()?.price).toBe(160n);
  });

  it('retries a failed snapshot after a backoff on the injected clock', async () => {
    const { sync, release, clock, fetches } = harness([new Error('503'), snapshot(5)]);
    sync.resync('subscribed');
    await release();
    expect(fetches()).toBe(1);
    clock.advance(1_000);
    expect(fetches()).toBe(2);
    await release();
    expect(sync.book.msgId).toBe(5n);
  });
});
