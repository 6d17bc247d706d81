/**
 * A pause pulls every order and keeps sending the cancel-all while orders rest, for up to
 * SHUTDOWN_TIMEOUT_MS. Once the pause's reason clears and quoting resumes, that loop must end:
 * left running, it pulled the fresh quotes again (chaos seed 637349982: "cancel-all carried out"
 * while quoting).
 */
import { describe, expect, it } from 'vitest';
import type { CancelOutcome } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

describe('the pull of a pause', () => {
  it('ends when quoting resumes, sending no more cancel-alls', async () => {
    const s = quotingSession({ staleFeedMs: 1_000, shutdownTimeoutMs: 20_000 });
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);
    // The venue takes every cancel-all and carries out none: the pull keeps asking.
    let cancelAlls = 0;
    s.venue.cancelAll = (): Promise<CancelOutcome> => {
      cancelAlls++;
      return Promise.resolve({ kind: 'accepted' });
    };
    // The feed goes quiet: the dead-man pauses quoting and starts pulling.
    for (let t = 300; t <= 3_000; t += 50) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    expect(s.engine.status().state).toBe('paused');
    expect(cancelAlls).toBeGreaterThan(1);
    // Market data again (a top that moves: an unchanged one is no news): the pause clears.
    const moving = (t: number): [number, number] => (t % 200 === 0 ? [1999, 2001] : [1998.5, 2001.5]);
    for (let t = 3_100; t <= 5_000; t += 100) await setBook(s, t, ...moving(t));
    expect(s.engine.status().state).toBe('quoting');
    const atResume = cancelAlls;
    for (let t = 5_100; t <= 15_000; t += 100) await setBook(s, t, ...moving(t));
    expect(cancelAlls - atResume).toBeLessThanOrEqual(1);
    expect(s.engine.status().state).toBe('quoting');
  });
});
