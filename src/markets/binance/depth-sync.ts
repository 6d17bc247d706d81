/**
 * A local copy of a Binance order book, kept the way Binance documents ("How to manage a local
 * order book correctly", binance-spot-api-docs web-socket-streams.md):
 * 1. Diffs are buffered until a REST snapshot (`lastUpdateId` L) arrives.
 * 2. A snapshot that cannot reach the first buffered diff (L + 1 < its U) is too old: fetch
 *    another. (Binance's text says "L strictly less than U"; L = U − 1 bridges exactly, so we
 *    accept it.)
 * 3. Buffered and later diffs with u ≤ the book's id are dropped; a diff with U > id + 1 means
 *    updates were missed (a gap): the book is discarded until the next snapshot.
 * 4. Otherwise each level's absolute size is set (0 removes it) and the id becomes u.
 * A book that crosses after a whole diff (best bid ≥ best ask) cannot be trusted either and is
 * discarded the same way. Pure state, no I/O: the client, the replay server and the benchmark all
 * drive it.
 */
import { OrderBook, type Side } from '../../core/index.ts';
import type { DepthDiff, DepthSnapshot, ScaledLevel } from './messages.ts';

/** `buffering`: waiting for a snapshot; `synced`: in sequence; `lost`: discarded after a gap or a cross. */
export type DepthSyncState = 'buffering' | 'synced' | 'lost';

/** What one diff did. */
export type DiffOutcome = 'buffered' | 'applied' | 'old' | 'gap' | 'crossed' | 'ignored';

/** What a snapshot did. */
export type SnapshotOutcome = 'synced' | 'too-old' | 'old' | 'gap' | 'crossed';

/** Taps on what the book takes in, in order (the recorder and the tests use them). */
export interface DepthSyncSinks {
  /** A snapshot became the book (called before the buffered diffs are applied after it). */
  readonly onSnapshot?: (snapshot: DepthSnapshot) => void;
  /** A diff was applied; the book already includes it. */
  readonly onDiff?: (diff: DepthDiff, book: OrderBook) => void;
}

/** Default bound on buffered diffs while waiting for a snapshot (about 17 min of 100 ms diffs). */
export const DEFAULT_MAX_BUFFERED = 10_000;

/** One symbol's book and its sync state. */
export class DepthSync {
  /** The rebuilt book: prices and sizes as the symbol's scaled integers. */
  readonly book = new OrderBook();
  #state: DepthSyncState = 'buffering';
  #lastUpdateId = 0;
  #buffer: DepthDiff[] = [];

  constructor(
    private readonly sinks: DepthSyncSinks = {},
    private readonly maxBuffered = DEFAULT_MAX_BUFFERED,
  ) {}

  get state(): DepthSyncState {
    return this.#state;
  }

  /** The book's update id (meaningful while `synced`). */
  get lastUpdateId(): number {
    return this.#lastUpdateId;
  }

  /** Diffs waiting for a snapshot. */
  get bufferedCount(): number {
    return this.#buffer.length;
  }

  /** Discards the book and starts buffering for a new snapshot. */
  reset(): void {
    this.#state = 'buffering';
    this.#buffer = [];
    this.book.clear();
  }

  /** Buffers, applies or rejects one diff. */
  onDiff(diff: DepthDiff): DiffOutcome {
    switch (this.#state) {
      case 'lost':
        return 'ignored';
      case 'buffering':
        // Bounded: when no snapshot comes, the oldest diffs go and a later snapshot must be newer.
        if (this.#buffer.length >= this.maxBuffered) this.#buffer.shift();
        this.#buffer.push(diff);
        return 'buffered';
      default:
        return this.#apply(diff);
    }
  }

  /**
   * Makes `snapshot` the book and applies the buffered diffs after it. While synced, a snapshot
   * that is not newer than the book is ignored (`old`); a newer one replaces it (a replay server
   * meeting a later snapshot in a recording).
   */
  applySnapshot(snapshot: DepthSnapshot): SnapshotOutcome {
    if (this.#state === 'synced' && snapshot.lastUpdateId <= this.#lastUpdateId) return 'old';
    const first = this.#buffer[0];
    if (this.#state === 'buffering' && first !== undefined && snapshot.lastUpdateId + 1 < first.firstUpdateId) return 'too-old';
    this.book.reset(toBookLevels(snapshot.bids), toBookLevels(snapshot.asks));
    this.#lastUpdateId = snapshot.lastUpdateId;
    this.#state = 'synced';
    this.sinks.onSnapshot?.(snapshot);
    const pending = this.#buffer;
    this.#buffer = [];
    if (this.book.isCrossed()) {
      this.#state = 'lost';
      return 'crossed';
    }
    for (const diff of pending) {
      const outcome = this.#apply(diff);
      if (outcome === 'gap' || outcome === 'crossed') return outcome;
    }
    return 'synced';
  }

  #apply(diff: DepthDiff): DiffOutcome {
    if (diff.lastUpdateId <= this.#lastUpdateId) return 'old';
    if (diff.firstUpdateId > this.#lastUpdateId + 1) {
      this.#state = 'lost';
      return 'gap';
    }
    setLevels(this.book, 'buy', diff.bids);
    setLevels(this.book, 'sell', diff.asks);
    this.#lastUpdateId = diff.lastUpdateId;
    if (this.book.isCrossed()) {
      this.#state = 'lost';
      return 'crossed';
    }
    this.sinks.onDiff?.(diff, this.book);
    return 'applied';
  }
}

function setLevels(book: OrderBook, side: Side, levels: readonly ScaledLevel[]): void {
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as ScaledLevel;
    book.setLevel(side, level.price, level.qty);
  }
}

function toBookLevels(levels: readonly ScaledLevel[]): { priceTicks: number; qtyLots: number }[] {
  return levels.filter((level) => level.qty > 0).map((level) => ({ priceTicks: level.price, qtyLots: level.qty }));
}
