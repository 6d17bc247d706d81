/**
 * What each service is sent, request by request: escaping and length limits as the services'
 * docs state them, the wait a 429 asks for, and the notifier's and the venue's counters as
 * Prometheus metrics.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../src/core/index.ts';
import { channelsOf, escapeDiscord, escapeSlack, registerAlertMetrics, registerRateLimitMetric, retryAfterMs, type Alert, type ChannelStats, type OutboundMessage } from '../../src/ops/index.ts';
import { ACCOUNT } from './support.ts';

const alert: Alert = { kind: 'halt', severity: 'critical', headline: 'HALTED', lines: ['x'], account: ACCOUNT, pairs: ['ETH/USDC'], atMs: 0, facts: {} };
const message = (text: string): OutboundMessage => ({ alert, text, suppressed: undefined, label: '' });
const channels = channelsOf({
  webhook: { url: new Secret('https://alerts.example.com/hook') },
  telegram: { apiUrl: 'https://api.telegram.org', botToken: new Secret('123:abcdefghijklmnopqrstuvwxyz'), chatId: '42' },
  slack: { url: new Secret('https://hooks.slack.com/services/T/B/X') },
  discord: { url: new Secret('https://discord.com/api/webhooks/1/token?thread_id=7') },
});
const channel = (name: string) => channels.find((candidate) => candidate.name === name)!;

describe('alert channels', () => {
  it('escape only what each service parses: Slack\'s &, < and >; Discord\'s markdown and line openers', () => {
    expect(escapeSlack('a < b && c > d *bold* _it_')).toBe('a &lt; b &amp;&amp; c &gt; d *bold* _it_');
    expect(escapeDiscord('# RISK_MAX_DRAWDOWN *x* ~y~ `z` |w| \\\n> quote\n- item @everyone')).toBe('\\# RISK\\_MAX\\_DRAWDOWN \\*x\\* \\~y\\~ \\`z\\` \\|w\\| \\\\\n\\> quote\n\\- item @everyone');
  });

  it('cut a text to the service\'s limit (Telegram 4096, Discord 2000 characters), whole characters only', () => {
    const long = '🔴'.repeat(5_000);
    const telegram = JSON.parse(channel('telegram').request(message(long)).body) as { text: string };
    expect([...telegram.text].length).toBe(4096);
    expect(telegram.text.endsWith('…')).toBe(true);
    const discord = JSON.parse(channel('discord').request(message('a'.repeat(3_000))).body) as { content: string };
    expect(discord.content.length).toBe(2000);
  });

  it('post to each service\'s documented URL: the Bot API method, Discord with wait=true beside its own query', () => {
    expect(channel('telegram').request(message('x')).url).toBe('https://api.telegram.org/bot123:abcdefghijklmnopqrstuvwxyz/sendMessage');
    expect(channel('discord').request(message('x')).url).toBe('https://discord.com/api/webhooks/1/token?thread_id=7&wait=true');
    expect(channel('slack').request(message('x')).url).toBe('https://hooks.slack.com/services/T/B/X');
    expect(channel('telegram').secrets).toContain('123:abcdefghijklmnopqrstuvwxyz');
  });

  it('take Telegram\'s answer as delivered only when it says ok', () => {
    expect(channel('telegram').isDelivered(200, '{"ok":true,"result":{}}')).toBe(true);
    expect(channel('telegram').isDelivered(200, '{"ok":false}')).toBe(false);
    expect(channel('telegram').isDelivered(200, 'not json')).toBe(false);
    expect(channel('slack').isDelivered(200, 'ok')).toBe(true);
    expect(channel('discord').isDelivered(204, '')).toBe(true);
  });

  it('read a 429\'s wait from Retry-After, else from Discord\'s or Telegram\'s body', () => {
    expect(retryAfterMs({ status: 429, retryAfter: '3', body: '' })).toBe(3_000);
    expect(retryAfterMs({ status: 429, retryAfter: undefined, body: '{"message":"You are being rate limited.","retry_after":64.57,"global":false}' })).toBeCloseTo(64_570);
    expect(retryAfterMs({ status: 429, retryAfter: undefined, body: '{"ok":false,"error_code":429,"parameters":{"retry_after":7}}' })).toBe(7_000);
    expect(retryAfterMs({ status: 429, retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT', body: 'busy' })).toBeUndefined();
  });

  it('count what each channel delivered, gave up and held back, and the venue\'s 429s, as they grow', async () => {
    const registry = new Registry();
    let stats: ChannelStats = { sent: 2, failed: 0, suppressed: 5 };
    let limited = 4;
    registerAlertMetrics(registry, { stats: () => new Map([['slack', stats]]) });
    registerRateLimitMetric(registry, () => limited);
    expect(await registry.metrics()).toContain('akira_mm_alerts_sent_total{channel="slack"} 2');
    stats = { sent: 3, failed: 1, suppressed: 5 };
    limited = 9;
    const text = await registry.metrics();
    expect(text).toContain('akira_mm_alerts_sent_total{channel="slack"} 3');
    expect(text).toContain('akira_mm_alerts_failed_total{channel="slack"} 1');
    expect(text).toContain('akira_mm_alerts_suppressed_total{channel="slack"} 5');
    expect(text).toContain('akira_mm_venue_rate_limited_total 9');
  });
});
