/**
 * The exchange side of a replay venue, as `ReplayVenue` drives it (latency, reports, fees and
 * balances stay in the venue): the recorded book itself (`ReplayExchange`) or a simulated thin
 * venue priced off a recorded reference (`thin/ThinExchange`). Both take recorded market events,
 * hold our orders, and tell the venue about reports, fills and public trades through its host.
 */
import { pow10, type Clock, type MatcherResult, type OrderStatus, type Side, type TickerRules } from '../core/index.ts';

/** One of our orders inside a simulated exchange. */
export interface ReplayOrder {
  readonly orderId: string;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly postOnly: boolean;
  filledLots: number;
  /** Quote base units exchanged so far (exact). */
  filledQuoteUnits: bigint;
  /** Lots ahead of us at our price (queue model estimate; unused where time priority is exact). */
  front: number;
  status: OrderStatus;
}

/** A change to one of our orders that the local side must learn about. */
export interface ExchangeReport {
  readonly order: ReplayOrder;
  readonly lastFillPriceTicks: number | undefined;
  readonly lastFillIsMaker: boolean | undefined;
  readonly matcherResult: MatcherResult | undefined;
  /** The trade this report announces: its lots and quote units (the order's totals after it are on the order). */
  readonly lastFill?: { readonly lots: number; readonly quoteUnits: bigint };
}

/** Where the exchange sends reports (the venue schedules them after the response latency). */
export type ReportSink = (report: ExchangeReport) => void;

/** Who took one of our orders on a simulated thin venue, and what the fill cost against the reference. */
export interface FillTag {
  /** An uninformed taker, an arbitrageur, or (our order took liquidity) the background maker. */
  readonly counterparty: 'uninformed' | 'arbitrage' | 'background-maker';
  /** The reference's mid at the fill, quote tokens per base token. */
  readonly referenceMid: number;
  /** What the fill lost against that mid, quote tokens (negative: a gain); an arbitrage fill's pick-off cost. */
  readonly referenceLossQuote: number;
}

/** Balance changes of a fill, for the account (fees on receipt, SPEC §5); `tag` on a thin venue. */
export type FillSink = (order: ReplayOrder, lots: number, priceTicks: number, quoteUnits: bigint, isMaker: boolean, tag?: FillTag) => void;

/** A public trade at the venue, for the engine's trade feed (`aggressor` undefined: unknown). */
export type TradeSink = (aggressor: Side | undefined, priceTicks: number, qtyLots: number) => void;

/** The market's book without our orders: what the venue publishes as its top of book. */
export interface MarketBook {
  bestBidPrice(): number | undefined;
  bestAskPrice(): number | undefined;
  /** Size at a price on a side, lots (0 when absent). */
  sizeAt(side: Side, priceTicks: number): number;
}

/** What a replay venue offers the exchange it drives. */
export interface ExchangeHost {
  /** The venue's clock (exchange time). */
  readonly clock: Clock;
  readonly report: ReportSink;
  readonly fill: FillSink;
  readonly trade: TradeSink;
  /** Runs `run` at `timeMs` (≥ now) on the venue's time line, among order arrivals, in time order. */
  at(timeMs: number, run: () => void): void;
  /** The market book changed between recorded messages (a simulated maker re-quoted): publish its top. */
  bookChanged(): void;
  /** The gas of one taker trade at the current gas price, quote tokens. */
  takerGasQuote(): number;
}

/** The exchange a `ReplayVenue` drives. Recorded events arrive at exchange time, in order. */
export interface VenueExchange {
  /** The market without our orders (the engine's view of the venue's book). */
  readonly book: MarketBook;
  /** A recorded depth level (absolute size). */
  applyDepth(side: Side, priceTicks: number, qtyLots: number): void;
  /** A recorded venue message is complete (its levels all applied). */
  settleCrossings(): void;
  /** The recorded book is about to be replaced by a snapshot. */
  clearBook(): void;
  /** A recorded trade; `aggressor` undefined means unknown. */
  applyTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void;
  /** One of our orders reaches the exchange. */
  submit(orderId: string, side: Side, priceTicks: number, qtyLots: number, postOnly: boolean): void;
  /** A cancel reaches the exchange; false when there was nothing left to cancel. */
  cancel(orderId: string): boolean;
  /** Cancels every resting order of ours; returns how many. */
  cancelAll(): number;
  get(orderId: string): ReplayOrder | undefined;
  restingOrders(): ReplayOrder[];
  /** Our best resting price on a side (highest bid, lowest ask), ticks; undefined when none rests. */
  bestRestingPrice(side: Side): number | undefined;
}

/** Builds the exchange of a replay venue once the venue exists (`ReplayVenueOptions.exchange`). */
export type ExchangeFactory = (host: ExchangeHost) => VenueExchange;

/** Quote base units a fill of `lots` at `priceTicks` exchanges (exact, rounded down as the venue does). */
export function fillQuoteUnits(rules: TickerRules, priceTicks: number, lots: number): bigint {
  return (BigInt(priceTicks) * rules.priceTick * BigInt(lots) * rules.qtyStep) / pow10(rules.baseDecimals);
}
