/**
 * The metrics of one pair read from its engine's status at scrape time: what it holds and quotes,
 * its state and pause reasons, the PnL total and each of its parts under a name of its own, the
 * scorecard's ratios, and the scorecard's counts since start as counters. Nothing here runs
 * between scrapes.
 */
import { Gauge, type Registry } from 'prom-client';
import { registerFollowingCounter, registerReadingGauge } from '../core/prometheus.ts';
import { MARKOUT_HORIZONS_MS } from './markouts.ts';
import { REFERENCE_PAUSE_REASONS } from './reference-stage.ts';
import { ENGINE_STATES, FEED_PAUSE_REASONS, OPERATOR_CANCEL_ALL, OPERATOR_PAUSE } from './safety/safety.ts';
import { VENUE_FAILING_ORDERS } from './safety/venue-alerts.ts';
import type { EngineStatus } from './status.ts';

type StatusSource = () => EngineStatus | undefined;

/** The `horizon` label of each markout horizon (`1s`, `10s`, `60s`). */
export const MARKOUT_HORIZON_LABELS: readonly string[] = MARKOUT_HORIZONS_MS.map((ms) => `${ms / 1000}s`);

/**
 * Every pause reason the engine gives: `akira_mm_pauses_total{reason}` starts each at 0 and
 * `akira_mm_pause_reason{reason}` names each (any other reason in force shows as `other`).
 */
export const KNOWN_PAUSE_REASONS: readonly string[] = [...FEED_PAUSE_REASONS, VENUE_FAILING_ORDERS, ...REFERENCE_PAUSE_REASONS, OPERATOR_PAUSE, OPERATOR_CANCEL_ALL];

/**
 * Registers every status-read metric of one pair on its registry; the reference market's only when
 * the pair reads one (a gauge without labels always shows a value: 0 would be a false price).
 */
export function registerStatusMetrics(registry: Registry, status: StatusSource, options: { readonly hasReference: boolean }): void {
  const gauge = (name: string, help: string, read: (s: EngineStatus) => number | undefined): void => {
    registerReadingGauge(registry, name, help, () => {
      const s = status();
      return s === undefined ? undefined : read(s);
    });
  };
  gauge('akira_mm_inventory_base', 'Base tokens held', (s) => s.baseBalance);
  gauge('akira_mm_inventory_quote', 'Quote tokens held', (s) => s.quoteBalance);
  gauge('akira_mm_position_base', 'Position: base held minus the inventory target, base tokens (what skew and caps measure)', (s) => s.position);
  gauge('akira_mm_inventory_cap_base', 'Hard cap on |position| in force, base tokens (0 = none)', (s) => s.inventoryCap);
  gauge('akira_mm_fair_price', 'The fair price the strategy quotes around (FAIR_PRICE), quote per base', (s) => s.fair);
  if (options.hasReference) registerReferenceViewMetrics(gauge);

  // The PnL: the ledger's total and its realized/unrealized split, and the scorecard's split by
  // source, each under its own name (total = realized + unrealized = spread + inventory − fees − gas).
  gauge('akira_mm_pnl_total_quote', 'PnL since start, quote tokens (realized + unrealized, marked at the fair price)', (s) => s.pnl.total);
  gauge('akira_mm_pnl_realized_quote', 'Realized PnL since start (average cost), quote tokens', (s) => s.pnl.realized);
  gauge('akira_mm_pnl_unrealized_quote', 'Unrealized PnL of the position held, marked at the fair price, quote tokens', (s) => s.pnl.unrealized);
  gauge('akira_mm_pnl_spread_quote', 'PnL part: the edge captured at each fill against the fair price of that moment, before fees, quote tokens', (s) => s.scorecard.pnl.spread);
  gauge('akira_mm_pnl_inventory_quote', 'PnL part: the position carried between fills, marked as the fair price moves, quote tokens', (s) => s.scorecard.pnl.inventory);
  gauge('akira_mm_pnl_fees_quote', 'PnL part: trading fees paid, a cost (positive = paid; subtracted from the total), quote tokens', (s) => s.scorecard.pnl.fees);
  gauge('akira_mm_pnl_gas_quote', 'PnL part: gas paid, a cost (positive = paid; subtracted from the total), quote tokens', (s) => s.scorecard.pnl.gas);

  gauge('akira_mm_two_sided_uptime_ratio', 'Share of quoting time with both a bid and an ask resting', (s) => s.scorecard.twoSidedUptime);
  gauge('akira_mm_time_at_touch_ratio', 'Share of quoting time with our bid or ask at the best price of the book', (s) => s.scorecard.timeAtTouch);
  gauge('akira_mm_orders_per_fill', 'Placements sent per fill since start', (s) => s.scorecard.ordersPerFill);
  gauge('akira_mm_fill_ratio', 'Base volume filled / base volume of the placements sent', (s) => s.scorecard.fillRatio);
  gauge('akira_mm_quoted_spread_bps', 'Our best ask minus our best bid, bps of mid', (s) => {
    const bid = s.bids[0]?.price;
    const ask = s.asks[0]?.price;
    return s.mid === undefined || bid === undefined || ask === undefined ? undefined : ((ask - bid) / s.mid) * 10_000;
  });

  // Counts since start kept by the order manager and the scorecard, exported as counters.
  const count = (name: string, help: string, read: (s: EngineStatus) => number): void => {
    registerFollowingCounter({ name, help, registry, read: () => { const s = status(); return s === undefined ? 0 : read(s); } });
  };
  count('akira_mm_orders_sent_total', 'Placements sent to the venue', (s) => s.scorecard.ordersSent);
  count('akira_mm_cancels_sent_total', 'Cancel requests sent to the venue', (s) => s.scorecard.cancelsSent);
  count('akira_mm_cap_breaches_total', 'Moments |position| went past the inventory cap (must stay 0)', (s) => s.scorecard.capBreaches);

  new Gauge({
    name: 'akira_mm_open_orders',
    help: 'Our resting orders',
    labelNames: ['side'],
    registers: [registry],
    collect() {
      const s = status();
      this.set({ side: 'buy' }, s?.bids.length ?? 0);
      this.set({ side: 'sell' }, s?.asks.length ?? 0);
    },
  });
  new Gauge({
    name: 'akira_mm_quoting',
    help: '1 while quoting, 0 when paused, halted or stopped',
    registers: [registry],
    collect() {
      this.set(status()?.state === 'quoting' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'akira_mm_state',
    help: 'Engine state: 1 for the current one (starting until the engine exists)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = status()?.state ?? 'starting';
      for (const state of ENGINE_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  new Gauge({
    name: 'akira_mm_pause_reason',
    help: 'Pause reasons in force: 1 while the reason holds quoting paused (several may); other = a reason not listed here',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      // Safety joins the reasons in force with ", " (EngineStatus.pauseReason).
      const held = status()?.state === 'paused' ? (status()?.pauseReason ?? '').split(', ').filter((reason) => reason !== '') : [];
      for (const reason of KNOWN_PAUSE_REASONS) this.set({ reason }, held.includes(reason) ? 1 : 0);
      this.set({ reason: 'other' }, held.some((reason) => !KNOWN_PAUSE_REASONS.includes(reason)) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'akira_mm_markout_bps',
    help: 'Mean fill markout by horizon, bps (positive = the fill earned); absent until a fill is that old. Against the venue mid, or with against="reference" the reference mid',
    // The venue-mid series keep their one label (`horizon`) as before; the reference's add `against`.
    labelNames: ['horizon', 'against'],
    registers: [registry],
    collect() {
      const s = status();
      if (s === undefined) return;
      MARKOUT_HORIZON_LABELS.forEach((horizon, i) => {
        const value = s.markouts.meanBps[i];
        if (value !== undefined) this.set({ horizon }, value);
        const reference = s.reference?.markouts.meanBps[i];
        if (reference !== undefined) this.set({ horizon, against: 'reference' }, reference);
      });
    },
  });
}

type GaugeOf = (name: string, help: string, read: (s: EngineStatus) => number | undefined) => void;

/** The reference market as the engine prices it (REFERENCE=…). */
function registerReferenceViewMetrics(gauge: GaugeOf): void {
  gauge('akira_mm_reference_basis_bps', 'Basis of the reference market: venue price / reference price − 1, bps (fixed or estimated online)', (s) => s.reference?.basisBps);
  gauge('akira_mm_reference_divergence_bps', 'Venue mid against the reference fair price, |venue / reference fair − 1|, bps (REFERENCE_MAX_DIVERGENCE_BPS pauses past it)', (s) => s.reference?.divergenceBps);
  gauge('akira_mm_reference_fair_price', "The reference price × (1 + basis), in the venue's quote per base", (s) => s.reference?.fair);
}
