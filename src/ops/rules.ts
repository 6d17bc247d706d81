/**
 * Which events reach a person, and when (the policy of ALERT_*): a halt at once; a pause, a stale
 * reference or a divergence once it has lasted ALERT_PAUSE_AFTER_S, and a word when it ends; a
 * drift beyond the tolerance; the hedger failing and recovering; a storm of reconnects or 429s
 * once the window holds the threshold, and when it calms; a balance under its threshold and back
 * above it; the daily summary. Every condition is one alert while it lasts (`conditions.ts`).
 */
import type { AlertEventKind, AlertPolicy, Clock } from '../core/index.ts';
import { formatAmount, formatDuration, type Alert, type AlertBody } from './alert.ts';
import { dailySummary } from './day-summary.ts';
import { Conditions } from './conditions.ts';
import type { OpsEvent, OpsScope } from './events.ts';
import { Storms } from './storms.ts';

/** Which `ALERT_EVENTS` word governs each event. */
const KIND_OF: Readonly<Record<OpsEvent['kind'], AlertEventKind>> = {
  halt: 'halt',
  'pause-started': 'pause',
  'pause-ended': 'pause',
  drift: 'drift',
  hedge: 'hedge',
  reference: 'reference',
  divergence: 'reference',
  reconnect: 'reconnect-storm',
  'rate-limited': '429-storm',
  balance: 'low-balance',
  'daily-summary': 'daily-summary',
};

/**
 * A low balance clears only this far (a share of its threshold) above it, so a balance hovering
 * on the line (fees, a fill back and forth) is one alert, not one per reading.
 */
export const LOW_BALANCE_HYSTERESIS = 0.05;

/** What the rules need. */
export interface RulesOptions {
  readonly clock: Clock;
  readonly policy: AlertPolicy;
  /** Where alerts go (the notifier's outbox); called synchronously. */
  readonly emit: (alert: Alert) => void;
}

type EventOf<K extends OpsEvent['kind']> = Extract<OpsEvent, { kind: K }>;

/** The policy applied to a stream of events. */
export class AlertRules {
  readonly #options: RulesOptions;
  readonly #conditions: Conditions;
  readonly #enabled: ReadonlySet<AlertEventKind>;
  readonly #storms: Storms;
  /** Why each pair paused, for the message when it resumes. */
  readonly #pauseReasons = new Map<string, string>();
  /** Alerts raised since the last daily summary, by kind. */
  #raisedToday = new Map<string, number>();
  #isStopped = false;

  constructor(options: RulesOptions) {
    this.#options = options;
    this.#conditions = new Conditions(options.clock);
    this.#storms = new Storms(options.clock, this.#conditions, options.policy.stormWindowMs);
    this.#enabled = new Set(options.policy.events);
  }

  /** Applies the policy to one event. */
  on(event: OpsEvent): void {
    if (this.#isStopped) return;
    // A halt ends whatever the pair was waiting on (a pause, a hedge retry): no late "paused" after it.
    if (event.kind === 'halt') this.#conditions.dropWhere((key) => key.endsWith(` ${placeOf(event.scope)}`) && !key.startsWith('halt '));
    if (!this.#enabled.has(KIND_OF[event.kind])) return;
    switch (event.kind) {
      case 'halt':
        return this.#halt(event);
      case 'pause-started':
        return this.#pauseStarted(event);
      case 'pause-ended':
        return this.#pauseEnded(event);
      case 'drift':
        return this.#drift(event);
      case 'hedge':
        return this.#hedge(event);
      case 'reference':
        return this.#reference(event);
      case 'divergence':
        return this.#divergence(event);
      case 'reconnect':
        return this.#reconnect(event);
      case 'rate-limited':
        return this.#rateLimited(event);
      case 'balance':
        return this.#balance(event);
      case 'daily-summary':
        return this.#summary(event);
    }
  }

  /** Cancels every timer (pending holds, storm re-checks); nothing alerts any more. Idempotent. */
  stop(): void {
    this.#isStopped = true;
    this.#conditions.clear();
    this.#storms.stop();
  }

  // ── halts and pauses ─────────────────────────────────────────────────────────────────────

  #halt(event: EventOf<'halt'>): void {
    this.#conditions.open(`halt ${placeOf(event.scope)}`, 0, () =>
      this.#emit(event.scope, {
        kind: 'halt',
        severity: 'critical',
        headline: 'HALTED',
        lines: [`Quoting stopped for good: ${event.reason}`, ...(event.code === undefined ? [] : [`code ${event.code}`]), 'Every order is being cancelled; it stays halted until restarted once the cause is fixed.'],
        facts: { code: event.code ?? null, reason: event.reason },
        mergeKey: `halt ${event.code ?? ''} ${event.reason}`,
      }),
    );
  }

  #pauseStarted(event: EventOf<'pause-started'>): void {
    const place = placeOf(event.scope);
    this.#pauseReasons.set(place, event.reason);
    this.#conditions.open(`pause ${place}`, this.#options.policy.pauseAfterMs, (heldMs) =>
      this.#emit(event.scope, {
        kind: 'pause',
        severity: 'warning',
        headline: 'PAUSED',
        lines: [`Quoting paused for ${formatDuration(heldMs)} so far: ${event.reason}`, 'Orders are cancelled while it lasts; it resumes by itself when the reason clears.'],
        facts: { reason: event.reason, pausedMs: heldMs },
      }),
    );
  }

  #pauseEnded(event: EventOf<'pause-ended'>): void {
    const place = placeOf(event.scope);
    const reason = this.#pauseReasons.get(place) ?? event.reason;
    this.#pauseReasons.delete(place);
    this.#conditions.close(`pause ${place}`, () =>
      this.#emit(event.scope, {
        kind: 'pause',
        severity: 'resolved',
        headline: 'QUOTING AGAIN',
        lines: [`Quoting resumed after a pause of ${formatDuration(event.durationMs)} (${reason})`],
        facts: { reason, pausedMs: event.durationMs },
      }),
    );
  }

  // ── drift and hedging ────────────────────────────────────────────────────────────────────

  #drift(event: EventOf<'drift'>): void {
    // Fee rounding within the tolerance is healed silently by the engine; only a real drift is news.
    if (!event.isBeyondTolerance) return;
    const moved = event.drifts.map((drift) => `${formatAmount(drift.amount, 8, true)} ${drift.token}`).join(', ');
    this.#conditions.open(`drift ${placeOf(event.scope)}`, 0, () =>
      this.#emit(event.scope, {
        kind: 'drift',
        severity: 'warning',
        headline: 'BALANCE DRIFT',
        lines: [`Venue balances differ from start + fills by ${moved}`, 'Beyond the tolerance: the engine halts on it (a trade no pair of ours made, or a lost fill).'],
        facts: Object.fromEntries(event.drifts.map((drift) => [drift.token, drift.amount])),
      }),
    );
  }

  #hedge(event: EventOf<'hedge'>): void {
    const key = `hedge ${placeOf(event.scope)}`;
    if (event.state === 'failing') {
      const base = event.scope.pair?.split('/')[0] ?? 'base';
      this.#conditions.open(key, 0, () =>
        this.#emit(event.scope, {
          kind: 'hedge',
          severity: 'warning',
          headline: 'HEDGE FAILING',
          lines: [
            `Hedging on ${event.market} fails: ${event.reason ?? 'no reason given'}`,
            `${formatAmount(event.uncoveredBase)} ${base} uncovered, ${event.hedgesFailed} hedge(s) failed so far; the side adding to it stops quoting while retries go on`,
          ],
          facts: { market: event.market, reason: event.reason ?? null, hedgesFailed: event.hedgesFailed, uncoveredBase: event.uncoveredBase },
        }),
      );
    } else if (event.state === 'ok') {
      this.#conditions.close(key, (heldMs) =>
        this.#emit(event.scope, {
          kind: 'hedge',
          severity: 'resolved',
          headline: 'HEDGING OK',
          lines: [`Hedging on ${event.market} works again after ${formatDuration(heldMs)}`],
          facts: { market: event.market, failingMs: heldMs },
        }),
      );
    } else if (event.state === 'halted' || event.state === 'stopped') {
      // A hedger that gave up halts the engine (that alert says why); one that stopped is shutting down.
      this.#conditions.drop(key);
    }
  }

  // ── the reference market ─────────────────────────────────────────────────────────────────

  #reference(event: EventOf<'reference'>): void {
    const key = `reference ${placeOf(event.scope)}`;
    if (event.state === 'stopped') {
      this.#conditions.drop(key);
      return;
    }
    if (event.state === 'synchronised') {
      this.#conditions.close(key, (heldMs) =>
        this.#emit(event.scope, {
          kind: 'reference',
          severity: 'resolved',
          headline: 'REFERENCE OK',
          lines: [`Reference ${event.market} is synchronised again after ${formatDuration(heldMs)}`],
          facts: { market: event.market, unusableMs: heldMs },
        }),
      );
      return;
    }
    this.#conditions.open(key, this.#options.policy.pauseAfterMs, (heldMs) =>
      this.#emit(event.scope, {
        kind: 'reference',
        severity: 'warning',
        headline: `REFERENCE ${event.state.toUpperCase()}`,
        lines: [`Reference ${event.market} ${event.state} for ${formatDuration(heldMs)} (${event.reason ?? 'no reason given'}); quoting that prices from it stays paused`],
        facts: { market: event.market, state: event.state, reason: event.reason ?? null, unusableMs: heldMs },
      }),
    );
  }

  #divergence(event: EventOf<'divergence'>): void {
    const key = `divergence ${placeOf(event.scope)}`;
    const bps = event.divergenceBps === undefined ? 'an unknown number of' : formatAmount(event.divergenceBps, 1);
    if (!event.isDivergent) {
      this.#conditions.close(key, (heldMs) =>
        this.#emit(event.scope, {
          kind: 'reference',
          severity: 'resolved',
          headline: 'PRICES AGREE',
          lines: [`Venue and reference ${event.market} agree again after ${formatDuration(heldMs)} (${bps} bps apart)`],
          facts: { market: event.market, divergenceBps: event.divergenceBps ?? null, divergentMs: heldMs },
        }),
      );
      return;
    }
    this.#conditions.open(key, this.#options.policy.pauseAfterMs, (heldMs) =>
      this.#emit(event.scope, {
        kind: 'reference',
        severity: 'warning',
        headline: 'REFERENCE DIVERGES',
        lines: [`Venue mid and reference ${event.market} have disagreed for ${formatDuration(heldMs)} (${bps} bps, over REFERENCE_MAX_DIVERGENCE_BPS); quoting is paused until they agree`],
        facts: { market: event.market, divergenceBps: event.divergenceBps ?? null, divergentMs: heldMs },
      }),
    );
  }

  // ── storms ───────────────────────────────────────────────────────────────────────────────

  #reconnect(event: EventOf<'reconnect'>): void {
    const threshold = this.#options.policy.reconnectStorm;
    const window = formatDuration(this.#options.policy.stormWindowMs);
    const key = `reconnects ${event.feed} ${placeOf(event.scope)}`;
    this.#storms.add(key, threshold, event.atMs, event.count, (total) => this.#emit(event.scope, {
      kind: 'reconnect-storm',
      severity: 'warning',
      headline: 'RECONNECT STORM',
      lines: [`The ${event.feed} feed reconnected ${total} times in the last ${window} (ALERT_RECONNECT_STORM=${threshold}); quotes pause while it is down`],
      facts: { feed: event.feed, reconnects: total, windowMs: this.#options.policy.stormWindowMs },
    }), (heldMs, total) => this.#emit(event.scope, {
      kind: 'reconnect-storm',
      severity: 'resolved',
      headline: 'RECONNECTS CALM',
      lines: [`The ${event.feed} feed: ${total} reconnect(s) in the last ${window}, under ${threshold}; the storm lasted ${formatDuration(heldMs)}`],
      facts: { feed: event.feed, reconnects: total, stormMs: heldMs },
    }));
  }

  #rateLimited(event: EventOf<'rate-limited'>): void {
    const threshold = this.#options.policy.rateLimitStorm;
    const window = formatDuration(this.#options.policy.stormWindowMs);
    const key = `429 ${event.venue} ${placeOf(event.scope)}`;
    this.#storms.add(key, threshold, event.atMs, event.count, (total) => this.#emit(event.scope, {
      kind: '429-storm',
      severity: 'warning',
      headline: '429 STORM',
      lines: [
        `${event.venue} answered 429 (rate limited) ${total} times in the last ${window} (ALERT_429_STORM=${threshold})`,
        'Each one delays a request; the outbound budget (ORDER_RATE_LIMIT_PER_S) may be above the venue\'s limit, or another client uses the account',
      ],
      facts: { venue: event.venue, answers: total, windowMs: this.#options.policy.stormWindowMs },
    }), (heldMs, total) => this.#emit(event.scope, {
      kind: '429-storm',
      severity: 'resolved',
      headline: '429s CALM',
      lines: [`${event.venue}: ${total} 429 answer(s) in the last ${window}, under ${threshold}; the storm lasted ${formatDuration(heldMs)}`],
      facts: { venue: event.venue, answers: total, stormMs: heldMs },
    }));
  }

  // ── balances and the day ─────────────────────────────────────────────────────────────────

  #balance(event: EventOf<'balance'>): void {
    const threshold = this.#options.policy.lowBalances.find((candidate) => candidate.token === event.token);
    if (threshold === undefined) return;
    const key = `low-balance ${event.token} ${placeOf(event.scope)}`;
    const limit = threshold.amount.value;
    if (event.amount < limit) {
      this.#conditions.open(key, 0, () =>
        this.#emit(event.scope, {
          kind: 'low-balance',
          severity: 'warning',
          headline: 'LOW BALANCE',
          lines: [`${event.token} balance ${formatAmount(event.amount)} is below ${threshold.amount.text} (ALERT_LOW_BALANCE)`],
          facts: { token: event.token, balance: event.amount, threshold: limit },
        }),
      );
    } else if (event.amount >= limit * (1 + LOW_BALANCE_HYSTERESIS)) {
      this.#conditions.close(key, () =>
        this.#emit(event.scope, {
          kind: 'low-balance',
          severity: 'resolved',
          headline: 'BALANCE OK',
          lines: [`${event.token} balance ${formatAmount(event.amount)} is back above ${threshold.amount.text}`],
          facts: { token: event.token, balance: event.amount, threshold: limit },
        }),
      );
    }
  }

  #summary(event: EventOf<'daily-summary'>): void {
    const raised = new Map(this.#raisedToday);
    this.#raisedToday = new Map();
    this.#emit(event.scope, dailySummary(event, raised));
  }

  #emit(scope: OpsScope, body: AlertBody): void {
    if (body.kind !== 'daily-summary') this.#raisedToday.set(body.kind, (this.#raisedToday.get(body.kind) ?? 0) + 1);
    this.#options.emit({ ...body, account: scope.account, pairs: scope.pair === undefined ? [] : [scope.pair], atMs: this.#options.clock.nowMs() });
  }
}


/** The pair, or `account`: the place a condition is about. */
function placeOf(scope: OpsScope): string {
  return scope.pair ?? 'account';
}
