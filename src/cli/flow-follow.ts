/**
 * `akira-mm sim --flow-follow URL|FILE`: the synthetic flow's price of one token tracks a Binance
 * market's mid instead of a random walk.
 * - URL: a Binance-protocol stream endpoint: `ws://127.0.0.1:9100` (an `akira-mm feed`),
 *   `wss://stream.binance.com:9443` (Binance itself), or a stream URL naming the symbol
 *   (`…/ws/ethusdt@bookTicker`). Only `bookTicker` is read: a mid to follow needs no depth book.
 * - FILE: a recording, served in-process by the `feed` server on a loopback port (looping), then
 *   followed like a URL.
 * The followed token is the symbol's base (ETH for ETHUSDT); its quote is taken as USD.
 */
import { resolve } from 'node:path';
import { splitSymbol, type ChainInfo, type Clock, type Logger, type Rng } from '../core/index.ts';
import { BinanceReferenceFeed } from '../markets/binance/index.ts';
import { startFeedServer, type FeedServer } from '../markets/binance/server/index.ts';
import type { ReferenceMarket, ReferenceMarketListener } from '../sim/index.ts';
import { UsageError } from './io.ts';

/** Symbol followed when neither the URL nor `--flow-follow-symbol` names one. */
export const DEFAULT_FOLLOW_SYMBOL = 'ETHUSDT';

/** A running follower: its mid moves the sim's price, and its touch and trades can drive the sim's flow (`--flow reference`). */
export interface FlowFollower extends ReferenceMarket {
  readonly symbol: string;
  /** WebSocket frames the follower took in so far (tests on a manual clock wait until it has every one the server sent). */
  framesReceived(): number;
  /** Stops the feed (and the in-process server of a FILE); idempotent. */
  stop(): Promise<void>;
}

/** What a follower needs. */
export interface FollowDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly chain: ChainInfo;
  readonly cwd: string;
  /**
   * Read the touch from the synchronised depth book alone (diffs after a snapshot, no bookTicker):
   * the touch and its sizes the backtest's thin venue reads from a recording (parity runs, issue
   * 32 item 2). Default false.
   */
  readonly depth?: boolean;
  /** How long to wait for the first price before the sim starts anyway (ms). Default 10 000. */
  readonly firstPriceTimeoutMs?: number;
}

/** ws(s)://host[:port][/ws/<symbol>@bookTicker | /stream?streams=<symbol>@…] → base URL and symbol. */
function parseStreamUrl(spec: string): { base: string; symbol: string | undefined } {
  const url = new URL(spec);
  const named = /^\/ws\/([a-z0-9]+)@/i.exec(url.pathname)?.[1] ?? /^([a-z0-9]+)@/i.exec(url.searchParams.get('streams') ?? '')?.[1];
  const path = url.pathname.replace(/\/(ws|stream)(\/.*)?$/, '').replace(/\/+$/, '');
  return { base: `${url.protocol}//${url.host}${path}`, symbol: named?.toUpperCase() };
}

/**
 * Starts following `spec` and waits (bounded) for its first price.
 * @throws UsageError for a symbol whose base the sim does not list, or an unusable FILE or URL.
 */
export async function startFlowFollower(spec: string, symbolFlag: string | undefined, deps: FollowDeps): Promise<FlowFollower> {
  let server: FeedServer | undefined;
  let base: string;
  let symbol: string;
  if (/^wss?:\/\//.test(spec)) {
    const parsed = parseStreamUrl(spec);
    base = parsed.base;
    symbol = (symbolFlag ?? parsed.symbol ?? DEFAULT_FOLLOW_SYMBOL).toUpperCase();
  } else {
    try {
      server = await startFeedServer({ files: [resolve(deps.cwd, spec)], loop: true, clock: deps.clock, logger: deps.logger });
    } catch (error) {
      throw new UsageError(`--flow-follow ${spec}: ${error instanceof Error ? error.message : String(error)}`);
    }
    base = server.wsUrl;
    symbol = server.symbol;
  }
  const token = splitSymbol(symbol)?.base;
  if (token === undefined || !deps.chain.tokens.has(token)) {
    await server?.stop();
    throw new UsageError(`--flow-follow: ${symbol}'s base ${token ?? '?'} is not a token of the sim's chain (${[...deps.chain.tokens.keys()].join(', ')})`);
  }
  // Trades too: the reference flow's uninformed takers are twins of them.
  const feed = new BinanceReferenceFeed({ symbol, wsUrl: base, ...(deps.depth === true ? { restUrl: base.replace(/^ws/, 'http') } : {}), depth: deps.depth === true, ...(deps.depth === true ? { ticker: false } : {}), trades: true, clock: deps.clock, rng: deps.rng, logger: deps.logger, staleAfterMs: 60_000 });
  let synchronised!: () => void;
  const firstPrice = new Promise<void>((done) => (synchronised = done));
  const listeners = new Set<ReferenceMarketListener>();
  try {
    await feed.start({
      onTop: (top) => {
        synchronised();
        for (const listener of listeners) listener.onTop(top.bidPrice, top.askPrice, top.bidQty, top.askQty);
      },
      onTrade: (trade) => {
        for (const listener of listeners) listener.onTrade(trade.aggressor, trade.price, trade.qty);
      },
      onStatus: () => undefined,
    });
  } catch (error) {
    await server?.stop();
    throw new UsageError(`--flow-follow ${spec}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const timeoutMs = deps.firstPriceTimeoutMs ?? 10_000;
  let timer: { cancel(): void } | undefined;
  await Promise.race([firstPrice, new Promise<void>((done) => (timer = deps.clock.setTimeout(done, timeoutMs)))]);
  timer?.cancel();
  if (feed.top() === undefined) deps.logger.warn({ symbol, timeoutMs }, 'no price to follow yet; the flow walks until one comes');
  let stopped: Promise<void> | undefined;
  return {
    token,
    symbol,
    framesReceived: () => feed.status().counters.frames,
    priceUsd: () => {
      const top = feed.top();
      return top === undefined ? undefined : (top.bidPrice + top.askPrice) / 2;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      // The touch as it stands, at once (as a backtest's window starts on the book it has built).
      const top = feed.top();
      if (top !== undefined) listener.onTop(top.bidPrice, top.askPrice, top.bidQty, top.askQty);
      return () => listeners.delete(listener);
    },
    stop: () => {
      stopped ??= (async () => {
        await feed.stop();
        await server?.stop();
      })();
      return stopped;
    },
  };
}

/** A recorded market served on loopback for a whole paper session: the sim follows it, the bot reads it. */
export interface RecordedReference {
  readonly follower: FlowFollower;
  /** Pair-file keys that point the bot's reference feed at it. */
  readonly env: Readonly<Record<'REFERENCE' | 'REFERENCE_WS_URL' | 'REFERENCE_REST_URL', string>>;
  stop(): Promise<void>;
}

/**
 * Serves `files` (looping, at the recorded pace) and follows them: what `npm start -- --reference`
 * needs, so the sim's flow and the bot's `REFERENCE` see the same market.
 * @throws UsageError for an unusable recording.
 */
export async function startRecordedReference(files: readonly string[], deps: FollowDeps): Promise<RecordedReference> {
  let server: FeedServer;
  try {
    server = await startFeedServer({ files: files.map((file) => resolve(deps.cwd, file)), loop: true, clock: deps.clock, logger: deps.logger });
  } catch (error) {
    throw new UsageError(`--reference ${files.join(' ')}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const follower = await startFlowFollower(server.wsUrl, server.symbol, deps);
    return {
      follower,
      env: { REFERENCE: `binance:${server.symbol}`, REFERENCE_WS_URL: server.wsUrl, REFERENCE_REST_URL: server.httpUrl },
      stop: async () => {
        await follower.stop();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
