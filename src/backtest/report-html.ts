/**
 * The backtest report: one self-contained HTML file (uPlot and its CSS inlined, data embedded as
 * JSON, no network) with four charts — mid and our quotes with fills, inventory, PnL, and fill
 * markouts — and the summary table. When every chart has drawn, the page sets
 * `data-charts-drawn` on <body>, which the browser test reads.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FillRecord } from './session.ts';
import type { PathSample } from './stats.ts';
import type { BacktestSummary } from './summary.ts';

/** What the report shows. */
export interface ReportInput {
  readonly title: string;
  readonly summary: BacktestSummary;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  /** Extra context lines (data file, strategy, queue model, latency). */
  readonly context: readonly string[];
}

const require = createRequire(import.meta.url);

function readUplotAsset(file: string): string {
  return readFileSync(require.resolve(`uplot/dist/${file}`), 'utf8');
}

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** JSON safe to embed inside a <script> element. */
function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Markout (bps, positive = earned) of each fill at `horizonMs`, from the sampled mid path. */
export function fillMarkouts(fills: readonly FillRecord[], samples: readonly PathSample[], horizonMs: number): (number | null)[] {
  return fills.map((fill) => {
    const target = fill.timeMs + horizonMs;
    let low = 0;
    let high = samples.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((samples[mid] as PathSample).timeMs < target) low = mid + 1;
      else high = mid;
    }
    const mid = samples[low]?.mid;
    if (mid === undefined) return null;
    const sign = fill.side === 'buy' ? 1 : -1;
    return (sign * (mid - fill.price) * 10_000) / fill.price;
  });
}

/** Renders the report. */
export function renderReportHtml(input: ReportInput): string {
  const seconds = (ms: number): number => ms / 1000;
  const data = {
    time: input.samples.map((s) => seconds(s.timeMs)),
    mid: input.samples.map((s) => s.mid ?? null),
    bid: input.samples.map((s) => s.bid ?? null),
    ask: input.samples.map((s) => s.ask ?? null),
    inventory: input.samples.map((s) => s.inventory),
    pnl: input.samples.map((s) => s.pnl),
    fills: {
      time: input.fills.map((f) => seconds(f.timeMs)),
      price: input.fills.map((f) => f.price),
      side: input.fills.map((f) => f.side),
      markout1s: fillMarkouts(input.fills, input.samples, 1_000),
      markout10s: fillMarkouts(input.fills, input.samples, 10_000),
      markout60s: fillMarkouts(input.fills, input.samples, 60_000),
    },
  };
  const rows = Object.entries(input.summary)
    .map(([key, value]) => `<tr><th>${escapeHtml(key)}</th><td>${escapeHtml(String(value))}</td></tr>`)
    .join('');
  const context = input.context.map((line) => `<li>${escapeHtml(line)}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title>
<style>${readUplotAsset('uPlot.min.css')}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin:24px 0 4px}
table{border-collapse:collapse}th,td{padding:2px 12px 2px 0;text-align:left;font-variant-numeric:tabular-nums}
th{font-weight:500;color:#555}.chart{margin-bottom:8px}</style></head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<ul>${context}</ul>
<table>${rows}</table>
<h2>Mid, our best quotes and fills</h2><div class="chart" id="price"></div>
<h2>Inventory (base, change from start)</h2><div class="chart" id="inventory"></div>
<h2>PnL (quote)</h2><div class="chart" id="pnl"></div>
<h2>Fill markouts (bps; positive = the fill earned)</h2><div class="chart" id="markouts"></div>
<script>${readUplotAsset('uPlot.iife.min.js')}</script>
<script>
const data = ${embedJson(data)};
const width = Math.max(600, Math.min(1200, window.innerWidth - 48));
let drawn = 0;
const done = () => { drawn += 1; document.body.setAttribute('data-charts-drawn', String(drawn)); };
const opts = (title, series) => ({ width, height: 260, title, series: [{}, ...series], hooks: { ready: [done] } });
const fillAt = (side) => data.time.map(() => null);
const buys = fillAt('buy'), sells = fillAt('sell');
let k = 0;
data.fills.time.forEach((t, i) => {
  while (k < data.time.length - 1 && data.time[k] < t) k++;
  (data.fills.side[i] === 'buy' ? buys : sells)[k] = data.fills.price[i];
});
new uPlot(opts('price', [
  { label: 'mid', stroke: '#444' },
  { label: 'our bid', stroke: '#2a9d8f' },
  { label: 'our ask', stroke: '#e76f51' },
  { label: 'buy fill', stroke: '#1b7f3b', width: 0, points: { show: true, size: 7, fill: '#1b7f3b' } },
  { label: 'sell fill', stroke: '#b3261e', width: 0, points: { show: true, size: 7, fill: '#b3261e' } },
]), [data.time, data.mid, data.bid, data.ask, buys, sells], document.getElementById('price'));
new uPlot(opts('inventory', [{ label: 'inventory', stroke: '#264653' }]), [data.time, data.inventory], document.getElementById('inventory'));
new uPlot(opts('pnl', [{ label: 'pnl', stroke: '#6a4c93' }]), [data.time, data.pnl], document.getElementById('pnl'));
const order = data.fills.time.map((t, i) => i);
new uPlot({ ...opts('markouts', [
  { label: '+1 s', stroke: '#8ecae6', width: 0, points: { show: true, size: 5 } },
  { label: '+10 s', stroke: '#219ebc', width: 0, points: { show: true, size: 5 } },
  { label: '+60 s', stroke: '#023047', width: 0, points: { show: true, size: 5 } },
]), scales: { x: { time: data.fills.time.length > 0 } } },
  [order.map((i) => data.fills.time[i] ?? i), data.fills.markout1s, data.fills.markout10s, data.fills.markout60s],
  document.getElementById('markouts'));
</script>
</body></html>
`;
}
