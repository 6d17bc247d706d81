/**
 * The spans of a walk-forward study, as exchange-time windows over one stream of recordings: a
 * training span and the test span after it (`walkforward --train … --test …`), or N test spans in
 * a row over one long recording, each tuned on what came before it (`--windows N`). Pure: times
 * in, windows out. The replay of a window builds the book from everything before it, so a test
 * span starts with the book as it stood (src/backtest/data/window.ts).
 */
import type { RecordingSpan, TimeWindow } from '../data/index.ts';
import { formatDuration, formatUtc } from '../format.ts';

/** One step of a walk-forward: tune on `train`, then run the frozen settings on `test`. */
export interface WalkforwardWindow {
  /** 1-based, in time order. */
  readonly index: number;
  readonly train: TimeWindow;
  readonly test: TimeWindow;
}

/** `rolling`: each test span is tuned on the span just before it; `expanding`: on everything before it. */
export type RollingMode = 'rolling' | 'expanding';

/**
 * Files of one continuous recording may interleave at a cut by this much: a venue's streams keep
 * their own clocks (a trade stamped a few ms before the depth update received just before it), so
 * the first event of the test files may be stamped slightly before the last of the training files.
 * A larger overlap is a test span that does not follow the training span.
 */
export const CUT_TOLERANCE_MS = 1_000;

/** Spans that cannot make a walk-forward; the message says which and why. */
export class SpanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpanError';
  }
}

/**
 * Less than a cut by one microsecond: a window keeps `fromMs ≤ t ≤ toMs`, so the training span
 * ends just before the cut and the test span starts at it, and no event belongs to both.
 */
const JUST_BEFORE_MS = 0.001;

/**
 * The training and test spans of a stream cut at `cutMs` (the first event time of the test files).
 * @param train the span of the training files' events.
 * @param test the span of the test files' events (its `firstMs` is the cut).
 * @throws SpanError when the test span does not follow the training span (out of order, or
 *   overlapping by more than {@link CUT_TOLERANCE_MS}) or either span is empty.
 */
export function splitSpans(train: RecordingSpan, test: RecordingSpan): WalkforwardWindow {
  const cutMs = test.firstMs;
  if (!(train.lastMs > train.firstMs)) throw new SpanError(`the training span is empty (${describeSpan(train)})`);
  if (!(test.lastMs > test.firstMs)) throw new SpanError(`the test span is empty (${describeSpan(test)})`);
  if (cutMs <= train.firstMs || cutMs < train.lastMs - CUT_TOLERANCE_MS) {
    throw new SpanError(`the test files (${describeSpan(test)}) do not follow the training files (${describeSpan(train)}): give --train the earlier recordings and --test the ones that continue them, without overlap`);
  }
  return { index: 1, train: { fromMs: train.firstMs, toMs: cutMs - JUST_BEFORE_MS }, test: { fromMs: cutMs, toMs: test.lastMs } };
}

/**
 * N test spans over one stream: its time span cut into N + 1 equal parts; window k (1…N) tests on
 * part k and trains on part k − 1 (`rolling`) or on parts 0…k − 1 (`expanding`).
 * @throws SpanError for N < 1 or a stream too short for N + 1 parts of at least a second.
 */
export function rollingWindows(stream: RecordingSpan, count: number, mode: RollingMode): WalkforwardWindow[] {
  if (!Number.isInteger(count) || count < 1) throw new SpanError(`--windows ${count}: a whole number ≥ 1 of test spans is needed`);
  const partMs = (stream.lastMs - stream.firstMs) / (count + 1);
  if (!(partMs >= 1_000)) throw new SpanError(`the recording (${describeSpan(stream)}) is too short for ${count + 1} parts of at least a second each: fewer --windows`);
  const edge = (part: number): number => (part === count + 1 ? stream.lastMs : stream.firstMs + part * partMs);
  return Array.from({ length: count }, (_, i) => {
    const part = i + 1;
    return {
      index: part,
      train: { fromMs: mode === 'rolling' ? edge(part - 1) : stream.firstMs, toMs: edge(part) - JUST_BEFORE_MS },
      test: { fromMs: edge(part), toMs: edge(part + 1) },
    };
  });
}

/** `2024-08-08 23:54:14.024 UTC → 2024-08-08 23:59:59.900 UTC (5 min 45 s)`. */
export function describeSpan(span: RecordingSpan | TimeWindow): string {
  const [from, to] = 'firstMs' in span ? [span.firstMs, span.lastMs] : [span.fromMs, span.toMs];
  return `${formatUtc(from)} → ${formatUtc(to)} (${formatDuration(to - from)})`;
}
