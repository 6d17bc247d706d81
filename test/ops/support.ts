/**
 * Shared set-up of the notifier tests: alert settings read through the real key machinery (a
 * pair file's ALERT_* entries, as `akira-mm run` reads them), and a logger whose lines are kept.
 */
import { parsePairConfig } from '../../src/config/index.ts';
import { createLogger, type AlertSettings, type Logger } from '../../src/core/index.ts';
import { TELEGRAM_TOKEN, type ReceiverUrls } from './receiver.ts';

export const ACCOUNT = '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c';

/** The four channels pointed at `urls`, plus `keys`, as a pair file would set them. */
export function channelKeys(urls: ReceiverUrls): Record<string, string> {
  return {
    ALERT_WEBHOOK_URL: urls.webhook,
    ALERT_TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
    ALERT_TELEGRAM_CHAT_ID: '-1001234567890',
    ALERT_TELEGRAM_API_URL: urls.telegramApi,
    ALERT_SLACK_WEBHOOK_URL: urls.slack,
    ALERT_DISCORD_WEBHOOK_URL: urls.discord,
  };
}

/** Alert settings from pair-file entries (validated like a real file). */
export function alertSettings(keys: Record<string, string>): AlertSettings {
  const config = parsePairConfig({
    TRADING_ACCOUNT: ACCOUNT,
    SIGNER_PRIVATE_KEY: '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
    BASE: 'ETH',
    QUOTE: 'USDC',
    ...keys,
  });
  return config.alerts;
}

/** A logger at trace level whose lines land in `lines`. */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'trace', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}
