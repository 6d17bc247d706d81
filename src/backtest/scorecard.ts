/**
 * The quoting scorecard (issue 9) as the report shows it: the figures a venue's market-maker
 * programme looks at and the PnL split by source, read from the summary's keys (the engine
 * computes them), with a label and a one-line meaning each. A summary written before a key
 * existed (an old `--jsonl` file) simply lacks that row.
 */
import type { PathSample } from './stats.ts';

/** Scorecard keys in display order: the summary's JSON keys (a contract of issue 9). */
export const SCORECARD_KEYS = [
  'orders_sent',
  'cancels_sent',
  'orders_per_fill',
  'fill_ratio',
  'requests_throttled',
  'two_sided_uptime',
  'time_at_touch',
  'cap_breaches',
  'pnl_spread_quote',
  'pnl_inventory_quote',
  'pnl_hedge_quote',
  'fees_quote',
  'gas_quote',
] as const;
export type ScorecardKey = (typeof SCORECARD_KEYS)[number];

/** How a scorecard figure reads. */
export type ScorecardKind = 'count' | 'ratio' | 'share' | 'quote';

/** Label, kind and meaning of each scorecard key. */
export const SCORECARD_FIELDS: Readonly<Record<ScorecardKey, { readonly label: string; readonly kind: ScorecardKind; readonly doc: string }>> = {
  orders_sent: { label: 'orders sent', kind: 'count', doc: 'placements sent to the venue' },
  cancels_sent: { label: 'cancels sent', kind: 'count', doc: 'cancel requests sent to the venue' },
  orders_per_fill: { label: 'orders per fill', kind: 'ratio', doc: 'orders sent for each fill' },
  fill_ratio: { label: 'fill ratio', kind: 'share', doc: 'base volume filled over base volume of the orders sent' },
  requests_throttled: { label: 'held by the budget', kind: 'count', doc: 'venue actions the outbound budget held back' },
  two_sided_uptime: { label: 'two-sided uptime', kind: 'share', doc: 'share of quoting time with both a bid and an ask resting' },
  time_at_touch: { label: 'time at the touch', kind: 'share', doc: 'share of quoting time with our bid or ask at the best price' },
  cap_breaches: { label: 'cap breaches', kind: 'count', doc: 'moments the position went past the inventory cap (must be 0)' },
  pnl_spread_quote: { label: 'PnL from spread', kind: 'quote', doc: 'edge of each fill against the fair price at the fill' },
  pnl_inventory_quote: { label: 'PnL from inventory', kind: 'quote', doc: 'the position carried between fills, marked to market' },
  pnl_hedge_quote: { label: 'PnL from hedges', kind: 'quote', doc: 'the hedges on the hedge venue marked to market, net of their fees (pnl = spread + inventory + hedge − fees − gas)' },
  fees_quote: { label: 'fees paid', kind: 'quote', doc: 'trading fees on the quoted venue (a cost: pnl = spread + inventory + hedge − fees − gas); negative when maker rebates (a negative --maker-pbips) exceed them' },
  gas_quote: { label: 'gas paid', kind: 'quote', doc: 'gas (a cost)' },
};

/** One scorecard figure. */
export interface ScorecardEntry {
  readonly key: ScorecardKey;
  readonly value: number | null;
}

/** The scorecard keys a summary carries, in display order. */
export function scorecardEntries(summary: object): ScorecardEntry[] {
  const record = summary as Readonly<Record<string, unknown>>;
  return SCORECARD_KEYS.flatMap((key): ScorecardEntry[] => {
    const value = record[key];
    return typeof value === 'number' || value === null ? [{ key, value }] : [];
  });
}

/** Whether we had any quote resting in a sample. */
export function isQuoting(sample: PathSample): boolean {
  return sample.bid !== undefined || sample.ask !== undefined;
}
