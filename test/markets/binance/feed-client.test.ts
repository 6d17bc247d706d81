/**
 * The Binance reference feed's safety behaviour against `akira-mm feed` on loopback, all timing
 * on a manual clock: reconnects, Binance's 24-hour limit, announced shutdowns, malformed frames,
 * crossed and unsynchronised books, staleness.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRng, createSilentLogger, hasErrorCode } from '../../../src/core/index.ts';
import { BinanceReferenceFeed } from '../../../src/markets/binance/index.ts';
import { Heard, dataDir, recordingFiles, startPair, stepUntil, until, type Pair } from './support.ts';

let pair: Pair | undefined;
const extra: BinanceReferenceFeed[] = [];
afterEach(async () => {
  for (const feed of extra.splice(0)) await feed.stop();
  await pair?.stop();
  pair = undefined;
});

async function synchronisedPair(speed: number, client: Parameters<typeof startPair>[3] = {}): Promise<Pair> {
  pair = await startPair(recordingFiles('ethusdt'), 'ETHUSDT', { speed }, client);
  const current = pair;
  // ETHUSDT's first diff comes 11 ms (recorded) after the first line.
  await stepUntil(current, () => current.feed.status().state === 'synchronised', Math.ceil(20 / speed), 'the first synchronisation');
  // A few diffs past the snapshot, so the book has moved on its own.
  if (speed >= 1) await current.step(1_000);
  return current;
}

/** Every top the listener heard was two-sided and uncrossed. */
function expectSaneTops(heard: Heard): void {
  for (const top of heard.tops) expect(top.bidPrice).toBeLessThan(top.askPrice);
}

describe.skipIf(dataDir === undefined)('Binance reference feed against akira-mm feed', () => {
  it('reports no top while its book is unsynchronised, however many tickers arrive', async () => {
    pair = await startPair(recordingFiles('ethusdt'), 'ETHUSDT', { speed: 1 });
    const current = pair;
    current.server.faults.holdSnapshots(true);
    await current.step(2_000);
    expect(current.server.stats().replay.tickers).toBeGreaterThan(50);
    expect(current.feed.top()).toBeUndefined();
    expect(current.feed.depth(5)).toBeUndefined();
    expect(current.heard.tops).toEqual([]);
    expect(current.feed.status()).toMatchObject({ state: 'resyncing', reason: 'starting', mid: undefined });
    current.server.faults.holdSnapshots(false);
    await until(() => current.feed.status().state === 'synchronised', 'the held snapshot');
    const top = current.feed.top();
    expect(top).toBeDefined();
    expect(current.feed.status().mid).toBeCloseTo(((top?.bidPrice ?? 0) + (top?.askPrice ?? 0)) / 2, 8);
    const depth = current.feed.depth(10);
    expect(depth?.bids.length).toBe(10);
    expect(depth?.bids[0]?.price).toBeGreaterThan(depth?.bids[1]?.price ?? Infinity);
    expect(depth?.asks[0]?.price).toBeLessThan(depth?.asks[1]?.price ?? 0);
    expectSaneTops(current.heard);
  });

  it('reconnects with backoff after the server drops the socket, and rebuilds the book from a fresh snapshot', async () => {
    const current = await synchronisedPair(1);
    current.server.faults.dropConnections();
    await until(() => current.feed.status().reason === 'disconnected', 'the loss to be noticed');
    expect(current.feed.top()).toBeUndefined();
    const topsBefore = current.heard.tops.length;
    // First retry within [250, 500] ms; diffs every 100 ms after that.
    current.clock.advance(500);
    await until(() => current.server.stats().streams.connectionsTotal === 2, 'the reconnect');
    await stepUntil(current, () => current.feed.status().state === 'synchronised', 100, 'the resync');
    expect(current.feed.status()).toMatchObject({ state: 'synchronised', reason: undefined });
    expect(current.feed.status().counters).toMatchObject({ reconnects: 1, resyncs: 1, snapshots: 2, gaps: 0 });
    expect(current.heard.tops.length).toBeGreaterThan(topsBefore);
    expect(current.heard.statuses.map((s) => s.reason)).toContain('disconnected');
    expectSaneTops(current.heard);
  });

  it('skips and counts malformed frames without losing sync or crashing', async () => {
    const current = await synchronisedPair(1);
    current.server.faults.injectFrame('not json at all');
    current.server.faults.injectFrame('{"stream":"ethusdt@bookTicker","data":{"u":1,"s":"ETHUSDT","b":"abc","B":"1","a":"2","A":"1"}}');
    current.server.faults.injectFrame('{"stream":"ethusdt@depth@100ms","data":{"e":"depthUpdate","E":1,"s":"ETHUSDT","U":"x","u":2,"b":[],"a":[]}}');
    current.server.faults.injectFrame('{"stream":"ethusdt@trade","data":{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1,"m":true,"M":true}}');
    await current.step(1_000);
    expect(current.feed.status().counters).toMatchObject({ malformedFrames: 4, gaps: 0, resyncs: 0 });
    expect(current.feed.status().state).toBe('synchronised');
    expect(current.feed.top()).toBeDefined();
  });

  it('never reports a crossed book: a crossing diff drops the top at once and triggers a resync', async () => {
    const current = await synchronisedPair(1);
    const book = current.feed.depth(1);
    const ask = book?.asks[0]?.price as number;
    const next = (book?.updateId as number) + 1;
    current.server.faults.injectFrame(
      `{"stream":"ethusdt@depth@100ms","data":{"e":"depthUpdate","E":1,"s":"ETHUSDT","U":${next},"u":${next},"b":[["${(ask + 1).toFixed(8)}","1.00000000"]],"a":[]}}`,
    );
    await until(() => current.feed.status().reason === 'crossed-book', 'the cross to be noticed');
    expect(current.feed.top()).toBeUndefined();
    expect(current.feed.depth(5)).toBeUndefined();
    await stepUntil(current, () => current.feed.status().state === 'synchronised', 100, 'the resync');
    expect(current.feed.status().counters).toMatchObject({ crossedBooks: 1, resyncs: 1, snapshots: 2 });
    expectSaneTops(current.heard);
  });

  it('turns stale after the stale limit without data, and fresh again with the next update', async () => {
    // 1/1000 of the recorded pace: updates come tens of seconds apart on the clock.
    const current = await synchronisedPair(0.001, { staleAfterMs: 5_000 });
    expect(current.feed.status().state).toBe('synchronised');
    for (let i = 0; i < 200 && current.feed.status().state !== 'stale'; i++) await current.step(1_000);
    expect(current.feed.status()).toMatchObject({ state: 'stale', reason: 'no-data', mid: undefined });
    expect(current.feed.top()).toBeUndefined();
    expect(current.heard.statuses.at(-1)?.state).toBe('stale');
    for (let i = 0; i < 500 && current.feed.status().state === 'stale'; i++) await current.step(1_000);
    expect(current.feed.status().state).toBe('synchronised');
    expect(current.feed.top()).toBeDefined();
  });

  it('switches connections without a resync when Binance announces a server shutdown', async () => {
    const current = await synchronisedPair(1);
    const tradeIds: number[] = [];
    current.server.faults.announceShutdown(5_000);
    await stepUntil(current, () => current.feed.status().counters.rollovers === 1 && current.server.stats().streams.connectionsOpen === 1, 100, 'the handover');
    const status = current.feed.status();
    expect(status.counters).toMatchObject({ rollovers: 1, resyncs: 0, reconnects: 0, gaps: 0 });
    expect(status.state).toBe('synchronised');
    expect(current.server.stats().streams.connectionsTotal).toBe(2);
    expect(current.server.stats().streams.connectionsOpen).toBe(1);
    for (const trade of current.heard.trades) tradeIds.push(trade.tradeId);
    // Trades seen on both connections during the overlap reach the listener once.
    expect(new Set(tradeIds).size).toBe(tradeIds.length);
    expect([...tradeIds].sort((a, b) => a - b)).toEqual(tradeIds);
  });

  it("outlives Binance's 24-hour limit: replaced ahead of it without a resync, or reconnected and resynced when not", async () => {
    const current = await synchronisedPair(0.001);

    // A second client that does not replace its connection: Binance's own close hits it.
    const heard = new Heard();
    const plain = new BinanceReferenceFeed({
      symbol: 'ETHUSDT',
      wsUrl: current.server.wsUrl,
      restUrl: current.server.httpUrl,
      clock: current.clock,
      rng: createRng(9),
      logger: createSilentLogger(),
      staleAfterMs: 3_600_000,
      timing: { rolloverAfterMs: 0 },
    });
    extra.push(plain);
    await plain.start(heard);
    const startMs = current.clock.nowMs();
    // 30 s steps, each ping answered before the next step: well within Binance's one-minute deadline.
    while (current.clock.nowMs() < startMs + 24.5 * 3_600_000) {
      current.clock.advance(30_000);
      await current.server.whenIdle();
      await until(() => current.server.stats().streams.awaitingPong === 0, 'the pongs');
    }
    await stepUntil(current, () => plain.status().state === 'synchronised', 30_000, 'the plain client to resync');
    expect(current.feed.status().counters).toMatchObject({ rollovers: 1, resyncs: 0, reconnects: 0 });
    expect(current.feed.status().state).toBe('synchronised');
    expect(plain.status().counters).toMatchObject({ rollovers: 0, reconnects: 1, resyncs: 1 });
    expect(plain.status().state).toBe('synchronised');
    // Only the client that waited for it met the 24-hour close; nobody missed a pong.
    expect(current.server.stats().streams.closedByRule).toBe(1);
  }, 120_000);

  it('follows bookTicker alone, with no REST at all, in ticker-only mode', async () => {
    pair = await startPair(recordingFiles('ethusdt'), 'ETHUSDT', { speed: 1 });
    const current = pair;
    const heard = new Heard();
    const follower = new BinanceReferenceFeed({
      symbol: 'ETHUSDT',
      wsUrl: current.server.wsUrl,
      restUrl: 'http://127.0.0.1:1',
      depth: false,
      trades: false,
      clock: current.clock,
      rng: createRng(3),
      logger: createSilentLogger(),
    });
    extra.push(follower);
    await follower.start(heard);
    current.clock.advance(500);
    await current.server.whenIdle();
    await until(() => follower.status().state === 'synchronised', 'the first ticker');
    expect(follower.top()?.source).toBe('ticker');
    expect(follower.depth(5)).toBeUndefined();
    expect(heard.tops.length).toBeGreaterThan(0);
    expect(heard.trades).toEqual([]);
  });

  it('refuses a symbol Binance does not list, and stops idempotently', async () => {
    pair = await startPair(recordingFiles('ethusdt'), 'ETHUSDT', { speed: 1 });
    const wrong = new BinanceReferenceFeed({ symbol: 'DOGEUSDT', wsUrl: pair.server.wsUrl, restUrl: pair.server.httpUrl, clock: pair.clock, rng: createRng(1), logger: createSilentLogger() });
    const error = await wrong.start(new Heard()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(hasErrorCode(error, 'BINANCE_BAD_SYMBOL')).toBe(true);
    await wrong.stop();
    await pair.feed.stop();
    await pair.feed.stop();
    expect(pair.feed.status()).toMatchObject({ state: 'stopped', reason: 'stopped' });
    expect(pair.feed.top()).toBeUndefined();
  });
});
