/**
 * SIGTERM while a pause's pull is still running (chaos seeds 637349982, 3237478000: an exchange
 * restart paused quoting, its cancel-all loop ran on with its own 5 s deadline, and the shutdown
 * joined it a moment before that deadline passed). The shutdown must not inherit a verdict given
 * at someone else's deadline: with its own budget left it pulls again, and confirms.
 */
import { describe, expect, it } from 'vitest';
import type { CancelOutcome } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

const SHUTDOWN_TIMEOUT_MS = 5_000;

describe('a shutdown that joins a pull begun for a pause', () => {
  it('pulls again within its own budget when the joined pull gives up, and confirms', async () => {
    const s = quotingSession({ staleFeedMs: 1_000, shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS });
    const venue = s.venue;
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    expect(venue.exchange.restingOrders()).toHaveLength(2);
    // While the venue is in trouble its cancel-alls are lost: accepted, never carried out.
    const cancelAll = venue.cancelAll.bind(venue);
    let firstLostMs: number | undefined;
    venue.cancelAll = (): Promise<CancelOutcome> => {
      firstLostMs ??= s.clock.nowMs();
      return Promise.resolve({ kind: 'accepted' });
    };
    // The feed goes quiet: the dead-man pauses quoting and starts pulling, with a 5 s deadline.
    for (let t = 250; firstLostMs === undefined && t <= 3_000; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(s.engine.status().state).toBe('paused');
    expect(firstLostMs).toBeDefined();
    const pullDeadlineMs = (firstLostMs ?? 0) + SHUTDOWN_TIMEOUT_MS;
    for (let t = (firstLostMs ?? 0) + 50; t <= pullDeadlineMs + 1; t += 50) {
      await s.advanceTo(Math.min(t, pullDeadlineMs + 1));
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    // Just past the pull's deadline, while its loop sleeps: the venue is well again and SIGTERM comes.
    expect(venue.exchange.restingOrders()).toHaveLength(2);
    venue.cancelAll = cancelAll;
    const stopping = s.engine.stop();
    let outcome: Awaited<typeof stopping> | undefined;
    void stopping.then((result) => (outcome = result));
    for (let t = pullDeadlineMs + 50; outcome === undefined && t <= pullDeadlineMs + 2 * SHUTDOWN_TIMEOUT_MS; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(outcome?.confirmed).toBe(true);
    expect(outcome?.ordersThatMayRest).toEqual([]);
    expect(venue.exchange.restingOrders()).toHaveLength(0);
  });
});
