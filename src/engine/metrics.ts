/**
 * Prometheus metrics of one pair's daemon (prom-client; names prefixed `akira_mm_` are a contract
 * with dashboards). Counters follow engine events; gauges are read from the engine's status at
 * scrape time, so they are never stale.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { unitsToNumber, type Side } from '../core/index.ts';
import type { EngineStatus } from './status.ts';
import type { EngineObserver } from './observer.ts';

/** Token decimals, to report drift in tokens. */
export interface MetricsContext {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly pair: string;
}

/** The registry and the observer that feeds it. */
export interface EngineMetrics {
  readonly registry: Registry;
  readonly observer: EngineObserver;
  /** Reads gauges from this status source at each scrape. */
  bindStatus(source: () => EngineStatus): void;
  /** Counts a WebSocket reconnect (the live venue reports them). */
  recordReconnect(): void;
}

/** Creates the metrics of one engine in a fresh registry. */
export function createEngineMetrics(context: MetricsContext): EngineMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ pair: context.pair });
  let statusSource: (() => EngineStatus) | undefined;
  const status = (): EngineStatus | undefined => statusSource?.();

  const placed = new Counter({ name: 'akira_mm_orders_placed_total', help: 'Orders accepted by the venue', labelNames: ['side'], registers: [registry] });
  const cancelled = new Counter({ name: 'akira_mm_orders_cancelled_total', help: 'Cancels accepted by the venue', labelNames: ['side'], registers: [registry] });
  const rejected = new Counter({ name: 'akira_mm_orders_rejected_total', help: 'Orders rejected, by reason', labelNames: ['side', 'reason'], registers: [registry] });
  const fills = new Counter({ name: 'akira_mm_fills_total', help: 'Fills of our orders', labelNames: ['side', 'liquidity'], registers: [registry] });
  const filledBase = new Counter({ name: 'akira_mm_filled_base_total', help: 'Base tokens filled', labelNames: ['side'], registers: [registry] });
  const feesQuote = new Counter({ name: 'akira_mm_fees_quote_total', help: 'Trading fees paid, in quote tokens', registers: [registry] });
  // A counter only goes up: maker rebates (a negative fee) count here, so fees − rebates is the net.
  const rebatesQuote = new Counter({ name: 'akira_mm_fee_rebates_quote_total', help: 'Maker rebates credited (negative trading fees), in quote tokens', registers: [registry] });
  const countFee = (feeQuote: number): void => {
    if (feeQuote >= 0) feesQuote.inc(feeQuote);
    else rebatesQuote.inc(-feeQuote);
  };
  const gasQuote = new Counter({ name: 'akira_mm_gas_spent_quote_total', help: 'Gas paid, in quote tokens', registers: [registry] });
  const reconnects = new Counter({ name: 'akira_mm_ws_reconnects_total', help: 'WebSocket reconnects', registers: [registry] });
  const drift = new Gauge({ name: 'akira_mm_reconcile_drift', help: 'Last balance drift found when healing (venue − expected), tokens', labelNames: ['token'], registers: [registry] });
  const driftEvents = new Counter({ name: 'akira_mm_reconcile_drift_events_total', help: 'Heals that found a balance drift', registers: [registry] });
  const latency = new Histogram({
    name: 'akira_mm_requote_latency_seconds',
    help: 'Market event to requote requests answered',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const halts = new Counter({ name: 'akira_mm_halts_total', help: 'Times quoting was halted', registers: [registry] });
  const throttled = new Counter({
    name: 'akira_mm_requests_throttled_total',
    help: 'Venue actions the outbound budget held back (ORDER_RATE_LIMIT_PER_S); they go when tokens return, nearest the touch first',
    registers: [registry],
  });
  const pauses = new Counter({ name: 'akira_mm_pauses_total', help: 'Times quoting was paused, by reason (dead-man, feed down, reference stale/divergent/jump, …)', labelNames: ['reason'], registers: [registry] });

  new Gauge({
    name: 'akira_mm_inventory_base',
    help: 'Base tokens held',
    registers: [registry],
    collect() {
      const s = status();
      if (s !== undefined) this.set(s.baseBalance);
    },
  });
  new Gauge({
    name: 'akira_mm_inventory_quote',
    help: 'Quote tokens held',
    registers: [registry],
    collect() {
      const s = status();
      if (s !== undefined) this.set(s.quoteBalance);
    },
  });
  new Gauge({
    name: 'akira_mm_pnl_quote',
    help: 'PnL since start, quote tokens',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const s = status();
      if (s === undefined) return;
      this.set({ kind: 'total' }, s.pnl.total);
      this.set({ kind: 'realized' }, s.pnl.realized);
      this.set({ kind: 'unrealized' }, s.pnl.unrealized);
      // The scorecard's split: total = spread + inventory − fees − gas.
      this.set({ kind: 'spread' }, s.scorecard.pnl.spread);
      this.set({ kind: 'inventory' }, s.scorecard.pnl.inventory);
      this.set({ kind: 'fees' }, s.scorecard.pnl.fees);
      this.set({ kind: 'gas' }, s.scorecard.pnl.gas);
    },
  });
  new Gauge({
    name: 'akira_mm_position_base',
    help: 'Position: base held minus the inventory target, base tokens (what skew and caps measure)',
    registers: [registry],
    collect() {
      const s = status();
      if (s !== undefined) this.set(s.position);
    },
  });
  new Gauge({
    name: 'akira_mm_inventory_cap_base',
    help: 'Hard cap on |position| in force, base tokens (0 = none)',
    registers: [registry],
    collect() {
      const s = status();
      if (s !== undefined) this.set(s.inventoryCap);
    },
  });
  new Gauge({
    name: 'akira_mm_fair_price',
    help: 'The fair price the strategy quotes around (FAIR_PRICE), quote per base',
    registers: [registry],
    collect() {
      const s = status();
      if (s?.fair !== undefined) this.set(s.fair);
    },
  });
  const scorecardGauge = (name: string, help: string, read: (s: EngineStatus) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const s = status();
        if (s !== undefined) this.set(read(s));
      },
    });
  };
  new Gauge({
    name: 'akira_mm_reference_basis_bps',
    help: 'Basis of the reference market: venue price / reference price − 1, bps (fixed or estimated online)',
    registers: [registry],
    collect() {
      const basis = status()?.reference?.basisBps;
      if (basis !== undefined) this.set(basis);
    },
  });
  new Gauge({
    name: 'akira_mm_reference_divergence_bps',
    help: 'Venue mid against the reference fair price, |venue / reference fair − 1|, bps (REFERENCE_MAX_DIVERGENCE_BPS pauses past it)',
    registers: [registry],
    collect() {
      const divergence = status()?.reference?.divergenceBps;
      if (divergence !== undefined) this.set(divergence);
    },
  });
  new Gauge({
    name: 'akira_mm_reference_fair_price',
    help: 'The reference price × (1 + basis), in the venue\'s quote per base',
    registers: [registry],
    collect() {
      const fair = status()?.reference?.fair;
      if (fair !== undefined) this.set(fair);
    },
  });
  scorecardGauge('akira_mm_two_sided_uptime_ratio', 'Share of quoting time with both a bid and an ask resting', (s) => s.scorecard.twoSidedUptime);
  scorecardGauge('akira_mm_time_at_touch_ratio', 'Share of quoting time with our bid or ask at the best price of the book', (s) => s.scorecard.timeAtTouch);
  scorecardGauge('akira_mm_orders_sent', 'Placements sent to the venue since start', (s) => s.scorecard.ordersSent);
  scorecardGauge('akira_mm_cancels_sent', 'Cancel requests sent to the venue since start', (s) => s.scorecard.cancelsSent);
  scorecardGauge('akira_mm_orders_per_fill', 'Placements sent per fill since start', (s) => s.scorecard.ordersPerFill);
  scorecardGauge('akira_mm_fill_ratio', 'Base volume filled / base volume of the placements sent', (s) => s.scorecard.fillRatio);
  scorecardGauge('akira_mm_cap_breaches', 'Moments |position| went past the inventory cap since start (must be 0)', (s) => s.scorecard.capBreaches);
  new Gauge({
    name: 'akira_mm_quote_uptime_ratio',
    help: 'Share of quoting time with both a bid and an ask resting',
    registers: [registry],
    collect() {
      const s = status();
      if (s !== undefined) this.set(s.twoSidedUptime);
    },
  });
  new Gauge({
    name: 'akira_mm_quoted_spread_bps',
    help: 'Our best ask minus our best bid, bps of mid',
    registers: [registry],
    collect() {
      const s = status();
      const bid = s?.bids[0]?.price;
      const ask = s?.asks[0]?.price;
      if (s?.mid !== undefined && bid !== undefined && ask !== undefined) this.set(((ask - bid) / s.mid) * 10_000);
    },
  });
  new Gauge({
    name: 'akira_mm_open_orders',
    help: 'Our resting orders',
    labelNames: ['side'],
    registers: [registry],
    collect() {
      const s = status();
      if (s === undefined) return;
      this.set({ side: 'buy' }, s.bids.length);
      this.set({ side: 'sell' }, s.asks.length);
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
    name: 'akira_mm_markout_bps',
    help: 'Mean fill markout by horizon, bps (positive = the fill earned); against the venue mid, or with against="reference" the reference mid',
    // The venue-mid series keep their one label (`horizon`) as before; the reference's add `against`.
    labelNames: ['horizon', 'against'],
    registers: [registry],
    collect() {
      const s = status();
      if (s === undefined) return;
      ['1s', '10s', '60s'].forEach((horizon, i) => {
        const value = s.markouts.meanBps[i];
        if (value !== undefined) this.set({ horizon }, value);
        const reference = s.reference?.markouts.meanBps[i];
        if (reference !== undefined) this.set({ horizon, against: 'reference' }, reference);
      });
    },
  });

  const observer: EngineObserver = {
    orderPlaced: (side: Side) => placed.inc({ side }),
    orderCancelled: (side: Side) => cancelled.inc({ side }),
    orderRejected: (side: Side, reason: string) => rejected.inc({ side, reason }),
    fill: (fill, effect) => {
      fills.inc({ side: fill.side, liquidity: fill.isMaker ? 'maker' : 'taker' });
      filledBase.inc({ side: fill.side }, unitsToNumber(fill.qtyUnits, context.baseDecimals));
      countFee(effect.feeQuote);
    },
    requoteLatency: (latencyMs: number) => latency.observe(latencyMs / 1000),
    drift: (baseDrift: bigint, quoteDrift: bigint) => {
      driftEvents.inc();
      drift.set({ token: 'base' }, unitsToNumber(baseDrift, context.baseDecimals));
      drift.set({ token: 'quote' }, unitsToNumber(quoteDrift, context.quoteDecimals));
    },
    gasSpent: (amount: number) => gasQuote.inc(amount),
    feeCorrected: (effect) => countFee(effect.feeQuote),
    halted: () => halts.inc(),
    requestsThrottled: (count: number) => throttled.inc(count),
    paused: (isPaused: boolean, reason: string) => {
      if (isPaused) pauses.inc({ reason });
    },
    feedReconnected: () => reconnects.inc(),
  };

  return {
    registry,
    observer,
    bindStatus(source) {
      statusSource = source;
    },
    recordReconnect() {
      reconnects.inc();
    },
  };
}
