/**
 * The Binance hedge venue client against `akira-mm feed --accounts`: signed REST with HMAC and
 * Ed25519 keys, the server-time offset, the user data stream from the WebSocket API, the symbol's
 * filters before sending, the venue's limits, unknown outcomes resolved by query.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pool } from 'undici';
import { MmError, Secret, createRng, createSilentLogger, hasErrorCode, ManualClock } from '../../../src/core/index.ts';
import { BinanceHedgeVenue } from '../../../src/markets/binance/trading/hedge-venue.ts';
import { fitHedgeQuantity } from '../../../src/markets/binance/trading/rules.ts';
import { BinanceSigner } from '../../../src/markets/binance/trading/signer.ts';
import { dataDir, until, START_MS, recordingFiles } from './support.ts';
import { HMAC_KEY, startTradingPair, testAccounts, ed25519Pair, VenueHeard, type TradingPair } from './trading-support.ts';
import { startFeedServer } from '../../../src/markets/binance/server/index.ts';

const ETH = (text: string): bigint => BigInt(Math.round(Number(text) * 1e8));

let pair: TradingPair | undefined;
afterEach(async () => {
  await pair?.stop();
  pair = undefined;
});

describe('Binance request signing', () => {
  it('signs the documented HMAC example exactly (rest-api.md "SIGNED Endpoint Examples")', () => {
    const signer = new BinanceSigner({ apiKey: new Secret('vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A'), secretKey: new Secret('NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j') });
    expect(signer.sign('symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559')).toBe('c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
  });

  it('refuses a key file that is not an Ed25519 private key, without quoting it', () => {
    const attempt = (): BinanceSigner => new BinanceSigner({ apiKey: new Secret('k'), privateKeyPem: new Secret('-----BEGIN PRIVATE KEY-----\nnot a key 4242\n-----END PRIVATE KEY-----') });
    expect(attempt).toThrowError(/not a PEM private key/);
    try {
      attempt();
    } catch (error) {
      expect(String(error)).not.toContain('4242');
    }
  });
});

describe.skipIf(dataDir === undefined)('Binance hedge venue against akira-mm feed --accounts', () => {
  it('reads the symbol filters and limits, takes a market buy against the replayed book, and hears its fills on the user data stream (HMAC key)', async () => {
    pair = await startTradingPair({ key: 'hmac' });
    const rules = pair.venue.rules;
    expect(rules).toMatchObject({ symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', lotStep: ETH('0.0001'), marketStep: ETH('0.0001'), minNotional: ETH('5'), minNotionalForMarket: true });
    expect(pair.venue.status()).toMatchObject({ streamUp: true, weightLimit: 6000, ordersLimit: 100 });
    const outcome = await pair.venue.placeOrder({ clientOrderId: 'akh-test-1', side: 'buy', qtyUnits: ETH('0.5'), type: 'market' });
    expect(outcome.kind).toBe('accepted');
    if (outcome.kind !== 'accepted') return;
    expect(outcome.order).toMatchObject({ status: 'FILLED', executedQtyUnits: ETH('0.5'), commissionAsset: 'ETH', commissionUnits: ETH('0.0005') });
    const ask = pair.server.trading?.desk.placed[0]?.trades[0]?.price ?? 0n;
    expect(outcome.order.executedQuoteUnits).toBeGreaterThanOrEqual((ETH('0.5') * ask) / 100_000_000n);
    await until(() => pair?.heard.orders.some((order) => order.clientOrderId === 'akh-test-1' && order.status === 'FILLED') === true, 'the execution report');
    const balances = await pair.venue.balances();
    expect(balances.baseFree).toBe(ETH('10') + ETH('0.5') - ETH('0.0005'));
    expect(balances.quoteFree).toBe(ETH('30000') - outcome.order.executedQuoteUnits);
    expect(pair.server.stats().refused).toEqual({ tooManyRequests: 0, banned: 0 });
  });

  it('logs the session on and subscribes with userDataStream.subscribe for an Ed25519 key', async () => {
    pair = await startTradingPair({ key: 'ed25519' });
    expect(pair.venue.status().streamUp).toBe(true);
    const outcome = await pair.venue.placeOrder({ clientOrderId: 'akh-ed-1', side: 'sell', qtyUnits: ETH('0.25'), type: 'ioc', limitPriceUnits: ETH('2000') });
    expect(outcome).toMatchObject({ kind: 'accepted', order: { status: 'FILLED', executedQtyUnits: ETH('0.25'), commissionAsset: 'USDT' } });
    await until(() => pair?.heard.orders.some((order) => order.clientOrderId === 'akh-ed-1') === true, 'the execution report');
  });

  it('signs with the venue\'s time: a client clock 10 s behind still trades, and a drift after start costs one -1021 refusal, not an execution', async () => {
    pair = await startTradingPair({ clientBehindMs: 10_000 });
    expect(pair.venue.status().clockOffsetMs).toBe(10_000);
    expect((await pair.venue.placeOrder({ clientOrderId: 'akh-t-1', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' })).kind).toBe('accepted');
    pair.serverClock.advance(30_000);
    const refused = await pair.venue.placeOrder({ clientOrderId: 'akh-t-2', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' });
    expect(refused).toMatchObject({ kind: 'rejected', reason: 'timestamp' });
    expect(pair.server.trading?.desk.placed.length).toBe(1);
    expect(pair.venue.status().clockOffsetMs).toBe(40_000);
    expect((await pair.venue.placeOrder({ clientOrderId: 'akh-t-3', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' })).kind).toBe('accepted');
  });

  it('refuses a wrong secret at start with BINANCE_AUTH (-1022)', async () => {
    const server = await startFeedServer({ files: recordingFiles('ethusdt'), clock: new ManualClock(START_MS), accounts: testAccounts(ed25519Pair().publicPem) });
    const venue = new BinanceHedgeVenue({ symbol: 'ETHUSDT', restUrl: server.httpUrl, wsApiUrl: server.trading?.wsApiUrl ?? '', credentials: { apiKey: new Secret(HMAC_KEY), secretKey: new Secret('wrong-secret') }, clock: new ManualClock(START_MS), rng: createRng(1), logger: createSilentLogger() });
    try {
      await expect(venue.start(new VenueHeard())).rejects.toSatisfy((error: unknown) => hasErrorCode(error, 'BINANCE_AUTH'));
    } finally {
      await venue.stop();
      await server.stop();
    }
  });

  it('resolves an unknown outcome (503 -1007) by querying the client order id: executed once, never sent again', async () => {
    pair = await startTradingPair();
    const trading = pair.server.trading;
    trading?.faults.unknownOutcomeNext(1, true);
    const outcome = await pair.venue.placeOrder({ clientOrderId: 'akh-u-1', side: 'buy', qtyUnits: ETH('0.1'), type: 'market' });
    expect(outcome.kind).toBe('unknown');
    expect(await pair.venue.queryOrder('akh-u-1')).toMatchObject({ kind: 'found', order: { status: 'FILLED', executedQtyUnits: ETH('0.1') } });
    trading?.faults.unknownOutcomeNext(1, false);
    expect((await pair.venue.placeOrder({ clientOrderId: 'akh-u-2', side: 'buy', qtyUnits: ETH('0.1'), type: 'market' })).kind).toBe('unknown');
    expect(await pair.venue.queryOrder('akh-u-2')).toEqual({ kind: 'not-found' });
    expect(trading?.desk.placed.map((order) => order.clientOrderId)).toEqual(['akh-u-1']);
  });

  it('names an insufficient balance, and checks the filters before sending anything', async () => {
    pair = await startTradingPair({ balances: { ETH: '0.05', USDT: '100' } });
    expect(await pair.venue.placeOrder({ clientOrderId: 'akh-b-1', side: 'sell', qtyUnits: ETH('0.1'), type: 'market' })).toMatchObject({ kind: 'rejected', reason: 'insufficient-balance' });
    await expect(pair.venue.placeOrder({ clientOrderId: 'akh-b-2', side: 'sell', qtyUnits: ETH('0.00015'), type: 'market' })).rejects.toSatisfy((error: unknown) => error instanceof MmError && error.code === 'HEDGE_INVALID_ORDER');
    expect(fitHedgeQuantity(ETH('0.00015'), ETH('2680'), pair.venue.rules, 'market')).toEqual({ kind: 'below-minimum', qtyUnits: ETH('0.0001'), reason: 'notional below the minimum 5 USDT' });
    expect(fitHedgeQuantity(ETH('0.01876'), ETH('2680'), pair.venue.rules, 'market')).toEqual({ kind: 'ok', qtyUnits: ETH('0.0187') });
    expect(pair.server.trading?.desk.placed).toEqual([]);
  });

  it('stays under the stated request weight: held back locally instead of earning a 429', async () => {
    pair = await startTradingPair({ server: { tradingLimits: { weightPerMinute: 100 } } });
    let heldBack = 0;
    for (let i = 0; i < 40; i++) {
      try {
        await pair.venue.queryOrder(`nothing-${i}`);
      } catch (error) {
        expect(hasErrorCode(error, 'BINANCE_RATE_LIMITED')).toBe(true);
        heldBack++;
      }
    }
    expect(heldBack).toBeGreaterThan(0);
    expect(pair.server.stats().refused).toEqual({ tooManyRequests: 0, banned: 0 });
    expect(pair.venue.status().weightUsed).toBeLessThanOrEqual(100);
  });

  it('waits out a 429\'s Retry-After before sending anything else', async () => {
    pair = await startTradingPair();
    pair.server.trading?.faults.rateLimitNext(1);
    expect(await pair.venue.placeOrder({ clientOrderId: 'akh-r-1', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' })).toMatchObject({ kind: 'rejected', reason: 'rate-limited', retryAfterMs: 1000 });
    expect(await pair.venue.placeOrder({ clientOrderId: 'akh-r-2', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' })).toMatchObject({ kind: 'rejected', reason: 'rate-limited' });
    pair.clientClock.advance(1_001);
    pair.serverClock.advance(1_001);
    expect((await pair.venue.placeOrder({ clientOrderId: 'akh-r-3', side: 'buy', qtyUnits: ETH('0.01'), type: 'market' })).kind).toBe('accepted');
    expect(pair.server.trading?.desk.placed.map((order) => order.clientOrderId)).toEqual(['akh-r-3']);
  });

  it('bans a client that keeps sending after 429s (418 with Retry-After), as Binance does', async () => {
    pair = await startTradingPair({ server: { tradingLimits: { weightPerMinute: 45 } } });
    const pool = new Pool(pair.server.httpUrl);
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 12; i++) {
      const response = await pool.request({ method: 'GET', path: '/api/v3/time' });
      await response.body.text();
      statuses.push(response.statusCode);
      if (response.statusCode === 418) retryAfter = response.headers['retry-after'];
    }
    await pool.close();
    expect(statuses).toContain(429);
    expect(statuses.at(-1)).toBe(418);
    expect(Number(retryAfter)).toBeGreaterThan(60);
  });

  it('reports the user data stream lost and back after a network drop', async () => {
    pair = await startTradingPair();
    const current = pair;
    current.server.trading?.faults.dropUserStreams();
    await until(() => current.heard.stream.some((event) => !event.isUp), 'the loss');
    current.clientClock.advance(1_000);
    current.serverClock.advance(1_000);
    await until(() => current.heard.stream.at(-1)?.isUp === true && current.server.trading?.subscriptions() === 1, 'the resubscription');
    expect(current.venue.status().streamUp).toBe(true);
  });
});
