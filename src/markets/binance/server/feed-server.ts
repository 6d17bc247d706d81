/**
 * `akira-mm feed` as a library: a recorded Binance spot market served over Binance's own WS and
 * REST protocol on loopback. The replay's clock starts when the first client subscribes to a
 * stream, so a client that connects, subscribes and fetches its snapshot sees the recording from
 * its first message, at any speed. Without `loop`, the end of the recording closes every stream
 * connection (code 1000) and `done` resolves.
 */
import { LiveClock, createSilentLogger, parseUnits, splitSymbol, type Clock, type Logger } from '../../../core/index.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';
import type { AccountSpec } from './accounts.ts';
import { BinanceHttpServer } from './http-server.ts';
import { marketRoutes } from './market-routes.ts';
import { MAX_QTY_TEXT, minNotionalOf } from './exchange-info.ts';
import { MarketService, type SnapshotGate } from './market-service.ts';
import { DEFAULT_ORDER_LIMITS, OrderCounter, WEIGHT_LIMIT_PER_MINUTE, WeightMeter, type OrderLimits } from './rate-counters.ts';
import { TradingDesk, type DeskFaults } from './trading-desk.ts';
import { toDeskLevels } from './trading-format.ts';
import { tradingRoutes, type RouteFaults } from './trading-routes.ts';
import { TradingService } from './trading-service.ts';
import { WS_API_PATH, WebSocketApi } from './ws-api.ts';
import { RecordingSource } from './recording.ts';
import { Replayer, type ReplaySpeed, type ReplayStats } from './replayer.ts';
import { StreamHub, type HubLimits, type HubStats } from './stream-hub.ts';
import { servedStreams } from './stream-requests.ts';

/** Options of {@link startFeedServer}. */
export interface FeedServerOptions {
  /** Recording files, in time order (hftbacktest `.gz` lines or akira-mm recordings). */
  readonly files: readonly string[];
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Multiple of the recorded pace, or `max`. Default 1. */
  readonly speed?: ReplaySpeed;
  /** Start again at the end instead of ending. Default false. */
  readonly loop?: boolean;
  /** Default: the wall clock. Tests pass a ManualClock (then `max` speed needs it advanced). */
  readonly clock?: Clock;
  /** Default: silent. */
  readonly logger?: Logger;
  /** Stream rules (ping, 24 h…); Binance's values by default. */
  readonly limits?: Partial<HubLimits>;
  /**
   * Trading accounts (`--accounts FILE`): with them the server also serves Binance's trading
   * endpoints (orders, account, the WebSocket API's user data stream), matching against the book
   * it replays. Without them it serves market data only.
   */
  readonly accounts?: readonly AccountSpec[];
  /** Request weight per minute and order counts the server states and enforces; Binance's by default. */
  readonly tradingLimits?: Partial<{ readonly weightPerMinute: number } & OrderLimits>;
}

/** The trading side of a feed server (when it has accounts). */
export interface TradingSide {
  /** The WebSocket API URL (ws://host:port/ws-api/v3). */
  readonly wsApiUrl: string;
  readonly desk: TradingDesk;
  readonly faults: DeskFaults & RouteFaults & {
    /** Cuts every WebSocket API connection (user data streams), as a network drop would. */
    dropUserStreams(): void;
  };
  /** User data events sent so far (tests wait on it). */
  eventsSent(): number;
  /** Open user data stream subscriptions. */
  subscriptions(): number;
}

/** Fault switches for tests and chaos runs. */
export interface FeedFaults {
  /** Withholds the next `count` depth messages from every client (the server's book moves on). */
  dropDepthMessages(count: number): void;
  /** Sends a frame as is to every stream connection. */
  injectFrame(text: string): void;
  /** Holds `/api/v3/depth` answers until released. */
  holdSnapshots(hold: boolean): void;
  /** Cuts every stream connection without a close frame. */
  dropConnections(): void;
  /** Sends `serverShutdown` to every connection and closes them after `graceMs`. */
  announceShutdown(graceMs: number): void;
}

/** A running feed. */
export interface FeedServer {
  readonly symbol: string;
  readonly port: number;
  /** http://host:port (REST base URL). */
  readonly httpUrl: string;
  /** ws://host:port (WebSocket base URL: add /ws/<stream> or /stream?streams=…). */
  readonly wsUrl: string;
  readonly faults: FeedFaults;
  /** Present when the server was given accounts. */
  readonly trading: TradingSide | undefined;
  stats(): {
    readonly replay: ReplayStats;
    readonly streams: HubStats & { readonly awaitingPong: number };
    readonly skipped: Readonly<Record<string, number>>;
    /** REST answers refused for the weight limit (429) or a ban (418). */
    readonly refused: { readonly tooManyRequests: number; readonly banned: number };
  };
  /** Resolves once everything due on the clock has been sent (tests with a manual clock). */
  whenIdle(): Promise<void>;
  /** Resolves when the recording ended (never with `loop`) or the server stopped. */
  readonly done: Promise<void>;
  /** Closes everything; idempotent. */
  stop(): Promise<void>;
}

class Gate implements SnapshotGate {
  #open = true;
  #waiters: (() => void)[] = [];

  set(open: boolean): void {
    this.#open = open;
    if (open) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  wait(): Promise<void> {
    return this.#open ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/**
 * Reads the recording's first snapshot, then listens.
 * @throws BinanceError `BINANCE_MALFORMED` for a recording without a snapshot; DataError for an
 *   unreadable file; the listen error when the port is taken.
 */
export async function startFeedServer(options: FeedServerOptions): Promise<FeedServer> {
  const clock = options.clock ?? new LiveClock();
  const logger = options.logger ?? createSilentLogger();
  const source = new RecordingSource(options.files);
  const replay: { replayer?: Replayer } = {};
  // The first subscription starts the replay's clock.
  const streams = new StreamHub(clock, logger, options.limits ?? {}, () => replay.replayer?.start());
  const replayer = new Replayer({
    source,
    clock,
    speed: options.speed ?? 1,
    loop: options.loop ?? false,
    logger,
    publish: (stream, payload) => streams.publish(stream, payload),
    queuedBytes: () => streams.queuedBytes(),
    isSubscribed: (stream) => streams.isSubscribed(stream),
  });
  replay.replayer = replayer;
  try {
    await replayer.prepare();
  } catch (error) {
    streams.stop();
    throw error;
  }
  streams.serveOnly(servedStreams(replayer.symbol));
  const gate = new Gate();
  const weightPerMinute = options.tradingLimits?.weightPerMinute ?? WEIGHT_LIMIT_PER_MINUTE;
  const orderLimits: OrderLimits = { ...DEFAULT_ORDER_LIMITS, ...options.tradingLimits };
  // One weight count for REST and the WebSocket API, as Binance keeps one per IP.
  const weight = new WeightMeter(clock, weightPerMinute);
  const http = new BinanceHttpServer(clock, logger, weight);
  const market = new MarketService(replayer, clock, gate, { weightPerMinute, ordersPer10s: orderLimits.per10s, ordersPerDay: orderLimits.perDay });
  http.addRoutes(marketRoutes(market, clock));
  const trading = options.accounts === undefined ? undefined : startTrading(replayer, options.accounts, { clock, logger, orders: new OrderCounter(clock, orderLimits), weight, market }, http);
  http.addUpgradeHandler((request, socket, head, url) => streams.handleUpgrade(request, socket, head, url));
  const host = options.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await http.listen(options.port ?? 0, host);
  } catch (error) {
    streams.stop();
    replayer.stop();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      replayer.stop();
      gate.set(true);
      streams.stop();
      trading?.api.stop();
      await http.close();
    })();
    return stopping;
  };
  const done = replayer.done.then(() => {
    if (stopping === undefined) streams.closeAll(1000, 'end of recording');
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    symbol: replayer.symbol,
    port,
    httpUrl: `http://${urlHost}:${port}`,
    wsUrl: `ws://${urlHost}:${port}`,
    faults: {
      dropDepthMessages: (count) => {
        streams.dropDepthMessages += count;
      },
      injectFrame: (text) => streams.injectFrame(text),
      holdSnapshots: (hold) => gate.set(!hold),
      dropConnections: () => streams.dropAll(),
      announceShutdown: (graceMs) => streams.announceShutdown(graceMs),
    },
    trading:
      trading === undefined
        ? undefined
        : {
            wsApiUrl: `ws://${urlHost}:${port}${WS_API_PATH}`,
            desk: trading.desk,
            faults: { ...trading.desk.faults, ...trading.faults, dropUserStreams: () => trading.api.dropAll() },
            eventsSent: () => trading.api.eventsSent,
            subscriptions: () => trading.api.subscriptionCount(),
          },
    stats: () => ({ replay: { ...replayer.stats }, streams: { ...streams.stats, awaitingPong: streams.awaitingPong() }, skipped: { ...source.skipped }, refused: { ...http.refused } }),
    whenIdle: () => replayer.whenIdle(),
    done,
    stop,
  };
}

/** The trading desk over the replayed book, its REST routes and the WebSocket API. */
function startTrading(
  replayer: Replayer,
  accounts: readonly AccountSpec[],
  shared: { readonly clock: Clock; readonly logger: Logger; readonly orders: OrderCounter; readonly weight: WeightMeter; readonly market: MarketService },
  http: BinanceHttpServer,
) {
  const { clock, logger } = shared;
  const assets = splitSymbol(replayer.symbol) ?? { base: replayer.symbol, quote: 'USDT' };
  const step = parseUnits(replayer.rules.stepSize, BINANCE_DECIMALS);
  const desk = new TradingDesk(
    {
      symbol: replayer.symbol,
      base: assets.base,
      quote: assets.quote,
      tick: parseUnits(replayer.rules.tickSize, BINANCE_DECIMALS),
      step,
      minQty: step,
      maxQty: parseUnits(MAX_QTY_TEXT, BINANCE_DECIMALS),
      minNotional: parseUnits(minNotionalOf(replayer.symbol), BINANCE_DECIMALS),
      maxNotional: 0n,
    },
    accounts,
    clock,
    (side) => toDeskLevels(replayer.bookLevels(side, 5_000), replayer.scale.priceDecimals, replayer.scale.qtyDecimals),
  );
  const service = new TradingService(desk, clock, shared.orders);
  const api = new WebSocketApi(clock, logger, service, shared.market, shared.weight);
  desk.setSink((apiKey, event) => api.publish(apiKey, event));
  const { routes, faults } = tradingRoutes(service, clock, logger);
  http.addRoutes(routes);
  http.addUpgradeHandler((request, socket, head, url) => api.handleUpgrade(request, socket, head, url));
  return { desk, api, faults };
}
