/**
 * The notifier (issue 25 item 3): operations beside the engine, never inside it. It hears
 * `OpsEvent`s (from the adapters in `monitor.ts`), applies the policy (`rules.ts`), and hands each
 * alert to every configured channel's sender (`sender.ts`): a generic webhook, Telegram, Slack,
 * Discord. `publish` is synchronous, cheap and never throws; delivery happens later, on its own.
 * Alerts raised in the same turn of the event loop with the same merge key go out as one (an
 * account halt reaches every pair's engine with one reason: one message naming every pair).
 */
import type { AlertChannels, AlertPolicy, AlertSettings, Clock, Logger } from '../core/index.ts';
import { renderAlert, type Alert } from './alert.ts';
import type { Channel, ChannelName } from './channels/channel.ts';
import { discordChannel } from './channels/discord.ts';
import { slackChannel } from './channels/slack.ts';
import { telegramChannel } from './channels/telegram.ts';
import { webhookChannel } from './channels/webhook.ts';
import type { OpsEvent } from './events.ts';
import { createHttpClient, type HttpClient } from './http-post.ts';
import { AlertRules } from './rules.ts';
import { ChannelSender, DEFAULT_DELIVERY, type ChannelStats, type DeliverySettings } from './sender.ts';

/** Where events go: what the adapters need of a notifier. */
export interface OpsSink {
  readonly policy: AlertPolicy;
  publish(event: OpsEvent): void;
}

/** What a notifier is built from. */
export interface NotifierOptions {
  /** Channels and policy (`PairConfig.alerts`, from the ALERT_* keys). */
  readonly settings: AlertSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Timeouts, retries and queue bounds; defaults in `DEFAULT_DELIVERY`. */
  readonly delivery?: Partial<DeliverySettings>;
  /** How long `stop()` may spend sending what is queued, ms on the clock. Default 3 000. */
  readonly flushMs?: number;
}

/** Default of {@link NotifierOptions.flushMs}. */
export const DEFAULT_FLUSH_MS = 3_000;

/** The channels the settings name, in a fixed order. */
export function channelsOf(channels: AlertChannels): Channel[] {
  const { webhook, telegram, slack, discord } = channels;
  return [
    ...(webhook === undefined ? [] : [webhookChannel(webhook.url)]),
    ...(telegram === undefined ? [] : [telegramChannel(telegram.apiUrl, telegram.botToken, telegram.chatId)]),
    ...(slack === undefined ? [] : [slackChannel(slack.url)]),
    ...(discord === undefined ? [] : [discordChannel(discord.url)]),
  ];
}

/** Events in, alerts out to every channel. */
export class Notifier implements OpsSink {
  readonly policy: AlertPolicy;
  readonly #options: NotifierOptions;
  readonly #rules: AlertRules;
  readonly #senders: readonly ChannelSender[];
  readonly #http: HttpClient;
  readonly #logger: Logger;
  #outbox: Alert[] = [];
  #isStopped = false;
  #stopping: Promise<void> | undefined;

  /**
   * The notifier of these settings, or undefined when no channel is set (alerts are off).
   * Builds nothing that connects until the first alert.
   */
  static create(options: NotifierOptions): Notifier | undefined {
    const channels = channelsOf(options.settings.channels);
    return channels.length === 0 ? undefined : new Notifier(options, channels);
  }

  /** Prefer {@link Notifier.create}; `channels` replace the settings' (tests). */
  constructor(options: NotifierOptions, channels: readonly Channel[] = channelsOf(options.settings.channels)) {
    this.#options = options;
    this.policy = options.settings.policy;
    this.#logger = options.logger.child({ component: 'notifier' });
    this.#http = createHttpClient();
    const delivery = { ...DEFAULT_DELIVERY, ...options.delivery };
    const render = (alert: Alert, suppressed: Parameters<typeof renderAlert>[2]): string => renderAlert(alert, this.policy.label, suppressed);
    this.#senders = channels.map(
      (channel) =>
        new ChannelSender({
          channel,
          clock: options.clock,
          logger: this.#logger,
          post: this.#http.post,
          ratePerMin: this.policy.ratePerMin,
          burst: this.policy.burst,
          delivery,
          render,
          label: this.policy.label,
        }),
    );
    this.#rules = new AlertRules({ clock: options.clock, policy: this.policy, emit: (alert) => this.#post(alert) });
    this.#logger.info({ channels: channels.map((channel) => channel.name), events: this.policy.events }, 'alerts on');
  }

  /** The channels alerts go to. */
  get channels(): readonly ChannelName[] {
    return this.#senders.map((sender) => sender.name);
  }

  /** Hears one event; alerts it raises go out later. Never throws, never waits. */
  publish(event: OpsEvent): void {
    if (this.#isStopped) return;
    try {
      this.#rules.on(event);
    } catch (error) {
      // The engine called us from its own path: a bug here must not reach it.
      this.#logger.error({ err: error, kind: event.kind }, 'notifier failed on an event; carrying on');
    }
  }

  /** Resolves once every alert raised so far was delivered or given up (tests; a drain before a planned stop). */
  async settled(): Promise<void> {
    // Alerts of this turn reach the senders in a microtask.
    await Promise.resolve();
    this.#flush();
    await Promise.all(this.#senders.map((sender) => sender.settled()));
  }

  /** What each channel did so far. */
  stats(): ReadonlyMap<ChannelName, ChannelStats> {
    return new Map(this.#senders.map((sender) => [sender.name, sender.stats]));
  }

  /**
   * Stops hearing events and sends what is queued for at most `flushMs`, then closes the
   * sockets. Call it after the engines stopped, so their last alerts go out. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    this.#isStopped = true;
    this.#rules.stop();
    this.#flush();
    await Promise.all(this.#senders.map((sender) => sender.stop(this.#options.flushMs ?? DEFAULT_FLUSH_MS)));
    await this.#http.close();
  }

  #post(alert: Alert): void {
    this.#logger.info({ kind: alert.kind, severity: alert.severity, headline: alert.headline, pairs: alert.pairs, facts: alert.facts }, 'alert');
    this.#outbox.push(alert);
    // Whatever else this turn raises joins it (an account halt reaches every pair in one turn).
    if (this.#outbox.length === 1) queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    const alerts = mergeAlerts(this.#outbox);
    this.#outbox = [];
    for (const alert of alerts) for (const sender of this.#senders) sender.offer(alert);
  }
}

/** Alerts with the same merge key become one naming every pair; the rest stay as they are, in order. */
export function mergeAlerts(alerts: readonly Alert[]): Alert[] {
  const merged: Alert[] = [];
  const byKey = new Map<string, number>();
  for (const alert of alerts) {
    const at = alert.mergeKey === undefined ? undefined : byKey.get(alert.mergeKey);
    const first = at === undefined ? undefined : merged[at];
    if (at === undefined || first === undefined) {
      if (alert.mergeKey !== undefined) byKey.set(alert.mergeKey, merged.length);
      merged.push(alert);
      continue;
    }
    merged[at] = { ...first, pairs: [...new Set([...first.pairs, ...alert.pairs])] };
  }
  return merged;
}
