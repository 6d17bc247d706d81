/**
 * The reference's move since our quotes were last set (lead–lag): on a thin venue priced off a
 * deep market, a quote goes stale as the deep market moves, and an arbitrageur takes it once the
 * move passes their cost (MM-NOTES §7). In bps: 10⁴ · (reference mid now / reference mid when
 * our quotes were last sent − 1); positive = the reference rose, so our asks are the stale side.
 * 0 until both are known.
 */

import type { Side } from '../../src/core/index.ts';

/** The reference mid now against the one our quotes were set at. */
export class ReferenceMove {
  private lastMid: number | undefined;
  private midAtQuotes: number | undefined;

  /** A new reference mid (undefined: none now). */
  onReferenceMid(mid: number | undefined): void {
    this.lastMid = mid !== undefined && mid > 0 && Number.isFinite(mid) ? mid : undefined;
  }

  /** Our quotes were just set (placed or replaced) at the reference mid of now. */
  onQuotesSet(): void {
    if (this.lastMid !== undefined) this.midAtQuotes = this.lastMid;
  }

  /** The move since, bps. */
  valueBps(): number {
    const now = this.lastMid;
    const then = this.midAtQuotes;
    return now === undefined || then === undefined ? 0 : 10_000 * (now / then - 1);
  }
}

/**
 * The side whose quotes the reference left stale once it moved more than `pullBps` (either way):
 * our asks after a rise (an arbitrageur buys them under the new price), our bids after a fall;
 * undefined under the threshold, or with it at 0 (off).
 */
export function staleSide(moveBps: number, pullBps: number): Side | undefined {
  if (!(pullBps > 0) || !(Math.abs(moveBps) > pullBps)) return undefined;
  return moveBps > 0 ? 'sell' : 'buy';
}
