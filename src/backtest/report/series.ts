/**
 * What the report's charts and notes are computed from: per-fill markouts against the sampled
 * mid, our quotes' distance from the recorded touch, a markout histogram, and the "why so few
 * fills" note. Pure functions over the run's samples and fills, so they are tested without a
 * browser.
 */
import { markoutsFromSamples } from '../fill-markouts.ts';
import type { FillRecord } from '../session.ts';
import { isQuoting } from '../scorecard.ts';
import type { PathSample } from '../stats.ts';

/** Markout horizons shown per fill, ms. */
export const MARKOUT_HORIZONS_MS = [1_000, 10_000, 60_000] as const;

/** Markout (bps, positive = the fill earned) of each fill at `horizonMs`, from the sampled mid. */
export function fillMarkouts(fills: readonly FillRecord[], samples: readonly PathSample[], horizonMs: number): (number | null)[] {
  return markoutsFromSamples(fills, samples, [horizonMs]).bps[0] as (number | null)[];
}

/** Distance of our quote from the touch in bps of the mid: 0 at the touch, > 0 behind it, < 0 inside the spread. */
export function touchDistanceBps(sample: PathSample, side: 'bid' | 'ask'): number | null {
  const ours = side === 'bid' ? sample.bid : sample.ask;
  const best = side === 'bid' ? sample.bestBid : sample.bestAsk;
  const mid = sample.mid ?? (sample.bestBid !== undefined && sample.bestAsk !== undefined ? (sample.bestBid + sample.bestAsk) / 2 : undefined);
  if (ours === undefined || best === undefined || mid === undefined || mid <= 0) return null;
  return ((side === 'bid' ? best - ours : ours - best) * 10_000) / mid;
}

/** Bars of a histogram: bin centres and counts. */
export interface Histogram {
  readonly centers: number[];
  readonly counts: number[];
  readonly binWidth: number;
}

/** A step of 1, 2 or 5 × 10^k at least `raw`, so bin edges read as round numbers. */
function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) if (factor * magnitude >= raw) return factor * magnitude;
  return 10 * magnitude;
}

/** A histogram of `values` (nulls skipped) with about √n bins (5 to 40) on round edges. */
export function histogram(values: readonly (number | null)[]): Histogram {
  const present = values.filter((value): value is number => value !== null && Number.isFinite(value));
  if (present.length === 0) return { centers: [], counts: [], binWidth: 0 };
  const min = Math.min(...present);
  const max = Math.max(...present);
  const bins = Math.min(40, Math.max(5, Math.ceil(Math.sqrt(present.length))));
  // One distinct value still gets a narrow bin around it, not a unit-wide one that hides where it is.
  const width = niceStep(max === min ? Math.max(Math.abs(max), 1) / 10 : (max - min) / bins);
  const first = Math.floor(min / width) * width;
  const count = Math.max(1, Math.floor((max - first) / width) + 1);
  const counts = new Array<number>(count).fill(0);
  for (const value of present) {
    const index = Math.min(count - 1, Math.floor((value - first) / width));
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return { centers: counts.map((_, i) => Number((first + (i + 0.5) * width).toPrecision(12))), counts, binWidth: width };
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >>> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** What the note needs besides the path. */
export interface FewFillsContext {
  readonly fills: number;
  readonly ordersSent: number | null;
  /** Share of quoting time with a quote at the touch (the summary's `time_at_touch`). */
  readonly timeAtTouch: number | null;
  /** Price tick in quote tokens, to state distances in ticks too. */
  readonly tick: number;
  /** Lot in base tokens and the base token's name, for the "no orders" hint. */
  readonly lot: number;
  readonly base: string;
}

/** The note's context from a summary's keys and the market's tick, lot and base token. */
export function fewFillsContext(summary: object, market: { readonly tick: number; readonly lot: number; readonly base: string }): FewFillsContext {
  const record = summary as Readonly<Record<string, unknown>>;
  const number = (key: string): number | null => (typeof record[key] === 'number' ? (record[key] as number) : null);
  return { fills: number('fills') ?? 0, ordersSent: number('orders_sent'), timeAtTouch: number('time_at_touch'), ...market };
}

/** Below this share of quoting time at the touch, the report explains where the quotes were. */
export const RARELY_AT_TOUCH = 0.2;

function fmt(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return abs >= 0.1 || abs === 0 ? value.toFixed(2) : String(Number(value.toPrecision(2)));
}

/**
 * A short explanation when the run traded little: no orders at all, or quotes rarely at the
 * touch (where they were, how far, against what spread). Undefined when there is nothing to say.
 */
export function fewFillsNote(samples: readonly PathSample[], context: FewFillsContext): string | undefined {
  if (context.ordersSent === 0) {
    return (
      `No orders reached the venue, so nothing could fill. Check that the strategy's order size (e.g. LADDER_ORDER_SIZE) ` +
      `is at least the recording's lot (${context.lot} ${context.base}) and that --initial-base covers an order.`
    );
  }
  const share = context.timeAtTouch;
  if (share === null || share >= RARELY_AT_TOUCH) return undefined;
  const distance = (side: 'bid' | 'ask'): string => {
    const values = samples.filter(isQuoting).map((sample) => touchDistanceBps(sample, side)).filter((value): value is number => value !== null);
    const bps = median(values);
    if (bps === undefined) return `no ${side} rested`;
    const mid = median(samples.map((sample) => sample.mid).filter((value): value is number => value !== undefined)) ?? 0;
    const ticks = context.tick > 0 ? (bps * mid) / 10_000 / context.tick : undefined;
    return `the ${side} a median ${fmt(bps)} bps${ticks === undefined ? '' : ` (${Math.abs(ticks) >= 10 ? ticks.toFixed(0) : String(Number(ticks.toFixed(2)))} ticks)`} behind the best ${side}`;
  };
  const spreads = samples
    .map((sample) => (sample.bestBid !== undefined && sample.bestAsk !== undefined && sample.mid !== undefined && sample.mid > 0 ? ((sample.bestAsk - sample.bestBid) * 10_000) / sample.mid : undefined))
    .filter((value): value is number => value !== undefined);
  const spread = median(spreads);
  return (
    `Why so few fills: our quotes were at the touch only ${(share * 100).toFixed(1)} % of the time we quoted, with ${distance('bid')} and ${distance('ask')}` +
    `${spread === undefined ? '' : `, while the market's own spread was a median ${fmt(spread)} bps`}. ` +
    `A resting order fills only when a trade reaches its price or the book moves through it, so quotes that far out fill only on large moves. ` +
    `To trade more, quote closer to the touch (a smaller spread setting, e.g. LADDER_BID_SPREAD_BPS) or sweep the spread with --sweep.`
  );
}
