/**
 * The replay `Venue`: what the engine talks to in a backtest. It puts honest time between the
 * engine and the simulated exchange: market data reaches the engine `feedLatencyMs` after the
 * exchange saw it; an order or cancel reaches the exchange after the entry latency and its answer
 * comes back after the response latency (hftbacktest's two timelines, MM-NOTES §2). All of it
 * runs on one `ManualClock`; the runner (`runner.ts`) feeds recorded events and drains what is due.
 */
import {
  MmError,
  pow10,
  unitsToNumber,
  type AccountState,
  type BestBidOffer,
  type CancelOutcome,
  type GasQuote,
  type GasSteps,
  type ManualClock,
  type OrderIntent,
  type OrderReport,
  type PlaceOutcome,
  type Side,
  type SignedOrder,
  type TickerRules,
  type TokenBalance,
  type Venue,
  type VenueInfo,
  type VenueListener,
} from '../core/index.ts';
import { feeOnReceipt } from '../engine/index.ts';
import type { LatencyModel } from './latency.ts';
import type { QueueModel } from './queue-model.ts';
import { ReplayExchange } from './replay-exchange.ts';
import type { EventScheduler } from './scheduler.ts';
import type { ExchangeFactory, ExchangeHost, ExchangeReport, FillTag, ReplayOrder, VenueExchange } from './venue-exchange.ts';

/** Settings of a replay venue. */
export interface ReplayVenueOptions {
  readonly rules: TickerRules;
  readonly clock: ManualClock;
  /** Parts per million of the received amount; negative = a maker rebate, at most the taker fee. */
  readonly makerFeePbips: number;
  /** Parts per million of the received amount, ≥ 0. */
  readonly takerFeePbips: number;
  readonly steps: GasSteps;
  /** Gas price (STRK base units per step) until the recording says otherwise. */
  readonly gasPriceUnits: bigint;
  /** Quote tokens per STRK, to charge gas in quote. */
  readonly quotePerStrk: number;
  readonly latency: LatencyModel;
  /** Exchange → engine delay of market data, ms. */
  readonly feedLatencyMs: number;
  readonly queue: QueueModel;
  /** The scheduler to deliver on: the session's, which every pair of the account shares (one clock). */
  readonly scheduler: EventScheduler;
  /**
   * The account's balances, which every pair's venue on it shares (one pair alone is an account
   * of one): fills settle into it, free balance and `fetchAccount` read it.
   */
  readonly account: SharedReplayFunds;
  /**
   * The exchange behind the venue; default the recorded book itself (`ReplayExchange` with
   * `queue`). A thin venue priced off the recording: `thinExchangeFactory` (thin/).
   */
  readonly exchange?: ExchangeFactory;
  /** Told of each of our fills once it is in `fills` (the session's markout recorder); default none. */
  readonly onFill?: (fill: VenueFill) => void;
}

/** One account's balances, shared by the replay venues of its pairs. */
export interface SharedReplayFunds {
  /** A token's total minus what every pair's resting orders lock, base units. */
  freeUnits(token: string): bigint;
  /** Applies one pair's fill (signed changes of its base and quote); throws when a balance would go negative. */
  settle(base: string, baseDelta: bigint, quote: string, quoteDelta: bigint): void;
  /** Every token's total and locked amount, base units. */
  balances(): Map<string, TokenBalance>;
}

/** One fill at the exchange, for the report: what, where the market stood, what it cost. */
export interface VenueFill {
  /** Exchange time of the fill, ms. */
  readonly timeMs: number;
  readonly orderId: string;
  readonly side: Side;
  /** Price in quote tokens per base token, size in base tokens. */
  readonly price: number;
  readonly size: number;
  readonly isMaker: boolean;
  /** Fee charged on what the fill delivered, valued in quote tokens at the fill price. */
  readonly feeQuote: number;
  /** On a thin venue: who took the order and what the fill cost against the reference's mid. */
  readonly tag?: FillTag;
}

/** Requests the venue received, counted apart from the engine's scorecard (a test holds them equal). */
export interface VenueActivity {
  readonly ordersSent: number;
  readonly cancelsSent: number;
}

/** Gas and fees charged so far, for the report. */
export interface ReplayCosts {
  readonly gasQuote: number;
  readonly feesBaseUnits: bigint;
  readonly feesQuoteUnits: bigint;
}

/** A venue over a replayed recording. */
export class ReplayVenue implements Venue {
  readonly scheduler: EventScheduler;
  readonly exchange: VenueExchange;
  private listener: VenueListener | undefined;
  private readonly clock: ManualClock;
  private gasQuoteTotal = 0;
  private feesBaseUnits = 0n;
  private feesQuoteUnits = 0n;
  private gasPriceUnits: bigint;
  private nextOrderId = 1;
  /** The top last published, with its prices in base units: most changes are of size only, and a price's BigInt is reused then. */
  private readonly lastLocalTop: { bid: number | undefined; bidQty: number; ask: number | undefined; askQty: number; bidUnits: bigint | undefined; askUnits: bigint | undefined } = {
    bid: undefined,
    bidQty: 0,
    ask: undefined,
    askQty: 0,
    bidUnits: undefined,
    askUnits: undefined,
  };
  private readonly pendingAcks = new Map<string, (outcome: PlaceOutcome) => void>();
  private messageOpen = false;
  /** Count of engine calls into the venue: the runner flushes promise callbacks when it moves. */
  activity = 0;
  /** Every fill at the exchange, in order. */
  readonly fills: VenueFill[] = [];
  private readonly requests = { ordersSent: 0, cancelsSent: 0 };

  /** @throws MmError `BACKTEST_INVALID_FEES` for a negative taker fee, or a maker rebate beyond the taker fee. */
  constructor(private readonly options: ReplayVenueOptions) {
    checkFees(options.makerFeePbips, options.takerFeePbips);
    this.clock = options.clock;
    this.scheduler = options.scheduler;
    this.gasPriceUnits = options.gasPriceUnits;
    const host: ExchangeHost = {
      clock: options.clock,
      report: (report) => this.scheduleReport(report),
      fill: (order, lots, priceTicks, quoteUnits, isMaker, tag) => this.settleFill(order, lots, priceTicks, quoteUnits, isMaker, tag),
      trade: (aggressor, priceTicks, qtyLots) => this.publishTrade(aggressor, priceTicks, qtyLots),
      at: (timeMs, run) => this.scheduler.atOrder(timeMs, run),
      bookChanged: () => this.publishTopIfChanged(),
      takerGasQuote: () => this.gasCostQuote(options.steps.trade),
    };
    this.exchange = options.exchange?.(host) ?? new ReplayExchange(options.rules, options.queue, host.report, host.fill, host.trade);
  }

  // ── recorded market data (called by the runner at exchange time) ─────────────────────────

  /**
   * A recorded depth level. Levels of one venue message share a timestamp and are applied
   * together: crossings are settled and the top of book published by `endOfMessage`.
   */
  onDepth(side: Side, priceTicks: number, qtyLots: number): void {
    this.exchange.applyDepth(side, priceTicks, qtyLots);
    this.messageOpen = true;
  }

  /** Closes the current venue message: settle crossings, publish the top if it changed. */
  endOfMessage(): void {
    if (!this.messageOpen) return;
    this.messageOpen = false;
    this.exchange.settleCrossings();
    this.publishTopIfChanged();
  }

  /** A snapshot is about to replace the book. */
  onClear(): void {
    this.exchange.clearBook();
  }

  /** A recorded trade: fills our orders at the exchange; the exchange's public trades reach the engine. */
  onTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.endOfMessage();
    this.exchange.applyTrade(aggressor, priceTicks, qtyLots);
  }

  /** A public trade at the exchange, for the engine's trade feed (after the feed latency). */
  private publishTrade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    const rules = this.options.rules;
    const trade = {
      priceUnits: BigInt(priceTicks) * rules.priceTick,
      qtyUnits: BigInt(qtyLots) * rules.qtyStep,
      aggressor,
      timeMs: this.clock.nowMs(),
    };
    if (this.options.feedLatencyMs === 0) this.listener?.onTrade(trade);
    else this.scheduler.atMarket(this.clock.nowMs() + this.options.feedLatencyMs, () => this.listener?.onTrade(trade));
  }

  /** A recorded gas price (STRK base units per step). */
  onGasPrice(gasPriceUnits: bigint): void {
    this.gasPriceUnits = gasPriceUnits;
    const quote = this.gasQuote();
    this.scheduler.atMarket(this.clock.nowMs() + this.options.feedLatencyMs, () => this.listener?.onGasQuote(quote));
  }

  /** Orders, cancels and filled orders so far. */
  orderActivity(): VenueActivity {
    return { ...this.requests };
  }

  /** Charged costs so far. */
  costs(): ReplayCosts {
    return { gasQuote: this.gasQuoteTotal, feesBaseUnits: this.feesBaseUnits, feesQuoteUnits: this.feesQuoteUnits };
  }

  // ── the Venue port ────────────────────────────────────────────────────────────────────────

  async start(listener: VenueListener): Promise<VenueInfo> {
    this.listener = listener;
    listener.onGasQuote(this.gasQuote());
    return { rules: this.options.rules, makerFeePbips: this.options.makerFeePbips, takerFeePbips: this.options.takerFeePbips, steps: this.options.steps };
  }

  async stop(): Promise<void> {
    this.listener = undefined;
  }

  signOrder(intent: OrderIntent): Promise<SignedOrder> {
    this.activity++;
    return Promise.resolve({ orderId: `replay-${this.nextOrderId++}`, intent });
  }

  submitOrder(order: SignedOrder): Promise<PlaceOutcome> {
    this.activity++;
    const rules = this.options.rules;
    const { intent } = order;
    if (intent.priceUnits % rules.priceTick !== 0n || intent.qtyUnits % rules.qtyStep !== 0n) {
      return Promise.resolve({ kind: 'rejected', orderId: order.orderId, reason: 'WRONG_INPUT' });
    }
    this.requests.ordersSent++;
    const sentAt = this.clock.nowMs();
    const arriveAt = sentAt + this.options.latency.entryMs('place', sentAt);
    const answerAt = arriveAt + this.options.latency.responseMs('place', arriveAt);
    return new Promise((resolve) => {
      this.pendingAcks.set(order.orderId, resolve);
      this.scheduler.atOrder(arriveAt, () => {
        // Like the venue, refuse what the free balance cannot cover (NOT_ENOUGH_BALANCE).
        const reason = this.hasFreeBalanceFor(intent) ? undefined : 'NOT_ENOUGH_BALANCE';
        if (reason === undefined) {
          this.exchange.submit(order.orderId, intent.side, Number(intent.priceUnits / rules.priceTick), Number(intent.qtyUnits / rules.qtyStep), intent.postOnly);
        }
        const status = this.exchange.get(order.orderId)?.status;
        const outcome: PlaceOutcome =
          reason !== undefined
            ? { kind: 'rejected', orderId: order.orderId, reason }
            : status === 'NOT_PROCESSED'
              ? { kind: 'rejected', orderId: order.orderId, reason: 'FAILED_VALIDATION' }
              : { kind: 'accepted', orderId: order.orderId };
        this.scheduler.atOrder(answerAt, () => {
          this.pendingAcks.delete(order.orderId);
          this.answer(resolve, outcome);
        });
      });
    });
  }

  prepareOrders(): void {
    // Nothing to sign in a replay.
  }

  cancelOrder(orderId: string): Promise<CancelOutcome> {
    this.activity++;
    this.requests.cancelsSent++;
    const sentAt = this.clock.nowMs();
    const arriveAt = sentAt + this.options.latency.entryMs('cancel', sentAt);
    const answerAt = arriveAt + this.options.latency.responseMs('cancel', arriveAt);
    this.chargeGas(this.options.steps.cancel);
    return new Promise((resolve) => {
      this.scheduler.atOrder(arriveAt, () => {
        const cancelled = this.exchange.cancel(orderId);
        this.scheduler.atOrder(answerAt, () => this.answer(resolve, cancelled ? { kind: 'accepted' } : { kind: 'rejected', reason: 'NOT_FOUND' }));
      });
    });
  }

  cancelAll(): Promise<CancelOutcome> {
    this.activity++;
    this.requests.cancelsSent++;
    const sentAt = this.clock.nowMs();
    const arriveAt = sentAt + this.options.latency.entryMs('cancel', sentAt);
    const answerAt = arriveAt + this.options.latency.responseMs('cancel', arriveAt);
    return new Promise((resolve) => {
      this.scheduler.atOrder(arriveAt, () => {
        this.exchange.cancelAll();
        this.scheduler.atOrder(answerAt, () => this.answer(resolve, { kind: 'accepted' }));
      });
    });
  }

  increaseNonce(): Promise<CancelOutcome> {
    this.chargeGas(this.options.steps.nonce);
    return this.cancelAll();
  }

  async fetchOpenOrders(): Promise<OrderReport[]> {
    this.activity++;
    return this.exchange.restingOrders().map((order) => this.toReport(order, undefined, undefined, undefined));
  }

  async fetchOrder(orderId: string): Promise<OrderReport | undefined> {
    this.activity++;
    const order = this.exchange.get(orderId);
    return order === undefined ? undefined : this.toReport(order, undefined, undefined, undefined);
  }

  async fetchAccount(): Promise<AccountState> {
    this.activity++;
    return { balances: this.options.account.balances(), nonce: 0 };
  }

  gasQuote(): GasQuote {
    return { gasPriceUnits: this.gasPriceUnits, quotePerStrk: this.options.quotePerStrk, timeMs: this.clock.nowMs() };
  }

  // ── internals ─────────────────────────────────────────────────────────────────────────────

  /** Settles a request the engine awaits; counts as activity so the runner lets it react now. */
  private answer<T>(resolve: (value: T) => void, value: T): void {
    this.activity++;
    resolve(value);
  }

  private publishTopIfChanged(): void {
    const book = this.exchange.book;
    const bid = book.bestBidPrice();
    const ask = book.bestAskPrice();
    const bidQty = bid === undefined ? 0 : book.sizeAt('buy', bid);
    const askQty = ask === undefined ? 0 : book.sizeAt('sell', ask);
    const last = this.lastLocalTop;
    if (bid === last.bid && ask === last.ask && bidQty === last.bidQty && askQty === last.askQty) return;
    const rules = this.options.rules;
    if (bid !== last.bid) last.bidUnits = bid === undefined ? undefined : BigInt(bid) * rules.priceTick;
    if (ask !== last.ask) last.askUnits = ask === undefined ? undefined : BigInt(ask) * rules.priceTick;
    last.bid = bid;
    last.ask = ask;
    last.bidQty = bidQty;
    last.askQty = askQty;
    const top: BestBidOffer = {
      bidPriceUnits: last.bidUnits,
      bidQtyUnits: BigInt(bidQty) * rules.qtyStep,
      askPriceUnits: last.askUnits,
      askQtyUnits: BigInt(askQty) * rules.qtyStep,
      timeMs: this.clock.nowMs(),
    };
    if (this.options.feedLatencyMs === 0) this.listener?.onTopOfBook(top);
    else this.scheduler.atMarket(this.clock.nowMs() + this.options.feedLatencyMs, () => this.listener?.onTopOfBook(top));
  }

  private scheduleReport(report: ExchangeReport): void {
    const now = this.clock.nowMs();
    const at = now + this.options.latency.responseMs('place', now);
    const snapshot = this.toReport(report.order, report.lastFillPriceTicks, report.lastFillIsMaker, report.matcherResult, report.lastFill);
    this.scheduler.atOrder(at, () => this.listener?.onOrderReport(snapshot));
  }

  private settleFill(order: ReplayOrder, lots: number, priceTicks: number, quoteUnits: bigint, isMaker: boolean, tag: FillTag | undefined): void {
    const rules = this.options.rules;
    const qtyUnits = BigInt(lots) * rules.qtyStep;
    const pbips = isMaker ? this.options.makerFeePbips : this.options.takerFeePbips;
    const price = unitsToNumber(BigInt(priceTicks) * rules.priceTick, rules.quoteDecimals);
    let feeQuote: number;
    let baseDelta: bigint;
    let quoteDelta: bigint;
    if (order.side === 'buy') {
      const fee = feeOnReceipt(qtyUnits, pbips);
      baseDelta = qtyUnits - fee;
      quoteDelta = -quoteUnits;
      this.feesBaseUnits += fee;
      feeQuote = unitsToNumber(fee, rules.baseDecimals) * price;
    } else {
      const fee = feeOnReceipt(quoteUnits, pbips);
      baseDelta = -qtyUnits;
      quoteDelta = quoteUnits - fee;
      this.feesQuoteUnits += fee;
      feeQuote = unitsToNumber(fee, rules.quoteDecimals);
    }
    const fill: VenueFill = {
      timeMs: this.clock.nowMs(),
      orderId: order.orderId,
      side: order.side,
      price,
      size: unitsToNumber(qtyUnits, rules.baseDecimals),
      isMaker,
      feeQuote,
      ...(tag === undefined ? {} : { tag }),
    };
    this.fills.push(fill);
    this.options.onFill?.(fill);
    if (!isMaker) this.chargeGas(this.options.steps.trade);
    // The replay does not lock balances; a strategy that overspends is a configuration error (the account throws).
    this.options.account.settle(rules.base, baseDelta, rules.quote, quoteDelta);
  }

  private hasFreeBalanceFor(intent: OrderIntent): boolean {
    const { account, rules } = this.options;
    return intent.side === 'sell' ? account.freeUnits(rules.base) >= intent.qtyUnits : account.freeUnits(rules.quote) >= (intent.priceUnits * intent.qtyUnits) / pow10(rules.baseDecimals);
  }

  private chargeGas(steps: number): void {
    if (steps <= 0) return;
    this.gasQuoteTotal += this.gasCostQuote(steps);
  }

  /** The gas of `steps` at the current gas price, quote tokens. */
  private gasCostQuote(steps: number): number {
    return unitsToNumber(this.gasPriceUnits * BigInt(steps), 18) * this.options.quotePerStrk;
  }

  /** What this pair's resting orders lock, base units of its base and quote tokens. */
  lockedUnits(): { base: bigint; quote: bigint } {
    const rules = this.options.rules;
    let base = 0n;
    let quote = 0n;
    const scale = pow10(rules.baseDecimals);
    for (const order of this.exchange.restingOrders()) {
      const remaining = BigInt(order.qtyLots - order.filledLots) * rules.qtyStep;
      if (order.side === 'sell') base += remaining;
      else quote += (BigInt(order.priceTicks) * rules.priceTick * remaining) / scale;
    }
    return { base, quote };
  }

  private toReport(
    order: ReplayOrder,
    lastFillPriceTicks: number | undefined,
    lastFillIsMaker: boolean | undefined,
    matcherResult: OrderReport['matcherResult'],
    lastFill?: { readonly lots: number; readonly quoteUnits: bigint },
  ): OrderReport {
    const rules = this.options.rules;
    const filledQtyUnits = BigInt(order.filledLots) * rules.qtyStep;
    return {
      orderId: order.orderId,
      status: order.status,
      side: order.side,
      priceUnits: BigInt(order.priceTicks) * rules.priceTick,
      qtyUnits: BigInt(order.qtyLots) * rules.qtyStep,
      filledQtyUnits,
      filledQuoteUnits: order.filledQuoteUnits,
      lastFillPriceUnits: lastFillPriceTicks === undefined ? undefined : BigInt(lastFillPriceTicks) * rules.priceTick,
      lastFillIsMaker,
      matcherResult,
      timeMs: this.clock.nowMs(),
      ...(lastFill === undefined
        ? {}
        : { lastTrade: { qtyUnits: BigInt(lastFill.lots) * rules.qtyStep, quoteUnits: lastFill.quoteUnits, cumulativeQtyUnits: filledQtyUnits, cumulativeQuoteUnits: order.filledQuoteUnits } }),
    };
  }
}

/**
 * Fees a venue can have: a taker fee ≥ 0 and a maker fee ≥ −taker. A rebate larger than the taker
 * fee would pay a trader for trading with himself; no venue offers one.
 */
function checkFees(makerPbips: number, takerPbips: number): void {
  if (!Number.isInteger(takerPbips) || takerPbips < 0) throw new MmError('BACKTEST_INVALID_FEES', `taker fee ${takerPbips} pbips: allowed a whole number ≥ 0`);
  if (!Number.isInteger(makerPbips) || makerPbips < -takerPbips) {
    throw new MmError('BACKTEST_INVALID_FEES', `maker fee ${makerPbips} pbips: allowed a whole number ≥ −taker fee (−${takerPbips}); negative = a rebate`);
  }
}
