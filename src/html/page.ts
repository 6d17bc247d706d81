/**
 * The shell every HTML page of ours shares (the backtest and sweep reports, the live dashboard):
 * one self-contained page (styles, uPlot, the chart kit and the data inlined, nothing fetched from
 * elsewhere), escaping, and small table helpers.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The charts' shared browser code (`window.AkiraCharts`), run after uPlot and before a page's own script. */
const CHART_KIT = new URL('./chart-kit.client.js', import.meta.url);

/** A file of the uplot package (its built JS or CSS), to inline. */
function readUplotAsset(file: string): string {
  return readFileSync(require.resolve(`uplot/dist/${file}`), 'utf8');
}

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** JSON safe to embed inside a <script> element. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** A table of rows of already-escaped cells; the first row is the header when `header` is set. */
export function tableHtml(rows: readonly (readonly string[])[], options: { readonly header?: boolean; readonly className?: string } = {}): string {
  const [first, ...rest] = rows;
  const head = options.header === true && first !== undefined ? `<thead><tr>${first.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead>` : '';
  const body = (options.header === true ? rest : rows).map((row) => `<tr>${row.map((cell, i) => (i === 0 && options.header !== true ? `<th>${cell}</th>` : `<td>${cell}</td>`)).join('')}</tr>`).join('');
  return `<table${options.className === undefined ? '' : ` class="${options.className}"`}>${head}<tbody>${body}</tbody></table>`;
}

const STYLE = `
body{font:14px system-ui,sans-serif;margin:24px 32px;color:#222;max-width:1280px}
h1{font-size:20px;margin-bottom:4px}h2{font-size:16px;margin:28px 0 6px}
ul.context{color:#555;margin:4px 0 16px;padding-left:18px}
table{border-collapse:collapse;margin:4px 0}th,td{padding:3px 14px 3px 0;text-align:left;font-variant-numeric:tabular-nums;vertical-align:top}
th{font-weight:500;color:#555}td.num,th.num{text-align:right}
table.grid th,table.grid td{border-bottom:1px solid #eee;padding:3px 10px}
table.grid thead th{border-bottom:2px solid #ccc;color:#333}
.note{background:#fff6e0;border-left:4px solid #f4a261;padding:8px 12px;margin:12px 0;max-width:960px}
.muted{color:#777;font-size:12px}.chart{margin:8px 0 4px}
table.heat td{text-align:center;min-width:72px;padding:6px 8px;border:1px solid #fff}
`;

/** What a page with charts runs: its data (as `window[variable]`, default `REPORT`) and its script. */
export interface PageCharts {
  readonly data: unknown;
  readonly script: string;
  readonly variable?: string;
}

/**
 * One self-contained HTML page; with `charts`, uPlot, the chart kit and `script` run after the
 * body. `style` adds rules after the house style.
 */
export function pageHtml(options: { readonly title: string; readonly body: string; readonly charts?: PageCharts; readonly style?: string }): string {
  const charts = options.charts;
  const styles = `${charts === undefined ? '' : readUplotAsset('uPlot.min.css')}${STYLE}${options.style ?? ''}`;
  const scripts =
    charts === undefined
      ? ''
      : `<script>${readUplotAsset('uPlot.iife.min.js')}</script>\n<script>${readFileSync(CHART_KIT, 'utf8')}</script>\n` +
        `<script>window.${charts.variable ?? 'REPORT'} = ${embedJson(charts.data)};</script>\n<script>${charts.script}</script>\n`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title>
<style>${styles}</style></head>
<body>
${options.body}
${scripts}</body></html>
`;
}
