/**
 * The venue's market side: one WS stream with our fills, the pair's `bbo`, `trade` and `snap`
 * (into a local book), and the fee-token/STRK `bbo` whose mid prices the gas conversion rate
 * (SPEC §5). It turns events into the engine's shapes and keeps the top of book honest on a quiet
 * market by reading `/book/bbo` when no `bbo` event came for a while (the venue sends `bbo` only
 * on change; a quiet book is not a dead feed, and a REST read proves it).
 */
import { getToken, type BestBidOffer, type Side, type ChainInfo, type Clock, type Logger, type Pair, type Rng, type Timer, type TokenInfo, type VenueTrade } from '../../core/index.ts';
import type { PriceLevel, RestClient, TickerSpec } from '../client/index.ts';
import { BookSync, MarketStream, type ExecutionReport, type StreamEvent, type StreamHandlers, type StreamTiming, type Topic } from '../stream/index.ts';
import { rateFromBookMid, type ConversionRateUnits } from '../gas/index.ts';
import type { LocalBook } from '../book/index.ts';
import { feltToHex } from '../wire/fields.ts';
import type { AnomalySink } from '../wire/anomalies.ts';
import type { ActionReport } from './queued-actions.ts';

/** The fee-token/STRK book whose mid prices the conversion rate. */
export interface FeeBook {
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
}

/**
 * The book between the fee token and STRK, either way round, the ecosystem book preferred;
 * undefined when gas is paid in STRK or the venue lists no such book.
 */
export function findFeeBook(chain: ChainInfo, feeToken: TokenInfo, specs: readonly TickerSpec[]): FeeBook | undefined {
  if (feeToken.symbol === 'STRK') return undefined;
  const candidates = specs.filter((s) => (s.base === 'STRK' && s.quote === feeToken.symbol) || (s.base === feeToken.symbol && s.quote === 'STRK'));
  const spec = candidates.find((s) => s.isEcosystemBook) ?? candidates[0];
  if (spec === undefined) return undefined;
  const strk = getToken(chain, 'STRK');
  const [base, quote] = spec.base === 'STRK' ? [strk, feeToken] : [feeToken, strk];
  return { pair: { base: base.symbol, quote: quote.symbol }, ecosystem: spec.isEcosystemBook, base, quote };
}

/** What the feed reports. Handlers must not throw (they are guarded anyway). */
export interface MarketFeedHandlers {
  onTopOfBook(top: BestBidOffer): void;
  onTrade(trade: VenueTrade): void;
  /** An execution report of the pair we trade. */
  onExecution(report: ExecutionReport): void;
  /** A fresh conversion rate from the fee-token/STRK book. */
  onFeeRate(rate: ConversionRateUnits): void;
  onFeedStatus(isUp: boolean): void;
  /** A reconnect completed: events may have been missed. */
  onReconnected(): void;
  /** A fail, settled (rollup) or cancel-all report on our private stream. */
  onPrivateReport(report: ActionReport): void;
  /** A private frame could not be read at all: a fill may be lost. */
  onUnreadableFill(): void;
}

/** Settings and collaborators of a {@link MarketFeed}. */
export interface MarketFeedOptions {
  readonly chain: ChainInfo;
  readonly account: bigint;
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly feeToken: TokenInfo;
  readonly feeBook: FeeBook | undefined;
  readonly wsUrl: string;
  readonly signerKey: bigint;
  /** Keep a local book from `snap`. */
  readonly keepBook: boolean;
  /** See LiveVenueSettings.topOfBookRefreshMs; 0 disables. */
  readonly topOfBookRefreshMs: number;
  readonly streamTiming?: StreamTiming;
  /** Where the stream reports oddities it read past. */
  readonly anomalies?: AnomalySink;
  readonly rest: RestClient;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly handlers: MarketFeedHandlers;
  /**
   * Our own resting size at a price. The top of book passed on excludes it: a market maker that
   * prices off a book holding its own quotes chases itself (the mid walks with every requote).
   */
  readonly ownRestingQty?: (side: Side, priceUnits: bigint) => bigint;
  /**
   * The connection this feed subscribes on. Default: a WS connection of its own. Pairs that share
   * an account share one connection (`AccountSession`): the factory then hands back a channel of
   * it that delivers every event to this feed (which keeps its own pair's) and subscribes once.
   */
  readonly stream?: (handlers: StreamHandlers) => FeedStream;
}

/** The part of a WS connection a feed uses (a `MarketStream`, or a channel of a shared one). */
export interface FeedStream {
  start(): Promise<void>;
  stop(): Promise<void>;
  subscribe(topic: Topic): Promise<void>;
  readonly stats: MarketStream['stats'];
}

/** The market-data and fills feed of one pair. */
export class MarketFeed {
  readonly #options: MarketFeedOptions;
  readonly #stream: FeedStream;
  readonly #bookSync: BookSync | undefined;
  #topTimer: Timer | undefined;
  #lastTopMs = 0;
  /** The last top passed on was read from the book (our orders were at the top). */
  #lastTopFromBook = false;
  #stopped = false;

  constructor(options: MarketFeedOptions) {
    this.#options = options;
    const { rest, clock, rng, logger, pair, ecosystem } = options;
    this.#bookSync = options.keepBook
      ? new BookSync({ fetchSnapshot: () => rest.snapshot(pair, ecosystem), clock, rng, logger: logger.child({ book: `${pair.base}/${pair.quote}` }) })
      : undefined;
    const handlers: StreamHandlers = {
      onEvent: (event) => this.#onEvent(event),
      onStatus: (isUp) => options.handlers.onFeedStatus(isUp),
      onReconnected: () => {
        this.#bookSync?.resync('reconnected');
        void this.refreshTopOfBook();
        options.handlers.onReconnected();
      },
      onUnreadableFill: () => options.handlers.onUnreadableFill(),
    };
    this.#stream =
      options.stream?.(handlers) ??
      new MarketStream({
        url: options.wsUrl,
        signerKey: options.signerKey,
        chain: options.chain,
        keys: rest,
        clock,
        rng,
        logger,
        defaultPair: pair,
        handlers,
        ...(options.streamTiming === undefined ? {} : { timing: options.streamTiming }),
        ...(options.anomalies === undefined ? {} : { anomalies: options.anomalies }),
      });
  }

  /** Connects, subscribes everything and reads the top of book once. @throws ExchangeError */
  async start(): Promise<void> {
    const { pair, ecosystem, feeBook } = this.#options;
    await this.#stream.start();
    await this.#stream.subscribe({ kind: 'fills', account: this.#options.account });
    await this.#stream.subscribe({ kind: 'bbo', pair, ecosystem });
    await this.#stream.subscribe({ kind: 'trade', pair, ecosystem });
    if (this.#bookSync !== undefined) {
      await this.#stream.subscribe({ kind: 'snap', pair, ecosystem });
      this.#bookSync.resync('subscribed');
    }
    if (feeBook !== undefined && !this.#isOurs(feeBook)) await this.#stream.subscribe({ kind: 'bbo', pair: feeBook.pair, ecosystem: feeBook.ecosystem });
    await this.refreshTopOfBook();
    const refreshMs = this.#options.topOfBookRefreshMs;
    if (refreshMs > 0) {
      this.#topTimer = this.#options.clock.setInterval(() => {
        if (this.#options.clock.nowMs() - this.#lastTopMs >= refreshMs) void this.refreshTopOfBook();
      }, refreshMs, { unref: true });
    }
  }

  /** Stops timers and the stream. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#topTimer?.cancel();
    this.#topTimer = undefined;
    this.#bookSync?.stop();
    await this.#stream.stop();
  }

  /** Reads `/book/bbo` and passes it on; a failure passes nothing (the dead-man switch decides). */
  async refreshTopOfBook(): Promise<void> {
    try {
      const bbo = await this.#options.rest.bbo(this.#options.pair, this.#options.ecosystem);
      if (!this.#stopped) this.#emitTop(bbo.bid, bbo.ask, this.#options.clock.nowMs());
    } catch (error) {
      this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'top of book refresh failed');
    }
  }

  /**
   * Passes on the top of the local book without our own size, when our orders are (or just were)
   * at its top: a book change or one of our fills can then move the market's top without a bbo.
   */
  emitTopFromBook(timeMs: number, fromOwnOrders = false): void {
    const own = this.#options.ownRestingQty;
    const book = this.#bookSync?.book;
    if (this.#stopped || own === undefined || book === undefined || !book.isSynced()) return;
    if (this.#lastTopFromBook || this.#bookShowsOwn(book, own)) this.#emitTop(undefined, undefined, timeMs, fromOwnOrders, true);
  }

  /** True when some of the best bid's or best ask's size is ours. */
  #bookShowsOwn(book: LocalBook, own: (side: Side, priceUnits: bigint) => bigint): boolean {
    const bid = book.bestBid();
    const ask = book.bestAsk();
    return (bid !== undefined && own('buy', bid.price) > 0n) || (ask !== undefined && own('sell', ask.price) > 0n);
  }

  /** The local book (undefined when not kept). */
  book(): LocalBook | undefined {
    return this.#bookSync?.book;
  }

  /** Stream counters (reconnects, malformed frames …). */
  get stats(): FeedStream['stats'] {
    return this.#stream.stats;
  }

  #onEvent(event: StreamEvent): void {
    const { handlers, logger, feeBook, feeToken } = this.#options;
    switch (event.type) {
      case 'bbo': {
        if (feeBook !== undefined && samePair(event.pair, feeBook.pair) && event.ecosystem === feeBook.ecosystem && event.bid !== undefined && event.ask !== undefined) {
          const rate = rateFromBookMid(feeToken, feeBook, (event.bid.price + event.ask.price) / 2n);
          if (rate !== undefined) handlers.onFeeRate(rate);
        }
        if (this.#isOurs(event)) this.#emitTop(event.bid, event.ask, event.receivedMs);
        return;
      }
      case 'trade':
        if (this.#isOurs(event)) handlers.onTrade({ priceUnits: event.price, qtyUnits: event.baseQty, aggressor: event.isSellSide ? 'sell' : 'buy', timeMs: event.receivedMs });
        return;
      case 'snap':
        if (this.#isOurs(event) && this.#bookSync !== undefined) {
          this.#bookSync.onDelta(event.delta);
          // With our own orders taken out, a change below the top can move "the market's" top.
          this.emitTopFromBook(event.receivedMs);
        }
        return;
      case 'execution':
        if (samePair(event.report.pair, this.#options.pair)) handlers.onExecution(event.report);
        return;
      case 'fail':
        logger.warn({ report: event.report.reportType, errorCode: event.report.errorCode, request: hex(event.report.requestHash) }, 'venue failed a request after accepting it');
        handlers.onPrivateReport(event);
        return;
      case 'rollup':
        logger.debug({ tx: hex(event.report.txHash), order: hex(event.report.orderHash) }, 'settled on chain');
        handlers.onPrivateReport(event);
        return;
      case 'cancel-all':
        logger.info({ ticker: hex(event.report.cancelTickerHash) }, 'cancel-all carried out');
        handlers.onPrivateReport(event);
        return;
    }
  }

  /** `fromBook`: there is no bbo, the top is the local book's (without our size). */
  #emitTop(bboBid: PriceLevel | undefined, bboAsk: PriceLevel | undefined, timeMs: number, fromOwnOrders = false, fromBook = false): void {
    // Only market data keeps the REST refresh quiet; a top recomputed for our own orders does not.
    if (!fromOwnOrders) this.#lastTopMs = this.#options.clock.nowMs();
    let bid = bboBid;
    let ask = bboAsk;
    const own = this.#options.ownRestingQty;
    if (own !== undefined) {
      const book = this.#bookSync?.book;
      if (book !== undefined && book.isSynced() && (fromBook || this.#bookShowsOwn(book, own))) {
        bid = firstForeignLevelOf(book, 'buy', own);
        ask = firstForeignLevelOf(book, 'sell', own);
        this.#lastTopFromBook = true;
      } else {
        // The bbo can show our order before the depth stream does: a level that is all ours is
        // then looked past in the book; without a synced book we cannot, and keep it as it is.
        const synced = book !== undefined && book.isSynced() ? book : undefined;
        bid = withoutOwn(bboBid, 'buy', own, synced);
        ask = withoutOwn(bboAsk, 'sell', own, synced);
        this.#lastTopFromBook = false;
      }
    }
    this.#options.handlers.onTopOfBook({ bidPriceUnits: bid?.price, bidQtyUnits: bid?.qty ?? 0n, askPriceUnits: ask?.price, askQtyUnits: ask?.qty ?? 0n, timeMs, ...(fromOwnOrders ? { fromOwnOrders: true } : {}) });
  }

  #isOurs(book: { pair: Pair; ecosystem: boolean }): boolean {
    return samePair(book.pair, this.#options.pair) && book.ecosystem === this.#options.ecosystem;
  }
}

type OwnSize = (side: Side, priceUnits: bigint) => bigint;

/** The best level that still has someone else's size once ours is taken out. */
function firstForeignLevel(levels: readonly PriceLevel[], side: Side, own: OwnSize): PriceLevel | undefined {
  for (const level of levels) {
    const foreign = level.qty - own(side, level.price);
    if (foreign > 0n) return { price: level.price, qty: foreign, orders: level.orders };
  }
  return undefined;
}

/** Looks a few levels deep first: our quotes occupy at most the top few, and a deep book is long. */
function firstForeignLevelOf(book: LocalBook, side: Side, own: OwnSize): PriceLevel | undefined {
  const near = firstForeignLevel(book.levels(side, 8), side, own);
  return near !== undefined || book.depth(side) <= 8 ? near : firstForeignLevel(book.levels(side), side, own);
}

function withoutOwn(level: PriceLevel | undefined, side: Side, own: OwnSize, book: LocalBook | undefined): PriceLevel | undefined {
  if (level === undefined) return undefined;
  const foreign = level.qty - own(side, level.price);
  if (foreign > 0n) return { ...level, qty: foreign };
  return book === undefined ? level : firstForeignLevelOf(book, side, own);
}

function samePair(a: Pair, b: Pair): boolean {
  return a.base === b.base && a.quote === b.quote;
}

function hex(value: bigint | undefined): string | undefined {
  return value === undefined ? undefined : feltToHex(value);
}
