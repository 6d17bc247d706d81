/**
 * Prometheus metrics of operations (names are a contract with dashboards): what each alert
 * channel delivered, gave up and held back (`akira_mm_alerts_*_total{channel}`), and the venue's
 * 429 answers (`akira_mm_venue_rate_limited_total`), which were logged but never counted before.
 * Counters follow the notifier's and the venue's own counts at scrape time.
 */
import { Counter, type Registry } from 'prom-client';
import type { ChannelName } from './channels/channel.ts';
import type { ChannelStats } from './sender.ts';

/** A counter whose value is read from `read` at scrape time (it only grows), by label. */
function followingCounter(registry: Registry, name: string, help: string, labelNames: readonly string[], read: () => ReadonlyMap<string, number>): void {
  const reported = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: [...labelNames],
    registers: [registry],
    collect() {
      for (const [label, value] of read()) {
        const labels = labelNames.length === 0 ? {} : { [labelNames[0] as string]: label };
        this.inc(labels, Math.max(0, value - (reported.get(label) ?? 0)));
        reported.set(label, value);
      }
    },
  });
}

/** `akira_mm_alerts_sent_total`, `_failed_total` and `_suppressed_total`, by channel. */
export function registerAlertMetrics(registry: Registry, notifier: { stats(): ReadonlyMap<ChannelName, ChannelStats> }): void {
  const of = (field: keyof ChannelStats) => (): ReadonlyMap<string, number> => new Map([...notifier.stats()].map(([channel, stats]) => [channel, stats[field]]));
  followingCounter(registry, 'akira_mm_alerts_sent_total', 'Alert messages the channel took', ['channel'], of('sent'));
  followingCounter(registry, 'akira_mm_alerts_failed_total', 'Alert messages given up (retries spent, refused by the channel, pending at shutdown)', ['channel'], of('failed'));
  followingCounter(registry, 'akira_mm_alerts_suppressed_total', 'Alerts the rate limit (ALERT_RATE_PER_MIN) or a full queue held back, told in a later message', ['channel'], of('suppressed'));
}

/** `akira_mm_venue_rate_limited_total`: the venue's 429 answers (`LiveVenue.rateLimited()`; one count per account). */
export function registerRateLimitMetric(registry: Registry, rateLimited: () => number): void {
  followingCounter(registry, 'akira_mm_venue_rate_limited_total', 'Requests the venue answered with 429 (rate limited); each one was waited out and retried, or failed', [], () => new Map([['', rateLimited()]]));
}
