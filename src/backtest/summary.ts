/**
 * The backtest summary: one flat object whose keys are a contract with users' scripts
 * (`--json` prints it as the last line). Every field but `events_per_sec` is a pure function of
 * data, config and seed, so two runs print identical numbers.
 */
import type { EngineStatus } from '../engine/index.ts';
import type { FillRecord } from './session.ts';
import { maxAbsInventory, maxDrawdown, sharpeRatio, standardDeviation, type PathSample } from './stats.ts';

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
}

/** What the summary is computed from. */
export interface SummaryInput {
  readonly events: number;
  readonly status: EngineStatus;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  readonly gasQuote: number;
  readonly sampleMs: number;
  readonly wallSeconds: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** Rounds to 10 significant digits so float noise never reaches the printed summary. */
function tidy(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(10)) : 0;
}

function tidyOrNull(value: number | undefined): number | null {
  return value === undefined ? null : tidy(value);
}

/** Builds the summary. */
export function summarize(input: SummaryInput): BacktestSummary {
  const { status, samples } = input;
  const pnl = status.pnl;
  return {
    events: input.events,
    fills: pnl.fills,
    maker_fills: pnl.makerFills,
    taker_fills: pnl.takerFills,
    volume_base: tidy(pnl.volumeBase),
    fees_quote: tidy(pnl.feesPaid),
    gas_quote: tidy(input.gasQuote),
    pnl_quote: tidy(pnl.total),
    max_abs_inventory_base: tidy(maxAbsInventory(samples)),
    inventory_std_base: tidy(standardDeviation(samples.map((sample) => sample.inventory))),
    sharpe: tidy(sharpeRatio(samples, input.sampleMs)),
    max_drawdown_quote: tidy(maxDrawdown(samples)),
    quote_uptime: tidy(status.twoSidedUptime),
    markout_1s_bps: tidyOrNull(status.markouts.meanBps[0]),
    markout_10s_bps: tidyOrNull(status.markouts.meanBps[1]),
    markout_60s_bps: tidyOrNull(status.markouts.meanBps[2]),
    events_per_sec: Math.round(input.events / Math.max(input.wallSeconds, 1e-9)),
    duration_s: tidy((input.endMs - input.startMs) / 1000),
    start_ms: input.startMs,
    end_ms: input.endMs,
  };
}

/** The summary without the wall-clock speed: what determinism checks compare. */
export function deterministicPart(summary: BacktestSummary): Omit<BacktestSummary, 'events_per_sec'> {
  const { events_per_sec: _speed, ...rest } = summary;
  return rest;
}

/** A human-readable summary, one `name  value` per line. */
export function formatSummary(summary: BacktestSummary): string {
  const rows: [string, string][] = [
    ['events', String(summary.events)],
    ['simulated time', `${summary.duration_s} s`],
    ['fills (maker/taker)', `${summary.fills} (${summary.maker_fills}/${summary.taker_fills})`],
    ['volume', `${summary.volume_base} base`],
    ['PnL', `${summary.pnl_quote} quote`],
    ['fees / gas', `${summary.fees_quote} / ${summary.gas_quote} quote`],
    ['max drawdown', `${summary.max_drawdown_quote} quote`],
    ['Sharpe (annualised)', String(summary.sharpe)],
    ['max |inventory| / std', `${summary.max_abs_inventory_base} / ${summary.inventory_std_base} base`],
    ['two-sided uptime', `${(summary.quote_uptime * 100).toFixed(1)} %`],
    ['markout 1s / 10s / 60s', `${summary.markout_1s_bps ?? '–'} / ${summary.markout_10s_bps ?? '–'} / ${summary.markout_60s_bps ?? '–'} bps`],
    ['speed', `${summary.events_per_sec} events/s`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n');
}
