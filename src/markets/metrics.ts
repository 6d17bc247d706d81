/**
 * Prometheus metrics of a reference feed, read from its `status()` at scrape time (nothing on the
 * hot path): gauges for what it shows now, counters for what it counted since start. The daemon
 * passes this to `startDaemon({ registerMetrics })` beside the engine's metrics; basis and
 * divergence pauses are the engine's to export.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Clock, ReferenceFeed, ReferenceState, ReferenceStatus } from '../core/index.ts';
import { registerFollowingCounter } from '../core/prometheus.ts';

const STATES: readonly ReferenceState[] = ['synchronised', 'resyncing', 'stale', 'stopped'];

/** Registers `akira_mm_reference_*` on `registry`. */
export function registerReferenceMetrics(registry: Registry, feed: ReferenceFeed, clock: Clock): void {
  const labels = { market: feed.market };
  const gauge = (name: string, help: string, read: () => number | undefined): void => {
    new Gauge({
      name,
      help,
      labelNames: ['market'],
      registers: [registry],
      collect() {
        const value = read();
        if (value === undefined) this.reset();
        else this.set(labels, value);
      },
    });
  };
  gauge('akira_mm_reference_mid', 'Mid of the usable reference top (absent while there is none)', () => feed.status().mid);
  gauge('akira_mm_reference_age_seconds', 'Time since the last reference update', () => {
    const last = feed.status().lastUpdateMs;
    return last === undefined ? undefined : Math.max(0, clock.nowMs() - last) / 1000;
  });
  const counter = (name: string, help: string, read: (counters: ReferenceStatus['counters']) => number): void => {
    registerFollowingCounter({ name, help, registry, labelNames: ['market'], read: () => [{ labels, value: read(feed.status().counters) }] });
  };
  counter('akira_mm_reference_resyncs_total', 'Reference book rebuilds after having been synchronised', (counters) => counters.resyncs);
  counter('akira_mm_reference_gaps_total', 'Reference sequence gaps detected', (counters) => counters.gaps);
  counter('akira_mm_reference_reconnects_total', 'Reference connections re-established after a loss', (counters) => counters.reconnects);
  counter('akira_mm_reference_malformed_frames_total', 'Reference frames that failed to parse (logged and skipped)', (counters) => counters.malformedFrames);
  new Gauge({
    name: 'akira_mm_reference_state',
    help: 'Reference feed state: 1 for the current one',
    labelNames: ['market', 'state'],
    registers: [registry],
    collect() {
      const current = feed.status().state;
      for (const state of STATES) this.set({ ...labels, state }, state === current ? 1 : 0);
    },
  });
}
