/**
 * What a finished backtest prints and reports: the title and context, the formatted summary, the
 * scorecard and, when the run traded little, why; and the HTML report from the same figures.
 */
import { renderReportHtml } from '../backtest/report/html.ts';
import { fewFillsContext, fewFillsNote } from '../backtest/report/series.ts';
import type { BacktestResult } from '../backtest/run.ts';
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
  const units = prepared.units;
  const market = { tick: prepared.market.tickValue, lot: prepared.market.lotValue, base: units.base };
  const scorecard = scorecardRows(summary, units);
  const width = Math.max(...scorecard.map((row) => row.label.length), 0);
  const note = fewFillsNote(samples, fewFillsContext(summary, market));
  const text = [
    prepared.title,
    ...prepared.context.map((line) => `  ${line}`),
    '',
    formatSummary(summary, units),
    '',
    'scorecard',
    ...scorecard.map((row) => `  ${row.label.padEnd(width)}  ${row.text}`),
    ...(note === undefined ? [] : ['', note]),
    '',
  ].join('\n');
  return {
    text,
    html: () => renderReportHtml({ title: prepared.title, summary, samples, fills: result.fills, context: prepared.context, units, tick: market.tick, lot: market.lot }),
  };
}
