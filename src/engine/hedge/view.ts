/**
 * The hedge market as numbers, for strategies (`MarketView.hedge`) and the hedger's own checks:
 * the hedge book in the quoted pair's price units (× (1 + basis)), the fee and the profit to keep,
 * and what the hedge account can still absorb once the uncovered position is hedged.
 */
import { numberToUnits, unitsToNumber, type HedgeBalances, type HedgeMarketView, type HedgeRules, type ReferenceDepth, type ReferenceTop } from '../../core/index.ts';
import { venueToPair, type UnitScale } from './exposure.ts';
import type { HedgerSettings } from './hedger-settings.ts';

/** What the view is built from. */
export interface HedgeViewInput {
  readonly book: ReferenceDepth | undefined;
  readonly rules: HedgeRules;
  readonly settings: Pick<HedgerSettings, 'feeBps' | 'minProfitBps' | 'basisBps'>;
  readonly balances: HedgeBalances | undefined;
  /** Uncovered once open hedges fill, quoted-pair base units (positive: to be sold on the hedge venue). */
  readonly uncoveredUnits: bigint;
  readonly pairBaseDecimals: number;
}

/** The view, or undefined without a two-sided hedge book. */
export function hedgeMarketView(input: HedgeViewInput): HedgeMarketView | undefined {
  const { book, rules, settings, balances } = input;
  const bestBid = book?.bids[0];
  const bestAsk = book?.asks[0];
  if (book === undefined || bestBid === undefined || bestAsk === undefined) return undefined;
  const factor = 1 + settings.basisBps / 10_000;
  const convert = (levels: ReferenceDepth['bids']): { price: number; qty: number }[] => levels.map((level) => ({ price: level.price * factor, qty: level.qty }));
  const uncovered = unitsToNumber(input.uncoveredUnits, input.pairBaseDecimals);
  const baseFree = balances === undefined ? 0 : unitsToNumber(balances.baseFree, rules.baseDecimals);
  const quoteFree = balances === undefined ? 0 : unitsToNumber(balances.quoteFree, rules.quoteDecimals) * factor;
  const venueFee = unitsToNumber(rules.takerFeeE8, 8);
  const mid = ((bestBid.price + bestAsk.price) / 2) * factor;
  const minByNotional = rules.minNotional > 0n && mid > 0 ? (unitsToNumber(rules.minNotional, rules.quoteDecimals) * factor) / mid : 0;
  return {
    bids: convert(book.bids),
    asks: convert(book.asks),
    // The higher of the configured and the venue's rate prices quotes: never an optimistic fee.
    takerFee: Math.max(settings.feeBps / 10_000, venueFee),
    minProfit: settings.minProfitBps / 10_000,
    sellableBase: Math.max(0, baseFree - Math.max(0, uncovered)),
    spendableQuote: Math.max(0, quoteFree - Math.max(0, -uncovered) * bestAsk.price * factor),
    minQty: Math.max(unitsToNumber(rules.minQty, rules.baseDecimals), minByNotional),
    uncoveredBase: uncovered,
  };
}

/**
 * The smallest amount (quoted-pair base units) the hedge venue takes now: its minimum lot, or its
 * minimum notional at the touch's mid when that is more.
 */
export function minHedgeableUnits(rules: HedgeRules, scale: UnitScale, top: ReferenceTop | undefined): bigint {
  const minQty = venueToPair(rules.marketMinQty > rules.minQty ? rules.marketMinQty : rules.minQty, scale);
  if (top === undefined || rules.minNotional === 0n) return minQty;
  const mid = (top.bidPrice + top.askPrice) / 2;
  if (!(mid > 0)) return minQty;
  const byNotional = numberToUnits(unitsToNumber(rules.minNotional, rules.quoteDecimals) / mid, scale.pairDecimals, 'up');
  return byNotional > minQty ? byNotional : minQty;
}

/** Whether `uncoveredUnits` (quoted-pair base units) is at or above the hedge venue's minimum at the touch. */
export function isHedgeable(uncoveredUnits: bigint, rules: HedgeRules, scale: UnitScale, top: ReferenceTop | undefined): boolean {
  if (uncoveredUnits === 0n) return false;
  const magnitude = uncoveredUnits < 0n ? -uncoveredUnits : uncoveredUnits;
  return magnitude >= minHedgeableUnits(rules, scale, top);
}
