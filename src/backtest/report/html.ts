/**
 * The backtest report: one self-contained HTML file (uPlot, its CSS and the run's data inlined,
 * no network). A formatted summary and the quoting scorecard; charts of the price with our quotes
 * and fills, cumulative PnL by component, inventory against its cap, our quotes' distance from
 * the touch, fill markouts against fill time and their histogram; the fills table; and a "why so
 * few fills" note when quotes were rarely at the touch. Times are the recording's, in UTC.
 */
import { readFileSync } from 'node:fs';
import { formatAmount, formatBps, formatUtc } from '../format.ts';
import { SCORECARD_FIELDS, scorecardEntries } from '../scorecard.ts';
import type { FillRecord } from '../session.ts';
import type { PathSample } from '../stats.ts';
import type { BacktestSummary } from '../summary.ts';
import { formatScorecardValue, summaryRows, type SummaryUnits } from '../summary-rows.ts';
import { escapeHtml, pageHtml, tableHtml } from '../../html/index.ts';
import { MARKOUT_HORIZONS_MS, fewFillsContext, fewFillsNote, fillMarkouts, histogram, touchDistanceBps } from './series.ts';

export { fillMarkouts } from './series.ts';

/** What the report shows. */
export interface ReportInput {
  readonly title: string;
  readonly summary: BacktestSummary;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  /** Context lines (data file, pair, strategy, queue model, latency, fees). */
  readonly context: readonly string[];
  /** Token names; default `base` and `quote`. */
  readonly units?: SummaryUnits;
  /** Price tick (quote tokens) and lot (base tokens) of the run, for the note. */
  readonly tick?: number;
  readonly lot?: number;
}

/** Most fills listed in the table; the charts and figures use every fill. */
export const FILL_TABLE_ROWS = 2_000;
/** Most points per chart series; longer paths are thinned evenly (the figures use every sample). */
export const CHART_POINTS = 20_000;

const CHARTS_SCRIPT = new URL('./charts.client.js', import.meta.url);

function timeOfDay(ms: number): string {
  return formatUtc(ms).replace(' UTC', '').slice(11);
}

function fillsTable(input: ReportInput, markouts: readonly (number | null)[][], units: SummaryUnits): string {
  if (input.fills.length === 0) return '<p>No fills.</p>';
  const shown = input.fills.slice(0, FILL_TABLE_ROWS);
  const header = ['time (UTC)', 'side', `price (${units.quote})`, `size (${units.base})`, 'maker/taker', `fee (${units.quote})`, ...MARKOUT_HORIZONS_MS.map((ms) => `markout ${ms / 1000} s`)];
  const rows = shown.map((fill, i) => [
    escapeHtml(timeOfDay(fill.timeMs)),
    fill.side,
    escapeHtml(String(fill.price)),
    escapeHtml(String(fill.size)),
    fill.isMaker ? 'maker' : 'taker',
    escapeHtml(formatAmount(fill.feeQuote, '').trim()),
    ...markouts.map((series) => escapeHtml(formatBps(series[i]))),
  ]);
  const more = input.fills.length > shown.length ? `<p class="muted">The first ${FILL_TABLE_ROWS} of ${input.fills.length} fills.</p>` : '';
  return tableHtml([header.map(escapeHtml), ...rows], { header: true, className: 'grid' }) + more;
}

function scorecardTable(input: ReportInput, units: SummaryUnits): string {
  const rows = scorecardEntries(input.summary).map((entry) => [
    escapeHtml(SCORECARD_FIELDS[entry.key].label),
    escapeHtml(formatScorecardValue(entry, units)),
    `<code>${entry.key}</code>`,
    escapeHtml(SCORECARD_FIELDS[entry.key].doc),
  ]);
  return tableHtml(rows, { className: 'grid' });
}

/** The inventory cap the run used (base tokens), or undefined when none was set. */
function inventoryCap(summary: BacktestSummary): number | undefined {
  const cap = (summary as Partial<Pick<BacktestSummary, 'inventory_cap_base'>>).inventory_cap_base;
  return cap !== undefined && cap > 0 ? cap : undefined;
}

/** The samples the charts draw: every one, or an even thinning down to {@link CHART_POINTS}. */
function chartSamples(samples: readonly PathSample[]): readonly PathSample[] {
  const stride = Math.ceil(samples.length / CHART_POINTS);
  return stride <= 1 ? samples : samples.filter((_, i) => i % stride === 0 || i === samples.length - 1);
}

/** Renders the report. */
export function renderReportHtml(input: ReportInput): string {
  const units = input.units ?? { base: 'base', quote: 'quote' };
  const seconds = (ms: number): number => ms / 1000;
  const markouts = MARKOUT_HORIZONS_MS.map((horizon) => fillMarkouts(input.fills, input.samples, horizon));
  const drawn = chartSamples(input.samples);
  const hasComponents = drawn.length > 0 && drawn.every((sample) => sample.components !== undefined);
  const component = (name: 'spread' | 'inventory' | 'fees' | 'gas'): number[] => drawn.map((sample) => sample.components?.[name] ?? 0);
  const hedge = drawn.some((sample) => sample.components?.hedge !== undefined) ? { hedge: drawn.map((sample) => sample.components?.hedge ?? 0) } : {};
  // With --reference: the reference's fair price beside the venue mid, and the basis between them.
  const reference = drawn.some((sample) => sample.referenceFair !== undefined) ? { fair: drawn.map((s) => s.referenceFair ?? null), basisBps: drawn.map((s) => s.basisBps ?? null) } : null;
  const data = {
    units,
    startSeconds: seconds(input.summary.start_ms),
    endSeconds: seconds(input.summary.end_ms),
    time: drawn.map((s) => seconds(s.timeMs)),
    mid: drawn.map((s) => s.mid ?? null),
    bid: drawn.map((s) => s.bid ?? null),
    ask: drawn.map((s) => s.ask ?? null),
    bestBid: drawn.map((s) => s.bestBid ?? null),
    bestAsk: drawn.map((s) => s.bestAsk ?? null),
    inventory: drawn.map((s) => s.inventory),
    pnl: drawn.map((s) => s.pnl),
    components: hasComponents ? { spread: component('spread'), inventory: component('inventory'), fees: component('fees'), gas: component('gas'), ...hedge } : null,
    cap: inventoryCap(input.summary) ?? null,
    distance: { bid: drawn.map((s) => touchDistanceBps(s, 'bid')), ask: drawn.map((s) => touchDistanceBps(s, 'ask')) },
    fills: {
      time: input.fills.map((f) => seconds(f.timeMs)),
      price: input.fills.map((f) => f.price),
      side: input.fills.map((f) => f.side),
      markout1s: markouts[0],
      markout10s: markouts[1],
      markout60s: markouts[2],
    },
    histogram: histogram(markouts[1] ?? []),
    reference,
  };
  const note = fewFillsNote(input.samples, fewFillsContext(input.summary, { tick: input.tick ?? 0, lot: input.lot ?? 0, base: units.base }));
  const summaryTable = tableHtml(summaryRows(input.summary, units).map((row) => [escapeHtml(row.label), escapeHtml(row.text)]));
  const capNote = inventoryCap(input.summary) === undefined ? ' No inventory cap is set (RISK_MAX_INVENTORY_BASE=0), so no cap lines.' : '';
  const body = `<h1>${escapeHtml(input.title)}</h1>
<ul class="context">${input.context.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>
${note === undefined ? '' : `<div class="note" id="few-fills">${escapeHtml(note)}</div>`}
<h2>Summary</h2>${summaryTable}
<h2>Scorecard</h2>${scorecardTable(input, units)}
<h2>Price</h2><div class="chart" id="price"></div>
${reference === null ? '' : '<h2>Reference basis</h2><div class="chart" id="basis"></div><p class="muted">The reference market\'s basis: venue price / reference price − 1 (REFERENCE_BASIS_BPS, or estimated online while the venue shows both sides). The price chart shows the reference fair price (reference × (1 + basis)) beside the venue mid.</p>'}
<h2>PnL by component</h2><div class="chart" id="pnl"></div>
<p class="muted">Spread: each fill's edge against the mid at the fill. Inventory: the position carried, marked to market. Fees and gas count against PnL; the parts add up to the total.</p>
<h2>Inventory</h2><div class="chart" id="inventory"></div>${capNote === '' ? '' : `<p class="muted">${escapeHtml(capNote.trim())}</p>`}
<h2>Distance from the touch</h2><div class="chart" id="distance"></div>
<h2>Markouts</h2>${input.fills.length === 0 ? '<p>No fills: nothing to mark out.</p>' : '<div class="chart" id="markouts"></div><div class="chart" id="histogram"></div>'}
<h2>Fills</h2>${fillsTable(input, markouts, units)}
<details><summary>The summary as JSON (the keys <code>--json</code> prints)</summary><pre>${escapeHtml(JSON.stringify(input.summary, null, 2))}</pre></details>`;
  return pageHtml({ title: input.title, body, charts: { data, script: readFileSync(CHARTS_SCRIPT, 'utf8') } });
}
