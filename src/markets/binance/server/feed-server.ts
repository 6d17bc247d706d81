/**
 * `akira-mm feed` as a library: a recorded Binance spot market served over Binance's own WS and
 * REST protocol on loopback. The replay's clock starts when the first client subscribes to a
 * stream, so a client that connects, subscribes and fetches its snapshot sees the recording from
 * its first message, at any speed. Without `loop`, the end of the recording closes every stream
 * connection (code 1000) and `done` resolves.
 */
import { LiveClock, createSilentLogger, type Clock, type Logger } from '../../../core/index.ts';
import { BinanceHttpServer } from './http-server.ts';
import { marketRoutes, type SnapshotGate } from './market-routes.ts';
import { RecordingSource } from './recording.ts';
import { Replayer, type ReplaySpeed, type ReplayStats } from './replayer.ts';
import { StreamHub, type HubLimits, type HubStats } from './stream-hub.ts';

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
  stats(): { readonly replay: ReplayStats; readonly streams: HubStats & { readonly awaitingPong: number }; readonly skipped: Readonly<Record<string, number>> };
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
  });
  replay.replayer = replayer;
  try {
    await replayer.prepare();
  } catch (error) {
    streams.stop();
    throw error;
  }
  const gate = new Gate();
  const http = new BinanceHttpServer(clock, logger);
  http.addRoutes(marketRoutes(replayer, clock, gate));
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
    stats: () => ({ replay: { ...replayer.stats }, streams: { ...streams.stats, awaitingPong: streams.awaitingPong() }, skipped: { ...source.skipped } }),
    whenIdle: () => replayer.whenIdle(),
    done,
    stop,
  };
}
