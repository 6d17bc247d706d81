/**
 * The HTML report of a walk-forward: the held-out table, the settings each training span froze,
 * train against test, and every training grid in full (heatmaps and the ranked table, as a sweep
 * report shows them). One self-contained file, like the run and sweep reports. The tables arrive
 * as text cells, formatted as the terminal prints them, so the two say the same.
 */
import { escapeHtml, pageHtml, tableHtml } from '../../html/index.ts';
import { sweepSectionsHtml, type SweepReportInput } from './sweep-html.ts';

/** A table of the report: a heading, a note under it, and rows of text cells (the first the header). */
export interface ReportTable {
  readonly heading: string;
  readonly note?: string;
  readonly rows: readonly (readonly string[])[];
}

/** What a walk-forward report shows. */
export interface WalkforwardReportInput {
  readonly title: string;
  readonly context: readonly string[];
  readonly tables: readonly ReportTable[];
  /** Every training grid: a heading (strategy, window, the cell frozen) and the grid as a sweep. */
  readonly grids: readonly { readonly heading: string; readonly sweep: SweepReportInput }[];
}

/** Renders the report. */
export function renderWalkforwardReportHtml(input: WalkforwardReportInput): string {
  const escapeRows = (rows: readonly (readonly string[])[]): string[][] => rows.map((row) => row.map(escapeHtml));
  const tables = input.tables
    .map((table) => `<h2>${escapeHtml(table.heading)}</h2>${table.note === undefined ? '' : `<p class="muted">${escapeHtml(table.note)}</p>`}${tableHtml(escapeRows(table.rows), { header: true, className: 'grid' })}`)
    .join('\n');
  const grids = input.grids.map((grid) => `<section class="grid-of-span"><h2>${escapeHtml(grid.heading)}</h2>${sweepSectionsHtml(grid.sweep)}</section>`).join('\n');
  const body = `<h1>${escapeHtml(input.title)}</h1>
<ul class="context">${input.context.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${tables}
<h2>Training grids</h2><p class="muted">Each training span's every cell, ranked; the cell it froze is named above each grid.</p>
${grids}`;
  return pageHtml({ title: input.title, body, style: 'section.grid-of-span{border-top:1px solid #ddd;margin-top:24px}' });
}
