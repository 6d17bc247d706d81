import { describe, expect, it } from 'vitest';
import { FillMarkoutRecorder, markoutsFromSamples } from '../../src/backtest/fill-markouts.ts';
import type { VenueFill } from '../../src/backtest/replay-venue.ts';

const fill = (timeMs: number, side: 'buy' | 'sell', price: number): VenueFill => ({ timeMs, orderId: String(timeMs), side, price, size: 1, isMaker: true, feeQuote: 0 });

describe('the fill markout recorder', () => {
  it('marks each fill out against the mid in force when each horizon ends, signed so a fill that earned is positive', () => {
    const fills: VenueFill[] = [];
    const recorder = new FillMarkoutRecorder(fills, [100, 1_000]);
    let mid = 100;
    expect(recorder.nextDueMs).toBe(Number.POSITIVE_INFINITY);
    for (const made of [fill(0, 'buy', 100), fill(50, 'sell', 100)]) {
      fills.push(made);
      recorder.noteFill(made.timeMs);
    }
    // Nothing is due before the first fill's shortest horizon has ended.
    expect(recorder.nextDueMs).toBe(100);
    expect(recorder.isDue(100)).toBe(false);
    expect(recorder.isDue(101)).toBe(true);
    mid = 101; // in force from t = 120 on: the first fill's 100 ms ended at t = 100, before it
    recorder.observe(120, () => 100);
    recorder.observe(200, () => mid);
    mid = 99;
    recorder.observe(2_000, () => mid);
    const markouts = recorder.finish(2_000, () => mid);
    expect(markouts.bps).toEqual([
      [0, -100],
      [-100, 100],
    ]);
  });

  it('looks at fills made before it existed on the first event', () => {
    const recorder = new FillMarkoutRecorder([fill(0, 'buy', 100)], [100]);
    expect(recorder.isDue(0)).toBe(true);
    recorder.observe(0, () => 100);
    expect(recorder.nextDueMs).toBe(100);
  });

  it('leaves out the horizons that end after the run', () => {
    const fills = [fill(0, 'buy', 100), fill(900, 'buy', 100)];
    const recorder = new FillMarkoutRecorder(fills, [100, 1_000]);
    const markouts = recorder.finish(1_000, () => 102);
    expect(markouts.bps).toEqual([
      [200, 200],
      [200, null],
    ]);
  });

  it('reads markouts from a sampled path when no recorder ran: the first sample at or after the horizon', () => {
    const samples = [0, 1_000, 2_000].map((timeMs, i) => ({ timeMs, mid: 100 + i }));
    expect(markoutsFromSamples([fill(0, 'buy', 100)], samples, [500, 1_000, 5_000]).bps).toEqual([[100], [100], [null]]);
  });
});
