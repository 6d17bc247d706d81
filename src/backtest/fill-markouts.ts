/**
 * Each fill's markout at every horizon of the markout curve, 100 ms to 60 s, as the backtest
 * replays: one definition for the summary's markout keys, their error bars, the report's curve
 * and its fills table. A fill's markout at horizon h is the mid in force h after the fill's
 * exchange time against the fill price, in bps of the price, signed so that positive means the
 * fill earned (we bought and the mid rose). The mid is the engine's (the path samples' `mid`),
 * read at the last recorded event before the horizon ends, so the 100 ms point is as fine as the
 * recording; a horizon that ends after the run is left out (null), never guessed.
 */
import type { VenueFill } from './replay-venue.ts';

/** Horizons of the markout curve, ms: log-spaced from 100 ms to 60 s (1-2-5 steps, and 30 s). */
export const MARKOUT_CURVE_MS: readonly number[] = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000];

/** What a markout reads of a fill: when, which side, at what price. */
export type MarkedFill = Pick<VenueFill, 'timeMs' | 'side' | 'price'>;

/** Every fill's markout per horizon. */
export interface FillMarkouts {
  readonly horizonsMs: readonly number[];
  /** `bps[h][f]`: fill f's markout at horizon h, bps; null when the horizon ended after the run (or no mid). */
  readonly bps: readonly (readonly (number | null)[])[];
}

/** A fill's markout, bps of its price, positive = the fill earned. */
export function markoutBps(fill: Pick<VenueFill, 'side' | 'price'>, mid: number): number {
  const sign = fill.side === 'buy' ? 1 : -1;
  return (sign * (mid - fill.price) * 10_000) / fill.price;
}

/**
 * Resolves the markouts of a pair's fills as replayed time passes their horizons. The replay
 * asks `isDue` before every event: one comparison with the next horizon's end, which is ∞ while
 * no fill waits for a markout; the venue tells the recorder of each fill (`noteFill`).
 */
export class FillMarkoutRecorder {
  /** Earliest horizon end not yet resolved (∞ when none): `timeMs > nextDueMs` is the per-event test. */
  nextDueMs = Number.POSITIVE_INFINITY;
  private readonly bps: (number | null)[][];
  /** Per horizon, the first fill whose markout there is unresolved (fills come in time order). */
  private readonly cursors: number[];
  private readonly shortestHorizonMs: number;

  constructor(
    /** The venue's fills, appended as they happen (each then told to `noteFill`). */
    private readonly fills: readonly MarkedFill[],
    private readonly horizonsMs: readonly number[] = MARKOUT_CURVE_MS,
  ) {
    this.bps = horizonsMs.map(() => []);
    this.cursors = horizonsMs.map(() => 0);
    this.shortestHorizonMs = Math.min(...horizonsMs);
    // Fills from before the recorder: looked at on the first event.
    if (fills.length > 0) this.nextDueMs = Number.NEGATIVE_INFINITY;
  }

  /** A fill at `timeMs` was appended to the fills: its first markout is due when the shortest horizon ends. */
  noteFill(timeMs: number): void {
    const due = timeMs + this.shortestHorizonMs;
    if (due < this.nextDueMs) this.nextDueMs = due;
  }

  /** True when a horizon ended before `timeMs`. */
  isDue(timeMs: number): boolean {
    return timeMs > this.nextDueMs;
  }

  /** Resolves every horizon that ended before `timeMs` with `mid()`, the mid in force until now. */
  observe(timeMs: number, mid: () => number | undefined): void {
    const fills = this.fills;
    let midNow: number | undefined | null = null;
    let next = Number.POSITIVE_INFINITY;
    this.horizonsMs.forEach((horizonMs, h) => {
      const row = this.bps[h] as (number | null)[];
      let cursor = this.cursors[h] as number;
      while (cursor < fills.length && (fills[cursor] as MarkedFill).timeMs + horizonMs < timeMs) {
        if (midNow === null) midNow = mid();
        row[cursor] = midNow === undefined ? null : markoutBps(fills[cursor] as MarkedFill, midNow);
        cursor++;
      }
      this.cursors[h] = cursor;
      if (cursor < fills.length) next = Math.min(next, (fills[cursor] as MarkedFill).timeMs + horizonMs);
    });
    this.nextDueMs = next;
  }

  /** The run ended at `endMs`: horizons ending by then resolve with `mid()`, later ones stay null. */
  finish(endMs: number, mid: () => number | undefined): FillMarkouts {
    this.observe(endMs + 1, mid);
    const count = this.fills.length;
    return { horizonsMs: this.horizonsMs, bps: this.bps.map((row) => Array.from({ length: count }, (_, i) => row[i] ?? null)) };
  }
}

/**
 * Markouts from a sampled path instead (a run recorded without the recorder, a test's fixture):
 * the mid of the first sample at or after the horizon's end; null past the last sample.
 */
export function markoutsFromSamples(fills: readonly MarkedFill[], samples: readonly { readonly timeMs: number; readonly mid: number | undefined }[], horizonsMs: readonly number[] = MARKOUT_CURVE_MS): FillMarkouts {
  const bps = horizonsMs.map((horizonMs) =>
    fills.map((fill) => {
      const target = fill.timeMs + horizonMs;
      let low = 0;
      let high = samples.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((samples[middle] as { readonly timeMs: number }).timeMs < target) low = middle + 1;
        else high = middle;
      }
      const mid = samples[low]?.mid;
      return mid === undefined ? null : markoutBps(fill, mid);
    }),
  );
  return { horizonsMs, bps };
}

/** Mean of the present values; undefined when none is. */
export function meanPresent(values: readonly (number | null)[]): number | undefined {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    count++;
  }
  return count === 0 ? undefined : sum / count;
}
