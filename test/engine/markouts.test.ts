import { describe, expect, it } from 'vitest';
import { MarkoutTracker } from '../../src/engine/index.ts';

describe('MarkoutTracker', () => {
  it('measures each fill against the mid at +1 s, +10 s and +60 s, positive when the fill earned', () => {
    const markouts = new MarkoutTracker();
    markouts.addFill('buy', 100, 0);
    markouts.addFill('sell', 100, 0);
    markouts.observeMid(101, 999);
    expect(markouts.summary().counts).toEqual([0, 0, 0]);
    markouts.observeMid(101, 1_000);
    markouts.observeMid(99, 10_000);
    markouts.observeMid(100, 60_000);
    const summary = markouts.summary();
    expect(summary.counts).toEqual([2, 2, 2]);
    // +1 s: buy +100 bps, sell −100 bps → mean 0; same for +10 s; +60 s both 0.
    expect(summary.meanBps).toEqual([0, 0, 0]);
  });

  it('signs markouts by side', () => {
    const markouts = new MarkoutTracker([1_000]);
    markouts.addFill('buy', 200, 0);
    markouts.observeMid(202, 1_500);
    expect(markouts.summary().meanBps[0]).toBeCloseTo(100, 9);
    markouts.addFill('sell', 200, 2_000);
    markouts.observeMid(202, 3_000);
    expect(markouts.summary().meanBps[0]).toBeCloseTo(0, 9);
  });
});
