/**
 * ccxt (npm `ccxt`, dev dependency; its `pro` build holds the watch* methods) driving `akira-mm
 * feed --accounts` through the calls a market maker makes on Binance spot (issue 32, item 3): 21
 * of them, and the further ones a desk may use. ccxt is pointed at loopback by its own options, as
 * its binance.js reads them:
 * - every `urls.api` entry (REST `public`/`private`/`sapi`/`fapi…`, WS `ws.spot`, `ws['ws-api'].spot`)
 *   rewritten to the feed's host, so nothing can leave the machine;
 * - `options.fetchMarkets.types = ['spot']` (else it loads futures and options markets too),
 *   `fetchCurrencies: false` and `fetchMargins: false` (both are `sapi` calls Binance spot's API
 *   does not include);
 * - `loadHttpProxyAgent()`, which ccxt asks for before it opens a `ws://` (not `wss://`) URL.
 * ccxt signs with the wall clock, so the server runs on the live clock; waits are bounded by wall time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { LiveClock } from '../../../src/core/index.ts';
import { startFeedServer, type FeedServer } from '../../../src/markets/binance/server/index.ts';
import { dataDir, recordingFiles, until } from './support.ts';
import { HMAC_KEY, HMAC_SECRET, ed25519Pair, testAccounts } from './trading-support.ts';

const SYMBOL = 'ETH/USDT';

/** The calls a market maker makes, by ccxt's names. */
const MARKET_MAKER_CALLS = [
  'loadMarkets',
  'fetchTime',
  'fetchTicker',
  'fetchTickers',
  'fetchBidsAsks',
  'fetchOrderBook',
  'fetchTrades',
  'fetchOHLCV',
  'fetchBalance',
  'createOrder limit',
  'createOrder market',
  'fetchOrder',
  'fetchOpenOrders',
  'cancelOrder',
  'cancelAllOrders',
  'fetchMyTrades',
  'watchOrderBook',
  'watchTrades',
  'watchBidsAsks',
  'watchOrders',
  'watchBalance',
] as const;
/** Further calls: history, the WebSocket API's order methods, own trades on the user stream. */
const FURTHER_CALLS = ['fetchOrders', 'fetchClosedOrders', 'watchMyTrades', 'createOrderWs', 'fetchOrderWs', 'cancelOrderWs', 'fetchOpenOrdersWs', 'fetchBalanceWs'] as const;
type CallName = (typeof MARKET_MAKER_CALLS)[number] | (typeof FURTHER_CALLS)[number];

const made = new Set<CallName>();
const passed = (name: CallName): void => {
  made.add(name);
};

/** `promise`, or a rejection after `ms` of wall time (a watch that never resolves fails, not hangs). */
function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every URL of ccxt's binance `urls.api`, moved to the feed's host (http → REST, ws → WebSocket). */
function loopbackUrls(value: unknown, server: FeedServer): unknown {
  if (typeof value === 'string') {
    const url = new URL(value);
    return `${url.protocol.startsWith('ws') ? server.wsUrl : server.httpUrl}${url.pathname}`;
  }
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, loopbackUrls(item, server)]));
}

describe.skipIf(dataDir === undefined)('ccxt (and ccxt.pro) against akira-mm feed --accounts', () => {
  let server: FeedServer;
  let exchange: InstanceType<typeof ccxt.pro.binance>;

  beforeAll(async () => {
    server = await startFeedServer({ files: recordingFiles('ethusdt'), clock: new LiveClock(), accounts: testAccounts(ed25519Pair().publicPem) });
    const api = loopbackUrls(new ccxt.pro.binance().urls['api'], server);
    exchange = new ccxt.pro.binance({
      apiKey: HMAC_KEY,
      secret: HMAC_SECRET,
      urls: { api },
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    });
    await exchange.loadHttpProxyAgent();
  });

  afterAll(async () => {
    await exchange?.close();
    await server?.stop();
  });

  it('loads the market and streams the book, trades and the top as ccxt.pro watches them', async () => {
    const markets = await exchange.loadMarkets();
    expect(Object.keys(markets)).toEqual([SYMBOL]);
    expect(markets[SYMBOL]).toMatchObject({ spot: true, base: 'ETH', quote: 'USDT', precision: { price: 0.01, amount: 0.0001 }, limits: { cost: { min: 5 } } });
    passed('loadMarkets');
    expect(Math.abs(((await exchange.fetchTime()) ?? 0) - Date.now())).toBeLessThan(5_000);
    passed('fetchTime');

    // ccxt.pro opens /ws/<n> and SUBSCRIBEs <s>@depth@100ms, then bridges it with a REST snapshot.
    const book = await within(exchange.watchOrderBook(SYMBOL), 'watchOrderBook');
    expect(book.bids.length).toBeGreaterThan(10);
    expect((book.asks[0]?.[0] ?? 0) > (book.bids[0]?.[0] ?? 0)).toBe(true);
    passed('watchOrderBook');
    const trades = await within(exchange.watchTrades(SYMBOL), 'watchTrades');
    expect(trades[0]).toMatchObject({ symbol: SYMBOL, price: expect.any(Number), amount: expect.any(Number), side: expect.stringMatching(/^(buy|sell)$/) });
    passed('watchTrades');
    const tops = await within(exchange.watchBidsAsks([SYMBOL]), 'watchBidsAsks');
    expect(tops[SYMBOL]).toMatchObject({ bid: expect.any(Number), ask: expect.any(Number) });
    passed('watchBidsAsks');
  });

  it('reads tickers, the book, trades and candles over REST', async () => {
    // The replay is under way (the watches started it): trades are on the tape.
    const ticker = await exchange.fetchTicker(SYMBOL);
    expect(ticker).toMatchObject({ symbol: SYMBOL, last: expect.any(Number), bid: expect.any(Number), ask: expect.any(Number), baseVolume: expect.any(Number) });
    expect(ticker.last).toBeGreaterThan(2_000);
    expect(ticker.baseVolume).toBeGreaterThan(0);
    expect(ticker.high ?? 0).toBeGreaterThanOrEqual(ticker.low ?? Infinity);
    passed('fetchTicker');
    const tickers = await exchange.fetchTickers([SYMBOL]);
    expect(tickers[SYMBOL]?.last).toBeGreaterThan(2_000);
    passed('fetchTickers');
    const bidsAsks = await exchange.fetchBidsAsks([SYMBOL]);
    expect(bidsAsks[SYMBOL]?.ask ?? 0).toBeGreaterThan(bidsAsks[SYMBOL]?.bid ?? Infinity);
    passed('fetchBidsAsks');
    const book = await exchange.fetchOrderBook(SYMBOL, 5);
    expect(book.bids).toHaveLength(5);
    expect(book.nonce).toEqual(expect.any(Number));
    passed('fetchOrderBook');
    // ccxt reads /api/v3/aggTrades for spot trades; an aggregate is listed once the next message closed it.
    let trades = await exchange.fetchTrades(SYMBOL, undefined, 20);
    for (const deadline = performance.now() + 20_000; trades.length === 0 && performance.now() < deadline; ) trades = await exchange.fetchTrades(SYMBOL, undefined, 20);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.at(-1)).toMatchObject({ symbol: SYMBOL, price: expect.any(Number), amount: expect.any(Number), cost: expect.any(Number) });
    passed('fetchTrades');
    const candles = await exchange.fetchOHLCV(SYMBOL, '1m', undefined, 5);
    expect(candles.length).toBeGreaterThan(0);
    for (const [openTime, open, high, low, close] of candles) {
      expect((openTime ?? 1) % 60_000).toBe(0);
      expect(high ?? 0).toBeGreaterThanOrEqual(Math.max(open ?? Infinity, close ?? Infinity, low ?? Infinity));
    }
    // The trades so far are in the candles (the current minute's, or the one before if it just turned).
    expect(candles.reduce((sum, candle) => sum + (candle[5] ?? 0), 0)).toBeGreaterThan(0);
    passed('fetchOHLCV');
  });

  it('trades: balances, limit and market orders, look-ups, cancels, history and own trades', async () => {
    const balance = await exchange.fetchBalance();
    expect(balance['USDT']).toMatchObject({ free: 30_000, used: 0, total: 30_000 });
    passed('fetchBalance');
    const resting = await exchange.createOrder(SYMBOL, 'limit', 'buy', 0.01, 2_500);
    expect(resting).toMatchObject({ symbol: SYMBOL, type: 'limit', side: 'buy', status: 'open', price: 2_500, amount: 0.01, filled: 0, id: expect.any(String) });
    const restingId = resting.id ?? '';
    passed('createOrder limit');
    expect(await exchange.fetchOrder(restingId, SYMBOL)).toMatchObject({ id: resting.id, status: 'open', clientOrderId: resting.clientOrderId });
    passed('fetchOrder');
    expect((await exchange.fetchOpenOrders(SYMBOL)).map((order) => order.id)).toEqual([resting.id]);
    passed('fetchOpenOrders');
    expect(await exchange.cancelOrder(restingId, SYMBOL)).toMatchObject({ id: resting.id, status: 'canceled' });
    passed('cancelOrder');
    const market = await exchange.createOrder(SYMBOL, 'market', 'buy', 0.02);
    expect(market).toMatchObject({ type: 'market', side: 'buy', status: 'closed', filled: 0.02 });
    expect(market.fee?.currency).toBe('ETH');
    passed('createOrder market');
    await exchange.createOrder(SYMBOL, 'limit', 'sell', 0.01, 3_500);
    await exchange.createOrder(SYMBOL, 'limit', 'buy', 0.01, 2_400);
    const canceled = await exchange.cancelAllOrders(SYMBOL);
    expect(canceled.map((order) => order.status)).toEqual(['canceled', 'canceled']);
    expect(await exchange.fetchOpenOrders(SYMBOL)).toEqual([]);
    passed('cancelAllOrders');
    const orders = await exchange.fetchOrders(SYMBOL);
    expect(orders.map((order) => order.status)).toEqual(['canceled', 'closed', 'canceled', 'canceled']);
    passed('fetchOrders');
    expect((await exchange.fetchClosedOrders(SYMBOL)).map((order) => order.id)).toContain(market.id);
    passed('fetchClosedOrders');
    const mine = await exchange.fetchMyTrades(SYMBOL);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((trade) => trade.order === market.id && trade.side === 'buy' && trade.takerOrMaker === 'taker')).toBe(true);
    passed('fetchMyTrades');
  });

  it('hears its orders, balances and trades on the user data stream, and trades over the WebSocket API', async () => {
    const orders = exchange.watchOrders(SYMBOL);
    const balances = exchange.watchBalance();
    const trades = exchange.watchMyTrades(SYMBOL);
    // The subscription is made on the first watch; an order placed after it is heard.
    await until(() => (server.trading?.subscriptions() ?? 0) > 0, 'the user data stream subscription');
    const placed = await exchange.createOrder(SYMBOL, 'market', 'sell', 0.01);
    const heard = await within(orders, 'watchOrders');
    expect(heard.some((order) => order.id === placed.id)).toBe(true);
    passed('watchOrders');
    expect((await within(balances, 'watchBalance'))['ETH']).toMatchObject({ free: expect.any(Number) });
    passed('watchBalance');
    expect((await within(trades, 'watchMyTrades')).some((trade) => trade.order === placed.id)).toBe(true);
    passed('watchMyTrades');

    const overWs = await exchange.createOrderWs(SYMBOL, 'limit', 'buy', 0.01, 2_450);
    expect(overWs).toMatchObject({ status: 'open', price: 2_450, id: expect.any(String) });
    const overWsId = overWs.id ?? '';
    passed('createOrderWs');
    expect(await exchange.fetchOrderWs(overWsId, SYMBOL)).toMatchObject({ id: overWs.id, status: 'open' });
    passed('fetchOrderWs');
    expect((await exchange.fetchOpenOrdersWs(SYMBOL)).map((order) => order.id)).toEqual([overWs.id]);
    passed('fetchOpenOrdersWs');
    expect(await exchange.cancelOrderWs(overWsId, SYMBOL)).toMatchObject({ id: overWs.id, status: 'canceled' });
    passed('cancelOrderWs');
    // account.status's answer, as ccxt keeps it (its spot parser reads no balances from it, on Binance too).
    expect((await exchange.fetchBalanceWs())['info']).toMatchObject({ accountType: 'SPOT', balances: expect.arrayContaining([{ asset: 'USDT', free: expect.any(String), locked: '0.00000000' }]) });
    passed('fetchBalanceWs');
  });

  it(`made the ${MARKET_MAKER_CALLS.length} calls of a market maker and the ${FURTHER_CALLS.length} further ones`, () => {
    expect(MARKET_MAKER_CALLS).toHaveLength(21);
    expect(MARKET_MAKER_CALLS.filter((name) => !made.has(name))).toEqual([]);
    expect(FURTHER_CALLS.filter((name) => !made.has(name))).toEqual([]);
  });
});
