/**
 * `akira-mm run` with a reference market (issue 10): the bot started exactly as `run` starts it,
 * quoting ETH/USDC on an otherwise empty embedded exchange (no synthetic flow) with
 * FAIR_PRICE=reference, the reference being an `akira-mm feed` server replaying the shared
 * ETHUSDT recording over Binance's own protocol on loopback. The feed's clock is a manual one a
 * pacer moves forward: stopping the pacer is the reference going quiet (stale), starting it again
 * is the reference coming back. A counterparty's quotes far from the reference make the venue
 * diverge from it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, getChain } from '../../src/core/index.ts';
import type { LiveVenue } from '../../src/exchange/index.ts';
import { startFeedServer, type FeedServer } from '../../src/markets/binance/server/index.ts';
import { listMarkets, type SimHandle } from '../../src/sim/index.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { START_MS, dataDir, recordingFiles } from '../markets/binance/support.ts';
import { USDC, counterparty, eventually, place, startBot, startTestSim } from './support.ts';

/** Moves the feed server's manual clock at the recorded pace while running. */
class Pacer {
  #timer: ReturnType<typeof setInterval> | undefined;
  constructor(private readonly clock: ManualClock) {}
  start(): void {
    this.#timer ??= setInterval(() => this.clock.advance(50), 50);
  }
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

let sim: SimHandle | undefined;
let feed: FeedServer | undefined;
let pacer: Pacer | undefined;
const venues: LiveVenue[] = [];
const bots: { stop(): Promise<number> }[] = [];

beforeEach(async () => {
  const clock = new ManualClock(START_MS);
  feed = await startFeedServer({ files: recordingFiles('ethusdt'), clock, loop: true });
  pacer = new Pacer(clock);
  pacer.start();
  sim = await startTestSim();
});

afterEach(async () => {
  for (const bot of bots.splice(0)) await bot.stop();
  for (const venue of venues.splice(0)) await venue.stop();
  pacer?.stop();
  await feed?.stop();
  await sim?.stop();
  sim = undefined;
});

/** The bot's own resting orders on the sim, prices in USDC units. */
function ownOrders(s: SimHandle): { bids: bigint[]; asks: bigint[]; sizes: bigint[] } {
  const open = s.openOrdersOf(s.accounts[0]!.address);
  return {
    bids: open.filter((o) => !o.request.flags.isSellSide).map((o) => o.request.price),
    asks: open.filter((o) => o.request.flags.isSellSide).map((o) => o.request.price),
    sizes: open.map((o) => o.request.baseQty),
  };
}

function referenceEnv(server: FeedServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    FAIR_PRICE: 'reference',
    REFERENCE: `binance:${server.symbol}`,
    REFERENCE_WS_URL: server.wsUrl,
    REFERENCE_REST_URL: server.httpUrl,
    REFERENCE_BASIS_BPS: '0',
    ...extra,
  };
}

describe.skipIf(dataDir === undefined)('FAIR_PRICE=reference against an akira-mm feed of the ETHUSDT recording', () => {
  it('quotes both sides of an otherwise empty book, straddling the reference mid, on the tick and lot', { timeout: 60_000 }, async () => {
    const s = sim!;
    const bot = await startBot(s, referenceEnv(feed!));
    bots.push(bot);
    await eventually(() => (ownOrders(s).bids.length > 0 && ownOrders(s).asks.length > 0) || undefined, 20_000, 'quotes on both sides');
    // Freeze the reference (well inside REFERENCE_STALE_MS) and let the quotes settle on its last price.
    pacer!.stop();
    await new Promise((resolve) => setTimeout(resolve, 700));
    const status = bot.daemon.engine.status();
    expect(status.state).toBe('quoting');
    const reference = status.reference!;
    expect(reference).toMatchObject({ market: 'binance:ETHUSDT', state: 'synchronised', basisBps: 0 });
    const refMid = BigInt(Math.round(reference.mid! * 1e6));
    const market = listMarkets(getChain('mainnet')).find((m) => m.key === 'ETH-USDC/eco')!;
    const { bids, asks, sizes } = ownOrders(s);
    expect(bids.length).toBeGreaterThan(0);
    expect(asks.length).toBeGreaterThan(0);
    for (const bid of bids) expect(bid < refMid).toBe(true);
    for (const ask of asks) expect(ask > refMid).toBe(true);
    // Within 20 bps of the reference: quoted around it, not around some other price.
    for (const price of [...bids, ...asks]) expect(Number(price > refMid ? price - refMid : refMid - price) / Number(refMid)).toBeLessThan(0.002);
    for (const price of [...bids, ...asks]) expect(price % market.priceTick).toBe(0n);
    for (const size of sizes) expect(size % market.qtyStep === 0n && size >= market.minQty).toBe(true);
    // The reference mid in USDC units is a recorded ETHUSDT price of August 2024.
    expect(Number(refMid) / Number(USDC)).toBeGreaterThan(2_000);
    expect(Number(refMid) / Number(USDC)).toBeLessThan(3_500);
    expect(await bot.stop()).toBe(0);
    bots.length = 0;
  });

  it('pauses with its own reason in /health when the reference goes quiet, and quotes again when it returns', { timeout: 60_000 }, async () => {
    const s = sim!;
    const metricsPort = await freePort();
    const bot = await startBot(s, referenceEnv(feed!, { REFERENCE_STALE_MS: '1000', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }));
    bots.push(bot);
    const health = async (): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/health`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    await eventually(() => (ownOrders(s).bids.length > 0 && ownOrders(s).asks.length > 0) || undefined, 20_000, 'quotes on both sides');
    expect((await health()).body).toMatchObject({ state: 'quoting', reference: { market: 'binance:ETHUSDT', state: 'synchronised', reason: null } });

    pacer!.stop();
    const paused = await eventually(async () => {
      const answer = await health();
      return answer.status === 503 ? answer : undefined;
    }, 10_000, 'the stale pause');
    expect(paused.body).toMatchObject({ state: 'paused', reason: 'reference stale', reference: { state: 'stale', reason: 'no-data' } });
    await eventually(() => ownOrders(s).bids.length + ownOrders(s).asks.length === 0 || undefined, 10_000, 'every quote cancelled');
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/akira_mm_reference_state\{market="binance:ETHUSDT",state="stale"[^}]*\} 1/);
    expect(metrics).toMatch(/akira_mm_pauses_total\{[^}]*reason="reference stale"[^}]*\} 1/);

    pacer!.start();
    await eventually(async () => ((await health()).status === 200 ? true : undefined), 10_000, 'quoting again');
    await eventually(() => (ownOrders(s).bids.length > 0 && ownOrders(s).asks.length > 0) || undefined, 10_000, 'quotes on both sides again');
  });

  it('pauses while the venue diverges from the reference past REFERENCE_MAX_DIVERGENCE_BPS, and resumes when it agrees again', { timeout: 60_000 }, async () => {
    const s = sim!;
    const bot = await startBot(s, referenceEnv(feed!, { REFERENCE_STALE_MS: '1000', REFERENCE_MAX_DIVERGENCE_BPS: '100' }));
    bots.push(bot);
    await eventually(() => (ownOrders(s).bids.length > 0 && ownOrders(s).asks.length > 0) || undefined, 20_000, 'quotes on both sides');
    const refMid = bot.daemon.engine.status().reference!.mid!;
    // While the reference is quiet (our quotes pulled), another maker quotes the venue 10 % above it.
    pacer!.stop();
    await eventually(() => bot.daemon.engine.status().pauseReason?.includes('reference stale') || undefined, 10_000, 'the stale pause');
    await eventually(() => ownOrders(s).bids.length + ownOrders(s).asks.length === 0 || undefined, 10_000, 'every quote cancelled');
    const maker = await counterparty(s, 2);
    venues.push(maker);
    const at = (factor: number): bigint => (BigInt(Math.round(refMid * factor * 100)) * USDC) / 100n;
    const makerBid = await place(maker, { side: 'buy', priceUnits: at(1.1), qtyUnits: 10n ** 16n, postOnly: true });
    const makerAsk = await place(maker, { side: 'sell', priceUnits: at(1.101), qtyUnits: 10n ** 16n, postOnly: true });
    pacer!.start();
    await eventually(() => bot.daemon.engine.status().pauseReason?.includes('reference divergent') || undefined, 10_000, 'the divergence pause');
    expect(bot.daemon.engine.status().reference!.divergenceBps!).toBeGreaterThan(900);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ownOrders(s).bids.length + ownOrders(s).asks.length).toBe(0);
    // The other maker leaves: nothing on the venue disagrees with the reference any more.
    await maker.cancelOrder(makerBid);
    await maker.cancelOrder(makerAsk);
    await eventually(() => bot.daemon.engine.status().state === 'quoting' || undefined, 10_000, 'quoting again');
    await eventually(() => (ownOrders(s).bids.length > 0 && ownOrders(s).asks.length > 0) || undefined, 10_000, 'quotes on both sides again');
  });
});
