import { describe, expect, it } from 'vitest';
import { ManualClock, sleep } from '../../src/core/index.ts';

describe('ManualClock', () => {
  it('fires timers in due order, each seeing its own due time', () => {
    const clock = new ManualClock(1_000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.nowMs()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.nowMs()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.nowMs()}`), 20);
    clock.advance(15);
    expect(seen).toEqual(['a@1010']);
    clock.advance(100);
    expect(seen).toEqual(['a@1010', 'b@1020', 'c@1020']);
    expect(clock.nowMs()).toBe(1_115);
  });

  it('repeats intervals until cancelled and never fires a cancelled timer', () => {
    const clock = new ManualClock();
    let ticks = 0;
    const interval = clock.setInterval(() => ticks++, 100);
    const never = clock.setTimeout(() => {
      throw new Error('cancelled timer fired');
    }, 50);
    never.cancel();
    clock.advance(350);
    expect(ticks).toBe(3);
    interval.cancel();
    interval.cancel();
    clock.advance(1_000);
    expect(ticks).toBe(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('runs timers scheduled by timers within the same advance', () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.nowMs());
      clock.setTimeout(() => seen.push(clock.nowMs()), 5);
    }, 5);
    clock.advance(10);
    expect(seen).toEqual([5, 10]);
  });

  it('lets awaited code between timers run with advanceAsync', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const loop = (async () => {
      for (let i = 0; i < 3; i++) {
        await sleep(clock, 100);
        seen.push(clock.nowMs());
      }
    })();
    await clock.advanceAsync(300);
    await loop;
    expect(seen).toEqual([100, 200, 300]);
  });
});
