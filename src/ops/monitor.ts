/**
 * The adapters from what the engine and the venues already report to `OpsEvent`s, so wiring the
 * notifier is "subscribe an observer per pair with `combineObservers`, and start a status poll":
 * - each pair's `EngineObserver` (`observerFor`): a halt (its code read from the status), a pause
 *   and its end (timed here), a drift (in tokens, against the engine's tolerance);
 * - a poll of each pair's `EngineStatus` every second: the hedger's state and its stream coming
 *   back, the reference's state and the divergence pause, balances; and of counters that only
 *   grow: the venue stream's reconnects, the venue's 429 answers, the reference feed's reconnects;
 * - the daily summary at ALERT_DAILY_SUMMARY_UTC, from each pair's status.
 * Only changes are published (a counter's increase, a state that moved), except balance
 * readings, which the rules hold against their thresholds.
 */
import { MmError, unitsToNumber, type Clock, type ReferenceState, type ReferenceStatus, type Timer } from '../core/index.ts';
import type { EngineObserver, EngineStatus, HedgeStatus } from '../engine/index.ts';
import type { OpsScope, PairDay } from './events.ts';
import type { OpsSink } from './notifier.ts';

/** One pair, as the monitor reads it. */
export interface PairSource {
  /** `BASE/QUOTE`. */
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** The engine's drift tolerance (`EngineSettings.driftToleranceUnits`), base units of each token. */
  readonly driftToleranceUnits: bigint;
  /** The engine's status; undefined before its engine exists. */
  status(): EngineStatus | undefined;
  /** The reference feed's own status (its reconnect count), when the pair reads one. */
  referenceStatus?(): ReferenceStatus | undefined;
}

/** The account and its pairs. */
export interface AccountSource {
  /** The trading account, 0x…. */
  readonly account: string;
  /** The venue's name in alerts, e.g. `layerakira`. */
  readonly venue: string;
  readonly pairs: readonly PairSource[];
  /** Reconnects of the venue's stream so far (one socket per account: `AccountSession.streamStats`, or a `LiveVenue`'s `streamStats()`). */
  venueReconnects?(): number | undefined;
  /** 429 answers of the venue so far (`LiveVenue.rateLimited()`). */
  venueRateLimited?(): number | undefined;
  /**
   * Balances (free + locked) by token, tokens; default: each pair's base and quote balance from
   * its status (the first pair holding a token gives it). An account passes its ledger.
   */
  balances?(): ReadonlyMap<string, number>;
}

/** What a monitor needs. */
export interface MonitorOptions {
  readonly sink: OpsSink;
  readonly clock: Clock;
  readonly source: AccountSource;
  /** How often statuses and counters are read, ms. Default 1 000. */
  readonly pollMs?: number;
}

/** Codes raised by `src/ops`. */
export type OpsErrorCode = 'OPS_UNKNOWN_PAIR';

/** Default of {@link MonitorOptions.pollMs}. */
export const DEFAULT_POLL_MS = 1_000;

/**
 * The engine's pause reason while venue and reference diverge (`REFERENCE_DIVERGENT` in
 * src/engine/engine.ts, a contract with /health and the log).
 */
const DIVERGENT = 'reference divergent';

const DAY_MS = 86_400_000;

/** What the last reading of one pair saw. */
interface PairSeen {
  hedgeState: HedgeStatus['state'] | undefined;
  hedgeStreamUp: boolean | undefined;
  referenceState: string | undefined;
  isDivergent: boolean;
  referenceReconnects: number | undefined;
  pausedAtMs: number | undefined;
  day: { pnl: number; fills: number; volumeBase: number; fees: number } | undefined;
}

/** Turns the engine's reports into events for a sink. */
export class OpsMonitor {
  readonly #options: MonitorOptions;
  readonly #seen = new Map<string, PairSeen>();
  #venueReconnects: number | undefined;
  #venueRateLimited: number | undefined;
  #pollTimer: Timer | undefined;
  #summaryTimer: Timer | undefined;
  #summarySinceMs: number;
  #isStopped = false;

  constructor(options: MonitorOptions) {
    this.#options = options;
    this.#summarySinceMs = options.clock.nowMs();
    for (const pair of options.source.pairs) {
      this.#seen.set(pair.pair, { hedgeState: undefined, hedgeStreamUp: undefined, referenceState: undefined, isDivergent: false, referenceReconnects: undefined, pausedAtMs: undefined, day: undefined });
    }
  }

  /**
   * The observer to give `pair`'s engine (beside its metrics, through `combineObservers`).
   * @throws MmError `OPS_UNKNOWN_PAIR` for a pair the source does not list (a wiring mistake).
   */
  observerFor(pair: string): EngineObserver {
    const source = this.#pair(pair);
    const scope = this.#scope(pair);
    const seen = this.#seenOf(pair);
    const now = (): number => this.#options.clock.nowMs();
    return {
      halted: (reason) => this.#publish({ kind: 'halt', scope, atMs: now(), code: source.status()?.haltReason?.code, reason }),
      paused: (isPaused, reason) => {
        if (isPaused) {
          seen.pausedAtMs = now();
          this.#publish({ kind: 'pause-started', scope, atMs: now(), reason });
          return;
        }
        const durationMs = seen.pausedAtMs === undefined ? 0 : now() - seen.pausedAtMs;
        seen.pausedAtMs = undefined;
        this.#publish({ kind: 'pause-ended', scope, atMs: now(), reason, durationMs });
      },
      drift: (baseDriftUnits, quoteDriftUnits) => {
        const tolerance = source.driftToleranceUnits;
        this.#publish({
          kind: 'drift',
          scope,
          atMs: now(),
          drifts: [
            { token: source.base, amount: unitsToNumber(baseDriftUnits, source.baseDecimals) },
            { token: source.quote, amount: unitsToNumber(quoteDriftUnits, source.quoteDecimals) },
          ].filter((drift) => drift.amount !== 0),
          isBeyondTolerance: abs(baseDriftUnits) > tolerance || abs(quoteDriftUnits) > tolerance,
        });
      },
    };
  }

  /** Reads counters once for a baseline, then polls, and schedules the daily summary. Idempotent. */
  start(): void {
    if (this.#pollTimer !== undefined || this.#isStopped) return;
    this.#venueReconnects = this.#options.source.venueReconnects?.();
    this.#venueRateLimited = this.#options.source.venueRateLimited?.();
    this.#pollTimer = this.#options.clock.setInterval(() => this.poll(), this.#options.pollMs ?? DEFAULT_POLL_MS, { unref: true });
    this.#scheduleSummary();
  }

  /** Stops polling and the summary. Idempotent. */
  stop(): void {
    this.#isStopped = true;
    this.#pollTimer?.cancel();
    this.#summaryTimer?.cancel();
  }

  /** One reading of every status and counter (the poll timer's work). */
  poll(): void {
    if (this.#isStopped) return;
    const { source, clock } = this.#options;
    const atMs = clock.nowMs();
    const account: OpsScope = { account: source.account };
    const reconnects = source.venueReconnects?.();
    const venueReconnects = increase(this.#venueReconnects, reconnects);
    this.#venueReconnects = reconnects ?? this.#venueReconnects;
    if (venueReconnects > 0) this.#publish({ kind: 'reconnect', scope: account, atMs, feed: `${source.venue} venue`, count: venueReconnects });
    const limited = source.venueRateLimited?.();
    const rateLimited = increase(this.#venueRateLimited, limited);
    this.#venueRateLimited = limited ?? this.#venueRateLimited;
    if (rateLimited > 0) this.#publish({ kind: 'rate-limited', scope: account, atMs, venue: source.venue, count: rateLimited });
    for (const pair of source.pairs) this.#pollPair(pair, atMs);
    this.#pollBalances(atMs);
  }

  #pollPair(pair: PairSource, atMs: number): void {
    const status = pair.status();
    const seen = this.#seenOf(pair.pair);
    const scope = this.#scope(pair.pair);
    if (status === undefined) return;
    const hedge = status.hedge;
    if (hedge !== undefined) {
      if (hedge.state !== seen.hedgeState) {
        seen.hedgeState = hedge.state;
        this.#publish({ kind: 'hedge', scope, atMs, market: hedge.market, state: hedge.state, reason: hedge.reason, hedgesFailed: hedge.hedgesFailed, uncoveredBase: hedge.uncoveredBase });
      }
      if (seen.hedgeStreamUp === false && hedge.venue.streamUp) this.#publish({ kind: 'reconnect', scope, atMs, feed: `hedge ${hedge.market}`, count: 1 });
      seen.hedgeStreamUp = hedge.venue.streamUp;
    }
    const reference = status.reference;
    if (reference !== undefined) {
      if (reference.state !== seen.referenceState) {
        seen.referenceState = reference.state;
        this.#publish({ kind: 'reference', scope, atMs, market: reference.market, state: reference.state as ReferenceState, reason: reference.reason });
      }
      const isDivergent = status.pauseReason?.includes(DIVERGENT) === true;
      if (isDivergent !== seen.isDivergent) {
        seen.isDivergent = isDivergent;
        this.#publish({ kind: 'divergence', scope, atMs, market: reference.market, isDivergent, divergenceBps: reference.divergenceBps });
      }
    }
    const feed = pair.referenceStatus?.();
    if (feed !== undefined) {
      const count = increase(seen.referenceReconnects, feed.counters.reconnects);
      seen.referenceReconnects = feed.counters.reconnects;
      if (count > 0) this.#publish({ kind: 'reconnect', scope, atMs, feed: `reference ${feed.market}`, count });
    }
  }

  #pollBalances(atMs: number): void {
    const watched = this.#options.sink.policy.lowBalances;
    if (watched.length === 0) return;
    const balances = this.#options.source.balances?.() ?? this.#pairBalances();
    const scope: OpsScope = { account: this.#options.source.account };
    for (const { token } of watched) {
      const amount = balances.get(token);
      if (amount !== undefined) this.#publish({ kind: 'balance', scope, atMs, token, amount });
    }
  }

  /** Each pair's balances from its status, once its engine has read them (not while starting). */
  #pairBalances(): ReadonlyMap<string, number> {
    const balances = new Map<string, number>();
    for (const pair of this.#options.source.pairs) {
      const status = pair.status();
      if (status === undefined || status.state === 'starting') continue;
      if (!balances.has(pair.base)) balances.set(pair.base, status.baseBalance);
      if (!balances.has(pair.quote)) balances.set(pair.quote, status.quoteBalance);
    }
    return balances;
  }

  // ── the daily summary ────────────────────────────────────────────────────────────────────

  #scheduleSummary(): void {
    const minute = this.#options.sink.policy.dailySummaryMinuteUtc;
    if (minute === undefined || this.#isStopped) return;
    const now = this.#options.clock.nowMs();
    this.#summaryTimer = this.#options.clock.setTimeout(
      () => {
        this.summarise();
        this.#scheduleSummary();
      },
      nextDailyMs(now, minute) - now,
      { unref: true },
    );
  }

  /** Publishes the day's figures now (the summary timer's work). */
  summarise(): void {
    const atMs = this.#options.clock.nowMs();
    const pairs: PairDay[] = [];
    for (const pair of this.#options.source.pairs) {
      const status = pair.status();
      if (status === undefined) continue;
      const seen = this.#seenOf(pair.pair);
      const now = { pnl: status.pnl.total, fills: status.pnl.fills, volumeBase: status.pnl.volumeBase, fees: status.pnl.feesPaid };
      const before = seen.day ?? { pnl: 0, fills: 0, volumeBase: 0, fees: 0 };
      seen.day = now;
      pairs.push({
        pair: pair.pair,
        base: pair.base,
        quote: pair.quote,
        state: status.state,
        pnlQuote: now.pnl,
        pnlChangeQuote: now.pnl - before.pnl,
        fills: now.fills - before.fills,
        volumeBase: now.volumeBase - before.volumeBase,
        feesQuote: now.fees - before.fees,
        position: status.position,
      });
    }
    this.#publish({ kind: 'daily-summary', scope: { account: this.#options.source.account }, atMs, sinceMs: this.#summarySinceMs, pairs });
    this.#summarySinceMs = atMs;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  #publish(event: Parameters<OpsSink['publish']>[0]): void {
    if (!this.#isStopped) this.#options.sink.publish(event);
  }

  #pair(name: string): PairSource {
    const pair = this.#options.source.pairs.find((candidate) => candidate.pair === name);
    if (pair === undefined) throw new MmError<OpsErrorCode>('OPS_UNKNOWN_PAIR', `ops monitor: no pair ${name} (pairs: ${this.#options.source.pairs.map((candidate) => candidate.pair).join(', ')})`);
    return pair;
  }

  #seenOf(pair: string): PairSeen {
    const seen = this.#seen.get(pair);
    if (seen === undefined) throw new MmError<OpsErrorCode>('OPS_UNKNOWN_PAIR', `ops monitor: no pair ${pair}`);
    return seen;
  }

  #scope(pair: string): OpsScope {
    return { account: this.#options.source.account, pair };
  }
}

/** The next time of day `minuteUtc` (minutes after 00:00 UTC) strictly after `nowMs`, ms since the epoch. */
export function nextDailyMs(nowMs: number, minuteUtc: number): number {
  const today = nowMs - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS) + minuteUtc * 60_000;
  return today > nowMs ? today : today + DAY_MS;
}

/** How much a growing counter grew since `before` (0 for the first reading, or after a reset). */
function increase(before: number | undefined, now: number | undefined): number {
  if (before === undefined || now === undefined || now < before) return 0;
  return now - before;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
