/**
 * A cancel that never took (reset before the venue applied it, or failed after its 200) must not
 * leave the order resting beside its replacement: the heal sees it still listed and sends the
 * cancel again (chaos "no-duplicate-intent": two of our orders at one side and price).
 */
import { describe, expect, it } from 'vitest';
import { quotingSession, setBook } from './session.ts';

describe('a cancel that never took', () => {
  it('is sent again once the heal finds the order still resting, so no second order joins it', async () => {
    const s = quotingSession();
    const venue = s.venue;
    const cancel = venue.cancelOrder.bind(venue);
    let lost = 0;
    venue.cancelOrder = (orderId) => {
      // The first cancel is lost on the wire: the venue never saw it, the answer never came.
      if (lost++ === 0) return Promise.resolve({ kind: 'unknown', reason: 'connection reset before the request was applied' });
      return cancel(orderId);
    };
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    expect(s.venue.exchange.restingOrders().map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    // The fair price drops 0.3 USDC: the bid (still under the best ask) is too aggressive and is
    // replaced; its cancel is lost.
    await setBook(s, 300, 1998.7, 2000.7);
    await setBook(s, 400, 1998.7, 2000.7);
    const bidsNow = (): number => s.venue.exchange.restingOrders().filter((o) => o.side === 'buy').length;
    expect(bidsNow()).toBe(2);
    // Time passes; the heal the lost cancel asked for looks again once the cancel is overdue.
    for (let t = 500; t <= 3_000; t += 100) await setBook(s, t, 1998.7, 2000.7);
    expect(bidsNow()).toBe(1);
    expect(s.venue.exchange.restingOrders().find((o) => o.side === 'buy')?.priceTicks).toBe(Math.round((1999.7 - 0.5) * 100));
    await s.finish();
  });
});
