/**
 * The generic webhook (ALERT_WEBHOOK_URL): every alert POSTed as one JSON object, for whatever the
 * operator runs (an incident tool, a relay, a script). Its keys are a contract (README "Alerts"):
 * add, never rename. Any 2xx answer means delivered.
 */
import type { Secret } from '../../core/index.ts';
import { senderOf } from '../alert.ts';
import { isSuccess, type Channel, type ChannelRequest, type OutboundMessage } from './channel.ts';

/** The JSON body of one alert. */
export interface WebhookPayload {
  readonly source: 'akira-mm';
  /** ALERT_LABEL, or `akira-mm 0x0123…cdef`. */
  readonly sender: string;
  /** The ALERT_EVENTS word (halt, pause, drift, hedge, reference, reconnect-storm, 429-storm, low-balance, daily-summary), or held-back. */
  readonly kind: string;
  readonly severity: string;
  readonly headline: string;
  /** The message as the chat channels show it. */
  readonly text: string;
  readonly account: string;
  /** Empty when the alert is about the account. */
  readonly pairs: readonly string[];
  readonly facts: Readonly<Record<string, string | number | boolean | null>>;
  /** ISO 8601, UTC. */
  readonly at: string;
  readonly atMs: number;
  /** What the rate limit held back since the last message, or null. */
  readonly suppressed: { readonly count: number; readonly byKind: Readonly<Record<string, number>> } | null;
}

/** The body of one message. */
export function webhookPayload(message: OutboundMessage): WebhookPayload {
  const { alert } = message;
  return {
    source: 'akira-mm',
    sender: senderOf(message.label, alert.account),
    kind: alert.kind,
    severity: alert.severity,
    headline: alert.headline,
    text: message.text,
    account: alert.account,
    pairs: alert.pairs,
    facts: alert.facts,
    at: new Date(alert.atMs).toISOString(),
    atMs: alert.atMs,
    suppressed: message.suppressed === undefined || message.suppressed.count === 0 ? null : message.suppressed,
  };
}

/** A webhook channel to `url`. */
export function webhookChannel(url: Secret): Channel {
  return {
    name: 'webhook',
    secrets: [url.reveal()],
    request: (message): ChannelRequest => ({ url: url.reveal(), body: JSON.stringify(webhookPayload(message)) }),
    isDelivered: (status) => isSuccess(status),
  };
}
