/**
 * The reference's move since our quotes were last set (lead–lag): on a thin venue priced off a
 * deep market, a quote goes stale as the deep market moves, and an arbitrageur takes it once the
 * move passes their cost (MM-NOTES §7). In bps: 10⁴ · (reference mid now / reference mid when
 * our quotes were last sent − 1); positive = the reference rose, so our asks are the stale side.
 * 0 until both are known.
 */

import type { Side } from '../../src/core/index.ts';

/** What one side's quotes were set at. */
interface SetAt {
  readonly referenceMid: number;
  /** The fair price they were priced on (undefined when none was known then). */
  readonly fair: number | undefined;
}

/** The reference mid now against the one our quotes were set at, overall and side by side. */
export class ReferenceMove {
  private lastMid: number | undefined;
  private lastFair: number | undefined;
  private midAtQuotes: number | undefined;
  private bidsSetAt: SetAt | undefined;
  private asksSetAt: SetAt | undefined;

  /** A new reference mid (undefined: none now). */
  onReferenceMid(mid: number | undefined): void {
    this.lastMid = usable(mid);
  }

  /** The fair price the engine quotes on now (undefined: none). */
  onFair(fair: number | undefined): void {
    this.lastFair = usable(fair);
  }

  /** Our quotes of `side` (both sides when not given) were just placed or replaced, at the reference mid and fair price of now. */
  onQuotesSet(side?: Side): void {
    const mid = this.lastMid;
    if (mid === undefined) return;
    this.midAtQuotes = mid;
    const setAt: SetAt = { referenceMid: mid, fair: this.lastFair };
    if (side !== 'sell') this.bidsSetAt = setAt;
    if (side !== 'buy') this.asksSetAt = setAt;
  }

  /** The move since any of our quotes were last set, bps. */
  valueBps(): number {
    return moveBps(this.lastMid, this.midAtQuotes);
  }

  /** The reference's move since `side`'s quotes were last set, bps. */
  sideValueBps(side: Side): number {
    return moveBps(this.lastMid, this.setAt(side)?.referenceMid);
  }

  /**
   * The part of that move the fair price has not followed, bps: the reference's move minus the
   * fair price's since the side was set. About 0 when the fair price is the reference's
   * (FAIR_PRICE=reference); the whole move while it is a thin venue's book that lags.
   */
  sideLagBps(side: Side): number {
    const setAt = this.setAt(side);
    if (setAt === undefined) return 0;
    return moveBps(this.lastMid, setAt.referenceMid) - moveBps(this.lastFair, setAt.fair);
  }

  private setAt(side: Side): SetAt | undefined {
    return side === 'buy' ? this.bidsSetAt : this.asksSetAt;
  }
}

function usable(price: number | undefined): number | undefined {
  return price !== undefined && price > 0 && Number.isFinite(price) ? price : undefined;
}

function moveBps(now: number | undefined, then: number | undefined): number {
  return now === undefined || then === undefined ? 0 : 10_000 * (now / then - 1);
}

/**
 * The side whose resting quotes the reference left stale, once it moved more than `pullBps`
 * since that side's quotes were set: our asks after a rise (an arbitrageur buys them under the
 * new price), our bids after a fall; undefined under the threshold, or with it at 0 (off). The
 * asks are looked at first (both are stale only when the sides were set at different mids and
 * the reference went between them; the next top finds the other).
 */
export function staleSide(move: Pick<ReferenceMove, 'sideValueBps'>, pullBps: number): Side | undefined {
  if (!(pullBps > 0)) return undefined;
  if (move.sideValueBps('sell') > pullBps) return 'sell';
  if (move.sideValueBps('buy') < -pullBps) return 'buy';
  return undefined;
}

/**
 * The side a quote placed now would be as stale as the one pulled: the reference moved more than
 * `pullBps` through it since it was set and the fair price has not followed; undefined while off.
 */
export function laggingSide(move: Pick<ReferenceMove, 'sideLagBps'>, pullBps: number): Side | undefined {
  if (!(pullBps > 0)) return undefined;
  if (move.sideLagBps('sell') > pullBps) return 'sell';
  if (move.sideLagBps('buy') < -pullBps) return 'buy';
  return undefined;
}

/**
 * How long a lagging side is left out: while it lags, for at most `holdMs` from when it began to
 * (then it is quoted again, which resets what it lags against). The bound keeps a side from
 * staying out for good where the fair price parts from the reference on purpose (a basis that
 * drifts under FAIR_PRICE=reference, a venue that never catches up).
 */
export class SideHold {
  private side: Side | undefined;
  private sinceMs = 0;

  /** The side to leave out at `nowMs`, given the side that lags now. */
  held(lagging: Side | undefined, holdMs: number, nowMs: number): Side | undefined {
    if (lagging === undefined) {
      this.side = undefined;
      return undefined;
    }
    if (this.side !== lagging) {
      this.side = lagging;
      this.sinceMs = nowMs;
    }
    return nowMs - this.sinceMs < holdMs ? lagging : undefined;
  }
}
