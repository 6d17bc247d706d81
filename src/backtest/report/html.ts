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
import { markoutsFromSamples, meanPresent, type FillMarkouts } from '../fill-markouts.ts';
import { withInterval } from '../summary-rows.ts';
import { MARKOUT_HORIZONS_MS, fewFillsContext, fewFillsNote, histogram, touchDistanceBps } from './series.ts';

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
  /** Every fill's markout on the curve's horizons (the run's `PairResult.markouts`, what the summary's markouts count); default: from the sampled mid. */
  readonly markouts?: FillMarkouts | undefined;
}

/** Most fills listed in the table; the charts and figures use every fill. */
export const FILL_TABLE_ROWS = 2_000;
/** Most points per chart series; longer paths are thinned evenly (the figures use every sample). */
export const CHART_POINTS = 20_000;

const CHARTS_SCRIPT = new URL('./charts.client.js', import.meta.url);

function timeOfDay(ms: number): string {
  return formatUtc(ms).replace(' UTC', '').slice(11);
}

function fillsTable(input: ReportInput, markouts: readonly (readonly (number | null)[])[], units: SummaryUnits): string {
  if (input.fills.length === 0) return '<p>No fills.</p>';
  // Over every fill, not the rows shown: the summary's markout_*_bps, which this row restates.
  const means = markouts.map((series) => {
    const mean = meanPresent(series);
    const count = series.filter((bps) => bps !== null).length;
    return mean === undefined ? '–' : `${formatBps(mean)} (${count} fills)`;
  });
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
  const meanRow = ['<b>mean, every fill</b>', '', '', '', '', '', ...means.map((text, i) => `<b id="markout-mean-${MARKOUT_HORIZONS_MS[i] ?? ''}">${escapeHtml(text)}</b>`)];
  const more = input.fills.length > shown.length ? `<p class="muted">The first ${FILL_TABLE_ROWS} of ${input.fills.length} fills; the mean row is over every fill.</p>` : '';
  return tableHtml([header.map(escapeHtml), ...rows, meanRow], { header: true, className: 'grid' }) + more;
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

/** The markout curve's points from the summary (horizons in seconds, mean, interval bounds); null for summaries without it. */
function markoutCurve(summary: BacktestSummary): { seconds: number[]; bps: (number | null)[]; low: (number | null)[]; high: (number | null)[] } | null {
  const horizons = summary.markout_curve_ms;
  if (horizons === undefined || horizons.length === 0) return null;
  return {
    seconds: horizons.map((ms) => ms / 1000),
    bps: [...summary.markout_curve_bps],
    low: summary.markout_curve_bps_ci95.map((interval) => interval?.[0] ?? null),
    high: summary.markout_curve_bps_ci95.map((interval) => interval?.[1] ?? null),
  };
}

/** What a markout is, the headline figures with their intervals, and how the table's mean row relates to them. */
function markoutNote(summary: BacktestSummary): string {
  const bps = (value: number): string => formatBps(value).replace(' bps', '');
  const headline = summary.markout_10s_bps_ci95 === undefined ? '' : ` Mean at 1 s / 10 s / 60 s: ${[
    withInterval(summary.markout_1s_bps, summary.markout_1s_bps_ci95, bps),
    withInterval(summary.markout_10s_bps, summary.markout_10s_bps_ci95, bps),
    withInterval(summary.markout_60s_bps, summary.markout_60s_bps_ci95, bps),
  ].join(' / ')} bps.`;
  const method = summary.bootstrap_block_ms === undefined ? '' : ` Intervals: 95 %, block bootstrap over time (${summary.bootstrap_block_ms / 1000} s blocks, ${summary.bootstrap_samples} samples, seed ${summary.bootstrap_seed}); two settings whose intervals overlap cannot be told apart on this data.`;
  return `<p class="muted" id="markout-definition">${escapeHtml(
    `A fill's markout at horizon h: the mid in force h after the fill (exchange time) against the fill price, in bps of the price, positive when the fill earned. ` +
      `The summary's markouts are the plain mean over every fill whose horizon ended inside the run (later ones are left out); the fills table's mean row is the same figure.${headline}${method}`,
  )}</p>`;
}

/** Renders the report. */
export function renderReportHtml(input: ReportInput): string {
  const units = input.units ?? { base: 'base', quote: 'quote' };
  const seconds = (ms: number): number => ms / 1000;
  // One set of per-fill markouts for the table, its mean row, the dots and the histogram: the
  // summary's (the run's recorder), so the headline and the table cannot disagree.
  const perFill = input.markouts ?? markoutsFromSamples(input.fills, input.samples);
  const markouts = MARKOUT_HORIZONS_MS.map((horizon) => perFill.bps[perFill.horizonsMs.indexOf(horizon)] ?? input.fills.map(() => null));
  const drawn = chartSamples(input.samples);
  const hasComponents = drawn.length > 0 && drawn.every((sample) => sample.components !== undefined);
  const component = (name: 'spread' | 'inventory' | 'fees' | 'gas'): number[] => drawn.map((sample) => sample.components?.[name] ?? 0);
  const hedge = drawn.some((sample) => sample.components?.hedge !== undefined) ? { hedge: drawn.map((sample) => sample.components?.hedge ?? 0) } : {};
  // With --reference: the reference's fair price beside the venue mid, and the basis between them.
  const reference = drawn.some((sample) => sample.referenceFair !== undefined) ? { fair: drawn.map((s) => s.referenceFair ?? null), basisBps: drawn.map((s) => s.basisBps ?? null) } : null;
  // The strategy's internals, when it reports them: a widening read off σ, k and the fit's weight.
  const modelValue = (read: (model: NonNullable<PathSample['model']>) => number | undefined): (number | null)[] => drawn.map((s) => (s.model === undefined ? null : (read(s.model) ?? null)));
  const model = drawn.some((sample) => sample.model !== undefined)
    ? {
        halfSpreadBps: modelValue((m) => m.halfSpreadBps),
        skewBps: modelValue((m) => m.skewBps),
        sigmaBps: modelValue((m) => m.sigmaBps),
        kPerBps: modelValue((m) => m.arrivalKPerBps),
        a: modelValue((m) => m.arrivalA),
        fitWeight: modelValue((m) => m.arrivalFitWeight),
      }
    : null;
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
    markoutCurve: markoutCurve(input.summary),
    model,
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
${model === null ? '' : '<h2>Model internals</h2><div class="chart" id="model-bps"></div><div class="chart" id="model-arrival"></div><p class="muted">What the strategy computed at each sample: half its level-0 spread (costs included), its centre against the fair price, σ per √s (bps); the arrival decay k (per bp) and intensity A (per s) it used, and the share of the online fit in them (0 = the configured values; docs/strategies.md, estimators on thin flow).</p>'}
<h2>PnL by component</h2><div class="chart" id="pnl"></div>
<p class="muted">Spread: each fill's edge against the mid at the fill. Inventory: the position carried, marked to market. Fees and gas count against PnL; the parts add up to the total.</p>
<h2>Inventory</h2><div class="chart" id="inventory"></div>${capNote === '' ? '' : `<p class="muted">${escapeHtml(capNote.trim())}</p>`}
<h2>Distance from the touch</h2><div class="chart" id="distance"></div>
<h2>Markouts</h2>${input.fills.length === 0 ? '<p>No fills: nothing to mark out.</p>' : `${markoutNote(input.summary)}<div class="chart" id="markout-curve"></div><div class="chart" id="markouts"></div><div class="chart" id="histogram"></div>`}
<h2>Fills</h2>${fillsTable(input, markouts, units)}
<details><summary>The summary as JSON (the keys <code>--json</code> prints)</summary><pre>${escapeHtml(JSON.stringify(input.summary, null, 2))}</pre></details>`;
  return pageHtml({ title: input.title, body, charts: { data, script: readFileSync(CHARTS_SCRIPT, 'utf8') } });
}
