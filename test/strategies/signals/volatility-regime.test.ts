import { describe, expect, it } from 'vitest';
import { VolatilityRegime } from '../../../strategies/index.ts';

describe('short and long volatility with a regime ratio', () => {
  it('is the square root of the weighted rate of squared log returns, in bps per √s', () => {
    const vol = new VolatilityRegime(10_000, 300_000);
    vol.onMid(0, 100);
    vol.onMid(0, 100.01); // a 1 bp move (log return ≈ 0.99995 bp)
    const returnBps = 10_000 * Math.log(100.01 / 100);
    const value = vol.value(0);
    expect(value.shortBps).toBeCloseTo(Math.sqrt((returnBps ** 2 * Math.LN2) / 10), 12);
    expect(value.longBps).toBeCloseTo(Math.sqrt((returnBps ** 2 * Math.LN2) / 300), 12);
    expect(value.ratio).toBeCloseTo(Math.sqrt(30), 10);
  });

  it('reads a ratio near 1 under a steady stream of equal moves, and above 1 after a burst', () => {
    const vol = new VolatilityRegime(1_000, 30_000);
    let mid = 100;
    for (let t = 0; t <= 300_000; t += 100) {
      mid = mid === 100 ? 100.01 : 100;
      vol.onMid(t, mid);
    }
    expect(vol.value(300_000).ratio).toBeGreaterThan(0.9);
    expect(vol.value(300_000).ratio).toBeLessThan(1.1);
    for (let t = 300_010; t <= 300_500; t += 10) {
      mid = mid === 100 ? 100.05 : 100;
      vol.onMid(t, mid);
    }
    expect(vol.value(300_500).ratio).toBeGreaterThan(3);
  });

  it('reads 0 and a ratio of 1 before any move, and skips an unusable mid without a return across it', () => {
    const vol = new VolatilityRegime(1_000, 30_000);
    expect(vol.value(0)).toEqual({ shortBps: 0, longBps: 0, ratio: 1 });
    vol.onMid(0, 100);
    vol.onMid(1, undefined);
    vol.onMid(2, 200);
    expect(vol.value(2).shortBps).toBe(0);
  });
});
