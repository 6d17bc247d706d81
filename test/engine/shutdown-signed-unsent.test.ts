/**
 * SIGTERM while a side's batch is still being signed: the first placement of the batch is signed
 * and in the table, waiting for the second's signature before both are sent. A shutdown's
 * cancel-all confirmed meanwhile took the first for cancelled (the venue did not know it yet), and
 * the batch then sent it: it came to rest on the venue after the engine stopped, "confirmed"
 * (a CI run of test/integration/log-keys: paper stopped with 2 open orders left).
 */
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, MarketView, OrderIntent, SignedOrder, Strategy } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

/** Two bids a tick apart: one side's batch of two placements. */
const twoBids: Strategy = {
  name: 'two-bids',
  quote: (view: MarketView): DesiredQuote[] =>
    view.fair === undefined
      ? []
      : [
          { side: 'buy', price: view.fair - 0.5, size: 0.1, level: 0 },
          { side: 'buy', price: view.fair - 0.6, size: 0.1, level: 1 },
        ],
};

describe('a shutdown while a batch is half signed', () => {
  it('waits for the signed placement to arrive, cancels it, and leaves nothing resting', async () => {
    const s = quotingSession({ shutdownTimeoutMs: 5_000 }, { strategy: twoBids });
    const venue = s.venue;
    const sign = venue.signOrder.bind(venue);
    let releaseSecond: (() => void) | undefined;
    let signatures = 0;
    venue.signOrder = async (intent: OrderIntent): Promise<SignedOrder> => {
      signatures++;
      if (signatures === 2) await new Promise<void>((resolve) => (releaseSecond = resolve));
      return sign(intent);
    };
    await s.start();
    await setBook(s, 100, 1999, 2001);
    for (let i = 0; i < 20 && releaseSecond === undefined; i++) await Promise.resolve();
    expect(releaseSecond).toBeDefined();
    expect(venue.exchange.restingOrders()).toHaveLength(0);

    const stopping = s.engine.stop();
    let outcome: Awaited<typeof stopping> | undefined;
    void stopping.then((result) => (outcome = result));
    // The shutdown's cancel-all and first listings run while the second signature is held.
    for (let t = 150; t <= 400; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(outcome).toBeUndefined();
    releaseSecond?.();
    for (let t = 450; outcome === undefined && t <= 10_000; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(outcome?.confirmed).toBe(true);
    expect(venue.exchange.restingOrders()).toHaveLength(0);
  });
});
