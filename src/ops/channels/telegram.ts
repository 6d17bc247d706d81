/**
 * Telegram through the Bot API's `sendMessage` (core.telegram.org/bots/api#sendmessage): a POST
 * to `<api>/bot<token>/sendMessage` with a JSON body `{chat_id, text}`. The text goes as plain
 * text (no `parse_mode`), so nothing in a reason needs escaping, cut to the documented
 * 1–4096 characters. The answer is `{"ok": true, "result": …}`; a refusal is `ok: false` with
 * `error_code` and `description`, and a flood-control 429 carries `parameters.retry_after`.
 */
import type { Secret } from '../../core/index.ts';
import { fitText, isSuccess, type Channel } from './channel.ts';

/** sendMessage's limit on `text`. */
export const TELEGRAM_TEXT_MAX = 4096;

/** A Telegram channel: the bot `token` writes to `chatId` through the Bot API at `apiUrl`. */
export function telegramChannel(apiUrl: string, token: Secret, chatId: string): Channel {
  const url = (): string => `${apiUrl}/bot${token.reveal()}/sendMessage`;
  return {
    name: 'telegram',
    secrets: [token.reveal(), url()],
    request: (message) => ({ url: url(), body: JSON.stringify({ chat_id: chatId, text: fitText(message.text, TELEGRAM_TEXT_MAX) }) }),
    isDelivered: (status, body) => isSuccess(status) && isOk(body),
  };
}

function isOk(body: string): boolean {
  try {
    return (JSON.parse(body) as { ok?: unknown }).ok === true;
  } catch {
    return false;
  }
}
