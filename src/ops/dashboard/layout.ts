/**
 * What the dashboard shows, declared once: the charts and figures of each pair and of the account,
 * each naming the `/metrics` series it draws (or one of the few status series no metric carries:
 * the venue's touch, our best quotes, the engine state). The sampler reads exactly the metrics
 * named here and the page draws whatever this says, so a chart or a figure is added in one place.
 */
import type { EngineState } from '../../engine/index.ts';
import type { Labels } from './series.ts';

/** How a figure is formatted: amounts carry the pair's token (`token`: the series' own `token` label), shares show as %. */
export type FigureUnit = 'price' | 'base' | 'quote' | 'bps' | 'share' | 'count' | 'ratio' | 'flag' | 'token';

/**
 * A part of the pair the series means something for: the reference market's gauges read 0 on a
 * pair without one (a gauge never set), so the page shows them only when the pair has it.
 */
export type PairFeature = 'reference' | 'hedge';

/** One line of a chart, or one figure: the series it reads. */
export interface SeriesRef {
  /** The metric name (`akira_mm_…`) or a status series (`status_…`). */
  readonly name: string;
  /** Labels the series must have (others may vary). */
  readonly labels?: Labels;
  /** One line or figure per value of these labels (e.g. `token`), named by them. */
  readonly each?: readonly string[];
  /** The sum of every matching series (a counter split by side or reason). */
  readonly sum?: boolean;
  /** Shown only when the pair has this (see {@link PairFeature}). */
  readonly needs?: PairFeature;
}

/** One line of a chart. */
export interface ChartLine extends SeriesRef {
  readonly label: string;
  readonly color: string;
  readonly style: 'line' | 'dashed' | 'dots' | 'steps';
  /** Multiplies every value (−1 draws the cap's lower bound). */
  readonly scale?: number;
  /** 0 means "none" (a price gauge not set yet, a cap of 0 = no cap): drawn as a gap. */
  readonly zeroIsNone?: boolean;
}

/** One chart. */
export interface ChartSpec {
  /** Unique within a panel; the element id is `<panel>-<id>`. */
  readonly id: string;
  readonly title: string;
  readonly yLabel: string;
  readonly lines: readonly ChartLine[];
  /** Our fills as points (buys and sells), from the pair's events. */
  readonly fills?: boolean;
  /** The y axis names the engine states ({@link STATE_NAMES}). */
  readonly states?: boolean;
  /** The pair's pauses, resumes and halts as points at the state each led to, the reason in the legend (needs `states`). */
  readonly marks?: boolean;
  /** Drawn only when the pair has this. */
  readonly needs?: PairFeature;
}

/** One figure of a group. */
export interface FigureSpec extends SeriesRef {
  readonly label: string;
  readonly unit: FigureUnit;
}

/** The figures of one group. */
export interface FigureGroup {
  readonly title: string;
  readonly figures: readonly FigureSpec[];
}

/** A panel: its charts and its figures. */
export interface PanelLayout {
  readonly charts: readonly ChartSpec[];
  readonly groups: readonly FigureGroup[];
}

/** The status series of a pair (no metric carries them). */
export const STATUS_SERIES = {
  touch: 'status_touch_price',
  quote: 'status_quote_price',
  state: 'status_state',
} as const;

/** Engine states as the timeline draws them (the index is the value): fine at the bottom, a halt at the top. */
export const STATE_NAMES: readonly EngineState[] = ['quoting', 'starting', 'paused', 'stopping', 'stopped', 'halted'];

const side = (name: string, value: 'bid' | 'ask' | 'buy' | 'sell'): SeriesRef => ({ name, labels: { side: value } });

/** Each pair's panel. */
export const PAIR_LAYOUT: PanelLayout = {
  charts: [
    {
      id: 'price',
      title: "Price: the venue's touch, our best quotes and fills, the fair and reference prices",
      yLabel: 'price (quote)',
      fills: true,
      lines: [
        { ...side(STATUS_SERIES.touch, 'bid'), label: 'best bid', color: '#9fd8cf', style: 'line', zeroIsNone: true },
        { ...side(STATUS_SERIES.touch, 'ask'), label: 'best ask', color: '#f4b8a6', style: 'line', zeroIsNone: true },
        { ...side(STATUS_SERIES.quote, 'bid'), label: 'our bid', color: '#2a9d8f', style: 'line', zeroIsNone: true },
        { ...side(STATUS_SERIES.quote, 'ask'), label: 'our ask', color: '#e76f51', style: 'line', zeroIsNone: true },
        { name: 'akira_mm_fair_price', label: 'fair', color: '#444', style: 'line', zeroIsNone: true },
        { name: 'akira_mm_reference_fair_price', label: 'reference fair', color: '#6a4c93', style: 'dashed', zeroIsNone: true, needs: 'reference' },
      ],
    },
    {
      id: 'basis',
      title: 'Reference basis (venue / reference − 1) and divergence',
      yLabel: 'bps',
      needs: 'reference',
      lines: [
        { name: 'akira_mm_reference_basis_bps', label: 'basis', color: '#6a4c93', style: 'line' },
        { name: 'akira_mm_reference_divergence_bps', label: 'divergence', color: '#e76f51', style: 'line' },
      ],
    },
    {
      id: 'inventory',
      title: 'Inventory: position against its cap',
      yLabel: 'base',
      lines: [
        { name: 'akira_mm_position_base', label: 'position', color: '#264653', style: 'line' },
        { name: 'akira_mm_net_position_base', label: 'net of hedges', color: '#2a9d8f', style: 'line' },
        { name: 'akira_mm_inventory_cap_base', label: 'cap +', color: '#b3261e', style: 'dashed', zeroIsNone: true },
        { name: 'akira_mm_inventory_cap_base', label: 'cap −', color: '#b3261e', style: 'dashed', scale: -1, zeroIsNone: true },
      ],
    },
    {
      id: 'pnl',
      title: 'PnL since start by part (fees and gas paid count against it)',
      yLabel: 'quote',
      lines: [
        { name: 'akira_mm_pnl_total_quote', label: 'total', color: '#222', style: 'line' },
        { name: 'akira_mm_pnl_spread_quote', label: 'spread', color: '#2a9d8f', style: 'line' },
        { name: 'akira_mm_pnl_inventory_quote', label: 'inventory', color: '#6a4c93', style: 'line' },
        { name: 'akira_mm_pnl_fees_quote', label: 'fees paid', color: '#e76f51', style: 'line' },
        { name: 'akira_mm_pnl_gas_quote', label: 'gas paid', color: '#f4a261', style: 'line' },
        { name: 'akira_mm_hedge_pnl_quote', label: 'hedges', color: '#264653', style: 'dashed' },
      ],
    },
    {
      id: 'markouts',
      title: 'Mean fill markout by horizon (positive = the fills earned); dashed: against the reference mid',
      yLabel: 'bps',
      lines: [
        { name: 'akira_mm_markout_bps', labels: { horizon: '1s' }, label: '+1 s', color: '#8ecae6', style: 'line' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '10s' }, label: '+10 s', color: '#219ebc', style: 'line' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '60s' }, label: '+60 s', color: '#023047', style: 'line' },
        // On a thin venue our own quotes set the venue's mid: the reference's says what a fill lost.
        { name: 'akira_mm_markout_bps', labels: { horizon: '1s', against: 'reference' }, label: '+1 s vs reference', color: '#8ecae6', style: 'dashed' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '10s', against: 'reference' }, label: '+10 s vs reference', color: '#219ebc', style: 'dashed' },
      ],
    },
    {
      id: 'uptime',
      title: 'Two-sided uptime and time at the touch (share of quoting time)',
      yLabel: 'share',
      lines: [
        { name: 'akira_mm_two_sided_uptime_ratio', label: 'two-sided', color: '#2a9d8f', style: 'line' },
        { name: 'akira_mm_time_at_touch_ratio', label: 'at the touch', color: '#e76f51', style: 'line' },
      ],
    },
    {
      id: 'orders',
      title: 'Orders sent per fill',
      yLabel: 'orders / fill',
      lines: [{ name: 'akira_mm_orders_per_fill', label: 'orders per fill', color: '#264653', style: 'line' }],
    },
    {
      id: 'throttling',
      title: 'Throttling and refusals since start: actions the outbound budget held back, orders rejected',
      yLabel: 'count',
      lines: [
        { name: 'akira_mm_requests_throttled_total', label: 'held back', color: '#f4a261', style: 'steps' },
        { name: 'akira_mm_orders_rejected_total', sum: true, label: 'rejected', color: '#b3261e', style: 'steps' },
      ],
    },
    {
      id: 'timeline',
      title: 'State: quoting, paused, halted (hover a mark for why; the events below list them all)',
      yLabel: 'state',
      states: true,
      marks: true,
      lines: [{ name: STATUS_SERIES.state, label: 'state', color: '#264653', style: 'steps' }],
    },
    {
      id: 'hedge',
      title: 'Hedges: position on the hedge venue and what is not hedged yet',
      yLabel: 'base',
      lines: [
        { name: 'akira_mm_hedge_position_base', label: 'hedge position', color: '#264653', style: 'line' },
        { name: 'akira_mm_hedge_uncovered_base', label: 'uncovered', color: '#e76f51', style: 'line' },
      ],
    },
  ],
  groups: [
    {
      title: 'Price',
      figures: [
        { name: 'akira_mm_fair_price', label: 'fair price', unit: 'price' },
        { name: 'akira_mm_quoted_spread_bps', label: 'our spread', unit: 'bps' },
        { name: 'akira_mm_reference_fair_price', label: 'reference fair', unit: 'price', needs: 'reference' },
        { name: 'akira_mm_reference_basis_bps', label: 'basis', unit: 'bps', needs: 'reference' },
        { name: 'akira_mm_reference_divergence_bps', label: 'divergence', unit: 'bps', needs: 'reference' },
      ],
    },
    {
      title: 'Inventory',
      figures: [
        { name: 'akira_mm_position_base', label: 'position', unit: 'base' },
        { name: 'akira_mm_inventory_cap_base', label: 'cap (0 = none)', unit: 'base' },
        { name: 'akira_mm_net_position_base', label: 'net of hedges', unit: 'base' },
        { name: 'akira_mm_inventory_base', label: 'base held', unit: 'base' },
        { name: 'akira_mm_inventory_quote', label: 'quote held', unit: 'quote' },
      ],
    },
    {
      title: 'PnL',
      figures: [
        { name: 'akira_mm_pnl_total_quote', label: 'total', unit: 'quote' },
        { name: 'akira_mm_pnl_spread_quote', label: 'spread', unit: 'quote' },
        { name: 'akira_mm_pnl_inventory_quote', label: 'inventory', unit: 'quote' },
        { name: 'akira_mm_pnl_fees_quote', label: 'fees paid', unit: 'quote' },
        { name: 'akira_mm_pnl_gas_quote', label: 'gas paid', unit: 'quote' },
        { name: 'akira_mm_hedge_pnl_quote', label: 'hedges', unit: 'quote' },
        { name: 'akira_mm_pnl_realized_quote', label: 'realised', unit: 'quote' },
        { name: 'akira_mm_pnl_unrealized_quote', label: 'unrealised', unit: 'quote' },
      ],
    },
    {
      title: 'Markouts',
      figures: [
        { name: 'akira_mm_markout_bps', labels: { horizon: '1s' }, label: '+1 s', unit: 'bps' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '10s' }, label: '+10 s', unit: 'bps' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '60s' }, label: '+60 s', unit: 'bps' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '1s', against: 'reference' }, label: '+1 s vs reference', unit: 'bps' },
        { name: 'akira_mm_markout_bps', labels: { horizon: '10s', against: 'reference' }, label: '+10 s vs reference', unit: 'bps' },
      ],
    },
    {
      title: 'Quoting',
      figures: [
        { name: 'akira_mm_quoting', label: 'quoting', unit: 'flag' },
        { name: 'akira_mm_two_sided_uptime_ratio', label: 'two-sided uptime', unit: 'share' },
        { name: 'akira_mm_time_at_touch_ratio', label: 'time at the touch', unit: 'share' },
        { name: 'akira_mm_open_orders', each: ['side'], label: 'open orders', unit: 'count' },
        { name: 'akira_mm_orders_sent_total', label: 'orders sent', unit: 'count' },
        { name: 'akira_mm_cancels_sent_total', label: 'cancels sent', unit: 'count' },
        { name: 'akira_mm_fills_total', sum: true, label: 'fills', unit: 'count' },
        { name: 'akira_mm_orders_per_fill', label: 'orders per fill', unit: 'ratio' },
        { name: 'akira_mm_fill_ratio', label: 'fill ratio', unit: 'share' },
        { name: 'akira_mm_requests_throttled_total', label: 'held back by the budget', unit: 'count' },
        { name: 'akira_mm_orders_rejected_total', sum: true, label: 'rejected', unit: 'count' },
        { name: 'akira_mm_pauses_total', sum: true, label: 'pauses', unit: 'count' },
        { name: 'akira_mm_halts_total', label: 'halts', unit: 'count' },
        { name: 'akira_mm_cap_breaches_total', label: 'cap breaches', unit: 'count' },
      ],
    },
    {
      title: 'Hedges',
      figures: [
        { name: 'akira_mm_hedges_sent_total', sum: true, label: 'sent', unit: 'count' },
        { name: 'akira_mm_hedges_failed_total', sum: true, label: 'failed', unit: 'count' },
        { name: 'akira_mm_hedge_position_base', label: 'hedge position', unit: 'base' },
        { name: 'akira_mm_hedge_uncovered_base', label: 'uncovered', unit: 'base' },
        { name: 'akira_mm_hedge_pnl_quote', label: 'PnL', unit: 'quote' },
      ],
    },
  ],
};

/** The account's panel. */
export const ACCOUNT_LAYOUT: PanelLayout = {
  charts: [
    {
      id: 'pnl',
      title: "The account's PnL: every pair together, in the account's limits token",
      yLabel: 'quote',
      lines: [{ name: 'akira_mm_account_pnl_quote', each: ['token'], label: 'PnL', color: '#222', style: 'line' }],
    },
    {
      id: 'pairs',
      title: 'Pairs by state',
      yLabel: 'pairs',
      lines: [
        { name: 'akira_mm_account_pairs', labels: { state: 'quoting' }, label: 'quoting', color: '#2a9d8f', style: 'steps' },
        { name: 'akira_mm_account_pairs', labels: { state: 'paused' }, label: 'paused', color: '#f4a261', style: 'steps' },
        { name: 'akira_mm_account_pairs', labels: { state: 'halted' }, label: 'halted', color: '#b3261e', style: 'steps' },
        { name: 'akira_mm_account_halted', label: 'account halted', color: '#6a040f', style: 'steps' },
      ],
    },
  ],
  groups: [
    {
      title: 'Account',
      figures: [
        { name: 'akira_mm_account_pnl_quote', each: ['token'], label: 'PnL', unit: 'token' },
        { name: 'akira_mm_account_open_notional_quote', each: ['token'], label: 'open notional', unit: 'token' },
        { name: 'akira_mm_account_halted', label: 'halted', unit: 'flag' },
        { name: 'akira_mm_account_pairs', each: ['state'], label: 'pairs', unit: 'count' },
      ],
    },
    { title: 'Balances (the account ledger)', figures: [{ name: 'akira_mm_account_balance', each: ['token'], label: 'balance', unit: 'token' }] },
    { title: 'Budgets by pair', figures: [{ name: 'akira_mm_account_budget', each: ['pair', 'token'], label: 'budget', unit: 'token' }] },
  ],
};

/** The metrics a panel reads (its `akira_mm_` names, each once). */
export function metricNamesOf(layout: PanelLayout): string[] {
  const refs: SeriesRef[] = [...layout.charts.flatMap((chart) => chart.lines), ...layout.groups.flatMap((group) => group.figures)];
  return [...new Set(refs.map((ref) => ref.name).filter((name) => name.startsWith('akira_mm_')))];
}
