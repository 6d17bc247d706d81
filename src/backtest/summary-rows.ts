/**
 * The backtest summary as rows a person reads: label and formatted value, in units (PnL in the
 * quote token, inventory in the base token), human times, percentages. The terminal summary and
 * the HTML report's tables are both built from these rows.
 */
import { formatAmount, formatBps, formatDuration, formatNumber, formatPercent, formatRatio, formatUtc } from './format.ts';
import { SCORECARD_FIELDS, scorecardEntries, type ScorecardEntry } from './scorecard.ts';
import type { BacktestSummary } from './summary-contract.ts';

/** Token names for the units of a summary. */
export interface SummaryUnits {
  readonly base: string;
  readonly quote: string;
}

/** One row: what it is and its formatted value. */
export interface SummaryRow {
  readonly label: string;
  readonly text: string;
}

/** The label of the headline Sharpe ratio, horizon included. */
export function sharpeLabel(summary: Pick<BacktestSummary, 'sharpe_horizon'>): string {
  return `Sharpe (per ${summary.sharpe_horizon ?? 'hour'})`;
}

/** `value [low, high]`: a figure and its 95 % interval (formatted alike), or the figure alone without one. */
export function withInterval(value: number | null | undefined, interval: readonly [number, number] | null | undefined, format: (value: number) => string): string {
  if (value === null || value === undefined) return '–';
  return interval === null || interval === undefined ? format(value) : `${format(value)} [${format(interval[0])}, ${format(interval[1])}]`;
}

/** How the intervals were drawn, for a person; undefined for summaries written before they existed. */
function errorBarNote(summary: BacktestSummary): string | undefined {
  if (summary.bootstrap_block_ms === undefined) return undefined;
  if (typeof summary.ci95_withheld === 'string') return summary.ci95_withheld;
  const blocks = summary.bootstrap_blocks === undefined ? '' : ` over ${formatNumber(summary.bootstrap_blocks)} blocks`;
  const method = summary.ci95_method === undefined ? 'block bootstrap over time' : 'block bootstrap over time, expanded percentile (t-corrected)';
  return `95 % intervals [low, high]: ${method}, ${formatNumber(summary.bootstrap_block_ms / 1000, 3)} s blocks${blocks}, ${formatNumber(summary.bootstrap_samples)} samples, seed ${summary.bootstrap_seed}`;
}

/** The taker seeds' spread of a thin run with several (`--taker-seeds`), for a person. */
function takerSeedRow(summary: BacktestSummary, quote: string): SummaryRow[] {
  const pnls = summary.pnl_quote_by_taker_seed;
  if (pnls === null || pnls === undefined || summary.taker_seeds === null || summary.taker_seeds === undefined) return [];
  const amount = (value: number | null | undefined): string => formatAmount(value ?? 0, '').trim();
  return [
    {
      label: 'PnL by taker seed',
      text: `min ${amount(summary.pnl_quote_taker_seeds_min)} / median ${amount(summary.pnl_quote_taker_seeds_median)} / max ${amount(summary.pnl_quote_taker_seeds_max)} ${quote} over seeds ${summary.taker_seeds.join(', ')} (${pnls.map(amount).join(', ')})`,
    },
  ];
}

/** Markout rows: one per headline horizon with its interval, or the three in one row for older summaries. */
function markoutRows(summary: BacktestSummary): SummaryRow[] {
  const bps = (value: number): string => formatBps(value).replace(' bps', '');
  const against = summary.markout_against === 'reference' ? ' (against the reference mid)' : '';
  if (summary.markout_10s_bps_ci95 === undefined) {
    const markouts = [summary.markout_1s_bps, summary.markout_10s_bps, summary.markout_60s_bps].map((value) => formatBps(value).replace(' bps', ''));
    return [{ label: 'markout 1 s / 10 s / 60 s', text: `${markouts.join(' / ')} bps${against}` }];
  }
  return ([
    ['1 s', summary.markout_1s_bps, summary.markout_1s_bps_ci95],
    ['10 s', summary.markout_10s_bps, summary.markout_10s_bps_ci95],
    ['60 s', summary.markout_60s_bps, summary.markout_60s_bps_ci95],
  ] as const).map(([horizon, value, interval]) => ({ label: `markout ${horizon}`, text: value === null ? '–' : `${withInterval(value, interval, bps)} bps${against}` }));
}

/** The main figures of a run. */
export function summaryRows(summary: BacktestSummary, units: SummaryUnits): SummaryRow[] {
  const wallSeconds = summary.events_per_sec > 0 ? summary.events / summary.events_per_sec : undefined;
  const note = errorBarNote(summary);
  const amount = (value: number): string => formatAmount(value, '').trim();
  return [
    { label: 'simulated time', text: `${formatDuration(summary.duration_s * 1_000)} (${formatUtc(summary.start_ms)} → ${formatUtc(summary.end_ms)})` },
    { label: 'events', text: formatNumber(summary.events) },
    { label: 'fills', text: `${formatNumber(summary.fills)} (${formatNumber(summary.maker_fills)} maker, ${formatNumber(summary.taker_fills)} taker)` },
    { label: 'volume', text: formatAmount(summary.volume_base, units.base) },
    { label: 'PnL', text: summary.pnl_quote_ci95 === undefined ? formatAmount(summary.pnl_quote, units.quote) : `${withInterval(summary.pnl_quote, summary.pnl_quote_ci95, amount)} ${units.quote}` },
    ...(summary.pnl_per_notional_bps === undefined
      ? []
      : [{ label: 'PnL per notional', text: summary.pnl_per_notional_bps === null ? '– (no fills)' : `${withInterval(summary.pnl_per_notional_bps, summary.pnl_per_notional_bps_ci95, (value) => formatBps(value).replace(' bps', ''))} bps of ${formatAmount(summary.volume_quote, units.quote)} traded` }]),
    ...takerSeedRow(summary, units.quote),
    ...(summary.pnl_marked_to === 'reference' ? [{ label: 'PnL marked to', text: `the reference mid (the engine's own mark: ${formatAmount(summary.pnl_engine_mark_quote ?? 0, units.quote)})` }] : []),
    { label: 'fees / gas paid', text: `${formatAmount(summary.fees_quote, units.quote)} / ${formatAmount(summary.gas_quote, units.quote)}` },
    { label: 'max drawdown', text: formatAmount(summary.max_drawdown_quote, units.quote) },
    { label: sharpeLabel(summary), text: formatRatio(summary.sharpe) },
    ...(summary.sharpe_horizon === 'day' ? [{ label: 'Sharpe (per hour)', text: formatRatio(summary.sharpe_hourly) }] : []),
    { label: 'max |inventory|', text: formatAmount(summary.max_abs_inventory_base, units.base) },
    ...((summary.hedges ?? 0) > 0
      ? [
          { label: 'hedges', text: `${formatNumber(summary.hedges)} (slippage ${formatBps(summary.hedge_slippage_bps)}, latency p50 ${summary.hedge_latency_ms_p50 === null ? '–' : `${formatNumber(summary.hedge_latency_ms_p50)} ms`})` },
          { label: 'max |net inventory|', text: formatAmount(summary.max_abs_net_inventory_base, units.base) },
          { label: 'unhedged time', text: formatPercent(summary.unhedged_time_share) },
        ]
      : []),
    ...(summary.basis_bps_mean === null || summary.basis_bps_mean === undefined
      ? []
      : [{ label: 'reference', text: `basis mean ${formatBps(summary.basis_bps_mean)}, ${formatNumber(summary.reference_pauses)} pauses` }]),
    ...(summary.uninformed_fills === null || summary.uninformed_fills === undefined
      ? []
      : [
          {
            label: 'thin venue fills',
            text: `${formatNumber(summary.uninformed_fills)} uninformed, ${formatNumber(summary.arb_fills ?? 0)} arbitrage, ${formatNumber(summary.background_maker_fills ?? 0)} taking the background maker`,
          },
          { label: 'pick-off cost', text: formatAmount(summary.pickoff_cost_quote ?? 0, units.quote) },
        ]),
    { label: 'inventory std', text: formatAmount(summary.inventory_std_base, units.base) },
    { label: 'two-sided uptime', text: formatPercent(summary.quote_uptime) },
    ...markoutRows(summary),
    ...(note === undefined ? [] : [{ label: 'error bars', text: note }]),
    { label: 'speed', text: `${formatNumber(summary.events_per_sec)} events/s${wallSeconds === undefined ? '' : ` (${formatDuration(wallSeconds * 1_000)} wall)`}` },
  ];
}

/** A scorecard value formatted for its kind. */
export function formatScorecardValue(entry: ScorecardEntry, units: SummaryUnits): string {
  const { kind } = SCORECARD_FIELDS[entry.key];
  if (entry.value === null) return '–';
  if (kind === 'count') return formatNumber(entry.value);
  if (kind === 'share') return formatPercent(entry.value);
  if (kind === 'quote') return formatAmount(entry.value, units.quote);
  return formatRatio(entry.value, 1);
}

/** The scorecard as rows; keys already among the summary rows (uptime, fees, gas) are left out. */
export function scorecardRows(summary: BacktestSummary, units: SummaryUnits): SummaryRow[] {
  const shown = new Set(['two_sided_uptime', 'fees_quote', 'gas_quote']);
  return scorecardEntries(summary)
    .filter((entry) => !shown.has(entry.key))
    .map((entry) => ({ label: SCORECARD_FIELDS[entry.key].label, text: formatScorecardValue(entry, units) }));
}
