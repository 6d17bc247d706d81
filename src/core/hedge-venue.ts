/**
 * The `HedgeVenue` port: a deep market where the bot takes liquidity to keep the desk flat
 * (issue 15, ARCHITECTURE "Growing the house"). The engine's hedger sees this interface only;
 * `src/markets/binance/` implements it live (and against `akira-mm feed`), the backtest from a
 * recording. Its book is read through a `ReferenceFeed` of the same market.
 *
 * Amounts are exact integers in the hedge venue's own units: quantities in 10^-baseDecimals of
 * the base asset, prices and notionals in 10^-quoteDecimals of the quote asset (Binance prints
 * both with 8 decimals). Orders only ever take liquidity (market, or limit IOC): a hedge never
 * rests on the book.
 */
import type { ReferenceLevel } from './reference-feed.ts';
import type { Side } from './types.ts';

/** The symbol's trading rules, as the venue states them (Binance: `exchangeInfo` filters). 0 disables a bound. */
export interface HedgeRules {
  /** e.g. ETHUSDT. */
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  /** `TRADING` when orders are accepted. */
  readonly status: string;
  /** Decimals of quantity units and of price/notional units. */
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** PRICE_FILTER. */
  readonly priceTick: bigint;
  readonly minPrice: bigint;
  readonly maxPrice: bigint;
  /** LOT_SIZE (limit orders, and market orders unless MARKET_LOT_SIZE says more). */
  readonly lotStep: bigint;
  readonly minQty: bigint;
  readonly maxQty: bigint;
  /** MARKET_LOT_SIZE; a 0 step means "as LOT_SIZE". */
  readonly marketStep: bigint;
  readonly marketMinQty: bigint;
  readonly marketMaxQty: bigint;
  /** NOTIONAL (or the older MIN_NOTIONAL), quote units; whether market orders are held to it. */
  readonly minNotional: bigint;
  readonly maxNotional: bigint;
  readonly minNotionalForMarket: boolean;
  readonly maxNotionalForMarket: boolean;
  /** The account's taker commission on the symbol as the venue states it, parts per 10^8 (0.001 = 100 000). */
  readonly takerFeeE8: bigint;
}

/** How a hedge takes liquidity: a market order, or a limit order that is immediate-or-cancel. */
export type HedgeOrderType = 'market' | 'ioc';

/** One hedge order. `clientOrderId` is unique per attempt, recorded before it is sent. */
export interface HedgeOrderRequest {
  readonly clientOrderId: string;
  readonly side: Side;
  readonly qtyUnits: bigint;
  readonly type: HedgeOrderType;
  /** The worst price an IOC accepts (quote units); unused for market orders. */
  readonly limitPriceUnits?: bigint;
}

/** Order states (Binance's names). */
export type HedgeOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'PENDING_CANCEL' | 'REJECTED' | 'EXPIRED' | 'EXPIRED_IN_MATCH';

/** True for the states after which an order never trades again. */
export function isFinalHedgeStatus(status: HedgeOrderStatus): boolean {
  return status === 'FILLED' || status === 'CANCELED' || status === 'REJECTED' || status === 'EXPIRED' || status === 'EXPIRED_IN_MATCH';
}

/** What the venue says about one order. Executed amounts are cumulative: the largest seen wins. */
export interface HedgeOrderState {
  readonly clientOrderId: string;
  readonly venueOrderId: string;
  readonly side: Side;
  readonly status: HedgeOrderStatus;
  readonly qtyUnits: bigint;
  readonly executedQtyUnits: bigint;
  readonly executedQuoteUnits: bigint;
  /** Commission charged so far (Binance: base asset for buys, quote asset for sells), in its asset's units. */
  readonly commissionUnits: bigint;
  readonly commissionAsset: string | undefined;
  readonly timeMs: number;
}

/** Why the venue refused an order (it was not executed; retrying it is safe). */
export type HedgeRejectReason =
  /** The account cannot pay for it. */
  | 'insufficient-balance'
  /** A symbol filter (lot, notional, price) refused it. */
  | 'filter'
  /** The symbol is not trading. */
  | 'market-closed'
  /** Over the venue's request or order rate limits (429), or banned (418): `retryAfterMs` says how long. */
  | 'rate-limited'
  /** The request's timestamp was outside the venue's window: the clock offset is re-measured. */
  | 'timestamp'
  /** The API key or signature was refused. */
  | 'auth'
  /** The client order id is in use by an open order. */
  | 'duplicate'
  | 'other';

/** The result of one placement. */
export type HedgePlaceOutcome =
  /** The venue took it; `order` is its state in the answer (a market order is already final). */
  | { readonly kind: 'accepted'; readonly order: HedgeOrderState }
  | { readonly kind: 'rejected'; readonly reason: HedgeRejectReason; readonly message: string; readonly retryAfterMs?: number }
  /** It may or may not have executed (5xx, -1007, a lost connection): query it by its client id, never resend. */
  | { readonly kind: 'unknown'; readonly message: string };

/** The answer to an order query. */
export type HedgeQueryOutcome = { readonly kind: 'found'; readonly order: HedgeOrderState } | { readonly kind: 'not-found' };

/** Free and locked balances of the symbol's two assets, in their units. */
export interface HedgeBalances {
  readonly baseFree: bigint;
  readonly baseLocked: bigint;
  readonly quoteFree: bigint;
  readonly quoteLocked: bigint;
  readonly timeMs: number;
}

/** How close the client runs to the venue's limits, and how its connection is. */
export interface HedgeVenueStatus {
  /** The private stream (own fills) is up. */
  readonly streamUp: boolean;
  readonly weightUsed: number;
  readonly weightLimit: number;
  readonly ordersUsed: number;
  readonly ordersLimit: number;
  /** Until when the venue asked us to wait (429/418), ms on the injected clock; undefined = not waiting. */
  readonly blockedUntilMs: number | undefined;
  /** Venue clock minus ours, ms, as last measured. */
  readonly clockOffsetMs: number;
}

/** What a hedge venue tells its owner; synchronous, must not throw. */
export interface HedgeVenueListener {
  /** An order of ours changed (own fills from the private stream; duplicates possible). */
  onOrder(order: HedgeOrderState): void;
  /** The private stream went up or down (fills may then arrive only through queries). */
  onStreamStatus(isUp: boolean, reason: string): void;
}

/** A venue the bot hedges on. */
export interface HedgeVenue {
  /** `<venue>:<SYMBOL>`. */
  readonly market: string;
  /**
   * Measures the clock offset, reads the symbol's rules and the venue's limits, opens the
   * private stream.
   * @throws MmError when the symbol is unknown or not trading, the keys are refused, or the venue cannot be reached.
   */
  start(listener: HedgeVenueListener): Promise<HedgeRules>;
  /** Closes sockets and timers; idempotent. */
  stop(): Promise<void>;
  /**
   * Sends one order after checking it against the symbol's filters. Never retried by the venue.
   * @throws MmError `HEDGE_INVALID_ORDER` when it breaks a filter (nothing is sent).
   */
  placeOrder(request: HedgeOrderRequest): Promise<HedgePlaceOutcome>;
  /**
   * The order with this client id, live or finished.
   * @throws MmError when the venue cannot be asked now (retry later).
   */
  queryOrder(clientOrderId: string): Promise<HedgeQueryOutcome>;
  /**
   * Current balances.
   * @throws MmError when the venue cannot be asked now.
   */
  balances(): Promise<HedgeBalances>;
  status(): HedgeVenueStatus;
}

/** The result of walking one side of a book for a size. */
export interface BookWalk {
  /** Base size found (≤ the size asked for when the book runs out). */
  readonly qty: number;
  /** Average price of that size; undefined when nothing was found. */
  readonly averagePrice: number | undefined;
  /** Price of the last level reached. */
  readonly worstPrice: number | undefined;
}

/**
 * Walks book levels (best first) from cumulative size `from` to `to` (base tokens): what a taker
 * of that slice would pay or receive on average. A quote priced on the hedge cost uses the slice
 * its own fill would take, after every quote nearer the touch filled.
 */
export function walkLevels(levels: readonly ReferenceLevel[], from: number, to: number): BookWalk {
  let skipped = 0;
  let qty = 0;
  let notional = 0;
  let worstPrice: number | undefined;
  const wanted = Math.max(0, to - from);
  for (const level of levels) {
    if (qty >= wanted) break;
    let available = level.qty;
    if (skipped < from) {
      const skip = Math.min(available, from - skipped);
      skipped += skip;
      available -= skip;
    }
    if (available <= 0) continue;
    const take = Math.min(available, wanted - qty);
    qty += take;
    notional += take * level.price;
    worstPrice = level.price;
  }
  return { qty, averagePrice: qty > 0 ? notional / qty : undefined, worstPrice };
}

/**
 * What a strategy sees of the hedge venue (`MarketView.hedge`), filled in by the engine's hedger:
 * the hedge book in the quoted pair's price units, what the hedge costs, and what the hedge
 * account can still absorb. Numbers, for strategy math.
 */
export interface HedgeMarketView {
  /** Hedge book, best first, prices converted to the quoted pair's quote (× (1 + basis)). */
  readonly bids: readonly ReferenceLevel[];
  readonly asks: readonly ReferenceLevel[];
  /** Taker fee on the hedge venue (fraction). */
  readonly takerFee: number;
  /** Profit a quote must keep after every cost (HEDGE_MIN_PROFIT_BPS, fraction). */
  readonly minProfit: number;
  /** Base tokens the hedge account can still sell (free, less what hedges in flight and the uncovered long will sell). */
  readonly sellableBase: number;
  /** Quote tokens the hedge account can still spend (free, less what the uncovered short will buy). */
  readonly spendableQuote: number;
  /** Smallest hedge the venue accepts, base tokens. */
  readonly minQty: number;
  /** Uncovered position now, base tokens (positive: long on the quoted venue, to be sold on the hedge venue). */
  readonly uncoveredBase: number;
}
