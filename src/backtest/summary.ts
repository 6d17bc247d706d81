/**
 * The backtest summary: one flat object whose keys are a contract with users' scripts
 * (`--json` prints it as the last line). Every field but `events_per_sec` is a pure function of
 * data, config and seed, so two runs print identical numbers.
 */
import type { EngineStatus, MarkoutSummary } from '../engine/index.ts';
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
   * A thin venue's run (`--venue thin`): who took our fills, and their markouts against the
   * reference mid, which replace the engine's (measured against the venue's own mid).
   */
  readonly thin?: { readonly fills: ThinSummary; readonly referenceMarkouts: MarkoutSummary } | undefined;
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
  const markouts = thin === undefined ? status.markouts : thin.referenceMarkouts;
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
    markout_1s_bps: tidyOrNull(markouts.meanBps[0]),
    markout_10s_bps: tidyOrNull(markouts.meanBps[1]),
    markout_60s_bps: tidyOrNull(markouts.meanBps[2]),
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
    volume_quote: tidy(input.fills.reduce((sum, fill) => sum + fill.price * fill.size, 0)),
    uninformed_fills: thin?.fills.uninformed_fills ?? null,
    arb_fills: thin?.fills.arb_fills ?? null,
    background_maker_fills: thin?.fills.background_maker_fills ?? null,
    pickoff_cost_quote: thin === undefined ? null : tidy(thin.fills.pickoff_cost_quote),
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
