/**
 * One channel's delivery: a token bucket on the injected clock admits alerts (ALERT_RATE_PER_MIN,
 * ALERT_RATE_BURST; a halt always goes), what it holds back is counted and told in the next
 * message, a bounded queue keeps the order, one request at a time (what the services' own limits
 * expect), each with a timeout, retried with backoff on a network failure, a 5xx or a 429 (its
 * wait honoured). Nothing here throws into the caller or waits on it: `offer` returns at once.
 * What cannot be delivered is logged with the channel's secrets scrubbed out. Retrying a POST may
 * repeat a message whose answer was lost: for an alert, twice is better than never.
 */
import type { Clock, Logger, Timer } from '../core/index.ts';
import { TokenBucket } from '../engine/index.ts';
import type { Alert, Suppressed } from './alert.ts';
import type { Channel, ChannelName } from './channels/channel.ts';
import type { HttpAnswer, HttpPost } from './http-post.ts';

/** How a channel delivers; every default in {@link DEFAULT_DELIVERY}. */
export interface DeliverySettings {
  /** One request, connect to last byte, ms. Default 5 000. */
  readonly timeoutMs: number;
  /** Tries of one message before it is dropped (and logged). Default 4. */
  readonly attempts: number;
  /** Wait before the first retry, doubling each time, ms. Default 1 000. */
  readonly backoffMs: number;
  /** Longest wait between tries, ms. Default 30 000. */
  readonly maxBackoffMs: number;
  /** A 429 asking to wait longer than this gives the message up, ms. Default 300 000. */
  readonly maxRetryAfterMs: number;
  /** Messages waiting per channel; past it the oldest that is not a halt is dropped (counted as held back). Default 50. */
  readonly queueLimit: number;
}

/** Defaults of {@link DeliverySettings}. */
export const DEFAULT_DELIVERY: DeliverySettings = {
  timeoutMs: 5_000,
  attempts: 4,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 300_000,
  queueLimit: 50,
};

/** What one channel did so far. */
export interface ChannelStats {
  /** Messages the service took. */
  readonly sent: number;
  /** Messages given up (retries spent, refused, stopped with them pending). */
  readonly failed: number;
  /** Alerts the rate limit or a full queue held back (told in a later message). */
  readonly suppressed: number;
}

/** What a sender needs. */
export interface SenderOptions {
  readonly channel: Channel;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly post: HttpPost;
  readonly ratePerMin: number;
  readonly burst: number;
  readonly delivery: DeliverySettings;
  /** The alert's text with the held-back note. */
  readonly render: (alert: Alert, suppressed: Suppressed | undefined) => string;
  readonly label: string;
}

/** How one try ended. */
type Outcome = { readonly kind: 'delivered' } | { readonly kind: 'retry'; readonly afterMs: number | undefined; readonly why: Record<string, unknown> } | { readonly kind: 'refused'; readonly why: Record<string, unknown> };

/** Delivers to one channel. */
export class ChannelSender {
  readonly name: ChannelName;
  readonly #options: SenderOptions;
  readonly #bucket: TokenBucket;
  readonly #queue: Alert[] = [];
  #held = { count: 0, byKind: new Map<string, number>() };
  #lastHeldMs = 0;
  #isBusy = false;
  #isStopping = false;
  #isAborted = false;
  #summaryTimer: Timer | undefined;
  #inFlight: AbortController | undefined;
  #wake: (() => void) | undefined;
  /** Called once nothing is queued or in flight. */
  #idle: (() => void)[] = [];
  #lastAccount = '';
  readonly #stats = { sent: 0, failed: 0, suppressed: 0 };

  constructor(options: SenderOptions) {
    this.#options = options;
    this.name = options.channel.name;
    this.#bucket = new TokenBucket({ ratePerS: options.ratePerMin / 60, burst: options.burst, reservedForCancels: 0 }, options.clock);
  }

  /** What this channel did so far (a copy). */
  get stats(): ChannelStats {
    return { ...this.#stats };
  }

  /** Resolves once nothing is queued or in flight (at once when idle). */
  settled(): Promise<void> {
    if (!this.#isBusy && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Admits `alert` if the rate limit allows (a critical one always), and sends it in its turn. Never throws. */
  offer(alert: Alert): void {
    if (this.#isStopping) return;
    this.#lastAccount = alert.account;
    if (alert.severity === 'critical') this.#bucket.takeAnyway();
    else if (!this.#bucket.tryTake('risk')) {
      this.#hold(alert.kind);
      this.#scheduleSummary();
      return;
    }
    this.#enqueue(alert);
  }

  /**
   * Sends what is queued for at most `withinMs` on the clock, then gives up the rest (logged).
   * Idempotent; nothing is accepted after it.
   */
  async stop(withinMs: number): Promise<void> {
    if (this.#isStopping) return;
    this.#isStopping = true;
    this.#summaryTimer?.cancel();
    if (this.#isBusy || this.#queue.length > 0) {
      let deadline: Timer | undefined;
      await Promise.race([
        this.settled(),
        new Promise<void>((resolve) => (deadline = this.#options.clock.setTimeout(resolve, withinMs, { unref: true }))),
      ]);
      deadline?.cancel();
    }
    this.#isAborted = true;
    this.#inFlight?.abort();
    this.#wake?.();
    if (this.#queue.length > 0 || this.#held.count > 0) {
      this.#stats.failed += this.#queue.length;
      this.#options.logger.warn({ channel: this.name, dropped: this.#queue.length, heldBack: this.#held.count }, 'alerts not delivered before shutdown');
      this.#queue.length = 0;
    }
  }

  #enqueue(alert: Alert): void {
    if (this.#queue.length >= this.#options.delivery.queueLimit) {
      const oldest = this.#queue.findIndex((queued) => queued.severity !== 'critical');
      const [dropped] = this.#queue.splice(oldest === -1 ? 0 : oldest, 1);
      if (dropped !== undefined) this.#hold(dropped.kind);
    }
    this.#queue.push(alert);
    this.#pump();
  }

  #hold(kind: string): void {
    this.#lastHeldMs = this.#options.clock.nowMs();
    this.#held.count++;
    this.#held.byKind.set(kind, (this.#held.byKind.get(kind) ?? 0) + 1);
    this.#stats.suppressed++;
  }

  /** Takes the held-back counts for the next message. */
  #takeHeld(): Suppressed | undefined {
    if (this.#held.count === 0) return undefined;
    const held = { count: this.#held.count, byKind: Object.fromEntries(this.#held.byKind) };
    this.#held = { count: 0, byKind: new Map() };
    return held;
  }

  /** Puts counts back when the message that carried them was lost. */
  #restoreHeld(held: Suppressed | undefined): void {
    if (held === undefined) return;
    this.#held.count += held.count;
    for (const [kind, count] of Object.entries(held.byKind)) this.#held.byKind.set(kind, (this.#held.byKind.get(kind) ?? 0) + count);
  }

  /**
   * Tells what was held back once alerts have stopped coming for one token's time (while they
   * keep coming, the next one admitted carries the count, which says more), and a token is back.
   */
  #scheduleSummary(waitMs = Math.max(this.#quietMs(), this.#bucket.msUntilAvailable('risk'))): void {
    if (this.#summaryTimer !== undefined) return;
    this.#summaryTimer = this.#options.clock.setTimeout(
      () => {
        this.#summaryTimer = undefined;
        if (this.#held.count === 0 || this.#isStopping) return;
        // A message on its way may have taken the counts before the last ones: look again later.
        if (this.#isBusy || this.#queue.length > 0) {
          this.#scheduleSummary(this.#quietMs());
          return;
        }
        const quietForMs = this.#options.clock.nowMs() - this.#lastHeldMs;
        if (quietForMs < this.#quietMs() || !this.#bucket.tryTake('risk')) {
          this.#scheduleSummary(Math.max(1, this.#quietMs() - quietForMs, this.#bucket.msUntilAvailable('risk')));
          return;
        }
        this.#enqueue({ kind: 'held-back', severity: 'info', headline: 'HELD BACK', lines: ['Alerts came faster than ALERT_RATE_PER_MIN allows; the counts below were not sent one by one.'], account: this.#lastAccount, pairs: [], atMs: this.#options.clock.nowMs(), facts: {} });
      },
      Math.max(1, waitMs),
      { unref: true },
    );
  }

  /** One token's time: how long alerts must have stopped before the held-back count goes alone. */
  #quietMs(): number {
    return Math.ceil(60_000 / this.#options.ratePerMin);
  }

  #pump(): void {
    if (this.#isBusy || this.#isAborted) return;
    const alert = this.#queue.shift();
    if (alert === undefined) {
      for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    this.#isBusy = true;
    void this.#deliver(alert)
      .catch((error: unknown) => {
        // A bug of ours must not take the engine down with it: log it and move on.
        this.#stats.failed++;
        this.#options.logger.error({ channel: this.name, err: this.#scrub(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) }, 'alert delivery failed unexpectedly');
      })
      .finally(() => {
        this.#isBusy = false;
        this.#pump();
      });
  }

  async #deliver(alert: Alert): Promise<void> {
    const held = this.#takeHeld();
    const { channel, delivery, logger } = this.#options;
    const request = channel.request({ alert, text: this.#options.render(alert, held), suppressed: held, label: this.#options.label });
    const what = { channel: this.name, kind: alert.kind, headline: alert.headline };
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#try(request.url, request.body);
      if (outcome.kind === 'delivered') {
        this.#stats.sent++;
        return;
      }
      if (this.#isAborted) {
        this.#lost(held);
        return;
      }
      if (outcome.kind === 'refused') {
        this.#lost(held);
        logger.error({ ...what, ...outcome.why }, 'alert refused by the channel; not retried (check its URL, token or chat)');
        return;
      }
      const waitMs = outcome.afterMs ?? Math.min(delivery.maxBackoffMs, delivery.backoffMs * 2 ** (attempt - 1));
      if (attempt >= delivery.attempts || waitMs > delivery.maxRetryAfterMs) {
        this.#lost(held);
        logger.error({ ...what, ...outcome.why, attempts: attempt }, 'alert not delivered; giving it up');
        return;
      }
      logger.warn({ ...what, ...outcome.why, attempt, retryInMs: waitMs }, 'alert not delivered yet; retrying');
      await this.#sleep(waitMs);
      if (this.#isAborted) {
        this.#lost(held);
        return;
      }
    }
  }

  #lost(held: Suppressed | undefined): void {
    this.#stats.failed++;
    this.#restoreHeld(held);
    if (this.#held.count > 0) this.#scheduleSummary();
  }

  async #try(url: string, body: string): Promise<Outcome> {
    const controller = new AbortController();
    this.#inFlight = controller;
    const timer = this.#options.clock.setTimeout(() => controller.abort(), this.#options.delivery.timeoutMs, { unref: true });
    try {
      const answer = await this.#options.post(url, body, controller.signal);
      return this.#judge(answer);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { kind: 'retry', afterMs: undefined, why: { error: controller.signal.aborted ? 'timeout' : typeof code === 'string' ? code : this.#scrub(error instanceof Error ? error.message : String(error)) } };
    } finally {
      timer.cancel();
      this.#inFlight = undefined;
    }
  }

  #judge(answer: HttpAnswer): Outcome {
    if (this.#options.channel.isDelivered(answer.status, answer.body)) return { kind: 'delivered' };
    const why = { status: answer.status, answer: this.#scrub(answer.body.slice(0, 200)) };
    if (answer.status === 429) return { kind: 'retry', afterMs: retryAfterMs(answer), why };
    if (answer.status >= 500 || answer.status === 408) return { kind: 'retry', afterMs: undefined, why };
    return { kind: 'refused', why };
  }

  /** Waits on the clock; `stop()` cuts it short. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.#options.clock.setTimeout(done, ms, { unref: true });
      function done(): void {
        timer.cancel();
        resolve();
      }
      this.#wake = done;
    });
  }

  /** `text` with every secret of the channel replaced by `<redacted>`. */
  #scrub(text: string): string {
    let scrubbed = text;
    for (const secret of this.#options.channel.secrets) if (secret !== '') scrubbed = scrubbed.replaceAll(secret, '<redacted>');
    return scrubbed;
  }
}

/**
 * The wait a 429 asks for, ms: the `Retry-After` header (seconds), else the body's `retry_after`
 * (Discord: seconds, fractional) or `parameters.retry_after` (Telegram: seconds).
 */
export function retryAfterMs(answer: HttpAnswer): number | undefined {
  const header = answer.retryAfter === undefined ? Number.NaN : Number(answer.retryAfter);
  if (Number.isFinite(header) && header >= 0) return header * 1_000;
  try {
    const body = JSON.parse(answer.body) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const seconds = typeof body.retry_after === 'number' ? body.retry_after : body.parameters?.retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1_000 : undefined;
  } catch {
    return undefined;
  }
}
