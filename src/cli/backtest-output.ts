/**
 * What a finished backtest prints and reports: the title and context, the formatted summary, the
 * scorecard and, when the run traded little, why; and the HTML report from the same figures.
 */
import { renderReportHtml } from '../backtest/report/html.ts';
import { fewFillsNote } from '../backtest/report/series.ts';
import type { BacktestResult } from '../backtest/run.ts';
import { deriveScorecard, resolveScorecard, type DerivedScorecard } from '../backtest/scorecard.ts';
import { formatSummary } from '../backtest/summary.ts';
import { scorecardRows } from '../backtest/summary-rows.ts';
import type { PreparedRun } from './backtest-plan.ts';

/** The run's text for stdout, and its HTML report on demand. */
export interface RunOutput {
  readonly text: string;
  html(): string;
}

/** Describes a finished run. */
export function describeRun(prepared: PreparedRun, result: BacktestResult): RunOutput {
  const { summary, samples } = result;
  const derived: DerivedScorecard = deriveScorecard({
    samples,
    fills: summary.fills,
    activity: result.activity,
    twoSidedUptime: summary.quote_uptime,
    inventoryCapBase: result.inventoryCapBase,
  });
  const units = prepared.units;
  const scorecard = scorecardRows(summary, derived, units);
  const width = Math.max(...scorecard.map((row) => row.label.length), 0);
  const computed = resolveScorecard(summary, derived).some((entry) => entry.source === 'report');
  const note = fewFillsNote(samples, {
    fills: summary.fills,
    ordersSent: resolveScorecard(summary, derived).find((entry) => entry.key === 'orders_sent')?.value ?? null,
    tick: prepared.market.tickValue,
    lot: prepared.market.lotValue,
    base: units.base,
  });
  const text = [
    prepared.title,
    ...prepared.context.map((line) => `  ${line}`),
    '',
    formatSummary(summary, units),
    '',
    'scorecard',
    ...scorecard.map((row) => `  ${row.label.padEnd(width)}  ${row.text}`),
    ...(computed ? ['  (* computed by the backtest from its orders and 1 s samples: the summary does not carry the key yet)'] : []),
    ...(note === undefined ? [] : ['', note]),
    '',
  ].join('\n');
  return {
    text,
    html: () =>
      renderReportHtml({
        title: prepared.title,
        summary,
        samples,
        fills: result.fills,
        context: prepared.context,
        units,
        derived,
        inventoryCapBase: result.inventoryCapBase,
        tick: prepared.market.tickValue,
        lot: prepared.market.lotValue,
      }),
  };
}
