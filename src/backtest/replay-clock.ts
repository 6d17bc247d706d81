/**
 * The backtest's manual clock: `ManualClock`'s exact semantics (timers fire in due-time order, ties
 * in scheduling order, intervals keep their place) on a binary heap. The replay asks for the next
 * due time on every recorded event; the base class sorts its timer list for that, and an engine
 * that re-arms a watchdog on every event leaves thousands of cancelled timers in it.
 */
import { ManualClock, type Timer } from '../core/index.ts';

/**
 * A timer in the heap, and the handle its setter gets back: one object per timer (an engine sets
 * one per requote and per request), not a record, a handle and a closure.
 */
class HeapTimer implements Timer {
  cancelled = false;

  constructor(
    readonly id: number,
    public dueMs: number,
    readonly intervalMs: number | undefined,
    readonly callback: () => void,
    private readonly clock: ReplayClock,
  ) {}

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.clock.timerCancelled();
  }
}

function isEarlier(a: HeapTimer, b: HeapTimer): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.id < b.id);
}

/** A `ManualClock` whose timers live in a heap; cancelled ones are dropped when they surface. */
export class ReplayClock extends ManualClock {
  private timeMs: number;
  private nextTimerId = 0;
  private readonly heap: HeapTimer[] = [];
  private live = 0;
  /** Raised when a timer is set to fire at the current time (delay 0); lowered by `hasTimerDueNow`. */
  private zeroDelaySet = false;

  constructor(startMs = 0) {
    super(startMs);
    this.timeMs = startMs;
  }

  override nowMs(): number {
    return this.timeMs;
  }

  override setTimeout(callback: () => void, delayMs: number): Timer {
    return this.add(callback, Math.max(0, delayMs), undefined);
  }

  override setInterval(callback: () => void, intervalMs: number): Timer {
    if (!(intervalMs > 0)) throw new RangeError(`interval must be positive, got ${intervalMs}`);
    return this.add(callback, intervalMs, intervalMs);
  }

  override pendingTimers(): number {
    return this.live;
  }

  override nextDueMs(): number | undefined {
    return this.top()?.dueMs;
  }

  /** Whether a timer is due at or before `timeMs`: `nextDueMs` without a number to box, for per-event checks. */
  hasTimerDueBy(timeMs: number): boolean {
    const timer = this.top();
    return timer !== undefined && timer.dueMs <= timeMs;
  }

  /** Whether a timer is due at the current time (set with delay 0 since time last moved). */
  hasTimerDueNow(): boolean {
    this.zeroDelaySet = false;
    const timer = this.top();
    return timer !== undefined && timer.dueMs <= this.timeMs;
  }

  /** False when no timer can be due at the current time: none was set with delay 0 since the last check. */
  mayHaveTimerDueNow(): boolean {
    return this.zeroDelaySet;
  }

  override advance(deltaMs: number): void {
    this.advanceTo(this.timeMs + deltaMs);
  }

  override advanceTo(targetMs: number): void {
    for (;;) {
      const timer = this.top();
      if (timer === undefined || timer.dueMs > targetMs) break;
      this.pop();
      this.fireTimer(timer);
    }
    if (targetMs > this.timeMs) this.timeMs = targetMs;
  }

  override async advanceAsync(deltaMs: number): Promise<void> {
    const targetMs = this.timeMs + deltaMs;
    await flushMicrotasks();
    for (;;) {
      const timer = this.top();
      if (timer === undefined || timer.dueMs > targetMs) break;
      this.pop();
      this.fireTimer(timer);
      await flushMicrotasks();
    }
    if (targetMs > this.timeMs) this.timeMs = targetMs;
    await flushMicrotasks();
  }

  /** A live timer was cancelled (its handle calls this). */
  timerCancelled(): void {
    this.live--;
  }

  private add(callback: () => void, delayMs: number, intervalMs: number | undefined): Timer {
    const timer = new HeapTimer(this.nextTimerId++, this.timeMs + delayMs, intervalMs, callback, this);
    if (delayMs <= 0) this.zeroDelaySet = true;
    this.push(timer);
    this.live++;
    return timer;
  }

  private fireTimer(timer: HeapTimer): void {
    if (timer.dueMs > this.timeMs) this.timeMs = timer.dueMs;
    if (timer.intervalMs !== undefined) {
      timer.dueMs += timer.intervalMs;
      this.push(timer);
    } else {
      timer.cancelled = true;
      this.live--;
    }
    timer.callback();
  }

  /** The earliest live timer, after dropping cancelled ones from the top. */
  private top(): HeapTimer | undefined {
    let first = this.heap[0];
    while (first !== undefined && first.cancelled) {
      this.pop();
      first = this.heap[0];
    }
    return first;
  }

  private push(timer: HeapTimer): void {
    const heap = this.heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      const above = heap[parent] as HeapTimer;
      if (!isEarlier(timer, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = timer;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let i = 0;
    const size = heap.length;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && isEarlier(heap[right] as HeapTimer, heap[left] as HeapTimer) ? right : left;
      if (!isEarlier(heap[child] as HeapTimer, last)) break;
      heap[i] = heap[child] as HeapTimer;
      i = child;
    }
    heap[i] = last;
  }
}

/** Lets queued promise callbacks run (several turns, for chained awaits), as ManualClock does. */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
