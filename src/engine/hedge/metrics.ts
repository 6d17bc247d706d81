/**
 * Prometheus metrics of the hedger (names are a contract with dashboards): hedges sent and
 * failed (`akira_mm_hedges_sent_total`, `akira_mm_hedges_failed_total{reason}`), the fill-to-hedge
 * latency and slippage histograms, the uncovered position, the dust, the hedge venue's position
 * and the net position across both venues, the hedges' PnL, and the hedge venue's request weight
 * and order count against their limits. Counters follow the hedger's events; gauges are read from
 * its status at scrape time.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { HedgeRejectReason } from '../../core/index.ts';
import { registerReadingGauge, startAtZero } from '../../core/prometheus.ts';
import type { HedgeObserver } from './hedger.ts';
import type { HedgeStatus } from './link.ts';

const STATES: readonly HedgeStatus['state'][] = ['starting', 'ok', 'failing', 'halted', 'stopped'];

/**
 * The reasons a hedge fails, each counted from 0: the hedge venue's refusals (an account short of
 * balance counts as `balance-short`), no book to price it, an error, and a hedge that expired
 * unexecuted. Another reason still counts, from its first failure on.
 */
export const HEDGE_FAILURE_REASONS: readonly string[] = [
  'balance-short',
  'no-book',
  'error',
  'expired',
  ...(['filter', 'market-closed', 'rate-limited', 'timestamp', 'auth', 'duplicate', 'other'] as const satisfies readonly HedgeRejectReason[]),
];

/** The hedger's metrics: an observer to hand the hedger now, registered on a registry later. */
export interface HedgeMetrics {
  readonly observer: HedgeObserver;
  /**
   * Registers every metric. `status` reads the hedger; `netPosition` the engine's position (base
   * held less the target, plus the hedge venue's), base tokens.
   */
  register(registry: Registry, status: () => HedgeStatus | undefined, netPosition: () => number | undefined): void;
}

/** Creates the hedger's metrics. */
export function createHedgeMetrics(): HedgeMetrics {
  let sink: HedgeObserver = {};
  return {
    observer: {
      hedgeSent: (side) => sink.hedgeSent?.(side),
      hedgeFailed: (reason) => sink.hedgeFailed?.(reason),
      hedgeLatency: (ms) => sink.hedgeLatency?.(ms),
      hedgeSlippage: (bps) => sink.hedgeSlippage?.(bps),
    },
    register(registry, status, netPosition) {
      const sent = new Counter({ name: 'akira_mm_hedges_sent_total', help: 'Hedge orders sent to the hedge venue', labelNames: ['side'], registers: [registry] });
      const failed = new Counter({ name: 'akira_mm_hedges_failed_total', help: 'Hedges that failed (rejected, expired, balance short, venue unreachable, …), by reason', labelNames: ['reason'], registers: [registry] });
      startAtZero(sent, { side: ['buy', 'sell'] });
      startAtZero(failed, { reason: HEDGE_FAILURE_REASONS });
      const latency = new Histogram({
        name: 'akira_mm_hedge_latency_seconds',
        help: 'From a fill to the hedges that covered it',
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [registry],
      });
      const slippage = new Histogram({
        name: 'akira_mm_hedge_slippage_bps',
        help: 'Hedge average price against the hedge book touch when it was decided, bps (positive = worse)',
        buckets: [-5, -1, 0, 0.5, 1, 2, 5, 10, 20, 50, 100],
        registers: [registry],
      });
      sink = {
        hedgeSent: (side) => sent.inc({ side }),
        hedgeFailed: (reason) => failed.inc({ reason }),
        hedgeLatency: (ms) => latency.observe(ms / 1000),
        hedgeSlippage: (bps) => slippage.observe(bps),
      };
      const gauge = (name: string, help: string, read: (s: HedgeStatus) => number | undefined): void => {
        registerReadingGauge(registry, name, help, () => {
          const s = status();
          return s === undefined ? undefined : read(s);
        });
      };
      gauge('akira_mm_hedge_uncovered_base', 'Position not hedged yet (fills minus hedges), base tokens, dust included', (s) => s.uncoveredBase);
      gauge('akira_mm_hedge_dust_base', 'Uncovered amount below the hedge venue minimum (kept, hedged once more joins it), base tokens', (s) => s.dustBase);
      gauge('akira_mm_hedge_position_base', 'Position on the hedge venue the hedges built, base tokens', (s) => s.hedgePositionBase);
      gauge('akira_mm_hedge_pnl_quote', 'PnL of the hedges marked at the fair price, net of their fees, quote tokens', (s) => s.pnlQuote);
      gauge('akira_mm_hedge_weight_used', 'Request weight used in the hedge venue\'s current window', (s) => s.venue.weightUsed);
      gauge('akira_mm_hedge_weight_limit', 'Request weight the hedge venue allows per window', (s) => s.venue.weightLimit);
      gauge('akira_mm_hedge_orders_used', 'Orders counted in the hedge venue\'s shortest order window', (s) => s.venue.ordersUsed);
      gauge('akira_mm_hedge_stream_up', '1 while the hedge venue\'s user data stream is up', (s) => (s.venue.streamUp ? 1 : 0));
      new Gauge({
        name: 'akira_mm_net_position_base',
        help: 'Net position across the quoted venue and the hedge venue (what skew and caps measure), base tokens',
        registers: [registry],
        collect() {
          const value = netPosition();
          if (value === undefined) this.reset();
          else this.set(value);
        },
      });
      new Gauge({
        name: 'akira_mm_hedge_state',
        help: 'Hedger state: 1 for the current one',
        labelNames: ['state'],
        registers: [registry],
        collect() {
          const current = status()?.state;
          for (const state of STATES) this.set({ state }, state === current ? 1 : 0);
        },
      });
    },
  };
}
