/**
 * The hedge venue of a backtest: a recorded deep market (`backtest --hedge FILE`) replayed on the
 * session's clock beside the venue's recording, implementing the same ports the live hedger uses
 * (`HedgeVenue` for orders and balances, `ReferenceFeed` for its book). Hedge orders reach the
 * recorded book after the order latency and walk its depth there (taking liquidity without
 * removing it: the recording is the market); the answer comes back after the same latency again.
 * Fees are the taker fee, charged as Binance does (a buy's in base, a sell's in quote, rounded up).
 * Faults can be switched on for tests (refusals, expiries, unknown outcomes).
 */
import {
  type HedgeBalances,
  type HedgeOrderRequest,
  type HedgeOrderState,
  type HedgePlaceOutcome,
  type HedgeQueryOutcome,
  type HedgeRejectReason,
  type HedgeRules,
  type HedgeVenue,
  type HedgeVenueListener,
  type HedgeVenueStatus,
  type ManualClock,
  type ReferenceFeed,
  type ReferenceListener,
  type ReferenceStatus,
  type ReferenceTop,
} from '../../core/index.ts';
import type { EventScheduler } from '../scheduler.ts';
import type { HedgeRecording } from './hedge-recording.ts';
import { REPLAY_COUNTERS, RecordedBook, RecordingCursor, topChanged } from './recorded-book.ts';

/** Settings of a replayed hedge venue. */
export interface ReplayHedgeOptions {
  readonly recording: HedgeRecording;
  readonly clock: ManualClock;
  readonly scheduler: EventScheduler;
  /** Order entry latency, and the same again for the answer, ms. */
  readonly latencyMs: number;
  /** Taker fee, parts per 10^8. */
  readonly takerFeeE8: bigint;
  /** Starting balances, in the recording's base and quote units. */
  readonly initialBaseUnits: bigint;
  readonly initialQuoteUnits: bigint;
  /** NOTIONAL minimum, quote units (0 = none). */
  readonly minNotionalUnits: bigint;
  /** Called when something the engine awaits settles (the session lets promise callbacks run). */
  readonly onActivity: () => void;
}

/** Faults of the replayed hedge venue, for tests. */
export interface ReplayHedgeFaults {
  /** The next `count` orders are refused with this reason (nothing executes). */
  rejectNext(count: number, reason: HedgeRejectReason): void;
  /** The next `count` orders find no liquidity: they expire with nothing executed. */
  expireNext(count: number): void;
  /** The next `count` orders lose their answer (`unknown`); `applied`: they executed anyway. */
  unknownNext(count: number, applied: boolean): void;
}

const E8 = 100_000_000n;

/** A recorded hedge market that takes orders. */
export class ReplayHedgeVenue implements HedgeVenue {
  readonly market: string;
  readonly book: ReferenceFeed;
  readonly #options: ReplayHedgeOptions;
  readonly #rules: HedgeRules;
  readonly #recorded: RecordedBook;
  readonly #cursor: RecordingCursor;
  readonly #orders = new Map<string, HedgeOrderState>();
  readonly #faults = { reject: { count: 0, reason: 'other' as HedgeRejectReason }, expire: 0, unknown: { count: 0, applied: false } };
  #listener: HedgeVenueListener | undefined;
  #bookListener: ReferenceListener | undefined;
  #base: bigint;
  #quote: bigint;
  #lastTop: ReferenceTop | undefined;
  #nextVenueId = 1;
  /** Every order that reached the book, in order (tests). */
  readonly received: HedgeOrderRequest[] = [];

  constructor(options: ReplayHedgeOptions) {
    this.#options = options;
    const rules = options.recording.rules;
    this.market = `replay:${options.recording.header.symbol}`;
    this.#rules = {
      symbol: options.recording.header.symbol,
      base: rules.base,
      quote: rules.quote,
      status: 'TRADING',
      baseDecimals: rules.baseDecimals,
      quoteDecimals: rules.quoteDecimals,
      priceTick: rules.priceTick,
      minPrice: 0n,
      maxPrice: 0n,
      lotStep: rules.qtyStep,
      minQty: rules.qtyStep,
      maxQty: 0n,
      marketStep: rules.qtyStep,
      marketMinQty: rules.qtyStep,
      marketMaxQty: 0n,
      minNotional: options.minNotionalUnits,
      maxNotional: 0n,
      minNotionalForMarket: true,
      maxNotionalForMarket: false,
      takerFeeE8: options.takerFeeE8,
    };
    this.#base = options.initialBaseUnits;
    this.#quote = options.initialQuoteUnits;
    this.#recorded = new RecordedBook(options.recording);
    this.#cursor = new RecordingCursor(options.recording);
    this.book = this.#bookPort();
  }

  readonly faults: ReplayHedgeFaults = {
    rejectNext: (count, reason) => {
      this.#faults.reject = { count, reason };
    },
    expireNext: (count) => {
      this.#faults.expire = count;
    },
    unknownNext: (count, applied) => {
      this.#faults.unknown = { count, applied };
    },
  };

  /** Schedules the recorded messages up to `timeMs` (exchange time) on the session's clock. */
  scheduleUpTo(timeMs: number): void {
    this.#cursor.scheduleUpTo(timeMs, (at, first, end) => this.#options.scheduler.atOrder(at, () => this.#apply(first, end)));
  }

  // ── HedgeVenue ────────────────────────────────────────────────────────────────────────────

  async start(listener: HedgeVenueListener): Promise<HedgeRules> {
    this.#listener = listener;
    return this.#rules;
  }

  async stop(): Promise<void> {
    this.#listener = undefined;
  }

  placeOrder(request: HedgeOrderRequest): Promise<HedgePlaceOutcome> {
    this.#options.onActivity();
    const { clock, scheduler, latencyMs } = this.#options;
    return new Promise((resolve) => {
      scheduler.atOrder(clock.nowMs() + latencyMs, () => {
        const outcome = this.#execute(request);
        scheduler.atOrder(clock.nowMs() + latencyMs, () => {
          if (outcome.kind === 'accepted') this.#listener?.onOrder(outcome.order);
          this.#options.onActivity();
          resolve(outcome);
        });
      });
    });
  }

  async queryOrder(clientOrderId: string): Promise<HedgeQueryOutcome> {
    this.#options.onActivity();
    const order = this.#orders.get(clientOrderId);
    return order === undefined ? { kind: 'not-found' } : { kind: 'found', order };
  }

  async balances(): Promise<HedgeBalances> {
    this.#options.onActivity();
    return { baseFree: this.#base, baseLocked: 0n, quoteFree: this.#quote, quoteLocked: 0n, timeMs: this.#options.clock.nowMs() };
  }

  status(): HedgeVenueStatus {
    return { streamUp: true, weightUsed: 0, weightLimit: 0, ordersUsed: 0, ordersLimit: 0, blockedUntilMs: undefined, clockOffsetMs: 0 };
  }

  // ── matching ──────────────────────────────────────────────────────────────────────────────

  #execute(request: HedgeOrderRequest): HedgePlaceOutcome {
    const faults = this.#faults;
    if (faults.reject.count > 0) {
      faults.reject.count--;
      return { kind: 'rejected', reason: faults.reject.reason, message: `fault: refused (${faults.reject.reason})` };
    }
    const unknown = faults.unknown.count > 0;
    if (unknown) {
      faults.unknown.count--;
      if (!faults.unknown.applied) return { kind: 'unknown', message: 'fault: answer lost, not executed' };
    }
    this.received.push(request);
    const rules = this.#rules;
    const scale = 10n ** BigInt(rules.baseDecimals);
    const levels = faults.expire > 0 ? [] : this.#recorded.book.levels(request.side === 'buy' ? 'sell' : 'buy', 1_000);
    if (faults.expire > 0) faults.expire--;
    let remaining = request.qtyUnits;
    let executed = 0n;
    let quote = 0n;
    for (const level of levels) {
      if (remaining <= 0n) break;
      const price = BigInt(level.priceTicks) * this.#options.recording.rules.priceTick;
      if (request.type === 'ioc' && request.limitPriceUnits !== undefined && (request.side === 'buy' ? price > request.limitPriceUnits : price < request.limitPriceUnits)) break;
      const available = BigInt(level.qtyLots) * rules.lotStep;
      const take = available < remaining ? available : remaining;
      executed += take;
      quote += (take * price) / scale;
      remaining -= take;
    }
    const commission = request.side === 'buy' ? (executed * this.#options.takerFeeE8 + E8 - 1n) / E8 : (quote * this.#options.takerFeeE8 + E8 - 1n) / E8;
    if (request.side === 'buy' ? this.#quote < quote : this.#base < executed) {
      return { kind: 'rejected', reason: 'insufficient-balance', message: 'Account has insufficient balance for requested action.' };
    }
    if (request.side === 'buy') {
      this.#base += executed - commission;
      this.#quote -= quote;
    } else {
      this.#base -= executed;
      this.#quote += quote - commission;
    }
    const order: HedgeOrderState = {
      clientOrderId: request.clientOrderId,
      venueOrderId: String(this.#nextVenueId++),
      side: request.side,
      status: executed === request.qtyUnits ? 'FILLED' : 'EXPIRED',
      qtyUnits: request.qtyUnits,
      executedQtyUnits: executed,
      executedQuoteUnits: quote,
      commissionUnits: commission,
      commissionAsset: request.side === 'buy' ? rules.base : rules.quote,
      timeMs: this.#options.clock.nowMs(),
    };
    this.#orders.set(request.clientOrderId, order);
    return unknown ? { kind: 'unknown', message: 'fault: executed, answer lost' } : { kind: 'accepted', order };
  }

  /** Applies recorded events [first, end) (one exchange-time message) to the book. */
  #apply(first: number, end: number): void {
    this.#recorded.apply(first, end);
    const top = this.#top();
    if (top !== undefined && topChanged(this.#lastTop, top)) {
      this.#lastTop = top;
      this.#bookListener?.onTop(top);
    } else if (top === undefined) {
      this.#lastTop = undefined;
    }
  }

  #top(): ReferenceTop | undefined {
    return this.#recorded.top(this.#options.clock.nowMs());
  }

  /** The hedge book as a `ReferenceFeed` (what the hedger and xemm read). */
  #bookPort(): ReferenceFeed {
    const status = (): ReferenceStatus => {
      const top = this.#top();
      return {
        market: this.market,
        state: top === undefined ? 'resyncing' : 'synchronised',
        reason: top === undefined ? 'starting' : undefined,
        sinceMs: 0,
        lastUpdateMs: this.#options.clock.nowMs(),
        mid: top === undefined ? undefined : (top.bidPrice + top.askPrice) / 2,
        counters: { ...REPLAY_COUNTERS },
      };
    };
    return {
      market: this.market,
      start: async (listener) => {
        this.#bookListener = listener;
      },
      stop: async () => {
        this.#bookListener = undefined;
      },
      top: () => this.#top(),
      depth: (maxLevels) => this.#recorded.depth(maxLevels, this.#options.clock.nowMs()),
      status,
    };
  }
}
