import { describe, expect, it } from 'vitest';
import { constantLatency, interpolatedLatency } from '../../src/backtest/latency.ts';

describe('latency models', () => {
  it('interpolates recorded latencies per action and holds the ends', () => {
    const model = interpolatedLatency(
      [
        { timeMs: 0, action: 'place', entryMs: 10, responseMs: 20 },
        { timeMs: 100, action: 'place', entryMs: 30, responseMs: 40 },
      ],
      constantLatency(5, 6),
    );
    expect(model.entryMs('place', 50)).toBe(20);
    expect(model.responseMs('place', 25)).toBe(25);
    expect(model.entryMs('place', -10)).toBe(10);
    expect(model.entryMs('place', 1_000)).toBe(30);
    expect(model.entryMs('cancel', 50)).toBe(5);
    expect(model.responseMs('cancel', 50)).toBe(6);
  });
});
