/**
 * Dedupe: a condition (a pause, a stale reference, a storm, a low balance) is one alert while it
 * lasts, however often it is seen again, and one "resolved" message when it clears, only if its
 * alert went out. A condition may have to hold for a while before it alerts (ALERT_PAUSE_AFTER_S):
 * one that clears sooner is never heard of.
 */
import type { Clock, Timer } from '../core/index.ts';

interface Open {
  readonly sinceMs: number;
  timer: Timer | undefined;
  isAlerted: boolean;
}

/** Open conditions by key (`pause ETH/USDC`, `429 storm layerakira`, …). */
export class Conditions {
  readonly #open = new Map<string, Open>();

  constructor(private readonly clock: Clock) {}

  /**
   * Opens `key` unless it is open already. `alert(heldMs)` runs once it has held `holdMs` (at
   * once for 0), unless it closed first.
   * @returns true when it was not open.
   */
  open(key: string, holdMs: number, alert: (heldMs: number) => void): boolean {
    if (this.#open.has(key)) return false;
    const condition: Open = { sinceMs: this.clock.nowMs(), timer: undefined, isAlerted: false };
    this.#open.set(key, condition);
    const fire = (): void => {
      condition.timer = undefined;
      condition.isAlerted = true;
      alert(this.clock.nowMs() - condition.sinceMs);
    };
    if (holdMs <= 0) fire();
    else condition.timer = this.clock.setTimeout(fire, holdMs, { unref: true });
    return true;
  }

  /** Closes `key`; `resolved(heldMs)` runs when its alert had gone out. */
  close(key: string, resolved: (heldMs: number) => void): void {
    const condition = this.#forget(key);
    if (condition?.isAlerted === true) resolved(this.clock.nowMs() - condition.sinceMs);
  }

  /** Closes `key` without a word (what it was about is over some other way, a halt). */
  drop(key: string): void {
    this.#forget(key);
  }

  /** Drops every open key `isDropped` picks, without a word. */
  dropWhere(isDropped: (key: string) => boolean): void {
    for (const key of [...this.#open.keys()]) if (isDropped(key)) this.#forget(key);
  }

  isOpen(key: string): boolean {
    return this.#open.has(key);
  }

  /** Cancels every pending timer; nothing alerts any more. */
  clear(): void {
    for (const key of [...this.#open.keys()]) this.#forget(key);
  }

  #forget(key: string): Open | undefined {
    const condition = this.#open.get(key);
    if (condition === undefined) return undefined;
    condition.timer?.cancel();
    this.#open.delete(key);
    return condition;
  }
}
