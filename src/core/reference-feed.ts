/**
 * The `ReferenceFeed` port: a deep market we only read (Binance spot today; OKX or Bybit could be
 * the next implementation), so a thin venue can be quoted around a price that does not come from
 * our own orders (issue 10, ARCHITECTURE "Growing the house"). The engine sees this interface
 * only; `src/markets/<venue>/` implements it live, and a backtest can implement it from a
 * recording.
 *
 * Prices and sizes are plain `number`s in the reference market's own units (quote currency per
 * base unit; base units), parsed once from the venue's exact decimal text: they feed the fair
 * price, which strategy math handles as `number` anyway, and are never sent as amounts. Times are
 * ms on the injected clock (`receivedMs`) or the venue's own clock (`exchangeMs`).
 *
 * Safety contract: a top is only ever reported while the feed is `synchronised` and its book is
 * not crossed. A book being rebuilt, a broken sequence, a lost connection or data older than the
 * feed's stale limit all make `top()` return `undefined` and reach the listener as a state with its
 * reason, so the engine's safety stage can pause on it.
 */
import type { Side } from './types.ts';

/** Best bid and offer of the reference market, with sizes; both sides are always present. */
export interface ReferenceTop {
  readonly bidPrice: number;
  readonly bidQty: number;
  readonly askPrice: number;
  readonly askQty: number;
  /**
   * The venue's book update id this top reflects (Binance `u`). Tops from the feed's two sources
   * (the venue's own best-bid/offer stream and the rebuilt depth book) share this id space; the
   * feed reports whichever is newer.
   */
  readonly updateId: number;
  /** `ticker`: the venue's best-bid/offer stream; `book`: the depth book we rebuilt. */
  readonly source: 'ticker' | 'book';
  /** Receive time on the injected clock, ms. */
  readonly receivedMs: number;
  /** The venue's event time, ms, when it sent one (Binance's bookTicker carries none). */
  readonly exchangeMs: number | undefined;
}

/** One aggregated price level of the reference book. */
export interface ReferenceLevel {
  readonly price: number;
  readonly qty: number;
}

/** The top levels of the reference book, best first on each side (for depth-weighted blends). */
export interface ReferenceDepth {
  readonly bids: readonly ReferenceLevel[];
  readonly asks: readonly ReferenceLevel[];
  readonly updateId: number;
  readonly receivedMs: number;
}

/** A public trade on the reference market. `aggressor` is the taker's side. */
export interface ReferenceTrade {
  readonly price: number;
  readonly qty: number;
  readonly aggressor: Side;
  /** The venue's trade id (Binance `t`); the feed drops repeats of an id it has already sent. */
  readonly tradeId: number;
  readonly exchangeMs: number;
  readonly receivedMs: number;
}

/**
 * Where the feed stands. Only `synchronised` yields a top:
 * - `synchronised`: the book is rebuilt, in sequence, not crossed, and fresh.
 * - `resyncing`: the book is being (re)built from a snapshot; `reason` says why.
 * - `stale`: the book is in sequence but nothing arrived for longer than the stale limit.
 * - `stopped`: `stop()` was called (or `start()` was never).
 */
export type ReferenceState = 'synchronised' | 'resyncing' | 'stale' | 'stopped';

/** Why a feed is not synchronised. Names are a contract (logs, `/health`, metrics labels). */
export type ReferenceReason =
  /** Started, first book not built yet. */
  | 'starting'
  /** The connection was lost; reconnecting. */
  | 'disconnected'
  /** An update did not continue the sequence (a missed message). */
  | 'sequence-gap'
  /** The rebuilt book crossed (best bid ≥ best ask): it cannot be trusted. */
  | 'crossed-book'
  /** The venue announced a shutdown of our connection. */
  | 'server-shutdown'
  /** The depth snapshot could not be fetched (network, rate limit, bad symbol); retrying. */
  | 'snapshot-failed'
  /** No market data for longer than the stale limit. */
  | 'no-data'
  /** Stopped by its owner. */
  | 'stopped';

/** Counters since `start()`, for metrics and tests. */
export interface ReferenceCounters {
  /** Frames received from the venue (every kind, malformed included). */
  readonly frames: number;
  /** Frames that failed to parse: logged, counted and skipped. */
  readonly malformedFrames: number;
  /** Times the book had to be rebuilt after having been synchronised (gap, crossed book, lost connection). */
  readonly resyncs: number;
  /** Sequence gaps detected. */
  readonly gaps: number;
  /** Crossed books detected (each one triggers a resync). */
  readonly crossedBooks: number;
  /** Depth snapshots applied. */
  readonly snapshots: number;
  /** Connections re-established after a loss. */
  readonly reconnects: number;
  /** Planned connection replacements before the venue's connection age limit (no resync needed). */
  readonly rollovers: number;
}

/** A feed's state, freshness and counters. */
export interface ReferenceStatus {
  /** `<venue>:<SYMBOL>`, e.g. `binance:ETHUSDT`. */
  readonly market: string;
  readonly state: ReferenceState;
  /** Why the feed is not `synchronised`; undefined while it is. */
  readonly reason: ReferenceReason | undefined;
  /** When `state` last changed, ms on the injected clock. */
  readonly sinceMs: number;
  /** Receive time of the last market-data update (ticker or applied depth diff), ms; undefined before any. */
  readonly lastUpdateMs: number | undefined;
  /** Mid of the current usable top; undefined when there is none. */
  readonly mid: number | undefined;
  readonly counters: ReferenceCounters;
}

/** What a feed tells its owner. Callbacks are synchronous and must not throw (the feed guards them anyway). */
export interface ReferenceListener {
  /** A new usable top: the feed is synchronised and the top is not crossed. */
  onTop(top: ReferenceTop): void;
  onTrade(trade: ReferenceTrade): void;
  /** The state or its reason changed. */
  onStatus(status: ReferenceStatus): void;
}

/** A deep market we only read. */
export interface ReferenceFeed {
  /** `<venue>:<SYMBOL>`, e.g. `binance:ETHUSDT`. */
  readonly market: string;
  /**
   * Checks the symbol with the venue, then connects and builds the book in the background
   * (losses reconnect on their own; the listener hears every state change).
   * @throws MmError when the venue does not list the symbol, or cannot be reached at all.
   */
  start(listener: ReferenceListener): Promise<void>;
  /** Closes sockets and timers; idempotent. */
  stop(): Promise<void>;
  /** The current usable top; undefined unless synchronised and not crossed. */
  top(): ReferenceTop | undefined;
  /** Up to `maxLevels` levels per side of the rebuilt book; undefined unless synchronised. */
  depth(maxLevels: number): ReferenceDepth | undefined;
  status(): ReferenceStatus;
}

/** (bid + ask) / 2. */
export function referenceMid(top: ReferenceTop): number {
  return (top.bidPrice + top.askPrice) / 2;
}

/**
 * Size-weighted mid (Stoikov's microprice, first order): leans towards the side with less size,
 * where the next trade is likelier to move the price. Falls back to the mid when both sizes are 0.
 */
export function referenceMicroprice(top: ReferenceTop): number {
  const total = top.bidQty + top.askQty;
  if (!(total > 0)) return referenceMid(top);
  return (top.bidPrice * top.askQty + top.askPrice * top.bidQty) / total;
}

/** Base size resting within `bps` of the mid on each side (inclusive), for depth-weighted blends. */
export function depthWithinBps(depth: ReferenceDepth, bps: number): { readonly bidQty: number; readonly askQty: number } {
  const bestBid = depth.bids[0];
  const bestAsk = depth.asks[0];
  if (bestBid === undefined || bestAsk === undefined) return { bidQty: 0, askQty: 0 };
  const mid = (bestBid.price + bestAsk.price) / 2;
  const band = (mid * bps) / 10_000;
  let bidQty = 0;
  for (const level of depth.bids) {
    if (level.price < mid - band) break;
    bidQty += level.qty;
  }
  let askQty = 0;
  for (const level of depth.asks) {
    if (level.price > mid + band) break;
    askQty += level.qty;
  }
  return { bidQty, askQty };
}
