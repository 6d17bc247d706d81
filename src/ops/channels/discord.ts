/**
 * Discord through a webhook ("Execute Webhook", discord.com/developers/docs/resources/webhook):
 * a POST of JSON `{content, allowed_mentions}` to `/webhooks/<id>/<token>`. `content` holds up to
 * 2000 characters; `allowed_mentions: {parse: []}` keeps a reason that happens to contain
 * `@everyone` from pinging anyone. `wait=true` makes Discord confirm the message was saved (200
 * with the message) instead of a bare 204 that also covers a message it dropped. Markdown
 * characters are escaped with a backslash so a reason like RISK_MAX_DRAWDOWN reads as written.
 * A 429 carries `retry_after` (seconds, float) in its body and a `Retry-After` header.
 */
import type { Secret } from '../../core/index.ts';
import { fitText, isSuccess, type Channel } from './channel.ts';

/** Execute Webhook's limit on `content`. */
export const DISCORD_CONTENT_MAX = 2000;

/** Backslash before Discord's markdown characters, and before `#`, `>` or `-` opening a line (heading, quote, list). */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\*_~`|]/g, '\\$&').replace(/^([#>-])/gm, '\\$1');
}

/** `url` with `wait=true` added to its query. */
function withWait(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('wait', 'true');
  return parsed.toString();
}

/** A Discord channel posting to the webhook `url`. */
export function discordChannel(url: Secret): Channel {
  return {
    name: 'discord',
    secrets: [url.reveal(), withWait(url.reveal())],
    // Escaping adds characters: cut after it, so the limit holds for what Discord counts.
    request: (message) => ({ url: withWait(url.reveal()), body: JSON.stringify({ content: fitText(escapeDiscord(message.text), DISCORD_CONTENT_MAX), allowed_mentions: { parse: [] } }) }),
    isDelivered: (status) => isSuccess(status),
  };
}
