/**
 * The HTML report of a sweep: every cell ranked best PnL first, and for two swept keys a heatmap
 * of PnL and one of fills over their grid (a key swept beyond those two shows its best cell).
 * One self-contained file, like the run report.
 */
import type { SweepAxis, SweepSummary } from '../sweep.ts';
import { DEFAULT_RANK_BY, againstBest, intervalOf, rankCells, sweepColumns } from '../sweep.ts';
import { escapeHtml, pageHtml, tableHtml } from '../../html/index.ts';

/** What a sweep report shows. */
export interface SweepReportInput {
  readonly title: string;
  readonly context: readonly string[];
  readonly axes: readonly SweepAxis[];
  readonly cells: readonly Readonly<Record<string, string>>[];
  readonly summaries: readonly SweepSummary[];
  /** The figure the cells rank by; default `pnl_quote`. */
  readonly rankBy?: string;
}

/** Rows of the ranked table shown (the JSON lines keep every cell). */
export const RANKED_ROWS = 500;

/** Background for `value` on a scale centred on 0 (green gains, red losses) or from 0 (blue). */
function heatColor(value: number, extent: number, diverging: boolean): string {
  const share = extent === 0 ? 0 : Math.min(1, Math.abs(value) / extent);
  const alpha = (0.08 + 0.8 * share).toFixed(2);
  if (!diverging) return `rgba(33,158,188,${alpha})`;
  return value >= 0 ? `rgba(27,127,59,${alpha})` : `rgba(179,38,30,${alpha})`;
}

/** The two axes a heatmap spans: the first two with more than one value. */
export function heatmapAxes(axes: readonly SweepAxis[]): [SweepAxis, SweepAxis] | undefined {
  const varied = axes.filter((axis) => axis.values.length > 1);
  return varied.length >= 2 ? [varied[0] as SweepAxis, varied[1] as SweepAxis] : undefined;
}

/**
 * A heatmap of `metric` over two axes as an HTML table. Where other keys vary too, each square
 * shows the best PnL cell among those with its two values.
 */
function heatmapHtml(input: SweepReportInput, rows: SweepAxis, columns: SweepAxis, metric: 'pnl_quote' | 'fills'): string {
  const best = new Map<string, number>();
  input.cells.forEach((cell, i) => {
    const key = `${cell[rows.key]}\u0000${cell[columns.key]}`;
    const current = best.get(key);
    const summary = input.summaries[i] as SweepSummary;
    if (current === undefined || summary.pnl_quote > (input.summaries[current] as SweepSummary).pnl_quote) best.set(key, i);
  });
  const valueAt = (row: string, column: string): number | undefined => {
    const index = best.get(`${row}\u0000${column}`);
    return index === undefined ? undefined : (input.summaries[index] as SweepSummary)[metric];
  };
  const values = rows.values.flatMap((row) => columns.values.map((column) => valueAt(row, column))).filter((v): v is number => v !== undefined);
  const extent = Math.max(0, ...values.map(Math.abs));
  const diverging = metric === 'pnl_quote';
  const header = `<tr><th>${escapeHtml(rows.key)} ↓ / ${escapeHtml(columns.key)} →</th>${columns.values.map((v) => `<th>${escapeHtml(v)}</th>`).join('')}</tr>`;
  const body = rows.values
    .map((row) => {
      const squares = columns.values.map((column) => {
        const value = valueAt(row, column);
        if (value === undefined) return '<td>–</td>';
        return `<td style="background:${heatColor(value, extent, diverging)}" data-value="${value}">${escapeHtml(String(Number(value.toPrecision(6))))}</td>`;
      });
      return `<tr><th>${escapeHtml(row)}</th>${squares.join('')}</tr>`;
    })
    .join('');
  return `<table class="heat" id="heatmap-${metric}">${header}${body}</table>`;
}

/** Renders the sweep report. */
export function renderSweepReportHtml(input: SweepReportInput): string {
  const body = `<h1>${escapeHtml(input.title)}</h1>
<ul class="context">${input.context.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${sweepSectionsHtml(input)}`;
  return pageHtml({ title: input.title, body });
}

/** A sweep's heatmaps and ranked table, without its title and context (a walk-forward report shows each training grid so). */
export function sweepSectionsHtml(input: SweepReportInput): string {
  const rankBy = input.rankBy ?? DEFAULT_RANK_BY;
  const order = rankCells(input.summaries, rankBy);
  const keys = input.axes.map((axis) => axis.key);
  const columns = sweepColumns(input.summaries);
  const best = intervalOf(input.summaries[order[0] as number], rankBy);
  const hasIntervals = input.summaries.some((summary) => intervalOf(summary, rankBy) !== null);
  const intervalCells = (i: number, rank: number): string[] => {
    if (!hasIntervals) return [];
    const interval = intervalOf(input.summaries[i], rankBy);
    return [interval === null ? '–' : escapeHtml(`[${Number(interval[0].toPrecision(4))}, ${Number(interval[1].toPrecision(4))}]`), rank === 0 ? '' : againstBest(best, interval)];
  };
  const header = ['#', ...keys, ...(hasIntervals ? [`${rankBy} 95 % interval`, 'vs #1'] : []), ...columns].map(escapeHtml);
  const rows = order.slice(0, RANKED_ROWS).map((i, rank) => [
    String(rank + 1),
    ...keys.map((key) => escapeHtml(input.cells[i]?.[key] ?? '')),
    ...intervalCells(i, rank),
    ...columns.map((column) => escapeHtml(String((input.summaries[i] as Readonly<Record<string, unknown>> | undefined)?.[column] ?? '–'))),
  ]);
  const pair = heatmapAxes(input.axes);
  const others = pair === undefined ? [] : input.axes.filter((axis) => axis.values.length > 1 && axis !== pair[0] && axis !== pair[1]);
  const heatmaps =
    pair === undefined
      ? '<p class="muted">Sweep two keys (two --sweep flags with several values each) for heatmaps.</p>'
      : `<h2>PnL (quote) over ${escapeHtml(pair[0].key)} and ${escapeHtml(pair[1].key)}</h2>${heatmapHtml(input, pair[0], pair[1], 'pnl_quote')}` +
        `<h2>Fills over ${escapeHtml(pair[0].key)} and ${escapeHtml(pair[1].key)}</h2>${heatmapHtml(input, pair[0], pair[1], 'fills')}` +
        (others.length === 0 ? '' : `<p class="muted">${escapeHtml(others.map((axis) => axis.key).join(', '))} also vary: each square shows the cell with the best PnL among them.</p>`);
  const more = order.length > RANKED_ROWS ? `<p class="muted">The best ${RANKED_ROWS} of ${order.length} cells; --jsonl keeps every one.</p>` : '';
  return `${heatmaps}
<h2>Every cell, best ${escapeHtml(rankBy)} first (${order.length} cells)</h2>${hasIntervals ? `<p class="muted">Cells whose 95 % interval of ${escapeHtml(rankBy)} overlaps the best cell's (vs #1: overlaps) cannot be told apart from it on this data.</p>` : ''}${tableHtml([header, ...rows], { header: true, className: 'grid' })}${more}`;
}
