/**
 * Prometheus metrics of one pair's daemon (prom-client; names prefixed `akira_mm_` are a contract
 * with dashboards and alert rules: README "Monitoring"). Counters follow engine events; gauges are
 * read from the engine's status at scrape time (`status-metrics.ts`), so they are never stale.
 * Every label value a series is known to take starts at 0, so `increase()` sees the first event.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MATCHER_RESULTS, unitsToNumber, type Side } from '../core/index.ts';
import { startAtZero } from '../core/prometheus.ts';
import { registerDeprecatedEngineMetrics } from './deprecated-metrics.ts';
import type { EngineObserver } from './observer.ts';
import { registerSignalGauges } from './signal-metrics.ts';
import { KNOWN_PAUSE_REASONS, registerStatusMetrics } from './status-metrics.ts';
import type { EngineStatus, ModelStatus } from './status.ts';

/** Token decimals, to report drift in tokens, and whether the pair reads a reference market. */
export interface MetricsContext {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly pair: string;
  /** The pair reads a reference market (REFERENCE=…): its basis, divergence and fair price are exported. */
  readonly hasReference: boolean;
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

const SIDES: readonly Side[] = ['buy', 'sell'];

/**
 * Rejections known in advance, by the `reason` label they count under: the matcher's results
 * (a post-only order that would cross is FAILED_VALIDATION), an order the venue did not process,
 * and the signer refusing or unreachable.
 */
export const KNOWN_REJECT_REASONS: readonly string[] = [...MATCHER_RESULTS.filter((result) => result !== 'OK'), 'NOT_PROCESSED', 'SIGNER_REFUSED', 'SIGNER_UNAVAILABLE'];

/**
 * The `reason` label of a rejection: its code, the text before the first `:` (the venue's error
 * name or our error code). The details after it vary with each order, and a label value per
 * message would grow the series without bound; the log keeps the whole reason.
 */
export function rejectReasonLabel(reason: string): string {
  const colon = reason.indexOf(':');
  return (colon < 0 ? reason : reason.slice(0, colon)).trim();
}

/**
 * A registry whose gauges all read one engine status per scrape. Read afresh by each gauge, the
 * time-based figures (uptime ratios, PnL marked at a moving fair) came out a few ms apart within one
 * scrape, and two names of one series (a deprecated alias and its replacement) disagreed. The status
 * is taken at a scrape's first read and dropped when the scrape ends; outside a scrape (a test
 * reading one metric) every read is fresh.
 */
class OneStatusPerScrapeRegistry extends Registry {
  private scrapes = 0;
  private taken: { readonly status: EngineStatus | undefined } | undefined;

  constructor(private readonly read: () => EngineStatus | undefined) {
    super();
  }

  status(): EngineStatus | undefined {
    if (this.scrapes === 0) return this.read();
    this.taken ??= { status: this.read() };
    return this.taken.status;
  }

  override metrics(): Promise<string> {
    return this.scraping(() => super.metrics());
  }

  override getMetricsAsJSON(): ReturnType<Registry['getMetricsAsJSON']> {
    return this.scraping(() => super.getMetricsAsJSON());
  }

  private async scraping<T>(scrape: () => Promise<T>): Promise<T> {
    this.scrapes += 1;
    try {
      return await scrape();
    } finally {
      this.scrapes -= 1;
      if (this.scrapes === 0) this.taken = undefined;
    }
  }
}

/** Creates the metrics of one engine in a fresh registry. */
export function createEngineMetrics(context: MetricsContext): EngineMetrics {
  let statusSource: (() => EngineStatus) | undefined;
  const registry = new OneStatusPerScrapeRegistry(() => statusSource?.());
  registry.setDefaultLabels({ pair: context.pair });
  const status = (): EngineStatus | undefined => registry.status();

  const placed = new Counter({ name: 'akira_mm_orders_placed_total', help: 'Orders accepted by the venue', labelNames: ['side'], registers: [registry] });
  const cancelled = new Counter({ name: 'akira_mm_orders_cancelled_total', help: 'Cancels accepted by the venue', labelNames: ['side'], registers: [registry] });
  const rejected = new Counter({ name: 'akira_mm_orders_rejected_total', help: 'Orders rejected, by reason (the venue error name or our error code)', labelNames: ['side', 'reason'], registers: [registry] });
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
  const drift = new Gauge({ name: 'akira_mm_reconcile_drift', help: 'Last balance drift found when healing (venue − expected), tokens; 0 until a heal finds one', labelNames: ['token'], registers: [registry] });
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

  startAtZero(placed, { side: SIDES });
  startAtZero(cancelled, { side: SIDES });
  startAtZero(rejected, { side: SIDES, reason: KNOWN_REJECT_REASONS });
  startAtZero(fills, { side: SIDES, liquidity: ['maker', 'taker'] });
  startAtZero(filledBase, { side: SIDES });
  startAtZero(pauses, { reason: KNOWN_PAUSE_REASONS });
  // No drift is a drift of 0: the series exists from the start, for graphs and alerts alike.
  drift.set({ token: 'base' }, 0);
  drift.set({ token: 'quote' }, 0);

  registerStatusMetrics(registry, status, { hasReference: context.hasReference });
  registerDeprecatedEngineMetrics(registry, status);

  registerModelGauges(registry, status);
  registerSignalGauges(registry, () => status()?.signals);

  const observer: EngineObserver = {
    orderPlaced: (side: Side) => placed.inc({ side }),
    orderCancelled: (side: Side) => cancelled.inc({ side }),
    orderRejected: (side: Side, reason: string) => rejected.inc({ side, reason: rejectReasonLabel(reason) }),
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

/**
 * The strategy's internals (`EngineStatus.model`), one gauge each, labelled by the model: a
 * widening reads off σ, A, k and the fit's weight beside the half spread it made (issue 24 item 5).
 * A field the model does not report is absent, not 0.
 */
function registerModelGauges(registry: Registry, status: () => EngineStatus | undefined): void {
  const modelGauge = (name: string, help: string, read: (model: ModelStatus) => number | undefined): void => {
    new Gauge({
      name,
      help,
      labelNames: ['model'],
      registers: [registry],
      collect() {
        this.reset();
        const model = status()?.model;
        const value = model === undefined ? undefined : read(model);
        if (model !== undefined && value !== undefined && Number.isFinite(value)) this.set({ model: model.name }, value);
      },
    });
  };
  modelGauge('akira_mm_model_sigma_bps', 'σ of the fair price the model uses, bps per √second', (m) => m.internals.sigmaBps);
  modelGauge('akira_mm_model_arrival_a', 'Arrival intensity A the model uses (fit shrunk towards the configured A), trades per second', (m) => m.internals.arrivalA);
  modelGauge('akira_mm_model_arrival_k_per_bps', 'Arrival decay k the model uses (fit shrunk towards the configured k, bounded), per bp', (m) => m.internals.arrivalKPerBps);
  modelGauge('akira_mm_model_arrival_fit_weight', 'Share of the online fit in A and k (0 = the configured values alone)', (m) => m.internals.arrivalFitWeight);
  modelGauge('akira_mm_model_half_spread_bps', 'Half the level-0 spread the model asks for, costs included, bps of its reference', (m) => m.internals.halfSpreadBps);
  modelGauge('akira_mm_model_skew_bps', 'Centre of the model\'s level-0 quotes against its reference, bps (negative when long)', (m) => m.internals.skewBps);
  new Gauge({
    name: 'akira_mm_model_signal',
    help: 'Other values the model reads or derives, by name (units in docs/strategies.md)',
    labelNames: ['model', 'signal'],
    registers: [registry],
    collect() {
      this.reset();
      const model = status()?.model;
      if (model === undefined) return;
      for (const [signal, value] of Object.entries(model.internals.signals ?? {})) if (Number.isFinite(value)) this.set({ model: model.name, signal }, value);
    },
  });
}
