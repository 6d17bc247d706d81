/**
 * Slack through an incoming webhook (docs.slack.dev/messaging/sending-messages-using-incoming-webhooks):
 * a POST of `{"text": …}` as application/json to the webhook's URL; Slack answers 200 with the body
 * `ok`, and 400/403/404/410 with an error word (invalid_payload, no_service, channel_is_archived…).
 * `&`, `<` and `>` are Slack's control characters and must be sent as `&amp;`, `&lt;`, `&gt;`
 * (api.slack.com/reference/surfaces/formatting, "Escaping text"); nothing else is encoded.
 */
import type { Secret } from '../../core/index.ts';
import { fitText, isSuccess, type Channel } from './channel.ts';

/** Slack truncates `text` past 40 000 characters; cut it ourselves, with an ellipsis. */
export const SLACK_TEXT_MAX = 40_000;

/** The three characters Slack parses, as its entities. */
export function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A Slack channel posting to the incoming webhook `url`. */
export function slackChannel(url: Secret): Channel {
  return {
    name: 'slack',
    secrets: [url.reveal()],
    request: (message) => ({ url: url.reveal(), body: JSON.stringify({ text: escapeSlack(fitText(message.text, SLACK_TEXT_MAX)) }) }),
    isDelivered: (status) => isSuccess(status),
  };
}
