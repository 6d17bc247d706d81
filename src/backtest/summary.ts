/**
 * The backtest summary: one flat object whose keys are a contract with users' scripts
 * (`--json` prints it as the last line). Every field but `events_per_sec` is a pure function of
 * data, config and seed, so two runs print identical numbers.
 */
import type { EngineStatus } from '../engine/index.ts';
import type { FillRecord } from './session.ts';
import { summaryRows, type SummaryUnits } from './summary-rows.ts';
import { HOUR_MS, DAY_MS, maxAbsInventory, maxAbsNetInventory, maxDrawdown, sharpeHorizon, sharpeRatio, standardDeviation, type PathSample } from './stats.ts';

/** The summary of one run (snake_case keys: a wire contract). */
export interface BacktestSummary {
  readonly events: number;
  readonly fills: number;
  readonly maker_fills: number;
  readonly taker_fills: number;
  readonly volume_base: number;
  readonly fees_quote: number;
  readonly gas_quote: number;
  readonly pnl_quote: number;
  readonly max_abs_inventory_base: number;
  readonly inventory_std_base: number;
  /** Sharpe ratio of PnL stated per `sharpe_horizon` (an hour, or a day for runs of 3 days and more); never annualised. */
  readonly sharpe: number;
  readonly max_drawdown_quote: number;
  readonly quote_uptime: number;
  readonly markout_1s_bps: number | null;
  readonly markout_10s_bps: number | null;
  readonly markout_60s_bps: number | null;
  readonly events_per_sec: number;
  readonly duration_s: number;
  readonly start_ms: number;
  readonly end_ms: number;
  /** Scorecard (issue "quoting"): placements and cancel requests sent. */
  readonly orders_sent: number;
  readonly cancels_sent: number;
  /** Orders sent per fill (orders sent when nothing filled). */
  readonly orders_per_fill: number;
  /** Base volume filled / base volume of the orders sent. */
  readonly fill_ratio: number;
  /** Share of quoting time with both a bid and an ask resting (quote_uptime is the same figure, its older name). */
  readonly two_sided_uptime: number;
  /** Share of quoting time with our bid or ask at the best price of the book. */
  readonly time_at_touch: number;
  /** Moments |position| went past the inventory cap (must be 0). */
  readonly cap_breaches: number;
  /** PnL split, quote tokens: pnl_quote = pnl_spread_quote + pnl_inventory_quote + pnl_hedge_quote − fees_quote − gas_quote. */
  readonly pnl_spread_quote: number;
  readonly pnl_inventory_quote: number;
  /** Venue actions the outbound budget held back (sent later, or not at all when no longer wanted). */
  readonly requests_throttled: number;
  /** The inventory cap the run used (base tokens; 0 = none). */
  readonly inventory_cap_base: number;
  /** The horizon `sharpe` is stated for: `hour`, or `day` for runs of 3 days and more. */
  readonly sharpe_horizon: 'hour' | 'day';
  /** Sharpe ratio per hour whatever the run's length, to compare runs of different lengths. */
  readonly sharpe_hourly: number;
  /** Hedge orders sent on the hedge venue (`--hedge`; 0 without). */
  readonly hedges: number;
  /** Volume-weighted hedge price against the hedge book's touch when decided, bps (positive = worse); null without hedges. */
  readonly hedge_slippage_bps: number | null;
  /** Median time from a fill to the hedges that covered it, ms; null without hedges. */
  readonly hedge_latency_ms_p50: number | null;
  /** Largest |net inventory| across both venues, base tokens (max_abs_inventory_base without a hedge). */
  readonly max_abs_net_inventory_base: number;
  /** Share of the run with a hedgeable position uncovered (0 without a hedge). */
  readonly unhedged_time_share: number;
  /** PnL of the hedges marked at the fair price, net of their fees; in pnl_quote = spread + inventory + hedge − fees − gas. */
  readonly pnl_hedge_quote: number;
  /** Fees the hedges paid on the hedge venue (inside pnl_hedge_quote), quote tokens. */
  readonly hedge_fees_quote: number;
  /** Times quoting paused because of the reference market (stale, resyncing, divergent, jump); 0 without `--reference`. */
  readonly reference_pauses: number;
  /** Mean basis of the reference (venue / reference − 1) over the run's samples, bps; null without `--reference`. */
  readonly basis_bps_mean: number | null;
}

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
  return {
    events: input.events,
    fills: pnl.fills,
    maker_fills: pnl.makerFills,
    taker_fills: pnl.takerFills,
    volume_base: tidy(pnl.volumeBase),
    fees_quote: tidy(pnl.feesPaid),
    gas_quote: tidy(pnl.gasPaid),
    pnl_quote: tidy(pnl.total + (status.hedge?.pnlQuote ?? 0)),
    max_abs_inventory_base: tidy(maxAbsInventory(samples)),
    inventory_std_base: tidy(standardDeviation(samples.map((sample) => sample.inventory))),
    sharpe: tidy(sharpeRatio(samples, input.sampleMs, horizon === 'day' ? DAY_MS : HOUR_MS)),
    max_drawdown_quote: tidy(maxDrawdown(samples)),
    quote_uptime: tidy(status.twoSidedUptime),
    markout_1s_bps: tidyOrNull(status.markouts.meanBps[0]),
    markout_10s_bps: tidyOrNull(status.markouts.meanBps[1]),
    markout_60s_bps: tidyOrNull(status.markouts.meanBps[2]),
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
  };
}

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
