import { describe, expect, it } from 'vitest';
import { heapFloors, trendPerHour, type MemorySample } from '../../tools/chaos/daemon-memory.ts';

function sample(minute: number, rssMb: number, heapUsedMb: number): MemorySample {
  return { minute, rssMb, anonMb: rssMb - 45, fileMb: 45, threads: 11, heapUsedMb, heapTotalMb: heapUsedMb + 8, externalMb: 10, orders: 0, filled: 0 };
}

describe('the memory run’s trend', () => {
  it('finds a steady leak and an interval that excludes zero', () => {
    const points = Array.from({ length: 56 }, (_, index) => ({ minute: index + 5, value: 100 + (index + 5) * 0.1 + (index % 2 === 0 ? 0.3 : -0.3) }));
    const trend = trendPerHour(points);
    expect(trend.perHour).toBeCloseTo(6, 1);
    expect(trend.low).toBeGreaterThan(0);
    expect(trend.high).toBeGreaterThan(trend.perHour);
  });

  it('holds zero for flat memory with a heap sawtooth on top', () => {
    const points = Array.from({ length: 56 }, (_, index) => ({ minute: index + 5, value: 100 + [0, 2, 4, 1, -3][index % 5]! }));
    const trend = trendPerHour(points);
    expect(trend.low).toBeLessThan(0);
    expect(trend.high).toBeGreaterThan(0);
  });

  it('is unknown from fewer than three samples', () => {
    expect(trendPerHour([{ minute: 1, value: 1 }, { minute: 2, value: 5 }])).toEqual({ perHour: 0, low: -Infinity, high: Infinity });
  });

  it('takes the lowest heap in use of each block from the first sample on', () => {
    const samples = [sample(5, 100, 30), sample(6, 101, 25), sample(14, 99, 27), sample(15, 100, 31), sample(20, 100, 26), sample(25, 100, 24)];
    expect(heapFloors(samples, 10)).toEqual([
      { minute: 10, value: 25 },
      { minute: 20, value: 26 },
      { minute: 30, value: 24 },
    ]);
  });
});
