/**
 * Keeps a {@link LocalBook} in step with the `snap` stream: deltas that arrive before the
 * snapshot are buffered, the REST snapshot is applied, buffered deltas newer than it replayed;
 * a sequence gap or a crossed book starts the same resync again (SPEC §4). Resyncs are single-
 * flight and back off when the snapshot keeps failing.
 */
import type { Clock, Logger, Rng, Timer } from '../../core/index.ts';
import { LocalBook, type BookDelta } from '../book/index.ts';
import type { BookSnapshot } from '../client/responses.ts';
import { backoffDelayMs, type BackoffPolicy } from '../client/backoff.ts';

/** Collaborators of a {@link BookSync}. */
export interface BookSyncOptions {
  /** `GET /book/snapshot` of this book, all levels. */
  readonly fetchSnapshot: () => Promise<BookSnapshot>;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** Called after every change of the book (snapshot or delta). */
  readonly onBook?: (book: LocalBook) => void;
  /** Retry spacing of failed snapshots. Default 500 ms doubling to 10 s. */
  readonly backoff?: BackoffPolicy;
  /** Deltas kept while a snapshot is in flight. Default 10 000 (then the oldest go: a gap). */
  readonly maxBuffered?: number;
}

/** One book kept from snapshot + deltas. */
export class BookSync {
  readonly book = new LocalBook();
  readonly #options: BookSyncOptions;
  #buffer: BookDelta[] = [];
  #syncing = false;
  #again = false;
  #retry: Timer | undefined;
  #failures = 0;
  #stopped = false;
  /** Counters for metrics and tests. */
  readonly stats = { gaps: 0, resyncs: 0, applied: 0, stale: 0 };

  constructor(options: BookSyncOptions) {
    this.#options = options;
  }

  /** Feeds one delta from the stream. */
  onDelta(delta: BookDelta): void {
    if (this.#stopped) return;
    if (this.#syncing || !this.book.isSynced()) {
      this.#buffer.push(delta);
      if (this.#buffer.length > (this.#options.maxBuffered ?? 10_000)) this.#buffer.shift();
      if (!this.#syncing && this.#retry === undefined) this.resync('first delta before any snapshot');
      return;
    }
    this.#apply(delta);
  }

  /** Throws the book away and rebuilds it from a fresh snapshot (after a reconnect, a gap …). */
  resync(reason: string): void {
    if (this.#stopped) return;
    if (this.#syncing) {
      this.#again = true;
      return;
    }
    this.#retry?.cancel();
    this.#retry = undefined;
    this.#syncing = true;
    this.stats.resyncs++;
    this.#options.logger.info({ reason }, 'book resync from REST snapshot');
    void this.#run();
  }

  /** Stops retries; the book keeps its last state. */
  stop(): void {
    this.#stopped = true;
    this.#retry?.cancel();
    this.#retry = undefined;
  }

  async #run(): Promise<void> {
    let snapshot: BookSnapshot | undefined;
    try {
      snapshot = await this.#options.fetchSnapshot();
    } catch (error) {
      this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'book snapshot failed; retrying');
    }
    this.#syncing = false;
    if (this.#stopped) return;
    if (snapshot === undefined) {
      const delayMs = backoffDelayMs(this.#failures++, this.#options.backoff ?? { baseMs: 500, maxMs: 10_000 }, this.#options.rng);
      this.#retry = this.#options.clock.setTimeout(() => {
        this.#retry = undefined;
        this.resync('retry after a failed snapshot');
      }, delayMs);
      return;
    }
    this.#failures = 0;
    if (this.#again) {
      // Something asked for a newer snapshot while this one was in flight (a reconnect).
      this.#again = false;
      this.#buffer = [];
      this.resync('requested during the previous resync');
      return;
    }
    this.book.applySnapshot(snapshot.bids, snapshot.asks, snapshot.msgId);
    const buffered = this.#buffer;
    this.#buffer = [];
    this.#notify();
    for (let i = 0; i < buffered.length; i++) {
      // A gap while replaying starts a resync: keep what follows for after it.
      if (!this.#apply(buffered[i] as BookDelta)) {
        this.#buffer.push(...buffered.slice(i + 1));
        return;
      }
    }
  }

  /** Applies one delta; false when it started a resync. */
  #apply(delta: BookDelta): boolean {
    const result = this.book.applyDelta(delta);
    switch (result.kind) {
      case 'applied':
        this.stats.applied++;
        if (this.book.isCrossed()) {
          this.#options.logger.warn({ msgId: String(this.book.msgId) }, 'local book crossed; resyncing');
          this.book.reset();
          this.resync('crossed book');
          return false;
        }
        this.#notify();
        return true;
      case 'stale':
        this.stats.stale++;
        return true;
      case 'gap':
        this.stats.gaps++;
        this.#options.logger.warn({ expected: String(result.expected), got: String(result.got) }, 'book sequence gap');
        this.book.reset();
        this.#buffer.push(delta);
        this.resync('sequence gap');
        return false;
      case 'unsynced':
        this.#buffer.push(delta);
        return false;
    }
  }

  #notify(): void {
    try {
      this.#options.onBook?.(this.book);
    } catch (error) {
      this.#options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'book handler threw');
    }
  }
}
