/**
 * The live clock under a stepped host clock (issue 13: "a clock step of ±2 s on the bot's host"):
 * time follows the monotonic clock and slews towards the wall clock, so a step never hands the
 * outbound budget free tokens, never freezes it, and never fires the dead-man on a live feed.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_SLEW_RATE, LiveClock } from '../../src/core/index.ts';
import { TokenBucket } from '../../src/engine/index.ts';

function host(startMs = 1_700_000_000_000): { wall: number; mono: number; clock: LiveClock; advance(ms: number): void } {
  const state = {
    wall: startMs,
    mono: 5_000,
    clock: undefined as unknown as LiveClock,
    advance(ms: number): void {
      state.wall += ms;
      state.mono += ms;
    },
  };
  state.clock = new LiveClock({ wallMs: () => state.wall, monotonicMs: () => state.mono });
  return state;
}

describe('the live clock when the host clock steps', () => {
  it('follows the wall clock while nothing steps', () => {
    const h = host();
    h.advance(1_234);
    expect(h.clock.nowMs()).toBe(h.wall);
  });

  it('takes a 2 s forward step gradually, at the slew rate, and never by more', () => {
    const h = host();
    h.clock.nowMs();
    h.wall += 2_000;
    const before = h.clock.nowMs();
    expect(before).toBe(h.wall - 2_000);
    h.advance(1_000);
    expect(h.clock.nowMs() - before).toBe(1_000 + 1_000 * CLOCK_SLEW_RATE);
    for (let i = 0; i < 60; i++) h.advance(1_000);
    expect(h.clock.nowMs()).toBe(h.wall);
  });

  it('takes a 2 s backward step without ever going back', () => {
    const h = host();
    let last = h.clock.nowMs();
    h.wall -= 2_000;
    for (let i = 0; i < 500; i++) {
      h.advance(100);
      const now = h.clock.nowMs();
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
    expect(last).toBe(h.wall);
  });

  it('takes a jump beyond the step limit at once (a resumed host)', () => {
    const h = host();
    h.clock.nowMs();
    h.wall += 60_000;
    expect(h.clock.nowMs()).toBe(h.wall);
  });

  it('gives the outbound budget no free tokens on a forward step (the venue would answer 429)', () => {
    const h = host();
    const bucket = new TokenBucket({ ratePerS: 10, burst: 20, reservedForCancels: 0 }, h.clock);
    for (let i = 0; i < 20; i++) expect(bucket.tryTake('front')).toBe(true);
    h.wall += 2_000;
    h.advance(100);
    // 100 ms of real time: one token, not the 2 s (20 tokens) the wall clock claims.
    expect(Math.floor(bucket.available())).toBe(1);
  });
});
