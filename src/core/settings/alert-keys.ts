/**
 * Env keys of the notifier (issue 25 item 3): where alerts go (a generic webhook, Telegram, Slack,
 * Discord; all off until a channel is set), which events alert, how long a condition must last,
 * what makes a storm, which balances are too low, when the daily summary goes, and how many
 * messages a channel may carry. The webhook URLs and the bot token are secrets (each also as
 * `<KEY>_FILE`): never echoed in an error, a log or a report. They belong to the account: every
 * pair file of one process must agree on them. Names are a contract with users' env files: add,
 * never rename.
 */
import type { Secret } from '../secret.ts';
import { secondsToMs, valueOf } from './convert.ts';
import { defineKeys, key, type KeySpec, type KeyValues, type SettingsOf } from './keys.ts';
import * as v from './values.ts';

/** What may alert; a word of `ALERT_EVENTS` each (a contract with users' files). */
export const ALERT_EVENT_KINDS = ['halt', 'pause', 'drift', 'hedge', 'reference', 'reconnect-storm', '429-storm', 'low-balance', 'daily-summary'] as const;
export type AlertEventKind = (typeof ALERT_EVENT_KINDS)[number];

/** `all`, or event names separated by commas. */
const alertEvents: v.ValueParser<readonly AlertEventKind[]> = (raw) => {
  if (raw === 'all') return v.ok(ALERT_EVENT_KINDS);
  const words = raw.split(/[\s,]+/).filter((word) => word !== '');
  const unknown = words.find((word) => !(ALERT_EVENT_KINDS as readonly string[]).includes(word));
  if (words.length === 0 || unknown !== undefined) return v.fail(`all, or some of ${ALERT_EVENT_KINDS.join(', ')} separated by commas${unknown === undefined ? '' : ` (${JSON.stringify(unknown)} is not one)`}`);
  return v.ok([...new Set(words)] as AlertEventKind[]);
};

/** A balance below which an alert goes: the token's symbol and the amount in tokens. */
export interface LowBalanceThreshold {
  readonly token: string;
  readonly amount: v.DecimalValue;
}

/** `TOKEN:amount` pairs separated by commas (`USDC:500,ETH:0.25`); empty = none. */
const lowBalances: v.ValueParser<readonly LowBalanceThreshold[]> = (raw) => {
  const allowed = 'TOKEN:amount pairs separated by commas, e.g. USDC:500,ETH:0.25 (tokens, plain digits), or empty for none';
  const thresholds: LowBalanceThreshold[] = [];
  for (const item of raw.split(/[\s,]+/).filter((entry) => entry !== '')) {
    const [symbol = '', amount = '', ...rest] = item.split(':');
    const token = v.tokenSymbol(symbol);
    const parsed = v.decimal(0, 1e15)(amount);
    if (rest.length > 0 || !token.ok || !parsed.ok) return v.fail(`${allowed} (${JSON.stringify(item)} is not one)`);
    if (thresholds.some((threshold) => threshold.token === token.value)) return v.fail(`${allowed} (${token.value} is given twice)`);
    thresholds.push({ token: token.value, amount: parsed.value });
  }
  return v.ok(thresholds);
};

/** `HH:MM` (UTC) as minutes after midnight, or `off`. */
const timeOfDayUtc: v.ValueParser<number | undefined> = (raw) => {
  if (raw === 'off') return v.ok(undefined);
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  return match === null ? v.fail('HH:MM in UTC (00:00 to 23:59), or off') : v.ok(Number(match[1]) * 60 + Number(match[2]));
};

/** A Telegram chat: its numeric id (negative for groups and channels) or `@channelusername`; empty = none. */
const telegramChatId = v.emptyOrMatching(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, 'a numeric chat id (e.g. 123456789 or -1001234567890) or @channelusername');

/** A URL an alert is posted to; empty = that channel is off. */
const webhookUrl = v.optionalUrl(['https:', 'http:']);

/** Notifier keys, in documentation order. */
export const ALERT_KEYS = defineKeys({
  ALERT_WEBHOOK_URL: key(webhookUrl, {
    default: '',
    unit: 'URL',
    doc: 'Generic webhook: every alert is POSTed here as JSON (README "Alerts" lists the fields); empty = off. A secret (URLs often carry a token): never logged',
    secret: true,
    readers: { 'alert-channels': 'webhookUrl' },
  }),
  ALERT_TELEGRAM_BOT_TOKEN: key(v.emptyOrMatching(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'a bot token as @BotFather gives it (123456:ABC-DEF…)'), {
    default: '',
    unit: 'text',
    doc: 'Telegram: the bot that sends alerts (Bot API sendMessage); needs ALERT_TELEGRAM_CHAT_ID; empty = off. Never logged; errors print <redacted>',
    secret: true,
    readers: { 'alert-channels': 'telegramBotToken' },
  }),
  ALERT_TELEGRAM_CHAT_ID: key(telegramChatId, {
    default: '',
    unit: 'chat id',
    doc: 'Telegram: the chat the bot writes to (a user, group or channel the bot is in)',
    readers: { 'alert-channels': 'telegramChatId' },
  }),
  ALERT_TELEGRAM_API_URL: key(v.url(['https:', 'http:']), {
    default: 'https://api.telegram.org',
    unit: 'URL',
    doc: 'Telegram Bot API server (a local telegram-bot-api server, or a test receiver)',
    readers: { 'alert-channels': 'telegramApiUrl' },
  }),
  ALERT_SLACK_WEBHOOK_URL: key(webhookUrl, {
    default: '',
    unit: 'URL',
    doc: 'Slack incoming webhook (https://hooks.slack.com/services/…); empty = off. A secret: never logged',
    secret: true,
    readers: { 'alert-channels': 'slackWebhookUrl' },
  }),
  ALERT_DISCORD_WEBHOOK_URL: key(webhookUrl, {
    default: '',
    unit: 'URL',
    doc: 'Discord webhook (https://discord.com/api/webhooks/<id>/<token>); empty = off. A secret: never logged',
    secret: true,
    readers: { 'alert-channels': 'discordWebhookUrl' },
  }),
  ALERT_EVENTS: key(alertEvents, {
    default: 'all',
    unit: 'events',
    doc: `What alerts: all, or some of ${ALERT_EVENT_KINDS.join(', ')}`,
    readers: { 'alert-policy': 'events' },
  }),
  ALERT_PAUSE_AFTER_S: key(v.integer(0, 86_400), {
    default: '60',
    unit: 's',
    doc: 'A pause (and a stale or divergent reference) alerts once it has lasted this long, and says when it ends; 0 = at once',
    readers: { 'alert-policy': { field: 'pauseAfterMs', convert: secondsToMs } },
  }),
  ALERT_STORM_WINDOW_S: key(v.integer(10, 86_400), {
    default: '300',
    unit: 's',
    doc: 'The window ALERT_RECONNECT_STORM and ALERT_429_STORM count in',
    readers: { 'alert-policy': { field: 'stormWindowMs', convert: secondsToMs } },
  }),
  ALERT_RECONNECT_STORM: key(v.integer(0, 100_000), {
    default: '5',
    unit: 'reconnects',
    doc: 'This many reconnects of a feed (venue, reference, hedge) within the window is a storm: one alert while it lasts; 0 = off',
    readers: { 'alert-policy': 'reconnectStorm' },
  }),
  ALERT_429_STORM: key(v.integer(0, 100_000), {
    default: '10',
    unit: 'answers',
    doc: 'This many 429 (rate limited) answers of the venue within the window is a storm: one alert while it lasts; 0 = off',
    readers: { 'alert-policy': 'rateLimitStorm' },
  }),
  ALERT_LOW_BALANCE: key(lowBalances, {
    default: '',
    unit: 'TOKEN:tokens,…',
    doc: 'A balance (free + locked) below its amount alerts, once until it is back above it; e.g. USDC:500,ETH:0.25; empty = none',
    readers: { 'alert-policy': 'lowBalances' },
  }),
  ALERT_DAILY_SUMMARY_UTC: key(timeOfDayUtc, {
    default: '00:00',
    unit: 'HH:MM UTC|off',
    doc: 'When the daily summary goes (each pair\'s PnL, fills and volume over the day, and the day\'s alerts); off = none',
    readers: { 'alert-policy': 'dailySummaryMinuteUtc' },
  }),
  ALERT_RATE_PER_MIN: key(v.decimal(0.1, 600, 'messages/min'), {
    default: '6',
    unit: 'messages/min',
    doc: 'Messages each channel may carry per minute, sustained; what the limit holds back is counted and summarised in the next message (a halt always goes)',
    readers: { 'alert-policy': { field: 'ratePerMin', convert: valueOf } },
  }),
  ALERT_RATE_BURST: key(v.integer(1, 100), {
    default: '5',
    unit: 'messages',
    doc: 'Messages each channel may carry at once (the bucket size)',
    readers: { 'alert-policy': 'burst' },
  }),
  ALERT_LABEL: key(v.anyString, {
    default: '',
    unit: 'text',
    doc: 'Name of this process in every alert (several desks, one chat); empty = akira-mm and the account\'s address',
    readers: { 'alert-policy': 'label' },
  }),
});

/** The notifier keys as a list, in documentation order. */
export const ALERT_KEY_LIST: readonly KeySpec[] = Object.values(ALERT_KEYS);

/** Validated notifier keys, as parsed. */
export type AlertKeys = KeyValues<typeof ALERT_KEYS>;

/** The channel keys as parsed (secrets still plain text: the config layer wraps them). */
export type AlertChannelKeys = SettingsOf<typeof ALERT_KEYS, 'alert-channels'>;

/** What alerts, when and how often: the notifier's settings (src/ops). */
export type AlertPolicy = SettingsOf<typeof ALERT_KEYS, 'alert-policy'>;

/** The channels an alert goes to; each one absent when its keys are not set. Secrets stay wrapped. */
export interface AlertChannels {
  readonly webhook?: { readonly url: Secret };
  readonly telegram?: { readonly apiUrl: string; readonly botToken: Secret; readonly chatId: string };
  readonly slack?: { readonly url: Secret };
  readonly discord?: { readonly url: Secret };
}

/** Everything the notifier is built from. */
export interface AlertSettings {
  readonly channels: AlertChannels;
  readonly policy: AlertPolicy;
}
