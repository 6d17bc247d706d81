/**
 * The backtest summary: one flat object whose keys are a contract with users' scripts
 * (`--json` prints it as the last line). Every field but `events_per_sec` is a pure function of
 * data, config and seed, so two runs print identical numbers.
 */
import type { EngineStatus } from '../engine/index.ts';
import { INTERVAL_METHOD } from './bootstrap.ts';
import { markedAt } from './pnl-mark.ts';
import { BOOTSTRAP_DEFAULTS, errorBars, type BootstrapOptions } from './error-bars.ts';
import { markoutsFromSamples, type FillMarkouts } from './fill-markouts.ts';
import type { FillRecord } from './session.ts';
import type { BacktestSummary } from './summary-contract.ts';
import type { ThinSummary } from './thin/thin-summary.ts';
import { summaryRows, type SummaryUnits } from './summary-rows.ts';
import { HOUR_MS, DAY_MS, maxAbsInventory, maxAbsNetInventory, maxDrawdown, sharpeHorizon, sharpeRatio, standardDeviation, type PathSample } from './stats.ts';

/** The summary's keys (summary-contract.ts), named here beside the function that fills them. */
export type { BacktestSummary } from './summary-contract.ts';

/** What the summary is computed from. */
export interface SummaryInput {
  readonly events: number;
  readonly status: EngineStatus;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  readonly sampleMs: number;
  readonly wallSeconds: number;
  readonly startMs: number;
  readonly endMs: number;
  /** Reference pauses counted by the session; undefined without a reference market. */
  readonly referencePauses?: number | undefined;
  /**
   * A thin venue's run (`--venue thin`): who took our fills (its markouts are against the reference
   * mid: `markouts`), the reference mid at the end (the end inventory is marked to it) and the
   * seed the takers drew from.
   */
  readonly thin?: { readonly fills: ThinSummary; readonly endReferenceMid?: number | undefined; readonly takerSeed?: number | undefined } | undefined;
  /** Every fill's markout on the curve's horizons (the replay's recorder); default: from the sampled mid. */
  readonly markouts?: FillMarkouts | undefined;
  /** How the error bars are drawn; default {@link BOOTSTRAP_DEFAULTS}. */
  readonly bootstrap?: BootstrapOptions | undefined;
}

/** Rounds to 10 significant digits so float noise never reaches the printed summary. */
function tidy(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(10)) : 0;
}

function tidyOrNull(value: number | undefined): number | null {
  return value === undefined ? null : tidy(value);
}

/** Mean of the defined values; undefined when there are none. */
function meanOf(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0 ? undefined : defined.reduce((sum, value) => sum + value, 0) / defined.length;
}

/** Builds the summary. */
export function summarize(input: SummaryInput): BacktestSummary {
  const { status, samples } = input;
  const pnl = status.pnl;
  const horizon = sharpeHorizon(input.endMs - input.startMs);
  const card = status.scorecard;
  const thin = input.thin;
  const engineMarkQuote = pnl.total + (status.hedge?.pnlQuote ?? 0);
  const pnlQuote = thin?.endReferenceMid === undefined ? engineMarkQuote : markedAt(pnl, thin.endReferenceMid) + (status.hedge?.pnlQuote ?? 0);
  const intervals = errorBarKeys(input, pnlQuote);
  return {
    events: input.events,
    fills: pnl.fills,
    maker_fills: pnl.makerFills,
    taker_fills: pnl.takerFills,
    volume_base: tidy(pnl.volumeBase),
    fees_quote: tidy(pnl.feesPaid),
    gas_quote: tidy(pnl.gasPaid),
    pnl_quote: tidy(pnlQuote),
    max_abs_inventory_base: tidy(maxAbsInventory(samples)),
    inventory_std_base: tidy(standardDeviation(samples.map((sample) => sample.inventory))),
    sharpe: tidy(sharpeRatio(samples, input.sampleMs, horizon === 'day' ? DAY_MS : HOUR_MS)),
    max_drawdown_quote: tidy(maxDrawdown(samples)),
    quote_uptime: tidy(status.twoSidedUptime),
    // The curve's points, not the engine's running means: one definition with the intervals and the report's fills table.
    markout_1s_bps: intervals.markoutAt(1_000),
    markout_10s_bps: intervals.markoutAt(10_000),
    markout_60s_bps: intervals.markoutAt(60_000),
    events_per_sec: Math.round(input.events / Math.max(input.wallSeconds, 1e-9)),
    duration_s: tidy((input.endMs - input.startMs) / 1000),
    start_ms: input.startMs,
    end_ms: input.endMs,
    orders_sent: card.ordersSent,
    cancels_sent: card.cancelsSent,
    orders_per_fill: tidy(card.ordersPerFill),
    fill_ratio: tidy(card.fillRatio),
    two_sided_uptime: tidy(card.twoSidedUptime),
    time_at_touch: tidy(card.timeAtTouch),
    cap_breaches: card.capBreaches,
    pnl_spread_quote: tidy(card.pnl.spread),
    pnl_inventory_quote: tidy(card.pnl.inventory),
    requests_throttled: card.throttled,
    inventory_cap_base: tidy(status.inventoryCap),
    sharpe_horizon: horizon,
    sharpe_hourly: tidy(sharpeRatio(samples, input.sampleMs, HOUR_MS)),
    hedges: status.hedge?.hedgesSent ?? 0,
    hedge_slippage_bps: tidyOrNull(status.hedge?.slippageBps),
    hedge_latency_ms_p50: tidyOrNull(status.hedge?.latencyMsP50),
    max_abs_net_inventory_base: tidy(maxAbsNetInventory(samples)),
    unhedged_time_share: tidy(status.hedge?.unhedgedTimeShare ?? 0),
    pnl_hedge_quote: tidy(status.hedge?.pnlQuote ?? 0),
    hedge_fees_quote: tidy(status.hedge?.feesQuote ?? 0),
    reference_pauses: input.referencePauses ?? 0,
    basis_bps_mean: input.referencePauses === undefined ? null : tidyOrNull(meanOf(samples.map((sample) => sample.basisBps))),
    markout_against: thin === undefined ? 'venue' : 'reference',
    uninformed_fills: thin?.fills.uninformed_fills ?? null,
    arb_fills: thin?.fills.arb_fills ?? null,
    background_maker_fills: thin?.fills.background_maker_fills ?? null,
    pickoff_cost_quote: thin === undefined ? null : tidy(thin.fills.pickoff_cost_quote),
    ...intervals.keys,
    taker_seed: thin?.takerSeed ?? null,
    taker_seeds: null,
    pnl_quote_by_taker_seed: null,
    pnl_quote_taker_seeds_min: null,
    pnl_quote_taker_seeds_median: null,
    pnl_quote_taker_seeds_max: null,
    pnl_marked_to: thin?.endReferenceMid === undefined ? 'venue' : 'reference',
    pnl_engine_mark_quote: thin === undefined ? null : tidy(engineMarkQuote),
  };
}

/** A summary with the spread of its PnL over the taker seeds it was run with (`--taker-seeds`): the first run's summary, each seed's PnL, and their min / median / max. */
export function withTakerSeeds(summary: BacktestSummary, runs: readonly { readonly seed: number; readonly pnlQuote: number }[]): BacktestSummary {
  const pnls = runs.map((run) => run.pnlQuote);
  const sorted = [...pnls].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? (sorted[Math.floor(middle)] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return {
    ...summary,
    taker_seeds: runs.map((run) => run.seed),
    pnl_quote_by_taker_seed: pnls.map(tidy),
    pnl_quote_taker_seeds_min: tidy(sorted[0] as number),
    pnl_quote_taker_seeds_median: tidy(median),
    pnl_quote_taker_seeds_max: tidy(sorted.at(-1) as number),
  };
}

type Interval = readonly [number, number];

function tidyInterval(interval: Interval | null | undefined): Interval | null {
  return interval === null || interval === undefined ? null : [tidy(interval[0]), tidy(interval[1])];
}

/** The error-bar keys of the summary, and the curve's mean markout at a horizon. */
function errorBarKeys(input: SummaryInput, pnlQuote: number): { readonly keys: Pick<BacktestSummary, ErrorBarKey>; markoutAt(horizonMs: number): number | null } {
  const options = input.bootstrap ?? BOOTSTRAP_DEFAULTS;
  const markouts = input.markouts ?? markoutsFromSamples(input.fills, input.samples);
  const bars = errorBars({ samples: input.samples, fills: input.fills, markouts, sampleMs: input.sampleMs, startMs: input.startMs, pnlQuote }, options);
  const at = (horizonMs: number): number => markouts.horizonsMs.indexOf(horizonMs);
  return {
    keys: {
      volume_quote: tidy(bars.volumeQuote),
      pnl_per_notional_bps: tidyOrNull(bars.pnlPerNotionalBps ?? undefined),
      pnl_quote_ci95: tidyInterval(bars.pnlQuoteCi95),
      pnl_per_notional_bps_ci95: tidyInterval(bars.pnlPerNotionalBpsCi95),
      markout_1s_bps_ci95: tidyInterval(bars.markoutBpsCi95[at(1_000)]),
      markout_10s_bps_ci95: tidyInterval(bars.markoutBpsCi95[at(10_000)]),
      markout_60s_bps_ci95: tidyInterval(bars.markoutBpsCi95[at(60_000)]),
      markout_curve_ms: [...markouts.horizonsMs],
      markout_curve_bps: bars.markoutBps.map((bps) => tidyOrNull(bps ?? undefined)),
      markout_curve_bps_ci95: bars.markoutBpsCi95.map(tidyInterval),
      markout_curve_fills: [...bars.markoutFills],
      bootstrap_block_ms: options.blockMs,
      bootstrap_samples: options.samples,
      bootstrap_seed: options.seed,
      bootstrap_blocks: bars.blocks,
      ci95_method: INTERVAL_METHOD,
      ci95_withheld: bars.withheld ?? null,
    },
    markoutAt: (horizonMs) => tidyOrNull(bars.markoutBps[at(horizonMs)] ?? undefined),
  };
}

/** The keys the error bars add to the summary. */
type ErrorBarKey =
  | 'volume_quote'
  | 'pnl_per_notional_bps'
  | 'pnl_quote_ci95'
  | 'pnl_per_notional_bps_ci95'
  | 'markout_1s_bps_ci95'
  | 'markout_10s_bps_ci95'
  | 'markout_60s_bps_ci95'
  | 'markout_curve_ms'
  | 'markout_curve_bps'
  | 'markout_curve_bps_ci95'
  | 'markout_curve_fills'
  | 'bootstrap_block_ms'
  | 'bootstrap_samples'
  | 'bootstrap_seed'
  | 'bootstrap_blocks'
  | 'ci95_method'
  | 'ci95_withheld';

/** The summary without the wall-clock speed: what determinism checks compare. */
export function deterministicPart(summary: BacktestSummary): Omit<BacktestSummary, 'events_per_sec'> {
  const { events_per_sec: _speed, ...rest } = summary;
  return rest;
}

/**
 * The summary for a person: one `name  value` per line, with units (PnL in quote, inventory in
 * base), human times and durations, and percentages. `units` names the tokens.
 */
export function formatSummary(summary: BacktestSummary, units: SummaryUnits = { base: 'base', quote: 'quote' }): string {
  const rows = summaryRows(summary, units);
  const width = Math.max(...rows.map((row) => row.label.length));
  return rows.map((row) => `${row.label.padEnd(width)}  ${row.text}`).join('\n');
}
