/**
 * Binance spot public market data as a {@link ReferenceFeed}: one combined-stream connection
 * (`/stream?streams=<s>@bookTicker/<s>@depth@100ms/<s>@trade`), the `/api/v3/depth` snapshot the
 * diff stream is bridged onto, a resync from a fresh snapshot after any gap, crossed book or lost
 * connection, and a seamless connection replacement before Binance's 24-hour limit. The market
 * logic lives in {@link BinanceMarketState} (no I/O); this class adds sockets, REST and timers,
 * all on the injected clock and seeded RNG.
 */
import type { Clock, Logger, ReferenceDepth, ReferenceFeed, ReferenceListener, ReferenceStatus, ReferenceTop, Rng, Timer } from '../../core/index.ts';
import { FULL_SCALE, type BinanceScale } from './decimals.ts';
import { BinanceError } from './errors.ts';
import { BinanceMarketState, type BinanceMarketObserver } from './market-state.ts';
import { parseStreamFrame, type SymbolInfo } from './messages.ts';
import { BinanceRestClient } from './rest-client.ts';
import { StreamSession, backoffMs, type BackoffPolicy, type QueuedFrame, type SessionTiming } from './session.ts';

/** Binance's public market-data hosts (web-socket-streams.md, rest-api.md). */
export const BINANCE_WS_URL = 'wss://stream.binance.com:9443';
export const BINANCE_REST_URL = 'https://api.binance.com';

/** Timing of the feed; defaults in {@link DEFAULT_FEED_TIMING}. */
export interface FeedTiming extends SessionTiming {
  /** Snapshot retries (after a failure or a snapshot older than the stream). */
  readonly snapshotRetry: BackoffPolicy;
  /** REST timeouts, ms. */
  readonly restTimeoutMs: number;
}

/** Defaults of {@link FeedTiming}. */
export const DEFAULT_FEED_TIMING: FeedTiming = {
  connectTimeoutMs: 10_000,
  // Binance pings every 20 s: 45 s without any frame means two pings went missing.
  silenceTimeoutMs: 45_000,
  reconnect: { baseMs: 500, maxMs: 30_000 },
  // Binance closes a stream connection at 24 h; replace it half an hour before.
  rolloverAfterMs: 23.5 * 3_600_000,
  handoverTimeoutMs: 10_000,
  snapshotRetry: { baseMs: 250, maxMs: 30_000 },
  restTimeoutMs: 10_000,
};

/** Options of a {@link BinanceReferenceFeed}. */
export interface BinanceFeedOptions {
  /** e.g. ETHUSDT (any case). */
  readonly symbol: string;
  /** WebSocket base URL, no path; default {@link BINANCE_WS_URL}. */
  readonly wsUrl?: string;
  /** REST base URL; default {@link BINANCE_REST_URL}. */
  readonly restUrl?: string;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** A synchronised feed with no update for this long turns `stale`, ms. Default 5 000. */
  readonly staleAfterMs?: number;
  /** Levels per side of the depth snapshot (Binance: 1..5000). Default 1000. */
  readonly snapshotLimit?: number;
  /** Subscribe to `<symbol>@trade`. Default true. */
  readonly trades?: boolean;
  /**
   * Rebuild the depth book (default true). False follows `bookTicker` alone, with no REST at all:
   * for a mid to follow (the sim's `--flow-follow`), never for quoting.
   */
  readonly depth?: boolean;
  /**
   * Subscribe to `<symbol>@bookTicker` (default true). False (with `depth`) takes the top from the
   * depth book alone, as a backtest reads it from a recording: the sim's flow in a parity run.
   */
  readonly ticker?: boolean;
  readonly timing?: Partial<FeedTiming>;
  /** A tap on the raw market (the recorder). */
  readonly observer?: BinanceMarketObserver;
}

/** The Binance spot reference feed. */
export class BinanceReferenceFeed implements ReferenceFeed {
  readonly market: string;
  readonly #options: BinanceFeedOptions;
  readonly #timing: FeedTiming;
  readonly #symbol: string;
  readonly #depth: boolean;
  readonly #rest: BinanceRestClient | undefined;
  #info: SymbolInfo | undefined;
  #state: BinanceMarketState;
  #session: StreamSession | undefined;
  #staleTimer: Timer | undefined;
  #snapshotTimer: Timer | undefined;
  #fetching = false;
  #snapshotAttempt = 0;
  #stopped = false;

  /** @throws BinanceError `BINANCE_HTTP` for a REST URL that is not http(s). */
  constructor(options: BinanceFeedOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_FEED_TIMING, ...options.timing };
    this.#symbol = options.symbol.toUpperCase();
    this.#depth = options.depth ?? true;
    this.market = `binance:${this.#symbol}`;
    this.#rest = this.#depth ? new BinanceRestClient({ baseUrl: options.restUrl ?? BINANCE_REST_URL, clock: options.clock, timeoutMs: this.#timing.restTimeoutMs }) : undefined;
    this.#state = this.#newState(FULL_SCALE);
  }

  /** The symbol as Binance describes it (after `start()`; undefined in ticker-only mode). */
  get symbolInfo(): SymbolInfo | undefined {
    return this.#info;
  }

  /** The scale prices and sizes are parsed with. */
  get scale(): BinanceScale {
    return this.#info?.scale ?? FULL_SCALE;
  }

  /**
   * Checks the symbol (`/api/v3/exchangeInfo`), opens the stream, and builds the book in the
   * background.
   * @throws BinanceError `BINANCE_BAD_SYMBOL` when Binance does not list the symbol; another
   *   `BinanceError` when the REST API or the stream cannot be reached.
   */
  async start(listener: ReferenceListener): Promise<void> {
    this.#stopped = false;
    if (this.#rest !== undefined) {
      this.#info = await this.#rest.symbolInfo(this.#symbol);
      if (this.#info.status !== 'TRADING') this.#options.logger.warn({ market: this.market, status: this.#info.status }, 'reference symbol is not trading');
      this.#state = this.#newState(this.#info.scale);
    }
    this.#state.setListener(listener);
    const session = new StreamSession(this.#streamUrl(), this.#options.clock, this.#options.rng, this.#options.logger, this.#timing, {
      onText: (text, receivedMs) => this.#onText(text, receivedMs),
      onConnected: (isReconnect) => {
        if (isReconnect) this.#state.counters.reconnects++;
        this.#state.connected();
      },
      onDisconnected: () => this.#state.connectionLost(),
      onHandover: (planned) => {
        this.#state.counters.rollovers++;
        this.#options.logger.info({ market: this.market, planned }, 'switched to the standby Binance connection');
      },
      canHandOver: (queued) => this.#canHandOver(queued),
    });
    this.#session = session;
    try {
      await session.start();
    } catch (error) {
      await this.stop();
      throw error;
    }
    const checkMs = Math.max(10, Math.min(1_000, Math.floor((this.#options.staleAfterMs ?? 5_000) / 4)));
    this.#staleTimer = this.#options.clock.setInterval(() => this.#state.checkStale(), checkMs, { unref: true });
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#staleTimer?.cancel();
    this.#snapshotTimer?.cancel();
    this.#staleTimer = this.#snapshotTimer = undefined;
    this.#session?.stop();
    this.#state.stop();
    await this.#rest?.close();
  }

  top(): ReferenceTop | undefined {
    return this.#state.top();
  }

  depth(maxLevels: number): ReferenceDepth | undefined {
    return this.#state.depth(maxLevels);
  }

  status(): ReferenceStatus {
    return this.#state.status();
  }

  #newState(scale: BinanceScale): BinanceMarketState {
    return new BinanceMarketState({
      market: this.market,
      symbol: this.#symbol,
      scale,
      depth: this.#depth,
      staleAfterMs: this.#options.staleAfterMs ?? 5_000,
      logger: this.#options.logger,
      nowMs: () => this.#options.clock.nowMs(),
      ...(this.#options.observer === undefined ? {} : { observer: this.#options.observer }),
    });
  }

  #streamUrl(): string {
    const lower = this.#symbol.toLowerCase();
    const streams = this.#options.ticker === false && this.#depth ? [] : [`${lower}@bookTicker`];
    if (this.#depth) streams.push(`${lower}@depth@100ms`);
    if (this.#options.trades ?? true) streams.push(`${lower}@trade`);
    return `${(this.#options.wsUrl ?? BINANCE_WS_URL).replace(/\/+$/, '')}/stream?streams=${streams.join('/')}`;
  }

  #onText(text: string, receivedMs: number): void {
    const action = this.#state.handleText(text, receivedMs);
    if (action === 'rollover') this.#session?.rollover('server shutdown announced');
    else if (action === 'fetch-snapshot') this.#requestSnapshot();
  }

  /** The standby continues the active stream when its first diff starts at or before the book's next id. */
  #canHandOver(queued: readonly QueuedFrame[]): boolean {
    if (!this.#depth || this.#state.status().state !== 'synchronised') return true;
    const next = this.#state.bookUpdateId + 1;
    for (const frame of queued) {
      try {
        const parsed = parseStreamFrame(frame.text, this.#symbol, this.scale, frame.receivedMs);
        if (parsed.type === 'depth') return parsed.diff.firstUpdateId <= next;
      } catch {
        // A malformed frame is counted when it is replayed after the handover.
      }
    }
    return false;
  }

  #requestSnapshot(): void {
    if (this.#fetching || this.#snapshotTimer !== undefined || this.#stopped) return;
    void this.#fetchSnapshot();
  }

  async #fetchSnapshot(): Promise<void> {
    const rest = this.#rest;
    if (rest === undefined || !this.#state.needsSnapshot()) return;
    this.#fetching = true;
    let retryMs: number | undefined;
    try {
      const snapshot = await rest.depth(this.#symbol, this.#options.snapshotLimit ?? 1000, this.scale);
      if (this.#stopped) return;
      const outcome = this.#state.applySnapshot(snapshot);
      if (outcome === 'too-old') retryMs = backoffMs(this.#snapshotAttempt++, this.#timing.snapshotRetry, this.#options.rng);
      else this.#snapshotAttempt = 0;
    } catch (error) {
      if (this.#stopped) return;
      this.#state.snapshotFailed();
      const waitMs = backoffMs(this.#snapshotAttempt++, this.#timing.snapshotRetry, this.#options.rng);
      retryMs = error instanceof BinanceError && error.retryAfterMs !== undefined ? Math.max(error.retryAfterMs, waitMs) : waitMs;
      this.#options.logger.warn({ market: this.market, err: error instanceof Error ? error.message : String(error), retryMs }, 'depth snapshot failed');
    } finally {
      this.#fetching = false;
    }
    if (retryMs !== undefined) {
      this.#snapshotTimer = this.#options.clock.setTimeout(() => {
        this.#snapshotTimer = undefined;
        this.#requestSnapshot();
      }, retryMs);
    } else if (this.#state.needsSnapshot()) {
      // The book was discarded again while the request was out (a gap after the snapshot).
      this.#requestSnapshot();
    }
  }
}
