/**
 * The notifier against a loopback receiver that plays the four services (issue 25 item 3): a halt
 * is one message per channel in each service's documented shape, with no clock time passing; a
 * flapping pause sends no more than the rate limit and says what it held back; a receiver that
 * hangs, fails or refuses never blocks or breaks the caller; no secret reaches a log line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type Clock } from '../../src/core/index.ts';
import type { EngineStatus } from '../../src/engine/index.ts';
import { Notifier, OpsMonitor, type AccountSource, type PairSource, type WebhookPayload } from '../../src/ops/index.ts';
import { AlertReceiver, TELEGRAM_TOKEN, type Received } from './receiver.ts';
import { ACCOUNT, alertSettings, capturedLogger, channelKeys } from './support.ts';

const T0 = Date.UTC(2025, 0, 2, 12, 0, 0);
let receiver: AlertReceiver;
const notifiers: { notifier: Notifier; clock: Clock }[] = [];

afterEach(async () => {
  for (const { notifier, clock } of notifiers.splice(0)) {
    let stopped = false;
    const stopping = notifier.stop().then(() => (stopped = true));
    // stop() gives what is queued its bound on the clock: move a fake one past it.
    if (clock instanceof ManualClock) await driveUntil(clock, () => stopped, 1_000, 'stop()');
    await stopping;
  }
  await receiver?.stop();
});

async function started(): Promise<AlertReceiver> {
  receiver = await new AlertReceiver().start();
  return receiver;
}

function notifierOf(keys: Record<string, string>, clock: Clock, logger = createSilentLogger()): Notifier {
  const notifier = Notifier.create({ settings: alertSettings(keys), clock, logger });
  if (notifier === undefined) throw new Error('no channel configured');
  notifiers.push({ notifier, clock });
  return notifier;
}

/** A pair whose engine reports `status`. */
function pairOf(pair: string, status: () => Partial<EngineStatus> | undefined): PairSource {
  const [base = '', quote = ''] = pair.split('/');
  return { pair, base, quote, baseDecimals: 18, quoteDecimals: 6, driftToleranceUnits: 10n, status: () => status() as EngineStatus | undefined };
}

function monitorOf(notifier: Notifier, clock: Clock, pairs: PairSource[], extra: Partial<AccountSource> = {}): OpsMonitor {
  return new OpsMonitor({ sink: notifier, clock, source: { account: ACCOUNT, venue: 'layerakira', pairs, ...extra } });
}

/** Advances the fake clock in steps, letting real I/O run between them, until `done()`. */
async function driveUntil(clock: ManualClock, done: () => boolean, stepMs: number, what: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (done()) return;
    clock.advance(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`never happened: ${what}`);
}

/** Real time until `done()`, no clock moved. */
async function eventually(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const HALT_REASON = 'drawdown 0.61 reached the limit 0.5 <RISK_MAX_DRAWDOWN> & the kill switch';

describe('notifier → webhook, Telegram, Slack, Discord', () => {
  it('sends one halt as exactly one message per channel, each in its service\'s documented shape, without the clock moving', async () => {
    await started();
    const clock = new ManualClock(T0);
    const notifier = notifierOf(channelKeys(receiver.urls), clock);
    const monitor = monitorOf(notifier, clock, [pairOf('ETH/USDC', () => ({ state: 'halted', haltReason: { code: 'RISK_DRAWDOWN', message: HALT_REASON, atMs: T0 } }))]);
    const startedMs = performance.now();
    monitor.observerFor('ETH/USDC').halted?.(HALT_REASON);
    await receiver.waitFor(4);
    expect(performance.now() - startedMs).toBeLessThan(2_000);
    expect(clock.nowMs()).toBe(T0);
    await notifier.stop();
    expect(receiver.received.map((request) => request.service).sort()).toEqual(['discord', 'slack', 'telegram', 'webhook']);
    for (const request of receiver.received) {
      expect(request.method).toBe('POST');
      expect(request.contentType).toBe('application/json');
    }

    const [hook] = receiver.of('webhook') as [Received];
    const payload = hook.body as WebhookPayload;
    expect(payload).toMatchObject({ source: 'akira-mm', kind: 'halt', severity: 'critical', headline: 'HALTED', account: ACCOUNT, pairs: ['ETH/USDC'], facts: { code: 'RISK_DRAWDOWN', reason: HALT_REASON }, atMs: T0, at: '2025-01-02T12:00:00.000Z', suppressed: null });
    expect(payload.text).toContain(HALT_REASON);

    // Telegram Bot API sendMessage: POST /bot<token>/sendMessage, {chat_id, text}, plain text.
    const [telegram] = receiver.of('telegram') as [Received];
    expect(telegram.path).toBe(`/bot${TELEGRAM_TOKEN}/sendMessage`);
    expect(Object.keys(telegram.body as object).sort()).toEqual(['chat_id', 'text']);
    expect(telegram.body).toMatchObject({ chat_id: '-1001234567890', text: payload.text });
    expect([...(telegram.body as { text: string }).text].length).toBeLessThanOrEqual(4096);

    // Slack incoming webhook: {text}, with &, < and > as entities.
    const [slack] = receiver.of('slack') as [Received];
    expect(Object.keys(slack.body as object)).toEqual(['text']);
    const slackText = (slack.body as { text: string }).text;
    expect(slackText).toContain('drawdown 0.61 reached the limit 0.5 &lt;RISK_MAX_DRAWDOWN&gt; &amp; the kill switch');
    expect(slackText).not.toMatch(/[<>]/);

    // Discord Execute Webhook: ?wait=true, {content ≤ 2000, allowed_mentions: {parse: []}}, markdown escaped.
    const [discord] = receiver.of('discord') as [Received];
    expect(discord.query).toEqual({ wait: 'true' });
    expect(Object.keys(discord.body as object).sort()).toEqual(['allowed_mentions', 'content']);
    expect(discord.body).toMatchObject({ allowed_mentions: { parse: [] } });
    const content = (discord.body as { content: string }).content;
    expect(content).toContain('<RISK\\_MAX\\_DRAWDOWN>');
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(notifier.stats().get('telegram')).toEqual({ sent: 1, failed: 0, suppressed: 0 });
  });

  it('sends an account halt that reaches two pairs in one turn as one message naming both', async () => {
    await started();
    const clock = new ManualClock(T0);
    const notifier = notifierOf({ ALERT_WEBHOOK_URL: receiver.urls.webhook }, clock);
    const halted = () => ({ state: 'halted' as const, haltReason: { code: 'ENGINE_INVARIANT' as const, message: 'inventory drift', atMs: T0 } });
    const monitor = monitorOf(notifier, clock, [pairOf('ETH/USDC', halted), pairOf('STRK/USDC', halted)]);
    monitor.observerFor('ETH/USDC').halted?.('inventory drift: account balances differ');
    monitor.observerFor('STRK/USDC').halted?.('inventory drift: account balances differ');
    await notifier.settled();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.body).toMatchObject({ kind: 'halt', pairs: ['ETH/USDC', 'STRK/USDC'] });
    expect((receiver.received[0]?.body as WebhookPayload).text).toContain('HALTED · ETH/USDC, STRK/USDC');
  });

  it('holds a pause flapping every 100 ms for a minute to the rate limit, and tells in the next messages how many it held back', async () => {
    await started();
    const clock = new ManualClock(T0);
    const notifier = notifierOf({ ...channelKeys(receiver.urls), ALERT_PAUSE_AFTER_S: '0', ALERT_RATE_PER_MIN: '6', ALERT_RATE_BURST: '5', ALERT_DAILY_SUMMARY_UTC: 'off' }, clock);
    const observer = monitorOf(notifier, clock, [pairOf('ETH/USDC', () => ({ state: 'quoting' }))]).observerFor('ETH/USDC');
    let raised = 0;
    for (let step = 0; step < 600; step++) {
      clock.advance(100);
      observer.paused?.(step % 2 === 0, 'stale feed');
      raised++;
      await notifier.settled();
    }
    const hooks = (): WebhookPayload[] => receiver.of('webhook').map((request) => request.body as WebhookPayload);
    const alertsSent = (): number => hooks().filter((hook) => hook.kind !== 'held-back').length;
    const heldBack = (): number => hooks().reduce((sum, hook) => sum + (hook.suppressed?.count ?? 0), 0);
    // The minute is over: what is still held back is told once a token is back. Every pause and
    // resume is then either sent or counted in a later message.
    await driveUntil(clock, () => alertsSent() + heldBack() === raised, 1_000, 'every alert sent or told');
    await notifier.settled();
    // The note waits until alerts stopped for one token's time (10 s at 6 a minute).
    expect(clock.nowMs() - T0).toBeLessThanOrEqual(60_000 + 12_000);
    for (const channel of ['webhook', 'telegram', 'slack', 'discord'] as const) {
      // At most the burst, plus 6 a minute for the minute and the wait for the last note.
      expect(receiver.of(channel).length, channel).toBeLessThanOrEqual(5 + Math.ceil((6 * (clock.nowMs() - T0)) / 60_000));
    }
    expect(hooks().at(-1)?.kind).toBe('held-back');
    const firstHeld = hooks().findIndex((hook) => hook.suppressed !== null);
    expect(firstHeld).toBeGreaterThan(0);
    expect(hooks()[firstHeld]?.text).toMatch(/\(\d+ more held back by the rate limit since the last message: pause ×\d+\)/);
    const telegramTexts = receiver.of('telegram').map((request) => (request.body as { text: string }).text);
    expect(telegramTexts.some((text) => /more held back by the rate limit/.test(text))).toBe(true);
    expect(notifier.stats().get('slack')?.suppressed).toBe(heldBack());
  }, 60_000);

  it('never blocks or breaks the caller when a receiver hangs or answers 500; stop() returns within its bound', async () => {
    await started();
    receiver.always('slack', 'hang');
    receiver.always('webhook', { status: 500, body: 'internal error' });
    const clock = new ManualClock(T0);
    const notifier = notifierOf({ ...channelKeys(receiver.urls), ALERT_PAUSE_AFTER_S: '0' }, clock);
    const monitor = monitorOf(notifier, clock, [pairOf('ETH/USDC', () => ({ state: 'halted', haltReason: { code: 'OPERATOR', message: 'operator', atMs: T0 } }))]);
    const observer = monitor.observerFor('ETH/USDC');
    const before = performance.now();
    for (let i = 0; i < 100; i++) observer.paused?.(i % 2 === 0, 'feed down');
    observer.halted?.('operator');
    expect(performance.now() - before).toBeLessThan(50);
    await eventually(() => receiver.of('telegram').length >= 1 && receiver.of('discord').length >= 1 && receiver.of('slack').length >= 1 && receiver.of('webhook').length >= 1, 'the first tries');
    // The webhook is retried with backoff on the clock, 4 tries in all; the hung Slack request times out (5 s) and is retried.
    await driveUntil(clock, () => receiver.of('webhook').length >= 4 && receiver.of('slack').length >= 2, 500, 'the retries');
    let stopped = false;
    const stopping = notifier.stop().then(() => (stopped = true));
    await driveUntil(clock, () => stopped, 500, 'stop()');
    await stopping;
    expect(clock.nowMs() - T0).toBeLessThan(120_000);
    expect(notifier.stats().get('telegram')?.sent).toBeGreaterThanOrEqual(1);
    expect(notifier.stats().get('webhook')?.sent).toBe(0);
    expect(notifier.stats().get('webhook')?.failed).toBeGreaterThanOrEqual(1);
    // After stop nothing is sent and nothing throws.
    const count = receiver.received.length;
    observer.halted?.('again');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiver.received.length).toBe(count);
  }, 30_000);

  it('waits as a 429 asks (Telegram parameters.retry_after, Discord Retry-After), then delivers', async () => {
    await started();
    receiver.answer('telegram', { status: 429, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } }) });
    receiver.answer('discord', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' }, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 1.5, global: false }) });
    const clock = new ManualClock(T0);
    const { telegramApi, discord } = receiver.urls;
    const { logger, lines } = capturedLogger();
    const notifier = notifierOf({ ALERT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, ALERT_TELEGRAM_CHAT_ID: '42', ALERT_TELEGRAM_API_URL: telegramApi, ALERT_DISCORD_WEBHOOK_URL: discord }, clock, logger);
    monitorOf(notifier, clock, [pairOf('ETH/USDC', () => undefined)]).observerFor('ETH/USDC').halted?.('operator');
    const retrying = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'alert not delivered yet; retrying');
    await eventually(() => retrying().length === 2, 'both 429s read');
    expect(retrying().map((line) => [line.channel, line.retryInMs]).sort()).toEqual([['discord', 2_000], ['telegram', 7_000]]);
    // Each retry waits exactly what its 429 asked: not a millisecond before.
    clock.advance(1_999);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(receiver.received).toHaveLength(2);
    clock.advance(1);
    await eventually(() => receiver.of('discord').length === 2, 'Discord\'s retry at 2 s');
    clock.advance(4_999);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(receiver.of('telegram')).toHaveLength(1);
    clock.advance(1);
    await eventually(() => receiver.of('telegram').length === 2, 'Telegram\'s retry at 7 s');
    await notifier.settled();
    expect([...notifier.stats().values()].map((stats) => stats.sent)).toEqual([1, 1]);
  });

  it('gives up a message the service refuses (a 4xx) at once, and says so in the log', async () => {
    await started();
    receiver.answer('slack', { status: 404, body: 'no_service' });
    const clock = new ManualClock(T0);
    const { logger, lines } = capturedLogger();
    const notifier = notifierOf({ ALERT_SLACK_WEBHOOK_URL: receiver.urls.slack }, clock, logger);
    monitorOf(notifier, clock, [pairOf('ETH/USDC', () => undefined)]).observerFor('ETH/USDC').halted?.('operator');
    await notifier.settled();
    expect(receiver.of('slack')).toHaveLength(1);
    expect(notifier.stats().get('slack')).toEqual({ sent: 0, failed: 1, suppressed: 0 });
    const refused = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.msg === 'alert refused by the channel; not retried (check its URL, token or chat)');
    expect(refused).toMatchObject({ channel: 'slack', status: 404, answer: 'no_service', kind: 'halt' });
  });

  it('never writes a token or a webhook URL to the log, whatever goes wrong', async () => {
    await started();
    receiver.always('webhook', { status: 500, body: `echo of ${receiver.urls.webhook}` });
    receiver.always('telegram', { status: 401, body: JSON.stringify({ ok: false, error_code: 401, description: `Unauthorized ${TELEGRAM_TOKEN}` }) });
    receiver.always('slack', 'hang');
    const clock = new ManualClock(T0);
    const { logger, lines } = capturedLogger();
    // Discord points at a closed port: connection refused.
    const closed = await new AlertReceiver().start();
    const refusedUrl = closed.urls.discord;
    await closed.stop();
    const keys = { ...channelKeys(receiver.urls), ALERT_DISCORD_WEBHOOK_URL: refusedUrl };
    const notifier = notifierOf(keys, clock, logger);
    monitorOf(notifier, clock, [pairOf('ETH/USDC', () => undefined)]).observerFor('ETH/USDC').halted?.('operator');
    await driveUntil(clock, () => receiver.of('webhook').length >= 4 && receiver.of('slack').length >= 2, 500, 'retries');
    const stopping = notifier.stop();
    clock.advance(10_000);
    await stopping;
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of [TELEGRAM_TOKEN, 'slacksecret', 'discord-secret-token', receiver.urls.webhook, receiver.urls.slack, refusedUrl]) expect(log).not.toContain(secret);
    expect(log).toContain('<redacted>');
    expect(log).toContain('ECONNREFUSED');
  }, 30_000);

  it('is off, with nothing built, when no channel is set', () => {
    expect(Notifier.create({ settings: alertSettings({}), clock: new ManualClock(T0), logger: createSilentLogger() })).toBeUndefined();
  });
});
