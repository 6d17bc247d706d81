/**
 * The notifier's settings as the wiring needs them (issue 25 item 3): the channels, with their
 * URLs and token wrapped as secrets, and the policy, both derived from the ALERT_* declarations
 * (src/core/settings/alert-keys.ts); and the rules across keys the loader checks.
 */
import { ALERT_KEYS, Secret, getChain, settingsOf, type AlertChannels, type AlertKeys, type AlertSettings, type ChainName, type ConfigIssue } from '../core/index.ts';

/**
 * Cross-key rules: a Telegram bot needs a chat and a chat needs a bot; a low-balance threshold
 * names a token of the chain.
 * @param readsSecrets false when the loader ignores secret keys (a backtest): the bot token is then
 *   unset whatever the file says, so its pairing with the chat is not checked.
 */
export function checkAlertKeys(keys: Partial<AlertKeys>, chain: ChainName | undefined, issues: ConfigIssue[], readsSecrets: boolean): void {
  const hasToken = keys.ALERT_TELEGRAM_BOT_TOKEN !== undefined && keys.ALERT_TELEGRAM_BOT_TOKEN !== '';
  const hasChat = keys.ALERT_TELEGRAM_CHAT_ID !== undefined && keys.ALERT_TELEGRAM_CHAT_ID !== '';
  if (readsSecrets && hasToken && !hasChat) issues.push({ key: 'ALERT_TELEGRAM_CHAT_ID', value: undefined, allowed: 'required with ALERT_TELEGRAM_BOT_TOKEN: the chat the bot writes to' });
  if (readsSecrets && hasChat && !hasToken) issues.push({ key: 'ALERT_TELEGRAM_BOT_TOKEN', value: undefined, allowed: 'required with ALERT_TELEGRAM_CHAT_ID: the bot that writes there (or _FILE)' });
  if (chain === undefined || keys.ALERT_LOW_BALANCE === undefined) return;
  const tokens = getChain(chain).tokens;
  for (const threshold of keys.ALERT_LOW_BALANCE) {
    if (!tokens.has(threshold.token)) issues.push({ key: 'ALERT_LOW_BALANCE', value: threshold.token, allowed: `tokens of ${chain}: ${[...tokens.keys()].join(', ')}` });
  }
}

/** The validated keys as the notifier's settings; a channel whose keys are unset is absent. */
export function toAlertSettings(keys: AlertKeys): AlertSettings {
  const set = settingsOf(ALERT_KEYS, 'alert-channels', keys);
  const channels: AlertChannels = {
    ...(set.webhookUrl === undefined ? {} : { webhook: { url: new Secret(set.webhookUrl) } }),
    ...(set.telegramBotToken === '' || set.telegramChatId === '' ? {} : { telegram: { apiUrl: set.telegramApiUrl, botToken: new Secret(set.telegramBotToken), chatId: set.telegramChatId } }),
    ...(set.slackWebhookUrl === undefined ? {} : { slack: { url: new Secret(set.slackWebhookUrl) } }),
    ...(set.discordWebhookUrl === undefined ? {} : { discord: { url: new Secret(set.discordWebhookUrl) } }),
  };
  return { channels, policy: settingsOf(ALERT_KEYS, 'alert-policy', keys) };
}
