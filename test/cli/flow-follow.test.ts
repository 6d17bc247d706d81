/**
 * `akira-mm sim --flow-follow URL|FILE`: the synthetic flow's ladder sits around the followed
 * Binance market's mid (ETHUSDT ≈ 2,683.8 at the recording's start) instead of the random walk's
 * 3,000.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, ManualClock, createRng, createSilentLogger, getChain } from '../../src/core/index.ts';
import { startFeedServer, type FeedServer } from '../../src/markets/binance/server/index.ts';
import { FLOW_MAKER, startSim, type SimHandle } from '../../src/sim/index.ts';
import { startFlowFollower, startRecordedReference, type FlowFollower } from '../../src/cli/flow-follow.ts';
import { dataDir, recordingFiles } from '../markets/binance/support.ts';
import { runCli } from './run-cli.ts';

let server: FeedServer | undefined;
let follower: FlowFollower | undefined;
let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  await follower?.stop();
  await server?.stop();
  sim = follower = server = undefined;
});

const deps = () => ({ clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger(), chain: getChain('mainnet'), cwd: process.cwd() });

/** The flow maker's ETH/USDC ladder (`--flow poisson`): best bid and ask in USDC. */
async function ladder(follow: FlowFollower): Promise<{ bid: number; ask: number }> {
  const clock = new ManualClock(0);
  sim = await startSim({ seed: 1, flow: true, follow, flowModel: 'poisson', clock, signatureWorkers: 0 });
  clock.advance(1_000);
  const orders = sim.openOrdersOf(FLOW_MAKER).filter((order) => order.market.base.symbol === 'ETH' && order.market.quote.symbol === 'USDC');
  const price = (order: (typeof orders)[number]): number => Number(order.request.price) / 1e6;
  return {
    bid: Math.max(...orders.filter((order) => order.side === 'buy').map(price)),
    ask: Math.min(...orders.filter((order) => order.side === 'sell').map(price)),
  };
}

describe.skipIf(dataDir === undefined)('sim --flow-follow', () => {
  it('puts the flow ladder around the mid of a Binance-protocol feed (URL)', async () => {
    server = await startFeedServer({ files: recordingFiles('ethusdt'), loop: true });
    follower = await startFlowFollower(server.wsUrl, undefined, deps());
    expect(follower).toMatchObject({ token: 'ETH', symbol: 'ETHUSDT' });
    const mid = follower.priceUsd() as number;
    expect(mid).toBeGreaterThan(2_670);
    expect(mid).toBeLessThan(2_690);
    const { bid, ask } = await ladder(follower);
    expect(bid).toBeLessThan(mid * 1.001);
    expect(ask).toBeGreaterThan(mid * 0.999);
    expect(ask - bid).toBeLessThan(mid * 0.01);
  });

  it('follows a recording file directly (served in-process), and a stream URL that names its symbol', async () => {
    follower = await startFlowFollower(recordingFiles('ethusdt')[0] as string, undefined, deps());
    expect(follower.symbol).toBe('ETHUSDT');
    const { bid, ask } = await ladder(follower);
    expect((bid + ask) / 2).toBeGreaterThan(2_600);
    expect((bid + ask) / 2).toBeLessThan(2_800);
    await sim?.stop();
    sim = undefined;
    await follower.stop();
    server = await startFeedServer({ files: recordingFiles('btcusdt'), loop: true });
    await expect(startFlowFollower(`${server.wsUrl}/ws/btcusdt@bookTicker`, undefined, deps())).rejects.toThrow(/BTC is not a token of the sim's chain/);
  });

  it('serves a recording for a paper session: the flow follows it and the bot gets the REFERENCE keys for it', async () => {
    const reference = await startRecordedReference(recordingFiles('ethusdt').slice(0, 1), deps());
    try {
      expect(reference.env.REFERENCE).toBe('binance:ETHUSDT');
      expect(reference.env.REFERENCE_WS_URL).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
      const info = (await (await fetch(`${reference.env.REFERENCE_REST_URL}/api/v3/exchangeInfo?symbol=ETHUSDT`)).json()) as { symbols: { symbol: string }[] };
      expect(info.symbols[0]?.symbol).toBe('ETHUSDT');
      expect(reference.follower.priceUsd()).toBeCloseTo(2683.8, 0);
    } finally {
      await reference.stop();
    }
  });

  it('drives the followed books with the reference flow by default: the background maker quotes the followed mid ± 10 bp one lag after a touch', async () => {
    server = await startFeedServer({ files: recordingFiles('ethusdt'), loop: true });
    follower = await startFlowFollower(server.wsUrl, undefined, deps());
    const clock = new ManualClock(0);
    sim = await startSim({ seed: 1, flow: true, follow: follower, clock, signatureWorkers: 0 });
    let mid: number | undefined;
    follower.subscribe({ onTop: (bid, ask) => (mid = (bid + ask) / 2), onTrade: () => undefined });
    const deadline = performance.now() + 20_000;
    while (mid === undefined && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    const seen = mid as number;
    clock.advance(1_000);
    await sim.idle();
    const quotes = sim.openOrdersOf(FLOW_MAKER).filter((order) => order.market.key === 'ETH-USDC/eco');
    expect(quotes.map((order) => order.side).sort()).toEqual(['buy', 'sell']);
    for (const order of quotes) {
      const price = Number(order.request.price) / 1e6;
      // Around the mid it saw one lag ago (the live feed may have moved a tick or two since).
      expect(Math.abs(price - seen * (order.side === 'buy' ? 0.999 : 1.001))).toBeLessThan(seen * 2e-4);
    }
    expect(sim.referenceFlowStats()?.backgroundRequotes).toBeGreaterThan(0);
  });

  it('refuses --flow-follow with --no-flow', async () => {
    expect(await runCli(['sim', '--no-flow', '--flow-follow', 'ws://127.0.0.1:1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--flow-follow needs the synthetic flow') });
  });
});
