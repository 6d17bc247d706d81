/**
 * A Binance client against `akira-mm feed` serving the shared recordings, both on one manual
 * clock: the test moves time, then waits (on real loopback I/O, never on time) until the client
 * has taken in every frame the server sent.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock, createRng, createSilentLogger, type ReferenceListener, type ReferenceStatus, type ReferenceTop, type ReferenceTrade } from '../../../src/core/index.ts';
import { BinanceReferenceFeed, type BinanceFeedOptions } from '../../../src/markets/binance/index.ts';
import { startFeedServer, type FeedServer, type FeedServerOptions } from '../../../src/markets/binance/server/index.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** ../shared/data beside the clone (or one level up from a worktree); undefined when absent. */
export const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

/** Both files of a symbol, in time order. */
export function recordingFiles(symbol: 'ethusdt' | 'btcusdt'): string[] {
  return ['20240808', '20240809'].map((day) => join(dataDir as string, 'binance-spot-hftbacktest', `${symbol}_${day}.gz`));
}

/** Polls `condition` between I/O turns until it holds. @throws after `timeoutMs` of wall time. */
export async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 1));
  }
}

/** Everything a listener heard. */
export class Heard implements ReferenceListener {
  readonly tops: ReferenceTop[] = [];
  readonly trades: ReferenceTrade[] = [];
  readonly statuses: ReferenceStatus[] = [];
  onTop(top: ReferenceTop): void {
    this.tops.push(top);
  }
  onTrade(trade: ReferenceTrade): void {
    this.trades.push(trade);
  }
  onStatus(status: ReferenceStatus): void {
    this.statuses.push(status);
  }
}

/** A feed server and a client on one manual clock. */
export interface Pair {
  readonly clock: ManualClock;
  readonly server: FeedServer;
  readonly feed: BinanceReferenceFeed;
  readonly heard: Heard;
  /** Moves time by `ms`, then waits until the client has every frame the server sent. */
  step(ms: number): Promise<void>;
  /** Waits until the client has every frame the server sent so far. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/** Recording start (ETH file's first line), so replayed times look like the recording's day. */
export const START_MS = Date.UTC(2024, 7, 8, 23, 54, 14);

/** Starts a server on `files` and a client of `symbol`; the client is started, not yet synchronised. */
export async function startPair(
  files: readonly string[],
  symbol: string,
  server: Omit<FeedServerOptions, 'files' | 'clock'> = {},
  client: Partial<BinanceFeedOptions> = {},
): Promise<Pair> {
  const clock = new ManualClock(START_MS);
  const feedServer = await startFeedServer({ files, clock, ...server });
  const heard = new Heard();
  const feed = new BinanceReferenceFeed({
    symbol,
    wsUrl: feedServer.wsUrl,
    restUrl: feedServer.httpUrl,
    clock,
    rng: createRng(7),
    logger: createSilentLogger(),
    staleAfterMs: 3_600_000,
    ...client,
  });
  await feed.start(heard);
  const settle = async (): Promise<void> => {
    await feedServer.whenIdle();
    await until(() => feed.status().counters.frames >= feedServer.stats().streams.framesSent, 'the client to take in every frame sent');
  };
  return {
    clock,
    server: feedServer,
    feed,
    heard,
    settle,
    step: async (ms) => {
      clock.advance(ms);
      await settle();
    },
    stop: async () => {
      await feed.stop();
      await feedServer.stop();
    },
  };
}

/**
 * Moves the clock in `stepMs` steps (letting I/O run between them) until `condition` holds: for
 * waits that need both time to pass (the next diff) and I/O to land (a snapshot). Bounded by
 * wall time, not by a step count, so a loaded machine only makes it slower.
 */
export async function stepUntil(pair: Pair, condition: () => boolean, stepMs: number, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    pair.clock.advance(stepMs);
    await pair.server.whenIdle();
    await new Promise((done) => setTimeout(done, 3));
  }
}
