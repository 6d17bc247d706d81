/**
 * Everything the Binance reference feed knows, without any I/O: frames in (text and receive
 * time), snapshots in, and out come the usable top, the depth, trades and the state with its
 * reason. The feed (`reference-feed.ts`) adds sockets, REST and timers around it; the benchmark
 * drives it directly.
 *
 * The top is the newer, by book update id, of Binance's own `bookTicker` (real time) and the
 * depth book we rebuild (every 100 ms), and only ever while the book is synchronised and fresh:
 * the ticker alone cannot prove we missed nothing, the rebuilt book can.
 */
import {
  type Logger,
  type OrderBook,
  type ReferenceCounters,
  type ReferenceDepth,
  type ReferenceListener,
  type ReferenceReason,
  type ReferenceState,
  type ReferenceStatus,
  type ReferenceTop,
} from '../../core/index.ts';
import { scaledToNumber, type BinanceScale } from './decimals.ts';
import { chooseTop, depthOf } from './top.ts';
import { DepthSync, type SnapshotOutcome } from './depth-sync.ts';
import { BinanceError } from './errors.ts';
import { parseStreamFrame, type BinanceTrade, type BookTicker, type DepthDiff, type DepthSnapshot, type StreamFrame } from './messages.ts';

/** A tap on the raw market as the feed takes it in (the recorder writes it; tests compare it). */
export interface BinanceMarketObserver {
  /** A snapshot became the book. */
  onSnapshot?(snapshot: DepthSnapshot): void;
  /** A diff was applied; `book` already includes it. */
  onDiff?(diff: DepthDiff, book: OrderBook): void;
  onTicker?(ticker: BookTicker): void;
  onTrade?(trade: BinanceTrade): void;
  /** The book was discarded; a snapshot follows. */
  onResync?(reason: ReferenceReason): void;
}

/** Settings of a {@link BinanceMarketState}. */
export interface MarketStateOptions {
  /** `binance:ETHUSDT`. */
  readonly market: string;
  /** Upper case, as in payloads. */
  readonly symbol: string;
  readonly scale: BinanceScale;
  /** Rebuild the depth book (true), or trust `bookTicker` alone (a mid follower, never for quoting). */
  readonly depth: boolean;
  /** No update for this long makes a synchronised feed `stale`, ms. */
  readonly staleAfterMs: number;
  readonly logger: Logger;
  readonly nowMs: () => number;
  readonly observer?: BinanceMarketObserver;
  /** Bound on diffs buffered while a snapshot is awaited. */
  readonly maxBufferedDiffs?: number;
}

/** What the I/O side should do after a frame. */
export type FrameAction = 'none' | 'fetch-snapshot' | 'rollover';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Malformed frames logged in full before the log thins out to one line per 1000. */
const LOGGED_MALFORMED = 10;

/** The market as the feed sees it. */
export class BinanceMarketState {
  readonly #options: MarketStateOptions;
  readonly #sync: DepthSync;
  readonly #counters: Mutable<ReferenceCounters> = { frames: 0, malformedFrames: 0, resyncs: 0, gaps: 0, crossedBooks: 0, snapshots: 0, reconnects: 0, rollovers: 0 };
  #listener: ReferenceListener | undefined;
  #state: ReferenceState = 'resyncing';
  #reason: ReferenceReason | undefined = 'starting';
  #sinceMs: number;
  #lastUpdateMs: number | undefined;
  #lastDiffEventMs: number | undefined;
  #ticker: BookTicker | undefined;
  #lastTradeId = -1;
  #top: ReferenceTop | undefined;
  #everSynchronised = false;
  #isConnected = false;

  constructor(options: MarketStateOptions) {
    this.#options = options;
    this.#sinceMs = options.nowMs();
    const observer = options.observer;
    this.#sync = new DepthSync(
      {
        onSnapshot: (snapshot) => observer?.onSnapshot?.(snapshot),
        onDiff: (diff, book) => {
          this.#lastDiffEventMs = diff.eventMs;
          observer?.onDiff?.(diff, book);
        },
      },
      options.maxBufferedDiffs,
    );
  }

  /** Counters the I/O side increments (connections). */
  get counters(): Mutable<ReferenceCounters> {
    return this.#counters;
  }

  /** The update id the depth book has reached (for a connection handover). */
  get bookUpdateId(): number {
    return this.#sync.lastUpdateId;
  }

  /** True while diffs are buffered and a snapshot would let the book be built. */
  needsSnapshot(): boolean {
    return this.#options.depth && this.#isConnected && this.#sync.state === 'buffering' && this.#sync.bufferedCount > 0;
  }

  setListener(listener: ReferenceListener | undefined): void {
    this.#listener = listener;
  }

  /** Parses and takes in one frame; a malformed one is logged, counted and skipped. */
  handleText(text: string, receivedMs: number): FrameAction {
    this.#counters.frames++;
    let frame: StreamFrame;
    try {
      frame = parseStreamFrame(text, this.#options.symbol, this.#options.scale, receivedMs);
    } catch (error) {
      if (!(error instanceof BinanceError)) throw error;
      this.#counters.malformedFrames++;
      const count = this.#counters.malformedFrames;
      if (count <= LOGGED_MALFORMED || count % 1000 === 0) this.#options.logger.warn({ market: this.#options.market, err: error.message, count }, 'malformed Binance frame skipped');
      return 'none';
    }
    return this.handleFrame(frame);
  }

  /** Takes in one parsed frame. */
  handleFrame(frame: StreamFrame): FrameAction {
    switch (frame.type) {
      case 'depth':
        return this.#onDiff(frame.diff);
      case 'ticker':
        this.#onTicker(frame.ticker);
        return 'none';
      case 'trade':
        this.#onTrade(frame.trade);
        return 'none';
      case 'shutdown':
        this.#options.logger.info({ market: this.#options.market }, 'Binance announced a server shutdown; switching connections');
        return 'rollover';
      case 'error':
        this.#options.logger.warn({ market: this.#options.market, code: frame.code, msg: frame.message }, 'Binance stream error');
        return 'none';
      default:
        return 'none';
    }
  }

  /** A connection is up: the book starts over (anything sent while away is lost). */
  connected(): void {
    this.#isConnected = true;
    if (!this.#options.depth) return;
    this.#sync.reset();
  }

  /** The connection is gone: no top until a new one rebuilds the book. */
  connectionLost(): void {
    this.#isConnected = false;
    this.#ticker = undefined;
    this.#beginResync('disconnected');
  }

  /** The snapshot request failed; the I/O side retries. */
  snapshotFailed(): void {
    if (this.#state !== 'stopped' && this.#state !== 'synchronised') this.#setState('resyncing', 'snapshot-failed');
  }

  /** Makes a fetched snapshot the book. `too-old` means: fetch another. */
  applySnapshot(snapshot: DepthSnapshot): SnapshotOutcome {
    if (this.#state === 'stopped' || this.#sync.state !== 'buffering') return 'old';
    const outcome = this.#sync.applySnapshot(snapshot);
    switch (outcome) {
      case 'synced':
        this.#counters.snapshots++;
        this.#lastUpdateMs = Math.max(this.#lastUpdateMs ?? 0, snapshot.receivedMs);
        this.#everSynchronised = true;
        this.#setState('synchronised', undefined);
        this.#refreshTop();
        break;
      case 'gap':
        this.#counters.snapshots++;
        this.#counters.gaps++;
        this.#beginResync('sequence-gap');
        break;
      case 'crossed':
        this.#counters.snapshots++;
        this.#counters.crossedBooks++;
        this.#beginResync('crossed-book');
        break;
      default:
        break;
    }
    return outcome;
  }

  /** Marks a synchronised feed stale when nothing arrived for the stale limit. */
  checkStale(): void {
    if (this.#state !== 'synchronised' || this.#lastUpdateMs === undefined) return;
    if (this.#options.nowMs() - this.#lastUpdateMs > this.#options.staleAfterMs) {
      this.#setState('stale', 'no-data');
      this.#top = undefined;
    }
  }

  stop(): void {
    this.#isConnected = false;
    this.#setState('stopped', 'stopped');
    this.#top = undefined;
  }

  top(): ReferenceTop | undefined {
    return this.#top;
  }

  depth(maxLevels: number): ReferenceDepth | undefined {
    if (this.#state !== 'synchronised' || !this.#options.depth) return undefined;
    return depthOf(this.#sync.book, maxLevels, this.#options.scale, this.#sync.lastUpdateId, this.#lastUpdateMs ?? this.#sinceMs);
  }

  status(): ReferenceStatus {
    const top = this.#top;
    return {
      market: this.#options.market,
      state: this.#state,
      reason: this.#reason,
      sinceMs: this.#sinceMs,
      lastUpdateMs: this.#lastUpdateMs,
      mid: top === undefined ? undefined : (top.bidPrice + top.askPrice) / 2,
      counters: { ...this.#counters },
    };
  }

  // ── events ───────────────────────────────────────────────────────────────────────────────

  #onDiff(diff: DepthDiff): FrameAction {
    if (!this.#options.depth || this.#state === 'stopped') return 'none';
    switch (this.#sync.onDiff(diff)) {
      case 'buffered':
        return 'fetch-snapshot';
      case 'applied':
        this.#lastUpdateMs = diff.receivedMs;
        this.#freshData();
        return 'none';
      case 'gap':
        this.#counters.gaps++;
        this.#options.logger.warn({ market: this.#options.market, expectedFirstId: this.#sync.lastUpdateId + 1, U: diff.firstUpdateId }, 'depth sequence gap; rebuilding the book');
        this.#beginResync('sequence-gap');
        return 'none';
      case 'crossed':
        this.#counters.crossedBooks++;
        this.#options.logger.warn({ market: this.#options.market, u: diff.lastUpdateId }, 'rebuilt book crossed; rebuilding it');
        this.#beginResync('crossed-book');
        return 'none';
      default:
        return 'none';
    }
  }

  #onTicker(ticker: BookTicker): void {
    if (this.#state === 'stopped') return;
    if (this.#ticker !== undefined && ticker.updateId <= this.#ticker.updateId) return;
    // A crossed ticker is not a price; keep the book's top instead.
    if (ticker.bidPrice >= ticker.askPrice) return;
    this.#ticker = ticker;
    this.#lastUpdateMs = ticker.receivedMs;
    this.#options.observer?.onTicker?.(ticker);
    if (!this.#options.depth && this.#state === 'resyncing' && this.#isConnected) {
      this.#everSynchronised = true;
      this.#setState('synchronised', undefined);
    }
    this.#freshData();
  }

  #onTrade(trade: BinanceTrade): void {
    if (this.#state === 'stopped' || trade.tradeId <= this.#lastTradeId) return;
    this.#lastTradeId = trade.tradeId;
    this.#options.observer?.onTrade?.(trade);
    const { priceDecimals, qtyDecimals } = this.#options.scale;
    this.#guard(() =>
      this.#listener?.onTrade({
        price: scaledToNumber(trade.price, priceDecimals),
        qty: scaledToNumber(trade.qty, qtyDecimals),
        aggressor: trade.buyerIsMaker ? 'sell' : 'buy',
        tradeId: trade.tradeId,
        exchangeMs: trade.tradeMs,
        receivedMs: trade.receivedMs,
      }),
    );
  }

  /** New data: a stale feed is fresh again, and the top may have changed. */
  #freshData(): void {
    if (this.#state === 'stale') this.#setState('synchronised', undefined);
    if (this.#state === 'synchronised') this.#refreshTop();
  }

  #beginResync(reason: ReferenceReason): void {
    if (this.#state === 'stopped') return;
    if (this.#options.depth) this.#sync.reset();
    if (this.#everSynchronised && this.#state !== 'resyncing') this.#counters.resyncs++;
    this.#options.observer?.onResync?.(reason);
    this.#setState('resyncing', reason);
    this.#top = undefined;
  }

  /** Picks the newer usable top and tells the listener when it changed. */
  #refreshTop(): void {
    const top = chooseTop({
      ticker: this.#ticker,
      book: this.#options.depth ? this.#sync.book : undefined,
      bookUpdateId: this.#sync.lastUpdateId,
      bookExchangeMs: this.#lastDiffEventMs,
      bookReceivedMs: this.#lastUpdateMs ?? this.#sinceMs,
      scale: this.#options.scale,
    });
    if (top === undefined || (this.#top !== undefined && top.updateId === this.#top.updateId && top.source === this.#top.source)) {
      this.#top = top;
      return;
    }
    this.#top = top;
    this.#guard(() => this.#listener?.onTop(top));
  }

  #setState(state: ReferenceState, reason: ReferenceReason | undefined): void {
    if (this.#state === 'stopped' && state !== 'stopped') return;
    if (this.#state === state && this.#reason === reason) return;
    this.#state = state;
    this.#reason = reason;
    this.#sinceMs = this.#options.nowMs();
    if (state !== 'synchronised') this.#top = undefined;
    const status = this.status();
    this.#guard(() => this.#listener?.onStatus(status));
  }

  #guard(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#options.logger.error({ market: this.#options.market, err: error instanceof Error ? error.message : String(error) }, 'reference listener threw');
    }
  }
}
