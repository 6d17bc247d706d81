/**
 * Names of one pair's metrics that broke the conventions alert rules rely on, kept this release
 * beside their replacements with the values they always had (names are a contract: README
 * "Monitoring" lists them as deprecated). Each HELP starts with "deprecated: use …".
 * Remove this module in the release after.
 */
import type { Registry } from 'prom-client';
import { registerDeprecatedGauge } from '../core/prometheus.ts';
import type { EngineStatus } from './status.ts';

type StatusSource = () => EngineStatus | undefined;

/** Registers the deprecated aliases of one pair's metrics. */
export function registerDeprecatedEngineMetrics(registry: Registry, status: StatusSource): void {
  const alias = (name: string, replacement: string, help: string, read: (s: EngineStatus) => number): void => {
    registerDeprecatedGauge({ name, replacement, help, registry, read: () => { const s = status(); return s === undefined ? undefined : read(s); } });
  };
  // Counts since start exported as gauges, without `_total`.
  alias('akira_mm_orders_sent', 'akira_mm_orders_sent_total', 'Placements sent to the venue since start', (s) => s.scorecard.ordersSent);
  alias('akira_mm_cancels_sent', 'akira_mm_cancels_sent_total', 'Cancel requests sent to the venue since start', (s) => s.scorecard.cancelsSent);
  alias('akira_mm_cap_breaches', 'akira_mm_cap_breaches_total', 'Moments |position| went past the inventory cap since start (must be 0)', (s) => s.scorecard.capBreaches);
  // The same series as akira_mm_two_sided_uptime_ratio under a second name.
  alias('akira_mm_quote_uptime_ratio', 'akira_mm_two_sided_uptime_ratio', 'Share of quoting time with both a bid and an ask resting', (s) => s.twoSidedUptime);
  // The total and its parts under one name: sum() over it added the total to its own parts.
  registerDeprecatedGauge({
    name: 'akira_mm_pnl_quote',
    replacement: 'akira_mm_pnl_<kind>_quote (total, realized, unrealized, spread, inventory, fees, gas)',
    help: 'PnL since start, quote tokens, by kind',
    labelNames: ['kind'],
    registry,
    read() {
      const s = status();
      if (s === undefined) return undefined;
      const { pnl, scorecard } = s;
      const kinds: Readonly<Record<string, number>> = {
        total: pnl.total,
        realized: pnl.realized,
        unrealized: pnl.unrealized,
        spread: scorecard.pnl.spread,
        inventory: scorecard.pnl.inventory,
        fees: scorecard.pnl.fees,
        gas: scorecard.pnl.gas,
      };
      return Object.entries(kinds).map(([kind, value]) => ({ labels: { kind }, value }));
    },
  });
}
