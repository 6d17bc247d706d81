/**
 * Occurrences within a sliding window (reconnects, 429 answers), for the storm thresholds
 * ALERT_RECONNECT_STORM and ALERT_429_STORM over ALERT_STORM_WINDOW_S.
 */

/** A count over the last `windowMs`. */
export class WindowCount {
  /** (time, count) in time order. */
  readonly #entries: { atMs: number; count: number }[] = [];

  constructor(private readonly windowMs: number) {}

  add(atMs: number, count: number): void {
    if (count > 0) this.#entries.push({ atMs, count });
  }

  /** Occurrences in (nowMs − window, nowMs]. */
  total(nowMs: number): number {
    this.#prune(nowMs);
    return this.#entries.reduce((sum, entry) => sum + entry.count, 0);
  }

  /** When the oldest occurrence leaves the window (the total can only fall then), or undefined when empty. */
  nextDropMs(nowMs: number): number | undefined {
    this.#prune(nowMs);
    const oldest = this.#entries[0];
    return oldest === undefined ? undefined : oldest.atMs + this.windowMs;
  }

  #prune(nowMs: number): void {
    while (this.#entries.length > 0 && (this.#entries[0] as { atMs: number }).atMs <= nowMs - this.windowMs) this.#entries.shift();
  }
}
