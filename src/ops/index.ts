/** Public surface of `src/ops`: operations beside the engine (issue 25): the notifier and its adapters. */
export { Notifier, DEFAULT_FLUSH_MS, channelsOf, mergeAlerts, type NotifierOptions, type OpsSink } from './notifier.ts';
export { OpsMonitor, DEFAULT_POLL_MS, nextDailyMs, type AccountSource, type MonitorOptions, type OpsErrorCode, type PairSource } from './monitor.ts';
export type { OpsEvent, OpsScope, PairDay, TokenAmount } from './events.ts';
export { renderAlert, type Alert, type AlertKind, type Severity, type Suppressed } from './alert.ts';
export { AlertRules, LOW_BALANCE_HYSTERESIS, type RulesOptions } from './rules.ts';
export { ChannelSender, DEFAULT_DELIVERY, retryAfterMs, type ChannelStats, type DeliverySettings } from './sender.ts';
export type { Channel, ChannelName, ChannelRequest, OutboundMessage } from './channels/channel.ts';
export { webhookPayload, type WebhookPayload } from './channels/webhook.ts';
export { escapeDiscord } from './channels/discord.ts';
export { escapeSlack } from './channels/slack.ts';
export { registerAlertMetrics, registerRateLimitMetric } from './metrics.ts';
