/**
 * What the hedger measures: fill-to-hedge latency (each piece of exposure a fill added, from the
 * fill until hedges covered it, first in first out), slippage (each hedge's average price against
 * the hedge book's touch when it was decided, bps, positive = worse), the share of time something
 * hedgeable stood uncovered, and counts. Pure bookkeeping on the times it is given.
 */

/** Latencies kept for the median (the most recent). */
const MAX_LATENCIES = 10_000;

/** One piece of exposure waiting to be covered. */
interface Piece {
  readonly timeMs: number;
  remaining: bigint;
}

/** Figures of the hedger. */
export interface HedgeFigures {
  readonly hedgesSent: number;
  readonly hedgesFailed: number;
  readonly failuresByReason: Readonly<Record<string, number>>;
  /** Median fill-to-hedge latency, ms; undefined before the first. */
  readonly latencyMsP50: number | undefined;
  /** Volume-weighted mean slippage, bps; undefined before the first hedge executed. */
  readonly slippageBps: number | undefined;
  /** Share of the observed time with a hedgeable position uncovered. */
  readonly unhedgedTimeShare: number;
}

/** The hedger's measurements. */
export class HedgeStats {
  private hedgesSent = 0;
  private readonly failures = new Map<string, number>();
  private readonly pieces: Piece[] = [];
  private readonly latencies: number[] = [];
  private slippageWeighted = 0;
  private slippageVolume = 0;
  private startMs: number | undefined;
  private lastMs = 0;
  private uncoveredMs = 0;
  private isUncovered = false;
  /** A piece whose remainder is at most this is covered (what is left is dust), base units. */
  dustUnits = 0n;
  /** Called with each latency as it is measured (metrics). */
  onLatency: (ms: number) => void = () => undefined;
  onSlippage: (bps: number) => void = () => undefined;

  sent(): void {
    this.hedgesSent++;
  }

  failed(reason: string): void {
    this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
  }

  /**
   * The uncovered position moved from `before` to `after` (signed base units) at `nowMs`: a fill
   * added exposure (a new piece), or a hedge or an opposite fill took some away (pieces consumed
   * in order; a piece a hedge finished records its latency).
   */
  exposureChanged(nowMs: number, before: bigint, after: bigint, byHedge: boolean): void {
    const abs = (value: bigint): bigint => (value < 0n ? -value : value);
    const flipped = before !== 0n && after !== 0n && before > 0n !== after > 0n;
    if (this.pieces.length > 0 && (this.pieces[0] as Piece).remaining <= this.dustUnits && abs(after) <= this.dustUnits) this.pieces.length = 0;
    if (flipped) {
      this.consume(abs(before), nowMs, byHedge);
      this.pieces.push({ timeMs: nowMs, remaining: abs(after) });
    } else if (abs(after) > abs(before)) {
      this.pieces.push({ timeMs: nowMs, remaining: abs(after) - abs(before) });
    } else if (abs(after) < abs(before)) {
      this.consume(abs(before) - abs(after), nowMs, byHedge);
    }
  }

  /** A hedge executed `qty` (base tokens) at `averagePrice` against a touch of `referencePrice`. */
  slippage(side: 'buy' | 'sell', averagePrice: number, referencePrice: number, qty: number): void {
    if (!(referencePrice > 0) || !(qty > 0) || !Number.isFinite(averagePrice)) return;
    const bps = ((side === 'buy' ? averagePrice - referencePrice : referencePrice - averagePrice) / referencePrice) * 10_000;
    this.slippageWeighted += bps * qty;
    this.slippageVolume += qty;
    this.onSlippage(bps);
  }

  /** Whether something hedgeable is uncovered now (time-weighted from the previous call). */
  observe(nowMs: number, isUncovered: boolean): void {
    if (this.startMs === undefined) this.startMs = nowMs;
    if (this.isUncovered && nowMs > this.lastMs) this.uncoveredMs += nowMs - this.lastMs;
    this.lastMs = Math.max(this.lastMs, nowMs);
    this.isUncovered = isUncovered;
  }

  figures(nowMs: number): HedgeFigures {
    this.observe(nowMs, this.isUncovered);
    const total = this.startMs === undefined ? 0 : nowMs - this.startMs;
    let failed = 0;
    for (const count of this.failures.values()) failed += count;
    return {
      hedgesSent: this.hedgesSent,
      hedgesFailed: failed,
      failuresByReason: Object.fromEntries(this.failures),
      latencyMsP50: median(this.latencies),
      slippageBps: this.slippageVolume > 0 ? this.slippageWeighted / this.slippageVolume : undefined,
      unhedgedTimeShare: total > 0 ? this.uncoveredMs / total : 0,
    };
  }

  private consume(amount: bigint, nowMs: number, byHedge: boolean): void {
    let left = amount;
    while (left > 0n && this.pieces.length > 0) {
      const piece = this.pieces[0] as Piece;
      const take = piece.remaining < left ? piece.remaining : left;
      piece.remaining -= take;
      left -= take;
      if (piece.remaining > this.dustUnits) break;
      this.pieces.shift();
      if (!byHedge) continue;
      const latency = nowMs - piece.timeMs;
      if (this.latencies.length >= MAX_LATENCIES) this.latencies.shift();
      this.latencies.push(latency);
      this.onLatency(latency);
    }
  }
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
