/**
 * A first-in-first-out line of observations that fall due at non-decreasing times: what a fixed
 * lag (the background maker's view of the mid) or a fixed latency (the arbitrageurs' orders) turns
 * a stream of observations into. Entries of one to four numbers live in a growable ring of
 * `Float64Array` slots, so once it has grown to the longest backlog, pushing and shifting allocate
 * nothing.
 */
import { MmError } from '../errors.ts';

/** A FIFO of (due time, one to four numbers). */
export class DelayLine {
  private slots: Float64Array;
  private head = 0;
  private count = 0;
  private lastDueMs = Number.NEGATIVE_INFINITY;
  private readonly stride: number;

  /** `width`: numbers per entry, 1 to 4. */
  constructor(
    readonly width: 1 | 2 | 3 | 4,
    initialCapacity = 64,
  ) {
    this.stride = width + 1;
    this.slots = new Float64Array(Math.max(1, initialCapacity) * this.stride);
  }

  get isEmpty(): boolean {
    return this.count === 0;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Adds an entry due at `dueMs` with its values (those past the line's width ignored).
   * @throws MmError `CORE_INVARIANT` when `dueMs` is before the last entry's: the line is FIFO.
   */
  push(dueMs: number, a: number, b = 0, c = 0, d = 0): void {
    if (dueMs < this.lastDueMs) throw new MmError('CORE_INVARIANT', `delay line: entry due at ${dueMs} ms after one due at ${this.lastDueMs} ms`);
    this.lastDueMs = dueMs;
    const capacity = this.slots.length / this.stride;
    if (this.count === capacity) this.grow();
    const at = ((this.head + this.count) % (this.slots.length / this.stride)) * this.stride;
    this.slots[at] = dueMs;
    const slots = this.slots;
    slots[at + 1] = a;
    if (this.stride > 2) slots[at + 2] = b;
    if (this.stride > 3) slots[at + 3] = c;
    if (this.stride > 4) slots[at + 4] = d;
    this.count++;
  }

  /** Whether the oldest entry is due at or before `timeMs` (false when empty). */
  isDueBy(timeMs: number): boolean {
    return this.count > 0 && (this.slots[this.head * this.stride] as number) <= timeMs;
  }

  /** Due time of the oldest entry, ms; call only when not empty. */
  headDueMs(): number {
    return this.slots[this.head * this.stride] as number;
  }

  /** Value `index` (below the width) of the oldest entry; call only when not empty. */
  headValue(index: 0 | 1 | 2 | 3): number {
    return this.slots[this.head * this.stride + 1 + index] as number;
  }

  /** Drops the oldest entry. */
  shift(): void {
    if (this.count === 0) return;
    this.head = (this.head + 1) % (this.slots.length / this.stride);
    this.count--;
  }

  /** Drops every entry (the due-time order starts afresh). */
  clear(): void {
    this.head = 0;
    this.count = 0;
    this.lastDueMs = Number.NEGATIVE_INFINITY;
  }

  private grow(): void {
    const capacity = this.slots.length / this.stride;
    const slots = new Float64Array(this.slots.length * 2);
    for (let i = 0; i < this.count; i++) {
      const from = ((this.head + i) % capacity) * this.stride;
      slots.set(this.slots.subarray(from, from + this.stride), i * this.stride);
    }
    this.slots = slots;
    this.head = 0;
  }
}
