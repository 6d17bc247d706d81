/**
 * Prometheus metrics of operations (names are a contract with dashboards): what each alert
 * channel delivered, gave up and held back (`akira_mm_alerts_*_total{channel}`). Counters follow
 * the notifier's own counts at scrape time. (The venue's 429 answers are counted where the venue
 * is: `registerRateLimitMetrics` in the live root.)
 */
import type { Registry } from 'prom-client';
import { registerFollowingCounter } from '../core/prometheus.ts';
import type { ChannelName } from './channels/channel.ts';
import type { ChannelStats } from './sender.ts';

/** `akira_mm_alerts_sent_total`, `_failed_total` and `_suppressed_total`, by channel. */
export function registerAlertMetrics(registry: Registry, notifier: { stats(): ReadonlyMap<ChannelName, ChannelStats> }): void {
  const of = (field: keyof ChannelStats) => () => [...notifier.stats()].map(([channel, stats]) => ({ labels: { channel }, value: stats[field] }));
  registerFollowingCounter({ registry, name: 'akira_mm_alerts_sent_total', help: 'Alert messages the channel took', labelNames: ['channel'], read: of('sent') });
  registerFollowingCounter({ registry, name: 'akira_mm_alerts_failed_total', help: 'Alert messages given up (retries spent, refused by the channel, pending at shutdown)', labelNames: ['channel'], read: of('failed') });
  registerFollowingCounter({ registry, name: 'akira_mm_alerts_suppressed_total', help: 'Alerts the rate limit (ALERT_RATE_PER_MIN) or a full queue held back, told in a later message', labelNames: ['channel'], read: of('suppressed') });
}
