/**
 * Time-ordered delivery for the replay: market-data deliveries (already in time order, so a FIFO
 * ring suffices and 5M events do not pay for a heap) and order events (arrivals and answers whose
 * latencies may vary, so a binary heap). `runUntil` fires both, interleaved with the engine's
 * clock timers, in time order; ties keep scheduling order.
 */
import type { ManualClock } from '../core/index.ts';
import { ReplayClock } from './replay-clock.ts';

interface Scheduled {
  readonly timeMs: number;
  readonly seq: number;
  readonly run: () => void;
}

/** Runs callbacks at their due times on a manual clock. */
export class EventScheduler {
  /** Deliveries in time order from `marketHead`; a delivered slot is emptied at once (see `popMarket`). */
  private readonly market: (Scheduled | undefined)[] = [];
  private marketHead = 0;
  private readonly heap: Scheduled[] = [];
  private seq = 0;
  /** Raised when something is scheduled for the current time or earlier; `hasDueNow` lowers it. */
  private maybeDueNow = false;

  /** Whether a clock timer is due by a time; the replay clock answers without boxing a number. */
  private readonly isTimerDueBy: (timeMs: number) => boolean;
  private readonly isTimerDueNow: () => boolean;
  private readonly isTimerMaybeDueNow: () => boolean;

  constructor(private readonly clock: ManualClock) {
    this.isTimerDueBy =
      clock instanceof ReplayClock
        ? (timeMs) => clock.hasTimerDueBy(timeMs)
        : (timeMs) => {
            const due = clock.nextDueMs();
            return due !== undefined && due <= timeMs;
          };
    this.isTimerDueNow = clock instanceof ReplayClock ? () => clock.hasTimerDueNow() : () => this.isTimerDueBy(clock.nowMs());
    this.isTimerMaybeDueNow = clock instanceof ReplayClock ? () => clock.mayHaveTimerDueNow() : () => true;
  }

  /** Schedules a market-data delivery; times must not decrease between calls. */
  atMarket(timeMs: number, run: () => void): void {
    if (timeMs <= this.clock.nowMs()) this.maybeDueNow = true;
    this.market.push({ timeMs, seq: this.seq++, run });
  }

  /** Schedules an order event at any time ≥ now. */
  atOrder(timeMs: number, run: () => void): void {
    const now = this.clock.nowMs();
    if (timeMs <= now) this.maybeDueNow = true;
    const item = { timeMs: Math.max(timeMs, now), seq: this.seq++, run };
    this.heap.push(item);
    this.siftUp(this.heap.length - 1);
  }

  /** Number of scheduled callbacks not yet run. */
  pending(): number {
    return this.market.length - this.marketHead + this.heap.length;
  }

  /**
   * Whether a scheduled callback or clock timer is due at or before `timeMs`. Asked on every
   * recorded event, so it compares in place: returning a time (`nextDueMs`) allocates a number.
   */
  hasDueBy(timeMs: number): boolean {
    const marketItem = this.market[this.marketHead];
    if (marketItem !== undefined && marketItem.timeMs <= timeMs) return true;
    const orderItem = this.heap[0];
    if (orderItem !== undefined && orderItem.timeMs <= timeMs) return true;
    return this.isTimerDueBy(timeMs);
  }

  /**
   * Whether something is due at the clock's current time: what a zero latency or a timer of delay
   * 0 scheduled while the engine reacted to the last event. Asked before each event of a message
   * (the time is not passed, so nothing is boxed).
   */
  hasDueNow(): boolean {
    // Time never goes back, so only what was scheduled at or before the current time can be due
    // now without time moving: the flag answers almost every event without looking further.
    if (!this.maybeDueNow && !this.isTimerMaybeDueNow()) return false;
    this.maybeDueNow = false;
    const now = this.clock.nowMs();
    const marketItem = this.market[this.marketHead];
    if (marketItem !== undefined && marketItem.timeMs <= now) return true;
    const orderItem = this.heap[0];
    if (orderItem !== undefined && orderItem.timeMs <= now) return true;
    return this.isTimerDueNow();
  }

  /** Time of the next scheduled callback or clock timer, if any. */
  nextDueMs(): number | undefined {
    // Called on every recorded event: no arrays, no spreads.
    let due = this.market[this.marketHead]?.timeMs;
    const order = this.heap[0]?.timeMs;
    if (order !== undefined && (due === undefined || order < due)) due = order;
    const timer = this.clock.nextDueMs();
    if (timer !== undefined && (due === undefined || timer < due)) due = timer;
    return due;
  }

  /**
   * Runs, in time order, everything due at or before `timeMs`: scheduled callbacks and the
   * clock's timers. `afterEach` runs after each callback (the runner flushes promises there); it
   * returns a promise only when there is something to wait for, and only then does this wait, so
   * a quiet stretch of deliveries costs no promise. Leaves the clock at `timeMs`. Returns a
   * promise only when it had to wait.
   */
  runUntil(timeMs: number, afterEach: () => Promise<void> | undefined): Promise<void> | undefined {
    for (;;) {
      if (!this.runNext(timeMs)) break;
      const waiting = afterEach();
      if (waiting !== undefined) return waiting.then(() => this.runUntil(timeMs, afterEach));
    }
    this.clock.advanceTo(timeMs);
    return undefined;
  }

  /** Runs the earliest callback or timer due at or before `timeMs`; false when none is. */
  private runNext(timeMs: number): boolean {
    const marketItem = this.market[this.marketHead];
    const orderItem = this.heap[0];
    let next: Scheduled | undefined;
    let fromMarket = false;
    if (marketItem !== undefined && marketItem.timeMs <= timeMs) {
      next = marketItem;
      fromMarket = true;
    }
    if (orderItem !== undefined && orderItem.timeMs <= timeMs && (next === undefined || isEarlier(orderItem, next))) {
      next = orderItem;
      fromMarket = false;
    }
    const timerDue = this.clock.nextDueMs();
    if (timerDue !== undefined && timerDue <= timeMs && (next === undefined || timerDue < next.timeMs)) {
      this.clock.advanceTo(timerDue);
      return true;
    }
    if (next === undefined) return false;
    if (fromMarket) this.popMarket();
    else this.popHeap();
    this.clock.advanceTo(next.timeMs);
    next.run();
    return true;
  }

  private popMarket(): void {
    // Let go of the delivery now, not at the next compaction: thousands of delivered callbacks
    // (with the tops and trades they carried) kept alive that long outlived the young
    // generation, so every scavenge copied them and promoted them to the old one.
    this.market[this.marketHead] = undefined;
    this.marketHead++;
    // Compact the ring now and then so memory stays flat over millions of events.
    if (this.marketHead > 4096 && this.marketHead * 2 > this.market.length) {
      this.market.splice(0, this.marketHead);
      this.marketHead = 0;
    }
  }

  private popHeap(): void {
    const last = this.heap.pop();
    if (last === undefined || this.heap.length === 0) return;
    this.heap[0] = last;
    this.siftDown(0);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (!isEarlier(heap[i] as Scheduled, heap[parent] as Scheduled)) break;
      [heap[i], heap[parent]] = [heap[parent] as Scheduled, heap[i] as Scheduled];
      i = parent;
    }
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && isEarlier(heap[left] as Scheduled, heap[smallest] as Scheduled)) smallest = left;
      if (right < heap.length && isEarlier(heap[right] as Scheduled, heap[smallest] as Scheduled)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest] as Scheduled, heap[i] as Scheduled];
      i = smallest;
    }
  }
}

function isEarlier(a: Scheduled, b: Scheduled): boolean {
  return a.timeMs < b.timeMs || (a.timeMs === b.timeMs && a.seq < b.seq);
}

/**
 * Drives simulated time until `work` settles (an engine's shutdown: its cancels and their
 * confirmations need the venue's timers to fire): flush the engine, run to the next due event,
 * again, for at most 10,000 steps. Then awaits `work` itself, so its error surfaces.
 */
export async function driveUntilSettled(
  work: Promise<unknown>,
  scheduler: EventScheduler,
  nowMs: () => number,
  flush: () => Promise<void>,
  flushIfActive: () => Promise<void> | undefined,
): Promise<void> {
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  for (let step = 0; step < 10_000 && !done; step++) {
    await flush();
    if (done) break;
    const next = scheduler.nextDueMs();
    await scheduler.runUntil(next ?? nowMs() + 1, flushIfActive);
  }
  await work;
}
