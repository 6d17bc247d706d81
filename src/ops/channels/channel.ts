/**
 * A service an alert is sent to, as one JSON POST per message: each channel builds the request its
 * service documents (docs/alerts.md cites the pages) and says which answers mean "delivered". The
 * URL may hold a secret (the bot token, a webhook's token): `secrets` lists what must never be
 * logged, and only the sender sees the URL.
 */
import type { Alert, Suppressed } from '../alert.ts';

/** The channels, as named in logs and metrics (a contract: never renamed). */
export type ChannelName = 'webhook' | 'telegram' | 'slack' | 'discord';

/** One message on its way: the alert, its text as a person reads it, and what the rate limit held back before it. */
export interface OutboundMessage {
  readonly alert: Alert;
  readonly text: string;
  readonly suppressed: Suppressed | undefined;
  /** ALERT_LABEL (empty: the account names the sender). */
  readonly label: string;
}

/** What is POSTed: the URL (secret-bearing) and the JSON body. */
export interface ChannelRequest {
  readonly url: string;
  readonly body: string;
}

/** One service. */
export interface Channel {
  readonly name: ChannelName;
  /** Values that must never reach a log line or an error (token, URLs): scrubbed from anything logged. */
  readonly secrets: readonly string[];
  request(message: OutboundMessage): ChannelRequest;
  /** True when the answer means the service took the message. */
  isDelivered(status: number, body: string): boolean;
}

/** `text`, cut to `max` characters (code points) with an ellipsis: a service refuses longer messages. */
export function fitText(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** 2xx: taken. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
