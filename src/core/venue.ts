/**
 * The `Venue` port: everything the engine may ask of an exchange, and everything an exchange
 * tells the engine. The live adapter (`src/exchange`, talking to LayerAkira or the embedded
 * exchange) and the replay venue (`src/backtest`) implement it; the engine cannot tell them
 * apart (ARCHITECTURE "ports, not conditionals"). Amounts are `bigint` base units; times are ms
 * on the injected clock.
 */
import type { MatcherResult, OrderStatus, Side } from './types.ts';
import type { TickerRules } from './rules.ts';

/** What the engine learns when it connects. */
export interface VenueInfo {
  readonly rules: TickerRules;
  /**
   * Our fees on this pair, parts per million (1000 pbips = 10 bps). The maker fee may be negative:
   * a rebate, credited on the received amount (a backtest's `--maker-pbips`, ≥ −taker; LayerAkira
   * signs its fees as u32, so its own are never negative). The taker fee is ≥ 0.
   */
  readonly makerFeePbips: number;
  readonly takerFeePbips: number;
  /** Gas steps per action (SPEC §5). `cancel` is 0 where cancels are off-chain. */
  readonly steps: GasSteps;
}

/** Gas steps charged per action. */
export interface GasSteps {
  readonly trade: number;
  readonly cancel: number;
  readonly nonce: number;
  readonly withdraw: number;
}

/** Current cost of gas, to price actions in quote units. */
export interface GasQuote {
  /** STRK base units (fri) per gas step, as served by `/gas/price`. */
  readonly gasPriceUnits: bigint;
  /** Quote tokens per one STRK (from a book mid or the venue's rate); undefined when unknown. */
  readonly quotePerStrk: number | undefined;
  readonly timeMs: number;
}

/** Best bid and offer; a side is undefined when empty. */
export interface BestBidOffer {
  readonly bidPriceUnits: bigint | undefined;
  readonly bidQtyUnits: bigint;
  readonly askPriceUnits: bigint | undefined;
  readonly askQtyUnits: bigint;
  readonly timeMs: number;
  /**
   * True when this top was recomputed because our own orders changed (the venue's top excludes
   * our resting size), not because market data arrived: it proves nothing about the feed, so
   * the dead-man switch must not count it.
   */
  readonly fromOwnOrders?: boolean;
}

/** A public trade. `aggressor` is the taker's side, undefined when the feed does not say. */
export interface VenueTrade {
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  readonly aggressor: Side | undefined;
  readonly timeMs: number;
}

/** An order the engine wants to rest (or take). */
export interface OrderIntent {
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  /** Post-only: rejected rather than taking liquidity. The bot's quotes always are. */
  readonly postOnly: boolean;
}

/**
 * The state of one of our orders as the venue reports it. Fill amounts are CUMULATIVE, so a
 * duplicated or reordered report can never double-count: the engine keeps the maximum.
 */
export interface OrderReport {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  /** Cumulative base filled. */
  readonly filledQtyUnits: bigint;
  /** Cumulative quote exchanged. */
  readonly filledQuoteUnits: bigint;
  /** Price of the latest fill this report carries, if any. */
  readonly lastFillPriceUnits: bigint | undefined;
  /** True when our side of the latest fill was the maker. */
  readonly lastFillIsMaker: boolean | undefined;
  /**
   * The one trade this report announces, when it announces one (an execution report; not a REST
   * read): its own amounts and the order's cumulative amounts right after it. Fees are charged per
   * trade (ceil each), so when reports arrive reordered or merged the engine still charges what
   * the venue charged; a report older than what is known may still bring a trade.
   */
  readonly lastTrade?: ReportedTrade;
  readonly matcherResult: MatcherResult | undefined;
  readonly timeMs: number;
}

/** One trade of one of our orders. */
export interface ReportedTrade {
  /** Base and quote exchanged by this trade. */
  readonly qtyUnits: bigint;
  readonly quoteUnits: bigint;
  /** The order's cumulative base and quote right after this trade (identifies it). */
  readonly cumulativeQtyUnits: bigint;
  readonly cumulativeQuoteUnits: bigint;
}

/** Balances of one token. */
export interface TokenBalance {
  readonly total: bigint;
  readonly locked: bigint;
}

/** Our balances and nonce as the venue holds them. */
export interface AccountState {
  readonly balances: ReadonlyMap<string, TokenBalance>;
  readonly nonce: number;
}

/**
 * An order signed and ready to send. Its id (the order hash) is known before it is sent, so the
 * engine records it first and a report that beats the HTTP response is never "unknown".
 */
export interface SignedOrder {
  readonly orderId: string;
  readonly intent: OrderIntent;
}

/** Result of a placement. */
export type PlaceOutcome =
  | { readonly kind: 'accepted'; readonly orderId: string }
  | { readonly kind: 'rejected'; readonly orderId: string; readonly reason: string; readonly signerError?: SignerFailure }
  | { readonly kind: 'unknown'; readonly orderId: string; readonly reason: string };

/**
 * Result of a cancel request. For cancel-all and the nonce increase (queued actions: a 200 only
 * means "accepted for processing", SPEC §5) a live venue returns `accepted` only once it saw the
 * effect (our open orders gone; the nonce raised), `rejected` when the venue failed the request
 * after accepting it (a `fail` report), and `unconfirmed` when the effect did not show within
 * the venue's bound even after a retry: the orders may still rest / the old nonce may still hold.
 */
export type CancelOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected'; readonly reason: string; readonly signerError?: SignerFailure }
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'unconfirmed'; readonly reason: string };

/** The requests a venue reports on after accepting them. */
export type VenueAction = 'place' | 'cancel' | 'cancel-all' | 'increase-nonce' | 'withdraw' | 'unknown';

/**
 * Something went wrong with a request after the venue accepted it. The venue also asks for a
 * resync (`onResync('missed-fills')`) where our order state may be stale, so an engine that
 * ignores alerts still heals; the alert says which action failed, so the engine can pause or halt.
 */
export type VenueAlert =
  /** A `fail` report: the venue dropped the request (nothing of it was applied). */
  | {
      readonly kind: 'request-failed';
      readonly action: VenueAction;
      /** The request's hash (the order hash for `place`), 0x-hex. */
      readonly requestHash: string;
      /** Our order it concerns, when the venue names one we know. */
      readonly orderId: string | undefined;
      /** The venue's error code or report type. */
      readonly reason: string;
      readonly timeMs: number;
    }
  /** The effect of an accepted cancel-all / nonce increase / withdraw did not show in time. */
  | {
      readonly kind: 'action-unconfirmed';
      readonly action: VenueAction;
      readonly requestHash: string;
      readonly reason: string;
      readonly timeMs: number;
    };

/**
 * Set on a rejection when the signer, not the exchange, turned the request down (nothing was
 * sent): `SIGNER_REFUSED`, the signing policy forbids it (a security event, counted in
 * `akira_mm_signing_refused_total`); `SIGNER_UNAVAILABLE`, the remote signer cannot be reached
 * (cancels cannot be signed either until it is back).
 */
export type SignerFailure = 'SIGNER_REFUSED' | 'SIGNER_UNAVAILABLE';

/** Why the venue thinks the engine's view may be stale. */
export type ResyncReason = 'reconnected' | 'sequence-gap' | 'missed-fills' | 'restarted';

/** What a venue tells the engine; all callbacks are synchronous and must not throw. */
export interface VenueListener {
  onTopOfBook(top: BestBidOffer): void;
  onTrade(trade: VenueTrade): void;
  onOrderReport(report: OrderReport): void;
  onGasQuote(quote: GasQuote): void;
  /** Our order/fill state may be stale: heal from `fetchOpenOrders` / `fetchAccount`. */
  onResync(reason: ResyncReason): void;
  /** Market-data feed up or down (the dead-man switch watches it). */
  onFeedStatus(isUp: boolean): void;
  /** A request failed or could not be confirmed after the venue accepted it (optional). */
  onVenueAlert?(alert: VenueAlert): void;
}

/** The exchange as the engine sees it. */
export interface Venue {
  /** Connects, subscribes, and returns the pair's rules, fees and gas steps. */
  start(listener: VenueListener): Promise<VenueInfo>;
  /** Stops streams and timers; idempotent. Does not cancel orders (the engine does that first). */
  stop(): Promise<void>;
  /** Builds and signs an order (instantly when it was pre-signed by `prepareOrders`). */
  signOrder(intent: OrderIntent): Promise<SignedOrder>;
  /** Sends a signed order. Never blindly retried: an unknown outcome is resolved by its id. */
  submitOrder(order: SignedOrder): Promise<PlaceOutcome>;
  /**
   * Hint: these orders are likely soon; sign them ahead of time so a later `signOrder` with the
   * same side, price, size and flags returns at once. Venues may ignore it.
   */
  prepareOrders(intents: readonly OrderIntent[]): void;
  cancelOrder(orderId: string): Promise<CancelOutcome>;
  /** Cancels every order of ours on this pair. */
  cancelAll(): Promise<CancelOutcome>;
  /** On-chain kill switch: invalidates every order with a lower nonce (costs gas). */
  increaseNonce(): Promise<CancelOutcome>;
  /** Our live orders on this pair, from the venue's own records. */
  fetchOpenOrders(): Promise<OrderReport[]>;
  /** One order by id, live or historic; undefined when the venue does not know it. */
  fetchOrder(orderId: string): Promise<OrderReport | undefined>;
  fetchAccount(): Promise<AccountState>;
  /** Latest gas quote. */
  gasQuote(): GasQuote | undefined;
}
