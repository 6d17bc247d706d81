import { describe, expect, it } from 'vitest';
import { PathSeries, type SampleInput } from '../../src/backtest/path-series.ts';

const base: SampleInput = {
  timeMs: 1_721_836_800_000,
  mid: 1.2155,
  bid: 1.215,
  ask: undefined,
  bestBid: 1.215,
  bestAsk: 1.216,
  inventory: -0.25,
  netInventory: undefined,
  pnl: 0.0125,
  components: { spread: 0.02, inventory: -0.005, fees: -0.002, gas: -0.0005 },
  referenceFair: undefined,
  basisBps: undefined,
  model: undefined,
};

describe('the path series', () => {
  it('gives back every field of every sample as pushed, absent ones as undefined, over chunk boundaries', () => {
    const series = new PathSeries();
    for (let i = 0; i < 5_000; i++) series.push({ ...base, timeMs: base.timeMs + i * 1_000, pnl: i / 7 }, 1_000, 0);
    expect(series.samples).toHaveLength(5_000);
    const sample = series.samples[4_321];
    expect(sample?.timeMs).toBe(base.timeMs + 4_321_000);
    expect(sample?.pnl).toBe(4_321 / 7);
    expect([sample?.mid, sample?.bid, sample?.ask, sample?.bestBid, sample?.bestAsk, sample?.inventory, sample?.netInventory]).toEqual([1.2155, 1.215, undefined, 1.215, 1.216, -0.25, undefined]);
    expect(sample?.components).toEqual(base.components);
    expect([sample?.referenceFair, sample?.basisBps, sample?.model]).toEqual([undefined, undefined, undefined]);
  });

  it('repeats a state over a gap at later times, and keeps a hedge, a reference and the model internals where given', () => {
    const series = new PathSeries();
    series.push(base, 1_000, 0);
    const model = { sigmaBps: 3.5, halfSpreadBps: 6, signals: { tradeImbalance: 0.2 } };
    series.push({ ...base, timeMs: base.timeMs + 1_000, netInventory: 0.1, components: { ...base.components, hedge: -0.01 }, referenceFair: 1.2157, basisBps: -1.5, model }, 1_000, 2);
    expect(series.samples.map((s) => s.timeMs - base.timeMs)).toEqual([0, 1_000, 2_000, 3_000]);
    const last = series.samples[3];
    expect([last?.netInventory, last?.components?.hedge, last?.referenceFair, last?.basisBps]).toEqual([0.1, -0.01, 1.2157, -1.5]);
    expect(last?.model).toEqual(model);
    expect(series.samples[0]?.model).toBeUndefined();
    expect(series.samples[0]?.components).not.toHaveProperty('hedge');
  });
});
