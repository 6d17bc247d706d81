import { describe, expect, it } from 'vitest';
import { CUT_TOLERANCE_MS, SpanError, describeSpan, rollingWindows, splitSpans } from '../../../src/backtest/walkforward/spans.ts';

const T0 = Date.UTC(2024, 6, 23, 16, 0, 0);
const HOUR = 3_600_000;

describe('walk-forward spans', () => {
  it('cuts train and test where the test files start, so no event belongs to both', () => {
    const window = splitSpans({ firstMs: T0, lastMs: T0 + 24 * HOUR }, { firstMs: T0 + 24 * HOUR + 5, lastMs: T0 + 34 * HOUR });
    expect(window.train).toEqual({ fromMs: T0, toMs: T0 + 24 * HOUR + 5 - 0.001 });
    expect(window.test).toEqual({ fromMs: T0 + 24 * HOUR + 5, toMs: T0 + 34 * HOUR });
    expect(window.train.toMs).toBeLessThan(window.test.fromMs);
  });

  it('allows the venue streams of one recording to interleave at the cut, and no more', () => {
    const train = { firstMs: T0, lastMs: T0 + HOUR };
    // A trade stamped a few ms before the last depth update of the training files.
    expect(splitSpans(train, { firstMs: T0 + HOUR - 40, lastMs: T0 + 2 * HOUR }).test.fromMs).toBe(T0 + HOUR - 40);
    expect(() => splitSpans(train, { firstMs: T0 + HOUR - CUT_TOLERANCE_MS - 1, lastMs: T0 + 2 * HOUR })).toThrow(/do not follow the training files/);
  });

  it('refuses test files that come before the training files, and empty spans', () => {
    expect(() => splitSpans({ firstMs: T0 + HOUR, lastMs: T0 + 2 * HOUR }, { firstMs: T0, lastMs: T0 + HOUR / 2 })).toThrow(SpanError);
    expect(() => splitSpans({ firstMs: T0, lastMs: T0 }, { firstMs: T0 + 1, lastMs: T0 + HOUR })).toThrow(/training span is empty/);
    expect(() => splitSpans({ firstMs: T0, lastMs: T0 + HOUR }, { firstMs: T0 + HOUR, lastMs: T0 + HOUR })).toThrow(/test span is empty/);
  });

  it('rolls N test spans over N + 1 equal parts, each tuned on the part before it', () => {
    const windows = rollingWindows({ firstMs: T0, lastMs: T0 + 4 * HOUR }, 3, 'rolling');
    expect(windows.map((window) => window.index)).toEqual([1, 2, 3]);
    expect(windows.map((window) => [window.train.fromMs - T0, window.test.fromMs - T0, window.test.toMs - T0])).toEqual([
      [0, HOUR, 2 * HOUR],
      [HOUR, 2 * HOUR, 3 * HOUR],
      [2 * HOUR, 3 * HOUR, 4 * HOUR],
    ]);
    for (const window of windows) expect(window.train.toMs).toBe(window.test.fromMs - 0.001);
  });

  it('expands the training span to everything before each test span with --expanding', () => {
    const windows = rollingWindows({ firstMs: T0, lastMs: T0 + 3 * HOUR }, 2, 'expanding');
    expect(windows.map((window) => window.train.fromMs)).toEqual([T0, T0]);
    expect(windows.map((window) => window.test.fromMs)).toEqual([T0 + HOUR, T0 + 2 * HOUR]);
  });

  it('refuses more windows than the recording has seconds for', () => {
    expect(() => rollingWindows({ firstMs: T0, lastMs: T0 + 2_500 }, 3, 'rolling')).toThrow(/too short for 4 parts/);
    expect(() => rollingWindows({ firstMs: T0, lastMs: T0 + HOUR }, 0, 'rolling')).toThrow(/whole number ≥ 1/);
  });

  it('describes a span in UTC with its length', () => {
    expect(describeSpan({ fromMs: T0, toMs: T0 + 20 * 60_000 + 19_000 })).toBe('2024-07-23 16:00:00.000 UTC → 2024-07-23 16:20:19.000 UTC (20 min 19 s)');
  });
});
