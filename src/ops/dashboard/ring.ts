/**
 * Bounded history for the dashboard: samples in columns of a fixed size (a time column and one
 * Float64Array per series, so a sample is a few stores and no allocation once every column
 * exists) and events in a fixed-size ring. The oldest entry is overwritten once full, so memory
 * stays flat however long the daemon runs (one hour of 1 s samples of ~50 series is ~1.5 MB).
 */

/** @throws RangeError unless `capacity` is a whole number ≥ 1. */
function checkCapacity(what: string, capacity: number): void {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`${what}: capacity must be a whole number ≥ 1, got ${capacity}`);
}

/** Samples over time, one column per series key; a series absent from a sample is NaN there. */
export class SampleRing {
  private readonly timesMs: Float64Array;
  private readonly columns = new Map<string, Float64Array>();
  /** The slot the next sample is written to. */
  private next = 0;
  private count = 0;

  /** @throws RangeError for a capacity that is not a whole number ≥ 1. */
  constructor(readonly capacity: number) {
    checkCapacity('sample ring', capacity);
    this.timesMs = new Float64Array(capacity);
  }

  /** Samples held (at most the capacity). */
  get size(): number {
    return this.count;
  }

  /**
   * Records the values of one moment; a key seen for the first time gets a column (empty before
   * now). Returns the keys that are new.
   */
  push(timeMs: number, values: ReadonlyMap<string, number>): string[] {
    const added: string[] = [];
    for (const key of values.keys()) {
      if (this.columns.has(key)) continue;
      this.columns.set(key, new Float64Array(this.capacity).fill(Number.NaN));
      added.push(key);
    }
    const slot = this.next;
    this.timesMs[slot] = timeMs;
    // Every column is written, so a series that went quiet does not show a value from a lap ago.
    for (const [key, column] of this.columns) column[slot] = values.get(key) ?? Number.NaN;
    this.next = (slot + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    return added;
  }

  /** The series keys, in the order they first appeared. */
  keys(): string[] {
    return [...this.columns.keys()];
  }

  /** The sample times, oldest first, ms. */
  times(): number[] {
    return this.ordered(this.timesMs);
  }

  /** One series, oldest first: null where it had no value (or for an unknown key). */
  values(key: string): (number | null)[] {
    const column = this.columns.get(key);
    if (column === undefined) return new Array<null>(this.count).fill(null);
    return this.ordered(column).map((value) => (Number.isNaN(value) ? null : value));
  }

  /** The newest value of a series, undefined when it had none in the last sample. */
  latest(key: string): number | undefined {
    const column = this.columns.get(key);
    if (column === undefined || this.count === 0) return undefined;
    const value = column[(this.next - 1 + this.capacity) % this.capacity] as number;
    return Number.isNaN(value) ? undefined : value;
  }

  private ordered(column: Float64Array): number[] {
    const start = this.count < this.capacity ? 0 : this.next;
    const out = new Array<number>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = column[(start + i) % this.capacity] as number;
    return out;
  }
}

/** The last `capacity` items, oldest first. */
export class EventRing<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private count = 0;

  /** @throws RangeError for a capacity that is not a whole number ≥ 1. */
  constructor(readonly capacity: number) {
    checkCapacity('event ring', capacity);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** The items held, oldest first. */
  toArray(): T[] {
    const start = this.count < this.capacity ? 0 : this.next;
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(start + i) % this.capacity] as T);
    return out;
  }
}
