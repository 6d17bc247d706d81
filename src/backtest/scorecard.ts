/**
 * The quoting scorecard (issue 9): the figures a venue's market-maker programme looks at, and the
 * PnL split by source. The engine computes them and puts them in the summary; until a summary
 * carries a key, the report fills it in from what the backtest itself saw (orders the replay
 * venue received, sampled quotes against the recorded touch, fills and fees), and says so.
 */
import type { PathSample, PnlComponents } from './stats.ts';

/** Scorecard keys in display order: the summary's JSON keys (a contract of issue 9). */
export const SCORECARD_KEYS = [
  'orders_sent',
  'cancels_sent',
  'orders_per_fill',
  'fill_ratio',
  'two_sided_uptime',
  'time_at_touch',
  'cap_breaches',
  'pnl_spread_quote',
  'pnl_inventory_quote',
  'fees_quote',
  'gas_quote',
] as const;
export type ScorecardKey = (typeof SCORECARD_KEYS)[number];

/** How a scorecard figure reads. */
export type ScorecardKind = 'count' | 'ratio' | 'share' | 'quote';

/** Label and kind of each scorecard key. */
export const SCORECARD_FIELDS: Readonly<Record<ScorecardKey, { readonly label: string; readonly kind: ScorecardKind; readonly doc: string }>> = {
  orders_sent: { label: 'orders sent', kind: 'count', doc: 'orders the venue received' },
  cancels_sent: { label: 'cancels sent', kind: 'count', doc: 'cancel requests the venue received (a cancel-all counts once)' },
  orders_per_fill: { label: 'orders per fill', kind: 'ratio', doc: 'orders sent for each fill' },
  fill_ratio: { label: 'fill ratio', kind: 'share', doc: 'share of orders sent that filled, at least in part' },
  two_sided_uptime: { label: 'two-sided uptime', kind: 'share', doc: 'share of quoting time with both a bid and an ask resting' },
  time_at_touch: { label: 'time at the touch', kind: 'share', doc: 'share of quoting time with our bid or ask at the best price' },
  cap_breaches: { label: 'cap breaches', kind: 'count', doc: 'moments with |inventory| over RISK_MAX_INVENTORY_BASE (must be 0)' },
  pnl_spread_quote: { label: 'PnL from spread', kind: 'quote', doc: 'edge of each fill against the fair price at the fill' },
  pnl_inventory_quote: { label: 'PnL from inventory', kind: 'quote', doc: 'the carried position marked to market' },
  fees_quote: { label: 'fees', kind: 'quote', doc: 'trading fees paid' },
  gas_quote: { label: 'gas', kind: 'quote', doc: 'gas paid' },
};

/** One scorecard figure and who computed it. */
export interface ScorecardEntry {
  readonly key: ScorecardKey;
  readonly value: number | null;
  /** `engine`: the summary's own key; `report`: filled in from the backtest's samples and fills. */
  readonly source: 'engine' | 'report';
}

/** Scorecard values the backtest can compute itself, for keys a summary does not carry yet. */
export type DerivedScorecard = Partial<Record<ScorecardKey, number | null>>;

/** What the backtest saw of its own orders at the replay venue. */
export interface OrderActivity {
  readonly ordersSent: number;
  readonly cancelsSent: number;
  /** Orders that filled at least in part. */
  readonly ordersFilled: number;
}

/** Whether a sample had our bid or ask at (or better than) the recorded best price. */
export function isAtTouch(sample: PathSample): boolean {
  const bidAt = sample.bid !== undefined && sample.bestBid !== undefined && sample.bid >= sample.bestBid;
  const askAt = sample.ask !== undefined && sample.bestAsk !== undefined && sample.ask <= sample.bestAsk;
  return bidAt || askAt;
}

/** Whether we had any quote resting in a sample. */
export function isQuoting(sample: PathSample): boolean {
  return sample.bid !== undefined || sample.ask !== undefined;
}

/** Share of quoting samples with a quote at the touch; null when we never quoted. */
export function timeAtTouch(samples: readonly PathSample[]): number | null {
  let quoting = 0;
  let atTouch = 0;
  for (const sample of samples) {
    if (!isQuoting(sample)) continue;
    quoting++;
    if (isAtTouch(sample)) atTouch++;
  }
  return quoting === 0 ? null : atTouch / quoting;
}

/** The last sample's PnL split (the run's totals), when the path carries one. */
export function finalComponents(samples: readonly PathSample[]): PnlComponents | undefined {
  return samples[samples.length - 1]?.components;
}

/**
 * Scorecard figures from the backtest's own records: order counts from the replay venue, time at
 * the touch and cap breaches from the sampled path (one sample per `sampleMs`), the PnL split from
 * the path's last sample.
 */
export function deriveScorecard(input: {
  readonly samples: readonly PathSample[];
  readonly fills: number;
  readonly activity: OrderActivity;
  readonly twoSidedUptime: number;
  /** RISK_MAX_INVENTORY_BASE in base tokens; undefined when no cap is set. */
  readonly inventoryCapBase: number | undefined;
}): DerivedScorecard {
  const { samples, activity } = input;
  const cap = input.inventoryCapBase;
  const parts = finalComponents(samples);
  return {
    orders_sent: activity.ordersSent,
    cancels_sent: activity.cancelsSent,
    orders_per_fill: input.fills === 0 ? null : activity.ordersSent / input.fills,
    fill_ratio: activity.ordersSent === 0 ? null : activity.ordersFilled / activity.ordersSent,
    two_sided_uptime: input.twoSidedUptime,
    time_at_touch: timeAtTouch(samples),
    cap_breaches: cap === undefined ? null : samples.filter((sample) => Math.abs(sample.inventory) > cap * (1 + 1e-9)).length,
    pnl_spread_quote: parts?.spread ?? null,
    pnl_inventory_quote: parts?.inventory ?? null,
  };
}

/** Each scorecard key: the summary's value when it has the key, else the derived one. */
export function resolveScorecard(summary: object, derived: DerivedScorecard): ScorecardEntry[] {
  const record = summary as Readonly<Record<string, unknown>>;
  return SCORECARD_KEYS.flatMap((key): ScorecardEntry[] => {
    const own = record[key];
    if (typeof own === 'number' || (own === null && key in record)) return [{ key, value: own, source: 'engine' }];
    const value = derived[key];
    return value === undefined ? [] : [{ key, value, source: 'report' }];
  });
}
