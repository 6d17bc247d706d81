/**
 * A cancel-all that fails after its 200 (chaos `cancel-all-fails`, seed 357684260: the venue's
 * rate limit refused 38 of our requests): each failure raised an alert, each alert started
 * another cancel-everything, each of those sent a cancel-all that failed in turn — a storm. One
 * pull at a time: its loop sends the cancel-all again, backing off, until nothing rests.
 */
import { describe, expect, it } from 'vitest';
import type { CancelOutcome, VenueListener } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

describe('a cancel-all that keeps failing after its 200', () => {
  it('is sent again by one backing-off loop, not once more per failure', async () => {
    const s = quotingSession({ staleFeedMs: 1_000, shutdownTimeoutMs: 10_000 });
    const venue = s.venue;
    let listener: VenueListener | undefined;
    const start = venue.start.bind(venue);
    venue.start = (heard) => {
      listener = heard;
      return start(heard);
    };
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    expect(venue.exchange.restingOrders()).toHaveLength(2);
    // From now on the venue accepts every cancel-all and then fails it, saying so on the stream.
    let cancelAlls = 0;
    venue.cancelAll = (): Promise<CancelOutcome> => {
      cancelAlls++;
      const requestHash = `0x${cancelAlls}`;
      // The fail report comes over the stream, after the 200 (bounded, so a storm fails the test, not the worker).
      if (cancelAlls <= 200) queueMicrotask(() => listener?.onVenueAlert?.({ kind: 'request-failed', action: 'cancel-all', requestHash, orderId: undefined, reason: 'ACTION_FAILED', timeMs: s.clock.nowMs() }));
      return Promise.resolve({ kind: 'rejected', reason: 'failed after acceptance: ACTION_FAILED' });
    };
    // The feed goes quiet: the dead-man pauses quoting and pulls everything, for 3 s.
    for (let t = 300; t <= 3_300; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(s.engine.status().state).toBe('paused');
    // One loop: 50, 100, 200, 400, 800 ms apart, then every second — about eight in 3 s, not hundreds.
    expect(cancelAlls).toBeGreaterThanOrEqual(3);
    expect(cancelAlls).toBeLessThanOrEqual(10);
  });
});
