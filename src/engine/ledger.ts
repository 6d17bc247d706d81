/**
 * Inventory and PnL: the expected balances of the pair's two tokens, exact in base units, and
 * average-cost realised/unrealised PnL in quote tokens. The reconciler is its only writer of
 * fills (ARCHITECTURE "one owner"). Fees follow SPEC §5 with apply_to_receipt_amount = true, as
 * the bot signs its orders: the fee is taken from what the fill delivers, rounded up.
 */
import { unitsToNumber, type Side } from '../core/index.ts';
import { OrderFees, feeOnReceipt } from './order-fees.ts';
import type { FillIncrement, TradeNote } from './orders/order-table.ts';

export { feeOnReceipt };

/** Static facts the ledger needs. */
export interface LedgerOptions {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  readonly makerFeePbips: number;
  readonly takerFeePbips: number;
}

/** Effect of one fill on balances. */
export interface FillEffect {
  readonly baseDeltaUnits: bigint;
  readonly quoteDeltaUnits: bigint;
  /** Fee charged, in the received token. */
  readonly feeUnits: bigint;
  readonly feeToken: 'base' | 'quote';
  /** Fee valued in quote tokens. */
  readonly feeQuote: number;
}

/** A PnL snapshot in quote tokens. */
export interface PnlSnapshot {
  readonly realized: number;
  readonly unrealized: number;
  readonly total: number;
  readonly feesPaid: number;
  readonly gasPaid: number;
  /** Base tokens bought minus sold since start (after fees). */
  readonly position: number;
  readonly averageCost: number | undefined;
  readonly volumeBase: number;
  readonly fills: number;
  readonly makerFills: number;
  readonly takerFills: number;
}

/**
 * Balance changes of one fill of ours; the fee is `feeUnits` when the caller knows it per trade,
 * else the fee on the increment's received amount.
 */
export function fillEffect(fill: FillIncrement, options: LedgerOptions, feeUnitsKnown?: bigint): FillEffect {
  const pbips = fill.isMaker ? options.makerFeePbips : options.takerFeePbips;
  if (fill.side === 'buy') {
    const feeUnits = feeUnitsKnown ?? feeOnReceipt(fill.qtyUnits, pbips);
    const feeQuote = unitsToNumber(feeUnits, options.baseDecimals) * unitsToNumber(fill.priceUnits, options.quoteDecimals);
    return { baseDeltaUnits: fill.qtyUnits - feeUnits, quoteDeltaUnits: -fill.quoteUnits, feeUnits, feeToken: 'base', feeQuote };
  }
  const feeUnits = feeUnitsKnown ?? feeOnReceipt(fill.quoteUnits, pbips);
  const feeQuote = unitsToNumber(feeUnits, options.quoteDecimals);
  return { baseDeltaUnits: -fill.qtyUnits, quoteDeltaUnits: fill.quoteUnits - feeUnits, feeUnits, feeToken: 'quote', feeQuote };
}

/** Expected balances and PnL of one pair. */
export class Ledger {
  private startBase = 0n;
  private startQuoteUnits = 0n;
  private baseUnits = 0n;
  private quoteUnits = 0n;
  private position = 0;
  private averageCost: number | undefined;
  private realized = 0;
  private feesPaid = 0;
  private gasPaid = 0;
  private volumeBase = 0;
  private fills = 0;
  private makerFills = 0;
  private latestFill: { side: Side; price: number; timeMs: number } | undefined;
  private readonly orderFees: OrderFees;

  constructor(private readonly options: LedgerOptions) {
    this.orderFees = new OrderFees({ maker: options.makerFeePbips, taker: options.takerFeePbips });
  }

  /** Sets the starting balances (from the venue at start). */
  reset(baseUnits: bigint, quoteUnits: bigint): void {
    this.startBase = baseUnits;
    this.startQuoteUnits = quoteUnits;
    this.baseUnits = baseUnits;
    this.quoteUnits = quoteUnits;
  }

  /**
   * Applies one fill increment (with the trade its report announced, if any); returns its balance
   * effect. The fee is the venue's: per trade, each rounded up.
   */
  applyFill(fill: FillIncrement, trade?: TradeNote): FillEffect {
    const feeUnits = this.orderFees.onFill(fill.orderId, fill.side, fill.qtyUnits, fill.quoteUnits, fill.isMaker, trade === undefined ? undefined : knownTrade(trade));
    const effect = fillEffect(fill, this.options, feeUnits);
    this.baseUnits += effect.baseDeltaUnits;
    this.quoteUnits += effect.quoteDeltaUnits;
    this.feesPaid += effect.feeQuote;
    this.fills++;
    if (fill.isMaker) this.makerFills++;
    this.latestFill = { side: fill.side, price: unitsToNumber(fill.priceUnits, this.options.quoteDecimals), timeMs: fill.timeMs };
    this.volumeBase += unitsToNumber(fill.qtyUnits, this.options.baseDecimals);
    this.updateCostBasis(effect);
    return effect;
  }

  /**
   * A trade announced by a report older than what was known (reordered reports): when it splits
   * a stretch charged as one trade, the extra fee is charged now. Undefined when nothing changes.
   */
  applyLateTrade(trade: TradeNote): FillEffect | undefined {
    const feeUnits = this.orderFees.onLateTrade(trade.orderId, knownTrade(trade));
    if (feeUnits === 0n) return undefined;
    const price = trade.qtyUnits > 0n ? unitsToNumber(trade.quoteUnits, this.options.quoteDecimals) / unitsToNumber(trade.qtyUnits, this.options.baseDecimals) : 0;
    const effect: FillEffect =
      trade.side === 'buy'
        ? { baseDeltaUnits: -feeUnits, quoteDeltaUnits: 0n, feeUnits, feeToken: 'base', feeQuote: unitsToNumber(feeUnits, this.options.baseDecimals) * price }
        : { baseDeltaUnits: 0n, quoteDeltaUnits: -feeUnits, feeUnits, feeToken: 'quote', feeQuote: unitsToNumber(feeUnits, this.options.quoteDecimals) };
    this.baseUnits += effect.baseDeltaUnits;
    this.quoteUnits += effect.quoteDeltaUnits;
    this.feesPaid += effect.feeQuote;
    this.updateCostBasis(effect);
    return effect;
  }

  /** Records gas paid, valued in quote tokens (taker fills, nonce increases). */
  applyGas(gasQuote: number): void {
    this.gasPaid += gasQuote;
    this.realized -= gasQuote;
  }

  /**
   * Replaces the expected balances by the venue's (a heal). Returns the drift that was found,
   * in base units of each token (venue − expected).
   */
  heal(baseUnits: bigint, quoteUnits: bigint): { baseDrift: bigint; quoteDrift: bigint } {
    const drift = { baseDrift: baseUnits - this.baseUnits, quoteDrift: quoteUnits - this.quoteUnits };
    this.baseUnits = baseUnits;
    this.quoteUnits = quoteUnits;
    return drift;
  }

  balances(): { baseUnits: bigint; quoteUnits: bigint } {
    return { baseUnits: this.baseUnits, quoteUnits: this.quoteUnits };
  }

  startBalances(): { baseUnits: bigint; quoteUnits: bigint } {
    return { baseUnits: this.startBase, quoteUnits: this.startQuoteUnits };
  }

  /** The base balance at start, base units (asked on every requote: no object). */
  startBaseUnits(): bigint {
    return this.startBase;
  }

  /** Side, price and time of our latest fill (ping-pong needs it). */
  lastFill(): { side: Side; price: number; timeMs: number } | undefined {
    return this.latestFill;
  }

  /** PnL marked at `mid` (quote per base); unrealised is 0 without a mid. */
  pnl(mid: number | undefined): PnlSnapshot {
    const unrealized = mid === undefined || this.averageCost === undefined ? 0 : this.position * (mid - this.averageCost);
    return {
      realized: this.realized,
      unrealized,
      total: this.realized + unrealized,
      feesPaid: this.feesPaid,
      gasPaid: this.gasPaid,
      position: this.position,
      averageCost: this.averageCost,
      volumeBase: this.volumeBase,
      fills: this.fills,
      makerFills: this.makerFills,
      takerFills: this.fills - this.makerFills,
    };
  }

  /** Average-cost accounting on the net change (fees included in the effective price). */
  private updateCostBasis(effect: FillEffect): void {
    const deltaBase = unitsToNumber(effect.baseDeltaUnits, this.options.baseDecimals);
    const deltaQuote = unitsToNumber(effect.quoteDeltaUnits, this.options.quoteDecimals);
    if (deltaBase === 0) {
      this.realized += deltaQuote;
      return;
    }
    const price = -deltaQuote / deltaBase;
    const sameDirection = this.position === 0 || Math.sign(this.position) === Math.sign(deltaBase);
    if (sameDirection) {
      const cost = (this.averageCost ?? price) * Math.abs(this.position) + price * Math.abs(deltaBase);
      this.position += deltaBase;
      this.averageCost = cost / Math.abs(this.position);
      return;
    }
    const closing = Math.min(Math.abs(deltaBase), Math.abs(this.position));
    const average = this.averageCost ?? price;
    this.realized += closing * (price - average) * Math.sign(this.position);
    this.position += deltaBase;
    if (Math.abs(this.position) < 1e-12) {
      this.position = 0;
      this.averageCost = undefined;
    } else if (Math.sign(this.position) === Math.sign(deltaBase)) {
      this.averageCost = price;
    }
  }
}

function knownTrade(trade: TradeNote): { qtyUnits: bigint; quoteUnits: bigint; endQtyUnits: bigint; endQuoteUnits: bigint; isMaker: boolean } {
  return { qtyUnits: trade.qtyUnits, quoteUnits: trade.quoteUnits, endQtyUnits: trade.cumulativeQtyUnits, endQuoteUnits: trade.cumulativeQuoteUnits, isMaker: trade.isMaker };
}
