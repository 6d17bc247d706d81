import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ALERT_KEY_LIST, parsePairConfig } from '../../src/config/index.ts';
import { issuesOf } from './support.ts';

const minimal = {
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  SIGNER_PRIVATE_KEY: '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
  BASE: 'ETH',
  QUOTE: 'USDC',
};
const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ';
const SLACK = 'https://hooks.slack.com/services/T000/B000/slackSecretPart';

describe('alert keys', () => {
  it('are off by default: no channel, every event, a pause alerts after a minute, a summary at midnight UTC', () => {
    const { alerts } = parsePairConfig(minimal);
    expect(alerts.channels).toEqual({});
    expect(alerts.policy).toEqual({
      events: ['halt', 'pause', 'drift', 'hedge', 'reference', 'reconnect-storm', '429-storm', 'low-balance', 'daily-summary'],
      pauseAfterMs: 60_000,
      stormWindowMs: 300_000,
      reconnectStorm: 5,
      rateLimitStorm: 10,
      lowBalances: [],
      dailySummaryMinuteUtc: 0,
      ratePerMin: 6,
      burst: 5,
      label: '',
    });
  });

  it('read each channel from its keys, the secrets wrapped so that nothing prints them', () => {
    const config = parsePairConfig({
      ...minimal,
      ALERT_WEBHOOK_URL: 'https://alerts.example.com/hook?key=webhookSecret/',
      ALERT_TELEGRAM_BOT_TOKEN: TOKEN,
      ALERT_TELEGRAM_CHAT_ID: '@desk_alerts',
      ALERT_SLACK_WEBHOOK_URL: SLACK,
      ALERT_DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1/discordSecret',
    });
    const { webhook, telegram, slack, discord } = config.alerts.channels;
    expect(webhook?.url.reveal()).toBe('https://alerts.example.com/hook?key=webhookSecret');
    expect(telegram?.botToken.reveal()).toBe(TOKEN);
    expect(telegram).toMatchObject({ apiUrl: 'https://api.telegram.org', chatId: '@desk_alerts' });
    expect(slack?.url.reveal()).toBe(SLACK);
    expect(discord?.url.reveal()).toBe('https://discord.com/api/webhooks/1/discordSecret');
    for (const shown of [JSON.stringify(config), inspect(config, { depth: 10 }), JSON.stringify(config.raw)]) {
      for (const secret of ['webhookSecret', TOKEN, 'slackSecretPart', 'discordSecret']) expect(shown).not.toContain(secret);
    }
  });

  it('take a secret from its _FILE (chmod 600), and refuse one others may read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-alerts-'));
    const file = join(dir, 'slack-url');
    writeFileSync(file, `${SLACK}\n`, { mode: 0o600 });
    expect(parsePairConfig({ ...minimal, ALERT_SLACK_WEBHOOK_URL_FILE: file }).alerts.channels.slack?.url.reveal()).toBe(SLACK);
    chmodSync(file, 0o644);
    expect(issuesOf({ ...minimal, ALERT_SLACK_WEBHOOK_URL_FILE: file }).message).toContain('ALERT_SLACK_WEBHOOK_URL_FILE');
  });

  it('take a token from the environment and forget it there once read', () => {
    const environment: Record<string, string | undefined> = { ALERT_TELEGRAM_BOT_TOKEN: TOKEN };
    const config = parsePairConfig({ ...minimal, ALERT_TELEGRAM_CHAT_ID: '42' }, { environment });
    expect(config.alerts.channels.telegram?.botToken.reveal()).toBe(TOKEN);
    expect(environment.ALERT_TELEGRAM_BOT_TOKEN).toBeUndefined();
  });

  it('need a Telegram chat with a bot and a bot with a chat, and name each bad key without echoing a secret', () => {
    expect(issuesOf({ ...minimal, ALERT_TELEGRAM_BOT_TOKEN: TOKEN }).message).toContain('ALERT_TELEGRAM_CHAT_ID=(missing): required with ALERT_TELEGRAM_BOT_TOKEN');
    expect(issuesOf({ ...minimal, ALERT_TELEGRAM_CHAT_ID: '42' }).message).toContain('ALERT_TELEGRAM_BOT_TOKEN=(missing): required with ALERT_TELEGRAM_CHAT_ID');
    const message = issuesOf({ ...minimal, ALERT_TELEGRAM_BOT_TOKEN: `${TOKEN} oops`, ALERT_SLACK_WEBHOOK_URL: `ftp://${SLACK}`, ALERT_TELEGRAM_CHAT_ID: '42' }).message;
    expect(message).toContain('ALERT_TELEGRAM_BOT_TOKEN=<redacted>: a bot token as @BotFather gives it');
    expect(message).toContain('ALERT_SLACK_WEBHOOK_URL=<redacted>: a URL starting with https:// or http://');
    expect(message).not.toContain(TOKEN);
    expect(message).not.toContain('slackSecretPart');
  });

  it('read events, thresholds and the summary time, and say what is allowed when they do not parse', () => {
    const { policy } = parsePairConfig({ ...minimal, ALERT_EVENTS: 'halt, low-balance', ALERT_LOW_BALANCE: 'USDC:500,ETH:0.25', ALERT_DAILY_SUMMARY_UTC: 'off', ALERT_RATE_PER_MIN: '0.5' }).alerts;
    expect(policy).toMatchObject({ events: ['halt', 'low-balance'], lowBalances: [{ token: 'USDC', amount: { text: '500', value: 500 } }, { token: 'ETH', amount: { text: '0.25', value: 0.25 } }], dailySummaryMinuteUtc: undefined, ratePerMin: 0.5 });
    const message = issuesOf({ ...minimal, ALERT_EVENTS: 'halt,fire', ALERT_LOW_BALANCE: 'USDC=500', ALERT_DAILY_SUMMARY_UTC: '24:00', ALERT_PAUSE_AFTER_S: '-1' }).message;
    expect(message).toContain('ALERT_EVENTS="halt,fire": all, or some of halt, pause, drift, hedge, reference, reconnect-storm, 429-storm, low-balance, daily-summary separated by commas ("fire" is not one)');
    expect(message).toContain('ALERT_LOW_BALANCE="USDC=500": TOKEN:amount pairs separated by commas');
    expect(message).toContain('ALERT_DAILY_SUMMARY_UTC="24:00": HH:MM in UTC (00:00 to 23:59), or off');
    expect(message).toContain('ALERT_PAUSE_AFTER_S="-1": an integer from 0 to 86400');
    expect(issuesOf({ ...minimal, ALERT_LOW_BALANCE: 'DOGE:5' }).message).toContain('ALERT_LOW_BALANCE="DOGE": tokens of mainnet:');
    expect(issuesOf({ ...minimal, ALERT_LOW_BALANCE: 'USDC:5,USDC:6' }).message).toContain('USDC is given twice');
  });

  it('are ignored with the other secrets by a command that reads none (a backtest): no channel, no pairing rule', () => {
    const config = parsePairConfig({ ...minimal, ALERT_TELEGRAM_BOT_TOKEN: TOKEN }, { requireSigner: false });
    expect(config.alerts.channels).toEqual({});
  });

  it('are declared with a reader each, the secrets among them marked so', () => {
    expect(ALERT_KEY_LIST.filter((spec) => spec.secret === true).map((spec) => spec.key)).toEqual(['ALERT_WEBHOOK_URL', 'ALERT_TELEGRAM_BOT_TOKEN', 'ALERT_SLACK_WEBHOOK_URL', 'ALERT_DISCORD_WEBHOOK_URL']);
  });
});
