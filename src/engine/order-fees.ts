/**
 * Fees the way the venue charges them: per trade, each rounded up (SPEC §5: ceil(amount × pbips /
 * 10^6) on the received amount). A maker rebate is a negative pbips (a backtest's
 * `--maker-pbips -50`): the same ceiling then rounds the credit towards zero, so the rebate is
 * never more than the exact amount and at most one base unit less (rounding favours the venue,
 * as the fee's does). Reports carry cumulative amounts and, when they come from the
 * execution stream, the trade they announce; when reports are reordered or merged, an increment
 * can hold several trades, and ceil(a + b) is one unit less than ceil(a) + ceil(b). So each order
 * keeps the trades it knows by their place in its cumulative fill; what no trade explains yet is a
 * gap charged as one provisional trade, and a trade learnt later (an older report arriving late)
 * splits its gap and the difference is charged then.
 */
import { ceilDiv, type Side } from '../core/index.ts';

const PBIPS_DENOMINATOR = 1_000_000n;

/**
 * The fee on a received amount: ⌈amount × pbips / 10^6⌉ (0 when pbips is 0). Negative for a
 * rebate (pbips < 0), rounded towards zero: −⌊amount × |pbips| / 10^6⌋.
 */
export function feeOnReceipt(amountUnits: bigint, pbips: number): bigint {
  if (pbips === 0 || amountUnits <= 0n) return 0n;
  return ceilDiv(amountUnits * BigInt(pbips), PBIPS_DENOMINATOR);
}

/** One known trade of an order. */
interface KnownTrade {
  readonly qtyUnits: bigint;
  readonly quoteUnits: bigint;
  readonly endQtyUnits: bigint;
  readonly endQuoteUnits: bigint;
  readonly isMaker: boolean;
}

/** An order's fills as far as fees are concerned. */
interface OrderFeeState {
  readonly side: Side;
  /** Cumulative base and quote filled (the sum of every increment applied). */
  filledQtyUnits: bigint;
  filledQuoteUnits: bigint;
  /** Known trades by their cumulative base after them. */
  readonly trades: Map<bigint, KnownTrade>;
  /** Fee charged so far, in the received token's base units (negative: a rebate credited). */
  chargedUnits: bigint;
  /** Role of fills no report described (post-only orders make). */
  readonly defaultIsMaker: boolean;
}

/** Remembered orders (the oldest are forgotten beyond this: their late reports no longer matter). */
const MAX_ORDERS = 20_000;

/** Per-order, per-trade fee accounting. */
export class OrderFees {
  private readonly orders = new Map<string, OrderFeeState>();

  constructor(private readonly pbips: { readonly maker: number; readonly taker: number }) {}

  /**
   * A fill increment of an order (and the trade its report announced, if any): the fee to charge
   * now, in the received token (base for buys, quote for sells).
   */
  onFill(orderId: string, side: Side, qtyUnits: bigint, quoteUnits: bigint, isMaker: boolean, trade: KnownTrade | undefined): bigint {
    const state = this.state(orderId, side, isMaker);
    state.filledQtyUnits += qtyUnits;
    state.filledQuoteUnits += quoteUnits;
    if (trade !== undefined) state.trades.set(trade.endQtyUnits, trade);
    return this.charge(state);
  }

  /**
   * A trade announced by a report older than what we knew (no new fill): the fee it adds now
   * that its gap is split (0 when it was known, or the order is not remembered).
   */
  onLateTrade(orderId: string, trade: KnownTrade): bigint {
    const state = this.orders.get(orderId);
    if (state === undefined || state.trades.has(trade.endQtyUnits) || trade.endQtyUnits > state.filledQtyUnits) return 0n;
    state.trades.set(trade.endQtyUnits, trade);
    return this.charge(state);
  }

  private state(orderId: string, side: Side, isMaker: boolean): OrderFeeState {
    let state = this.orders.get(orderId);
    if (state === undefined) {
      state = { side, filledQtyUnits: 0n, filledQuoteUnits: 0n, trades: new Map(), chargedUnits: 0n, defaultIsMaker: isMaker };
      this.orders.set(orderId, state);
      if (this.orders.size > MAX_ORDERS) this.orders.delete(this.orders.keys().next().value as string);
    }
    return state;
  }

  /**
   * Charges the difference between the order's fee as now known and what was charged: negative
   * when a fill's rebate is credited. A late trade splitting a stretch only ever adds (each part
   * rounded up on its own: ⌈a⌉ + ⌈b⌉ ≥ ⌈a + b⌉, rebates included); a stretch charged as a maker
   * trade that a late report names a taker trade adds the difference, and the reverse gives it back.
   */
  private charge(state: OrderFeeState): bigint {
    const due = this.totalFee(state) - state.chargedUnits;
    state.chargedUnits += due;
    return due;
  }

  /** Every known trade rounded on its own, every stretch no trade explains as one provisional trade. */
  private totalFee(state: OrderFeeState): bigint {
    const trades = [...state.trades.values()].sort((a, b) => (a.endQtyUnits < b.endQtyUnits ? -1 : a.endQtyUnits > b.endQtyUnits ? 1 : 0));
    let fee = 0n;
    let qty = 0n;
    let quote = 0n;
    for (const trade of trades) {
      const startQty = trade.endQtyUnits - trade.qtyUnits;
      const startQuote = trade.endQuoteUnits - trade.quoteUnits;
      if (startQty > qty) fee += this.feeOf(state.side, startQty - qty, startQuote - quote, state.defaultIsMaker);
      fee += this.feeOf(state.side, trade.qtyUnits, trade.quoteUnits, trade.isMaker);
      if (trade.endQtyUnits > qty) {
        qty = trade.endQtyUnits;
        quote = trade.endQuoteUnits;
      }
    }
    if (state.filledQtyUnits > qty) fee += this.feeOf(state.side, state.filledQtyUnits - qty, state.filledQuoteUnits - quote, state.defaultIsMaker);
    return fee;
  }

  private feeOf(side: Side, qtyUnits: bigint, quoteUnits: bigint, isMaker: boolean): bigint {
    const received = side === 'buy' ? qtyUnits : quoteUnits;
    return feeOnReceipt(received > 0n ? received : 0n, isMaker ? this.pbips.maker : this.pbips.taker);
  }
}
