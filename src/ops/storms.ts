/**
 * Storms: occurrences (reconnects, 429 answers) counted over a sliding window (ALERT_STORM_WINDOW_S);
 * at the threshold a storm opens (one alert while it lasts), and it calms once the window holds
 * fewer, checked again each time the oldest occurrence leaves the window.
 */
import type { Clock, Timer } from '../core/index.ts';
import type { Conditions } from './conditions.ts';
import { WindowCount } from './window-count.ts';

interface Storm {
  readonly count: WindowCount;
  timer: Timer | undefined;
}

/** Every storm being counted, by key. */
export class Storms {
  readonly #storms = new Map<string, Storm>();

  constructor(
    private readonly clock: Clock,
    private readonly conditions: Conditions,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts `count` occurrences at `atMs` under `key`; at `threshold` within the window
   * `raise(total)` runs once, and `calm(heldMs, total)` when the window holds fewer again.
   * A threshold of 0 is off.
   */
  add(key: string, threshold: number, atMs: number, count: number, raise: (total: number) => void, calm: (heldMs: number, total: number) => void): void {
    if (threshold <= 0) return;
    let storm = this.#storms.get(key);
    if (storm === undefined) {
      storm = { count: new WindowCount(this.windowMs), timer: undefined };
      this.#storms.set(key, storm);
    }
    storm.count.add(atMs, count);
    const total = storm.count.total(this.clock.nowMs());
    if (total < threshold || this.conditions.isOpen(key)) return;
    this.conditions.open(key, 0, () => raise(total));
    const recheck = (current: Storm): void => {
      const now = this.clock.nowMs();
      const left = current.count.total(now);
      const dropMs = current.count.nextDropMs(now);
      if (left >= threshold && dropMs !== undefined) {
        current.timer = this.clock.setTimeout(() => recheck(current), Math.max(1, dropMs - now), { unref: true });
        return;
      }
      current.timer = undefined;
      this.conditions.close(key, (heldMs) => calm(heldMs, left));
    };
    recheck(storm);
  }

  /** Cancels every re-check. */
  stop(): void {
    for (const storm of this.#storms.values()) storm.timer?.cancel();
    this.#storms.clear();
  }
}
