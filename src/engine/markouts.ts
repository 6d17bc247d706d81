/**
 * Fill markouts: how the mid moved after each of our fills, at +1 s, +10 s and +60 s, in basis
 * points of the fill price, signed so that positive means the fill earned (we bought and the mid
 * rose). The adverse-selection figure a market maker tunes by (MM-NOTES §5.5).
 */
import type { Side } from '../core/index.ts';

/** Horizons measured, in ms. */
export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 10_000, 60_000];

interface PendingMarkout {
  readonly side: Side;
  readonly price: number;
  readonly dueMs: number;
  readonly horizonIndex: number;
}

/** Running averages of markouts per horizon. */
export interface MarkoutSummary {
  /** Mean markout (bps) per horizon, undefined until one is measured. */
  readonly meanBps: readonly (number | undefined)[];
  readonly counts: readonly number[];
}

/** Collects fills and resolves their markouts as the mid moves. */
export class MarkoutTracker {
  private pending: PendingMarkout[] = [];
  private readonly sums: number[];
  private readonly counts: number[];

  constructor(private readonly horizonsMs: readonly number[] = MARKOUT_HORIZONS_MS) {
    this.sums = horizonsMs.map(() => 0);
    this.counts = horizonsMs.map(() => 0);
  }

  /** Registers a fill at `price` (quote per base). */
  addFill(side: Side, price: number, timeMs: number): void {
    this.horizonsMs.forEach((horizonMs, horizonIndex) => {
      this.pending.push({ side, price, dueMs: timeMs + horizonMs, horizonIndex });
    });
  }

  /** Resolves every pending markout due at or before `timeMs` with this mid. */
  observeMid(mid: number | undefined, timeMs: number): void {
    if (mid === undefined || this.pending.length === 0) return;
    let kept = 0;
    for (const markout of this.pending) {
      if (markout.dueMs <= timeMs) {
        const sign = markout.side === 'buy' ? 1 : -1;
        const bps = (sign * (mid - markout.price) * 10_000) / markout.price;
        this.sums[markout.horizonIndex] = (this.sums[markout.horizonIndex] ?? 0) + bps;
        this.counts[markout.horizonIndex] = (this.counts[markout.horizonIndex] ?? 0) + 1;
      } else {
        this.pending[kept++] = markout;
      }
    }
    this.pending.length = kept;
  }

  summary(): MarkoutSummary {
    return {
      meanBps: this.sums.map((sum, i) => ((this.counts[i] ?? 0) === 0 ? undefined : sum / (this.counts[i] ?? 1))),
      counts: [...this.counts],
    };
  }
}
