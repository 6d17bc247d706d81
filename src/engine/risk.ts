/**
 * The risk guard: the only component that may stop quoting (ARCHITECTURE "one owner"). It clips
 * desired quotes to the limits before anything is sent, and trips the kill switch on drawdown.
 * Limits are in exact base units where they bound money; notional limits in quote base units.
 */
import { fitQuantity, notionalUnits, pow10, type TickerRules } from '../core/index.ts';
import type { RoundedQuote } from './diff.ts';

/** Risk limits; 0 disables a limit unless said otherwise. */
export interface RiskLimits {
  /** Largest |base − target| the quotes may lead to, in base units. */
  readonly maxInventoryDeviationUnits: bigint;
  /** Largest notional of one order, quote units. */
  readonly maxOrderNotionalUnits: bigint;
  /** Largest notional of all our quotes together, quote units. */
  readonly maxTotalNotionalUnits: bigint;
  /** Most orders resting at once. */
  readonly maxOpenOrders: number;
  /** Quotes further than this fraction from the mid are dropped (0.05 = 5 %). */
  readonly priceBandFraction: number;
  /** Kill switch: halt when total PnL falls this far (quote tokens) below its peak. */
  readonly maxDrawdownQuote: number;
}

/** Where inventory stands, for clipping. */
export interface InventoryPosition {
  readonly baseUnits: bigint;
  /** Read only with a `maxInventoryDeviationUnits` limit. */
  readonly targetUnits: bigint;
  /** Quote held, in quote units: bids together may not spend more (the venue would refuse them). */
  readonly quoteUnits?: bigint;
}

/** Why quoting stopped. */
export interface HaltReason {
  readonly code: 'RISK_DRAWDOWN' | 'ENGINE_INVARIANT' | 'OPERATOR' | 'FATAL';
  readonly message: string;
  readonly atMs: number;
}

/**
 * Clips desired quotes to the limits: drops quotes outside the price band, shrinks sizes to the
 * per-order notional and to what inventory may still absorb on each side, then keeps the total
 * notional and the order count within bounds, closest levels first.
 */
export function clipQuotes(
  quotes: readonly RoundedQuote[],
  limits: RiskLimits,
  inventory: InventoryPosition,
  midUnits: bigint | undefined,
  rules: TickerRules,
): RoundedQuote[] {
  const ordered = [...quotes].sort((a, b) => a.level - b.level || (a.side === 'buy' ? -1 : 1));
  const deviation = inventory.baseUnits - inventory.targetUnits;
  let bidRoom = limits.maxInventoryDeviationUnits > 0n ? limits.maxInventoryDeviationUnits - deviation : undefined;
  let askRoom = limits.maxInventoryDeviationUnits > 0n ? limits.maxInventoryDeviationUnits + deviation : undefined;
  let totalRoom = limits.maxTotalNotionalUnits > 0n ? limits.maxTotalNotionalUnits : undefined;
  // What the account can fund: asks by the base held, bids by the quote held. Quoting more only
  // earns NOT_ENOUGH_BALANCE rejections (and order spam, MM-NOTES §4.4).
  let baseFunds = inventory.baseUnits > 0n ? inventory.baseUnits : 0n;
  let quoteFunds = inventory.quoteUnits;
  const kept: RoundedQuote[] = [];
  for (const quote of ordered) {
    if (limits.maxOpenOrders > 0 && kept.length >= limits.maxOpenOrders) break;
    if (!isInsideBand(quote.priceUnits, midUnits, limits.priceBandFraction)) continue;
    let qty = quote.qtyUnits;
    const room = quote.side === 'buy' ? bidRoom : askRoom;
    if (room !== undefined && qty > room) qty = room;
    if (limits.maxOrderNotionalUnits > 0n) qty = minBigint(qty, maxQtyForNotional(limits.maxOrderNotionalUnits, quote.priceUnits, rules));
    if (totalRoom !== undefined) qty = minBigint(qty, maxQtyForNotional(totalRoom, quote.priceUnits, rules));
    if (quote.side === 'sell') qty = minBigint(qty, baseFunds);
    else if (quoteFunds !== undefined) qty = minBigint(qty, maxQtyForNotional(quoteFunds, quote.priceUnits, rules));
    const fit = fitQuantity(qty, rules);
    if (fit.kind !== 'ok') continue;
    if (quote.side === 'sell') baseFunds -= fit.qty;
    else if (quoteFunds !== undefined) quoteFunds -= notionalUnits(quote.priceUnits, fit.qty, rules, 'up');
    kept.push(fit.qty === quote.qtyUnits ? quote : { ...quote, qtyUnits: fit.qty });
    if (quote.side === 'buy' && bidRoom !== undefined) bidRoom -= fit.qty;
    if (quote.side === 'sell' && askRoom !== undefined) askRoom -= fit.qty;
    if (totalRoom !== undefined) totalRoom -= notionalUnits(quote.priceUnits, fit.qty, rules, 'up');
  }
  return kept;
}

function isInsideBand(priceUnits: bigint, midUnits: bigint | undefined, bandFraction: number): boolean {
  if (bandFraction <= 0 || midUnits === undefined || midUnits <= 0n) return true;
  const distance = Number(priceUnits > midUnits ? priceUnits - midUnits : midUnits - priceUnits);
  return distance <= bandFraction * Number(midUnits);
}

/** Largest base quantity whose notional at `priceUnits` stays within `notional` (quote units). */
function maxQtyForNotional(notional: bigint, priceUnits: bigint, rules: TickerRules): bigint {
  if (notional <= 0n || priceUnits <= 0n) return 0n;
  return (notional * pow10(rules.baseDecimals)) / priceUnits;
}

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** Tracks the PnL peak and trips when the drawdown from it passes the limit. */
export class DrawdownGuard {
  private peak: number | undefined;

  constructor(private readonly maxDrawdownQuote: number) {}

  /** Feeds the latest total PnL; returns the drawdown if the limit is breached. */
  observe(totalPnl: number): number | undefined {
    if (this.peak === undefined || totalPnl > this.peak) this.peak = totalPnl;
    const drawdown = this.peak - totalPnl;
    if (this.maxDrawdownQuote > 0 && drawdown >= this.maxDrawdownQuote) return drawdown;
    return undefined;
  }

  /** Current drawdown from the peak (0 before any observation). */
  current(totalPnl: number): number {
    return this.peak === undefined ? 0 : Math.max(0, this.peak - totalPnl);
  }
}
