/**
 * Time, injected (STYLE.md "inject clock, RNG and venue"). Logic asks a `Clock` for the time and
 * for timers; the live daemon gets {@link LiveClock}, tests and backtests a {@link ManualClock}
 * whose time only moves when told, so simulations repeat exactly and tests never sleep.
 * This module and `src/cli.ts` are the only places allowed to touch the wall clock (lint rule).
 */

/** A scheduled callback; `cancel()` is idempotent. */
export interface Timer {
  cancel(): void;
}

/** Options of a timer. */
export interface TimerOptions {
  /** Live clock only: do not keep the process alive for this timer. Default false. */
  readonly unref?: boolean;
}

/** The source of time and timers every component receives. */
export interface Clock {
  /** Milliseconds since the Unix epoch (may be fractional on a manual clock). */
  nowMs(): number;
  /** Runs `callback` once after `delayMs` (≥ 0). */
  setTimeout(callback: () => void, delayMs: number, options?: TimerOptions): Timer;
  /** Runs `callback` every `intervalMs` (> 0) until cancelled. */
  setInterval(callback: () => void, intervalMs: number, options?: TimerOptions): Timer;
}

/** Where a {@link LiveClock} reads time (tests pass their own). */
export interface TimeSources {
  /** The host's wall clock, ms since the epoch (NTP may step it). Default `Date.now`. */
  readonly wallMs: () => number;
  /** A monotonic clock, ms from any origin (never steps). Default `performance.now`. */
  readonly monotonicMs: () => number;
}

/** How fast a {@link LiveClock} catches up with a stepped wall clock: 5 % of elapsed time (a 2 s step in 40 s). */
export const CLOCK_SLEW_RATE = 0.05;
/** A wall-clock jump larger than this (a suspended host, a first NTP sync) is taken at once, ms. */
export const CLOCK_STEP_LIMIT_MS = 10_000;

/**
 * Wall-clock time that never steps, and Node timers. Durations the engine measures with `nowMs()`
 * (the outbound budget's refill, the dead-man's silence, order ages) must not jump when NTP steps
 * the host's clock: a forward step would hand the budget free tokens (the venue, on its own
 * clock, then answers 429) and fire the dead-man on a live feed; a backward one would freeze the
 * budget. So time advances with the monotonic clock and follows the wall clock by slewing at
 * {@link CLOCK_SLEW_RATE} (so it never goes backwards); only jumps over
 * {@link CLOCK_STEP_LIMIT_MS} are taken at once, either way. Timestamps stay within a step's size
 * of the host's clock while it catches up.
 */
export class LiveClock implements Clock {
  private readonly sources: TimeSources;
  private lastMonotonicMs: number;
  private currentMs: number;

  constructor(sources: Partial<TimeSources> = {}) {
    this.sources = { wallMs: sources.wallMs ?? (() => Date.now()), monotonicMs: sources.monotonicMs ?? (() => performance.now()) };
    this.lastMonotonicMs = this.sources.monotonicMs();
    this.currentMs = this.sources.wallMs();
  }

  nowMs(): number {
    const monotonic = this.sources.monotonicMs();
    const elapsedMs = Math.max(0, monotonic - this.lastMonotonicMs);
    this.lastMonotonicMs = monotonic;
    const advanced = this.currentMs + elapsedMs;
    const errorMs = this.sources.wallMs() - advanced;
    if (Math.abs(errorMs) > CLOCK_STEP_LIMIT_MS) {
      this.currentMs = advanced + errorMs;
    } else {
      const slewMs = elapsedMs * CLOCK_SLEW_RATE;
      this.currentMs = advanced + Math.max(-slewMs, Math.min(slewMs, errorMs));
    }
    // Whole milliseconds, like Date.now (floor keeps it non-decreasing).
    return Math.floor(this.currentMs);
  }

  setTimeout(callback: () => void, delayMs: number, options: TimerOptions = {}): Timer {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    if (options.unref === true) handle.unref();
    return { cancel: () => clearTimeout(handle) };
  }

  setInterval(callback: () => void, intervalMs: number, options: TimerOptions = {}): Timer {
    const handle = setInterval(callback, intervalMs);
    if (options.unref === true) handle.unref();
    return { cancel: () => clearInterval(handle) };
  }
}

/** High-resolution monotonic milliseconds for latency measurement (not a date). */
export function monotonicMs(): number {
  return performance.now();
}

/** Promise that resolves after `delayMs` on the given clock. */
export function sleep(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, delayMs);
  });
}

interface ScheduledTimer {
  readonly id: number;
  dueMs: number;
  readonly intervalMs: number | undefined;
  readonly callback: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when `advance` is called: timers fire in due-time order (ties in
 * scheduling order), each seeing `nowMs()` equal to its due time. For tests, simulations and
 * backtests.
 */
export class ManualClock implements Clock {
  private currentMs: number;
  private nextId = 0;
  private readonly timers: ScheduledTimer[] = [];

  constructor(startMs = 0) {
    this.currentMs = startMs;
  }

  nowMs(): number {
    return this.currentMs;
  }

  setTimeout(callback: () => void, delayMs: number): Timer {
    return this.schedule(callback, Math.max(0, delayMs), undefined);
  }

  setInterval(callback: () => void, intervalMs: number): Timer {
    if (!(intervalMs > 0)) throw new RangeError(`interval must be positive, got ${intervalMs}`);
    return this.schedule(callback, intervalMs, intervalMs);
  }

  /** Number of timers still pending. */
  pendingTimers(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }

  /** Due time of the earliest pending timer, if any. */
  nextDueMs(): number | undefined {
    this.timers.sort(compareTimers);
    return this.timers.find((timer) => !timer.cancelled)?.dueMs;
  }

  /** Moves time forward by `deltaMs`, firing every timer that falls due on the way. */
  advance(deltaMs: number): void {
    this.advanceTo(this.currentMs + deltaMs);
  }

  /** Moves time forward to `targetMs` (never backwards), firing due timers in order. */
  advanceTo(targetMs: number): void {
    for (;;) {
      const timer = this.popDue(targetMs);
      if (timer === undefined) break;
      this.fire(timer);
    }
    if (targetMs > this.currentMs) this.currentMs = targetMs;
  }

  /**
   * Like {@link advance}, but lets promise callbacks run after every timer, so code that awaits
   * between timers (a reconnect loop, a retry) behaves as it would live.
   */
  async advanceAsync(deltaMs: number): Promise<void> {
    const targetMs = this.currentMs + deltaMs;
    await flushMicrotasks();
    for (;;) {
      const timer = this.popDue(targetMs);
      if (timer === undefined) break;
      this.fire(timer);
      await flushMicrotasks();
    }
    if (targetMs > this.currentMs) this.currentMs = targetMs;
    await flushMicrotasks();
  }

  private schedule(callback: () => void, delayMs: number, intervalMs: number | undefined): Timer {
    const timer: ScheduledTimer = {
      id: this.nextId++,
      dueMs: this.currentMs + delayMs,
      intervalMs,
      callback,
      cancelled: false,
    };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  private popDue(targetMs: number): ScheduledTimer | undefined {
    this.timers.sort(compareTimers);
    while (this.timers.length > 0 && this.timers[0]?.cancelled === true) this.timers.shift();
    const first = this.timers[0];
    if (first === undefined || first.dueMs > targetMs) return undefined;
    this.timers.shift();
    return first;
  }

  private fire(timer: ScheduledTimer): void {
    if (timer.dueMs > this.currentMs) this.currentMs = timer.dueMs;
    if (timer.intervalMs !== undefined) {
      timer.dueMs += timer.intervalMs;
      this.timers.push(timer);
    }
    timer.callback();
  }
}

function compareTimers(a: ScheduledTimer, b: ScheduledTimer): number {
  return a.dueMs - b.dueMs || a.id - b.id;
}

/** Lets queued promise callbacks run (several turns, for chained awaits). */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/**
 * A clock `offsetMs` ahead of (or behind) another: its timers are the other's. `paper --journal`
 * with a recorded market runs the recording's server, the embedded exchange and the bot on one,
 * started at the recording's first receive time, so the session's journal is on the recording's
 * clock and `akira-mm parity` can replay the same span (issue 32).
 */
export class OffsetClock implements Clock {
  constructor(
    private readonly inner: Clock,
    readonly offsetMs: number,
  ) {}

  nowMs(): number {
    return this.inner.nowMs() + this.offsetMs;
  }

  setTimeout(callback: () => void, delayMs: number, options?: TimerOptions): Timer {
    return this.inner.setTimeout(callback, delayMs, options);
  }

  setInterval(callback: () => void, intervalMs: number, options?: TimerOptions): Timer {
    return this.inner.setInterval(callback, intervalMs, options);
  }
}
