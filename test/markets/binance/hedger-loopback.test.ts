/**
 * The hedger on Binance's protocol end to end: the Binance hedge venue client and a hedge-book
 * feed against `akira-mm feed --accounts` replaying the ETHUSDT recording, all on one manual clock,
 * with the hedge journal in a real file. Hedges never rest (market or IOC only), and a restart
 * settles what the journal left open by query, never by sending again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, Secret, createRng, createSilentLogger } from '../../../src/core/index.ts';
import { FileHedgeJournal, Hedger, type FillEffect, type FillIncrement, type HedgerSettings } from '../../../src/engine/index.ts';
import { BinanceReferenceFeed } from '../../../src/markets/binance/index.ts';
import { BinanceHedgeVenue } from '../../../src/markets/binance/trading/hedge-venue.ts';
import { startFeedServer, type FeedServer } from '../../../src/markets/binance/server/index.ts';
import { START_MS, dataDir, recordingFiles } from './support.ts';
import { HMAC_KEY, HMAC_SECRET, ed25519Pair, testAccounts } from './trading-support.ts';

const SETTINGS: HedgerSettings = { feeBps: 10, maxDelayMs: 1_000, maxRetries: 5, minProfitBps: 5, orderType: 'market', iocSlippageBps: 20, basisBps: 0, recvWindowMs: 5_000 };
const ETH18 = (tokens: number): bigint => BigInt(Math.round(tokens * 1e8)) * 10n ** 10n;

let server: FeedServer | undefined;
const hedgers: Hedger[] = [];
afterEach(async () => {
  for (const hedger of hedgers.splice(0)) await hedger.stop();
  await server?.stop();
  server = undefined;
});

/** A fill of ours on the quoted venue: `side`, `qty` ETH (no fee), order `orderId`. */
function fill(orderId: string, side: 'buy' | 'sell', qty: number): [FillIncrement, FillEffect, bigint] {
  const units = ETH18(qty);
  return [
    { orderId, side, qtyUnits: units, quoteUnits: 0n, priceUnits: 0n, isMaker: true, timeMs: 0 },
    { baseDeltaUnits: side === 'buy' ? units : -units, quoteDeltaUnits: 0n, feeUnits: 0n, feeToken: 'base', feeQuote: 0 },
    units,
  ];
}

/** Advances the clock in steps, letting loopback I/O land between them, until `done()` (bounded by wall time). */
async function drive(clock: ManualClock, done: () => boolean, what: string, stepMs = 20): Promise<void> {
  const deadline = performance.now() + 20_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    clock.advance(stepMs);
    await server?.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Starts a hedger against the server on `journalPath`, driving the clock through its start. */
async function startHedger(clock: ManualClock, journalPath: string, settings: Partial<HedgerSettings> = {}): Promise<Hedger> {
  const feed = server as FeedServer;
  const logger = createSilentLogger();
  const hedger = new Hedger({
    venue: new BinanceHedgeVenue({ symbol: 'ETHUSDT', restUrl: feed.httpUrl, wsApiUrl: feed.trading?.wsApiUrl ?? '', credentials: { apiKey: new Secret(HMAC_KEY), secretKey: new Secret(HMAC_SECRET) }, clock, rng: createRng(5), logger }),
    book: new BinanceReferenceFeed({ symbol: 'ETHUSDT', wsUrl: feed.wsUrl, restUrl: feed.httpUrl, clock, rng: createRng(6), logger, staleAfterMs: 3_600_000, snapshotLimit: 100 }),
    clock,
    logger,
    journal: new FileHedgeJournal(journalPath),
    settings: { ...SETTINGS, ...settings },
    pairBaseDecimals: 18,
    idPrefix: `t${hedgers.length}-`,
  });
  hedgers.push(hedger);
  let started = false;
  const starting = hedger.start().then(() => (started = true));
  await drive(clock, () => started, 'the hedger to start');
  await starting;
  // Until its book is synchronised the hedger cannot price a hedge.
  await drive(clock, () => hedger.marketView() !== undefined, 'the hedge book');
  return hedger;
}

describe.skipIf(dataDir === undefined)('the hedger against akira-mm feed --accounts', () => {
  it.each(['market', 'ioc'] as const)('hedges with %s orders that never rest on the book, and hedges again what an expired one left (hummingbot #2828, #4557)', async (orderType) => {
    const clock = new ManualClock(START_MS);
    server = await startFeedServer({ files: recordingFiles('ethusdt'), clock, accounts: testAccounts(ed25519Pair().publicPem) });
    const hedger = await startHedger(clock, join(mkdtempSync(join(tmpdir(), 'akira-hedge-')), 'bot.journal.hedge'), { orderType });
    const desk = server.trading!.desk;
    desk.faults.expireNext(1);
    hedger.onFill(...fill('order-1', 'buy', 0.5));
    await drive(clock, () => hedger.status().uncoveredBase === 0 && !hedger.isBusy(), 'the hedges');
    expect(desk.placed.map((order) => [order.type, order.timeInForce, order.status])).toEqual(
      orderType === 'market'
        ? [
            ['MARKET', undefined, 'EXPIRED'],
            ['MARKET', undefined, 'FILLED'],
          ]
        : [
            ['LIMIT', 'IOC', 'EXPIRED'],
            ['LIMIT', 'IOC', 'FILLED'],
          ],
    );
    expect(desk.openOrders(HMAC_KEY)).toEqual([]);
    expect(desk.placed.reduce((sum, order) => sum + order.executedQty, 0n)).toBe(50_000_000n);
    expect(hedger.status()).toMatchObject({ hedgesSent: 2, hedgesFailed: 1, hedgePositionBase: -0.5 });
  });

  it('settles at restart what the journal left open: a hedge that executed is found by its client id and not sent again; one that never arrived is hedged anew once it can no longer execute', async () => {
    const clock = new ManualClock(START_MS);
    server = await startFeedServer({ files: recordingFiles('ethusdt'), clock, accounts: testAccounts(ed25519Pair().publicPem) });
    const journalPath = join(mkdtempSync(join(tmpdir(), 'akira-hedge-')), 'bot.journal.hedge');
    // A previous process counted two fills and sent two hedges, then died before their answers:
    // the first reached the venue and executed, the second never left the machine.
    const previous = new FileHedgeJournal(journalPath);
    previous.append({ t: 'fill', orderId: 'order-1', cum: ETH18(0.3).toString(), qty: ETH18(0.3).toString(), delta: ETH18(0.3).toString(), timeMs: START_MS });
    previous.append({ t: 'hedge', id: 'old-1', side: 'sell', qty: '30000000', expected: (-ETH18(0.3)).toString(), ref: '0', timeMs: START_MS });
    previous.append({ t: 'fill', orderId: 'order-2', cum: ETH18(0.2).toString(), qty: ETH18(0.2).toString(), delta: ETH18(0.2).toString(), timeMs: START_MS });
    previous.append({ t: 'hedge', id: 'old-2', side: 'sell', qty: '20000000', expected: (-ETH18(0.2)).toString(), ref: '0', timeMs: START_MS });
    previous.close();
    const desk = server.trading!.desk;
    expect(desk.place(HMAC_KEY, { side: 'SELL', type: 'MARKET', timeInForce: undefined, quantity: 30_000_000n, price: undefined, clientOrderId: 'old-1' })).toMatchObject({ status: 'FILLED' });
    const hedger = await startHedger(clock, journalPath);
    await drive(clock, () => hedger.status().uncoveredBase === 0 && !hedger.isBusy(), 'the open hedges to settle');
    const ids = desk.placed.map((order) => order.clientOrderId);
    expect(ids[0]).toBe('old-1');
    expect(ids.filter((id) => id === 'old-1' || id === 'old-2')).toEqual(['old-1']);
    expect(desk.placed).toHaveLength(2);
    expect(desk.placed[1]?.origQty).toBe(20_000_000n);
    // The engine replays the same fills after a restart: they are not counted again.
    hedger.onFill(...fill('order-1', 'buy', 0.3));
    hedger.onFill(...fill('order-2', 'buy', 0.2));
    await drive(clock, () => !hedger.isBusy(), 'nothing');
    expect(desk.placed).toHaveLength(2);
    expect(hedger.status()).toMatchObject({ uncoveredBase: 0, hedgePositionBase: -0.5 });
  });
});
