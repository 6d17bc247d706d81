/**
 * Binance's own connector, `@binance/spot`, driving `akira-mm feed --accounts` as a hedging desk
 * would (issue 21, item 4): every REST call, WebSocket API method and market stream it uses, each
 * answered with Binance's shapes and error codes, or refused with Binance's own error when the
 * double does not serve it (never acknowledged and then left silent). The connector signs with the
 * wall clock (`Date.now`), so the server runs on the live clock here; waits are on real loopback
 * I/O, bounded by wall time.
 *
 * Also: a ccxt-style POST (every parameter and the signature form-encoded in the body) and a POST
 * split between query and body, sent with plain `fetch`.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Spot, SpotRestAPI, SpotWebsocketAPI, SpotWebsocketStreams, TimeUnit } from '@binance/spot';
import { LiveClock, parseUnits } from '../../../src/core/index.ts';
import { startFeedServer, type FeedServer } from '../../../src/markets/binance/server/index.ts';
import { dataDir, recordingFiles, until } from './support.ts';
import { ED_KEY, HMAC_KEY, HMAC_SECRET, ed25519Pair, testAccounts } from './trading-support.ts';

const SYMBOL = 'ETHUSDT';
const { NewOrderSideEnum: Side, NewOrderTypeEnum: Type, NewOrderTimeInForceEnum: Tif, NewOrderNewOrderRespTypeEnum: RespType } = SpotRestAPI;

/**
 * The calls a hedging desk or a market maker makes through the connector: each is made and passes
 * (asserted on Binance's shape, units and weights, or on Binance's own error for what Binance
 * itself refuses). The last test checks every one was made.
 */
const CORE_CALLS = [
  // REST, market data
  'rest ping',
  'rest time',
  'rest exchangeInfo symbol',
  'rest depth',
  'rest ticker/bookTicker symbol',
  'rest avgPrice',
  'rest trades',
  'rest ticker/24hr symbol',
  // REST, account and orders
  'rest account',
  'rest account/commission',
  'rest rateLimit/order',
  'rest order LIMIT GTC rests',
  'rest order LIMIT IOC takes',
  'rest order MARKET quantity',
  'rest order MARKET quoteOrderQty BUY',
  'rest order LIMIT_MAKER rests',
  'rest get order by orderId (filled)',
  'rest get order by origClientOrderId (filled)',
  'rest openOrders',
  'rest cancel by orderId',
  'rest cancel by origClientOrderId',
  'rest DELETE openOrders',
  'rest myTrades',
  'rest timeUnit MICROSECOND',
  // WebSocket API
  'ws-api ping',
  'ws-api time',
  'ws-api exchangeInfo',
  'ws-api depth',
  'ws-api session.logon (Ed25519)',
  'ws-api userDataStream.subscribe',
  'ws-api order.place (logged-on session)',
  'ws-api order.status by orderId (filled)',
  'ws-api order.status by origClientOrderId',
  'ws-api order.cancel by orderId',
  'ws-api openOrders.status',
  'ws-api openOrders.cancelAll',
  'ws-api account.status',
  'ws-api userDataStream.subscribe.signature (HMAC)',
  // Market streams
  'stream bookTicker',
  'stream depth@100ms',
  'stream trade',
  'stream aggTrade',
] as const;

/** Further calls: other forms of the above, refusals Binance itself answers, history, and what a desk rarely needs. */
const FURTHER_CALLS = [
  'rest exchangeInfo all',
  'rest ticker/bookTicker all',
  'rest aggTrades',
  'rest ticker/24hr MINI and all',
  'rest ticker/price',
  'rest klines 1m and 1h',
  'rest klines 1s (not served: -1020)',
  'rest uiKlines (not served: -1020)',
  'rest account omitZeroBalances',
  'rest order MARKET quoteOrderQty SELL',
  'rest order LIMIT_MAKER would cross (-2010)',
  'rest order STOP_LOSS (not served: -2010)',
  'rest order bad quantity (-1013)',
  'rest order/test',
  'rest order/test computeCommissionRates',
  'rest get order by orderId (open)',
  'rest get order absent (-2013)',
  'rest get order without ids (-1102)',
  'rest get order id and client id disagree (-2039)',
  'rest cancel filled order (-2011)',
  'rest cancel without ids (-1102)',
  'rest DELETE openOrders with none open (-2011)',
  'rest allOrders',
  'rest myTrades orderId',
  'rest POST params split between query and body (connector sendSignedRequest)',
  'ws-api session.status',
  'ws-api order.place LIMIT GTC',
  'ws-api order.status by origClientOrderId (filled, canceled)',
  'ws-api order.status absent (-2013)',
  'ws-api order.cancel by origClientOrderId',
  'ws-api order.test',
  'ws-api trades.recent',
  'ws-api trades.aggregate',
  'ws-api avgPrice',
  'ws-api klines',
  'ws-api ticker.24hr',
  'ws-api ticker.price',
  'ws-api ticker.book',
  'ws-api account.commission',
  'ws-api account.rateLimits.orders',
  'ws-api timeUnit MICROSECOND',
  'ws-api uiKlines (not served: -1020)',
  'ws-api userDataStream.unsubscribe',
  'ws-api order.place signed ad hoc (HMAC)',
  'stream depth (1000ms)',
  'stream depth5@100ms',
  'stream depth10 (1000ms)',
  'stream depth20@100ms',
  'stream combined connect',
  'stream kline (not served: error reply)',
] as const;
type CallName = (typeof CORE_CALLS)[number] | (typeof FURTHER_CALLS)[number];


const made = new Set<CallName>();
/** Marks a call as made and answered as it should be (called after its assertions). */
const passed = (name: CallName): void => {
  made.add(name);
};

interface Refusal {
  readonly name: string;
  readonly code: number | undefined;
  readonly message: string;
}

/** The connector's error for a refused REST call. @throws when the call succeeded. */
async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    const caught = error as { name?: string; code?: number; message?: string };
    return { name: caught.name ?? '', code: caught.code, message: caught.message ?? '' };
  }
  throw new Error('expected the venue to refuse the call');
}

/** The WebSocket API's error object for a refused request (the connector rejects with it). */
async function wsRefusal(promise: Promise<unknown>): Promise<{ code: number; msg: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; msg: string };
  }
  throw new Error('expected the venue to refuse the request');
}

const DECIMAL_8 = /^\d+\.\d{8}$/;

describe.skipIf(dataDir === undefined)("Binance's @binance/spot connector against akira-mm feed --accounts", () => {
  let server: FeedServer;
  let rest: SpotRestAPI.RestAPI;
  let edPrivatePem: string;
  let savedLogLevel: string | undefined;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // The connector logs every connection at info level to the console.
    savedLogLevel = process.env['LOG_LEVEL'];
    process.env['LOG_LEVEL'] = 'error';
    const pair = ed25519Pair();
    edPrivatePem = pair.privatePem;
    server = await startFeedServer({ files: recordingFiles('ethusdt'), clock: new LiveClock(), accounts: testAccounts(pair.publicPem) });
    rest = new Spot({ configurationRestAPI: { apiKey: HMAC_KEY, apiSecret: HMAC_SECRET, basePath: server.httpUrl, retries: 0, timeout: 5_000 } }).restAPI as SpotRestAPI.RestAPI;
  });

  afterAll(async () => {
    for (const close of closers.splice(0)) await close();
    await server?.stop();
    if (savedLogLevel === undefined) delete process.env['LOG_LEVEL'];
    else process.env['LOG_LEVEL'] = savedLogLevel;
  });

  it('serves the REST market data a desk reads, in milliseconds or in microseconds', async () => {
    expect(await (await rest.ping()).data()).toEqual({});
    passed('rest ping');
    const time = await (await rest.time()).data();
    expect(Math.abs(Number(time.serverTime) - Date.now())).toBeLessThan(5_000);
    passed('rest time');

    const info = await (await rest.exchangeInfo({ symbol: SYMBOL })).data();
    const entry = info.symbols?.[0];
    // What it advertises is what it serves: no stop, iceberg, OCO, trailing or pegged orders.
    expect(entry).toMatchObject({ symbol: SYMBOL, orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'], quoteOrderQtyMarketAllowed: true, icebergAllowed: false, ocoAllowed: false, allowTrailingStop: false, pegInstructionsAllowed: false });
    expect(info.rateLimits).toContainEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6_000 });
    passed('rest exchangeInfo symbol');
    expect((await (await rest.exchangeInfo()).data()).symbols?.map((symbol) => symbol.symbol)).toEqual([SYMBOL]);
    passed('rest exchangeInfo all');

    const depth = await (await rest.depth({ symbol: SYMBOL, limit: 5 })).data();
    expect(depth.bids).toHaveLength(5);
    expect(depth.asks?.[0]?.[0]).toMatch(DECIMAL_8);
    passed('rest depth');

    const ticker = (await (await rest.tickerBookTicker({ symbol: SYMBOL })).data()) as Record<string, string>;
    expect(ticker).toEqual({ symbol: SYMBOL, bidPrice: expect.stringMatching(DECIMAL_8), bidQty: expect.stringMatching(DECIMAL_8), askPrice: expect.stringMatching(DECIMAL_8), askQty: expect.stringMatching(DECIMAL_8) });
    expect(Number(ticker['askPrice'])).toBeGreaterThan(Number(ticker['bidPrice']));
    passed('rest ticker/bookTicker symbol');
    const all = await (await rest.tickerBookTicker()).data();
    expect(all).toEqual([ticker]);
    passed('rest ticker/bookTicker all');

    // X-MBX-TIME-UNIT: MICROSECOND (rest-api.md "General API Information"): every time of the answer in µs.
    const micro = new Spot({ configurationRestAPI: { apiKey: HMAC_KEY, apiSecret: HMAC_SECRET, basePath: server.httpUrl, retries: 0, timeUnit: TimeUnit.MICROSECOND } }).restAPI as SpotRestAPI.RestAPI;
    const microTime = Number((await (await micro.time()).data()).serverTime);
    expect(Math.abs(microTime / 1000 - Date.now())).toBeLessThan(5_000);
    expect(Number((await (await micro.exchangeInfo({ symbol: SYMBOL })).data()).serverTime)).toBeGreaterThan(1e15);
    const microAccount = await (await micro.getAccount()).data();
    expect(Math.abs(Number(microAccount.updateTime) / 1000 - Date.now())).toBeLessThan(5_000);
    passed('rest timeUnit MICROSECOND');
  });

  it('places LIMIT, MARKET (by quantity and by quoteOrderQty) and LIMIT_MAKER orders, and refuses as Binance does', async () => {
    const account = await (await rest.getAccount()).data();
    expect(account.balances).toContainEqual({ asset: 'USDT', free: '30000.00000000', locked: '0.00000000' });
    expect(account.commissionRates).toMatchObject({ taker: '0.00100000' });
    passed('rest account');
    const nonZero = await (await rest.getAccount({ omitZeroBalances: true })).data();
    expect(nonZero.balances?.map((balance) => balance.asset).sort()).toEqual(['ETH', 'USDT']);
    passed('rest account omitZeroBalances');
    expect(await (await rest.accountCommission({ symbol: SYMBOL })).data()).toEqual({
      symbol: SYMBOL,
      standardCommission: { maker: '0.00100000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' },
      specialCommission: { maker: '0.00000000', taker: '0.00000000', buyer: '0.00000000', seller: '0.00000000' },
      taxCommission: { maker: '0.00000000', taker: '0.00000000', buyer: '0.00000000', seller: '0.00000000' },
      discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: '0.00000000' },
    });
    passed('rest account/commission');
    const before = await (await rest.rateLimitOrder()).data();
    expect(before).toEqual([
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100, count: expect.any(Number) },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200_000, count: expect.any(Number) },
    ]);

    const resting = await (await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.LIMIT, timeInForce: Tif.GTC, quantity: 0.01, price: 2_600, newClientOrderId: 'rest-gtc-1' })).data();
    // The day's count went up by this order (the count of this 10 s window may have rolled over).
    expect((await (await rest.rateLimitOrder()).data())[1]?.count).toBe(Number(before[1]?.count) + 1);
    passed('rest rateLimit/order');
    expect(resting).toMatchObject({ symbol: SYMBOL, clientOrderId: 'rest-gtc-1', status: 'NEW', type: 'LIMIT', timeInForce: 'GTC', price: '2600.00000000', origQty: '0.01000000', fills: [] });
    passed('rest order LIMIT GTC rests');

    const ioc = await (await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.LIMIT, timeInForce: Tif.IOC, quantity: 0.01, price: 2_700, newClientOrderId: 'rest-ioc-1' })).data();
    expect(ioc).toMatchObject({ status: 'FILLED', executedQty: '0.01000000' });
    expect(ioc.fills?.[0]).toMatchObject({ price: expect.stringMatching(DECIMAL_8), commissionAsset: 'ETH' });
    passed('rest order LIMIT IOC takes');

    const market = await (await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.MARKET, quantity: 0.02, newClientOrderId: 'rest-mkt-1' })).data();
    expect(market).toMatchObject({ status: 'FILLED', type: 'MARKET', origQty: '0.02000000', executedQty: '0.02000000' });
    passed('rest order MARKET quantity');

    const quoteBuy = await (await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.MARKET, quoteOrderQty: 30, newClientOrderId: 'rest-quote-buy' })).data();
    expect(quoteBuy).toMatchObject({ status: 'FILLED', origQuoteOrderQty: '30.00000000' });
    // As much base as 30 USDT buys at the book, in whole steps, never more than 30 USDT.
    expect(Number(quoteBuy.cummulativeQuoteQty)).toBeLessThanOrEqual(30);
    expect(Number(quoteBuy.cummulativeQuoteQty)).toBeGreaterThan(29);
    expect(quoteBuy.origQty).toBe(quoteBuy.executedQty);
    passed('rest order MARKET quoteOrderQty BUY');
    const quoteSell = await (await rest.newOrder({ symbol: SYMBOL, side: Side.SELL, type: Type.MARKET, quoteOrderQty: 30, newClientOrderId: 'rest-quote-sell' })).data();
    expect(quoteSell).toMatchObject({ status: 'FILLED', side: 'SELL', origQuoteOrderQty: '30.00000000' });
    expect(Number(quoteSell.cummulativeQuoteQty)).toBeLessThanOrEqual(30);
    expect(Number(quoteSell.cummulativeQuoteQty)).toBeGreaterThan(29);
    passed('rest order MARKET quoteOrderQty SELL');

    const maker = await (await rest.newOrder({ symbol: SYMBOL, side: Side.SELL, type: Type.LIMIT_MAKER, quantity: 0.01, price: 2_800, newClientOrderId: 'rest-maker-1' })).data();
    // LIMIT_MAKER answers ACK unless asked otherwise (rest-api.md "newOrderRespType").
    expect(maker).toEqual({ symbol: SYMBOL, orderId: expect.any(Number), orderListId: -1, clientOrderId: 'rest-maker-1', transactTime: expect.any(Number) });
    passed('rest order LIMIT_MAKER rests');
    expect(await refusal(rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.LIMIT_MAKER, quantity: 0.01, price: 2_700, newOrderRespType: RespType.FULL }))).toEqual({
      name: 'BadRequestError',
      code: -2010,
      message: 'Order would immediately match and take.',
    });
    passed('rest order LIMIT_MAKER would cross (-2010)');
    expect(await refusal(rest.newOrder({ symbol: SYMBOL, side: Side.SELL, type: Type.STOP_LOSS, quantity: 0.01, stopPrice: 2_500 }))).toEqual({
      name: 'BadRequestError',
      code: -2010,
      message: 'Stop loss orders are not supported for this symbol.',
    });
    passed('rest order STOP_LOSS (not served: -2010)');
    expect(await refusal(rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.MARKET, quantity: 0.000001 }))).toMatchObject({ code: -1013, message: 'Filter failure: MARKET_LOT_SIZE' });
    passed('rest order bad quantity (-1013)');

    expect(await (await rest.orderTest({ symbol: SYMBOL, side: SpotRestAPI.OrderTestSideEnum.BUY, type: SpotRestAPI.OrderTestTypeEnum.LIMIT, timeInForce: SpotRestAPI.OrderTestTimeInForceEnum.GTC, quantity: 0.01, price: 2_600 })).data()).toEqual({});
    passed('rest order/test');
    const commission = await (
      await rest.orderTest({ symbol: SYMBOL, side: SpotRestAPI.OrderTestSideEnum.BUY, type: SpotRestAPI.OrderTestTypeEnum.MARKET, quantity: 0.01, computeCommissionRates: true })
    ).data();
    expect(commission).toMatchObject({ standardCommissionForOrder: { maker: '0.00100000', taker: '0.00100000' }, discount: { enabledForAccount: false } });
    passed('rest order/test computeCommissionRates');
    // Nothing was placed by the tests.
    expect(server.trading?.desk.placed.map((order) => order.clientOrderId)).toEqual(['rest-gtc-1', 'rest-ioc-1', 'rest-mkt-1', 'rest-quote-buy', 'rest-quote-sell', 'rest-maker-1']);
  });

  it('finds filled and open orders by orderId and by origClientOrderId, cancels by either, and lists orders and trades', async () => {
    const placed = server.trading?.desk.placed ?? [];
    const filled = placed.find((order) => order.clientOrderId === 'rest-mkt-1');
    const open = placed.find((order) => order.clientOrderId === 'rest-gtc-1');
    if (filled === undefined || open === undefined) throw new Error('the previous test placed no orders');

    const byId = await (await rest.getOrder({ symbol: SYMBOL, orderId: filled.orderId })).data();
    expect(byId).toMatchObject({ orderId: filled.orderId, clientOrderId: 'rest-mkt-1', status: 'FILLED', isWorking: false, cummulativeQuoteQty: expect.stringMatching(DECIMAL_8) });
    passed('rest get order by orderId (filled)');
    expect(await (await rest.getOrder({ symbol: SYMBOL, origClientOrderId: 'rest-mkt-1' })).data()).toEqual(byId);
    passed('rest get order by origClientOrderId (filled)');
    expect(await (await rest.getOrder({ symbol: SYMBOL, orderId: open.orderId })).data()).toMatchObject({ status: 'NEW', isWorking: true });
    passed('rest get order by orderId (open)');
    expect(await refusal(rest.getOrder({ symbol: SYMBOL, orderId: 999_999 }))).toEqual({ name: 'BadRequestError', code: -2013, message: 'Order does not exist.' });
    passed('rest get order absent (-2013)');
    expect(await refusal(rest.getOrder({ symbol: SYMBOL }))).toMatchObject({ code: -1102, message: "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!" });
    passed('rest get order without ids (-1102)');
    expect(await refusal(rest.getOrder({ symbol: SYMBOL, orderId: filled.orderId, origClientOrderId: 'rest-gtc-1' }))).toMatchObject({ code: -2039, message: 'Client order ID is not correct for this order ID.' });
    passed('rest get order id and client id disagree (-2039)');

    const openOrders = await (await rest.getOpenOrders({ symbol: SYMBOL })).data();
    expect(openOrders.map((order) => order.clientOrderId).sort()).toEqual(['rest-gtc-1', 'rest-maker-1']);
    passed('rest openOrders');

    const canceled = await (await rest.deleteOrder({ symbol: SYMBOL, orderId: open.orderId, newClientOrderId: 'cancel-gtc-1' })).data();
    expect(canceled).toMatchObject({ orderId: open.orderId, origClientOrderId: 'rest-gtc-1', clientOrderId: 'cancel-gtc-1', status: 'CANCELED' });
    passed('rest cancel by orderId');
    const second = await (await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.LIMIT, timeInForce: Tif.GTC, quantity: 0.01, price: 2_500, newClientOrderId: 'rest-gtc-2' })).data();
    expect(await (await rest.deleteOrder({ symbol: SYMBOL, origClientOrderId: 'rest-gtc-2' })).data()).toMatchObject({ orderId: second.orderId, origClientOrderId: 'rest-gtc-2', status: 'CANCELED' });
    passed('rest cancel by origClientOrderId');
    expect(await refusal(rest.deleteOrder({ symbol: SYMBOL, orderId: filled.orderId }))).toEqual({ name: 'BadRequestError', code: -2011, message: 'Unknown order sent.' });
    passed('rest cancel filled order (-2011)');
    expect(await refusal(rest.deleteOrder({ symbol: SYMBOL }))).toMatchObject({ code: -1102 });
    passed('rest cancel without ids (-1102)');

    await rest.newOrder({ symbol: SYMBOL, side: Side.BUY, type: Type.LIMIT, timeInForce: Tif.GTC, quantity: 0.01, price: 2_400, newClientOrderId: 'rest-gtc-3' });
    const all = await (await rest.deleteOpenOrders({ symbol: SYMBOL })).data();
    expect(all.map((order) => [order.origClientOrderId, order.status]).sort()).toEqual([
      ['rest-gtc-3', 'CANCELED'],
      ['rest-maker-1', 'CANCELED'],
    ]);
    passed('rest DELETE openOrders');
    expect(await refusal(rest.deleteOpenOrders({ symbol: SYMBOL }))).toMatchObject({ code: -2011, message: 'Unknown order sent.' });
    passed('rest DELETE openOrders with none open (-2011)');
    const account = await (await rest.getAccount()).data();
    expect(account.balances?.every((balance) => balance.locked === '0.00000000')).toBe(true);

    const history = await (await rest.allOrders({ symbol: SYMBOL })).data();
    expect(history.map((order) => order.clientOrderId)).toEqual(['rest-gtc-1', 'rest-ioc-1', 'rest-mkt-1', 'rest-quote-buy', 'rest-quote-sell', 'rest-maker-1', 'rest-gtc-2', 'rest-gtc-3']);
    expect(history.map((order) => order.orderId)).toEqual([...history.map((order) => order.orderId)].sort((a, b) => Number(a) - Number(b)));
    passed('rest allOrders');
    const trades = await (await rest.myTrades({ symbol: SYMBOL })).data();
    expect(trades.length).toBeGreaterThanOrEqual(4);
    expect(trades[0]).toMatchObject({ symbol: SYMBOL, id: expect.any(Number), orderId: expect.any(Number), orderListId: -1, price: expect.stringMatching(DECIMAL_8), quoteQty: expect.stringMatching(DECIMAL_8), isMaker: false, isBestMatch: true });
    passed('rest myTrades');
    const ofMarket = await (await rest.myTrades({ symbol: SYMBOL, orderId: filled.orderId })).data();
    expect(ofMarket.length).toBeGreaterThan(0);
    expect(ofMarket.every((trade) => trade.orderId === filled.orderId && trade.isBuyer === true)).toBe(true);
    passed('rest myTrades orderId');
  });

  it('accepts a POST whose parameters are split between the query string and the body, as the connector sends it', async () => {
    // sendSignedRequest signs query + body (no separator) and puts the signature in the query.
    const answer = await rest.sendSignedRequest('/api/v3/order', 'POST', { symbol: SYMBOL, side: 'BUY', type: 'MARKET' }, { quantity: 0.01, newClientOrderId: 'rest-mixed-1' });
    expect(await answer.data()).toMatchObject({ clientOrderId: 'rest-mixed-1', status: 'FILLED', executedQty: '0.01000000' });
    expect(answer.rateLimits).toContainEqual(expect.objectContaining({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10 }));
    passed('rest POST params split between query and body (connector sendSignedRequest)');
  });

  it('accepts a ccxt-style POST with every parameter and the signature form-encoded in the body, and one with the signature in the query', async () => {
    const sign = (payload: string): string => createHmac('sha256', HMAC_SECRET).update(payload).digest('hex');
    const post = (query: string, body: string): Promise<Response> =>
      fetch(`${server.httpUrl}/api/v3/order${query === '' ? '' : `?${query}`}`, { method: 'POST', headers: { 'X-MBX-APIKEY': HMAC_KEY, 'Content-Type': 'application/x-www-form-urlencoded' }, body });

    const bodyOnly = new URLSearchParams({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.01', newClientOrderId: 'ccxt-body-1', timestamp: String(Date.now()), recvWindow: '10000' }).toString();
    const first = await post('', `${bodyOnly}&signature=${sign(bodyOnly)}`);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ clientOrderId: 'ccxt-body-1', status: 'FILLED' });

    // Binance's mixed example: some parameters in the query, the rest and the signature in the body.
    const query = `symbol=${SYMBOL}&side=SELL&type=LIMIT&timeInForce=GTC`;
    const body = `quantity=0.01&price=2900&newClientOrderId=ccxt-mixed-1&timestamp=${Date.now()}`;
    const second = await post(query, `${body}&signature=${sign(query + body)}`);
    expect(await second.json()).toMatchObject({ clientOrderId: 'ccxt-mixed-1', status: 'NEW', side: 'SELL', price: '2900.00000000' });

    // A parameter in both: the query's is used (rest-api.md "General Information on Endpoints").
    const both = `quantity=0.02&newClientOrderId=ccxt-dup-1&timestamp=${Date.now()}`;
    const third = await post(`symbol=${SYMBOL}&side=BUY&type=MARKET&quantity=0.01`, `${both}&signature=${sign(`symbol=${SYMBOL}&side=BUY&type=MARKET&quantity=0.01${both}`)}`);
    expect(await third.json()).toMatchObject({ clientOrderId: 'ccxt-dup-1', origQty: '0.01000000' });

    // A signature over something else is refused, wherever it sits.
    const bad = await post('', `${bodyOnly}&signature=${sign(`${bodyOnly}x`)}`);
    expect({ status: bad.status, body: await bad.json() }).toEqual({ status: 400, body: { code: -1022, msg: 'Signature for this request is not valid.' } });
    await rest.deleteOpenOrders({ symbol: SYMBOL });
  });

  it('serves the WebSocket API: a logged-on session trades, queries and cancels, hears its user data stream, and gets rateLimits in every answer', async () => {
    const client = new Spot({ configurationWebsocketAPI: { apiKey: ED_KEY, privateKey: edPrivatePem, wsURL: server.trading?.wsApiUrl ?? '', timeout: 5_000 } });
    const ws = await (client.websocketAPI as SpotWebsocketAPI.WebsocketAPI).connect();
    closers.push(() => ws.disconnect());

    const ping = await ws.ping();
    expect(ping.data).toEqual({});
    expect(ping.rateLimits).toEqual([{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6_000, count: expect.any(Number) }]);
    passed('ws-api ping');
    expect(Math.abs(Number((await ws.time()).data?.serverTime) - Date.now())).toBeLessThan(5_000);
    passed('ws-api time');

    // Market data over the WebSocket API: the same answers as REST, with their weights in rateLimits.
    const info = (await ws.exchangeInfo({ symbol: SYMBOL })) as { data?: SpotRestAPI.ExchangeInfoResponse; rateLimits?: { count?: number }[] };
    expect(info.data?.symbols?.[0]).toMatchObject({ symbol: SYMBOL, orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'] });
    expect(info.data?.rateLimits).toContainEqual({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 });
    expect(((await ws.exchangeInfo({ symbols: [SYMBOL] })).data as SpotRestAPI.ExchangeInfoResponse).symbols).toHaveLength(1);
    expect(await wsRefusal(ws.exchangeInfo({ symbol: 'BTCUSDT' }))).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    passed('ws-api exchangeInfo');
    const weightBefore = Number(info.rateLimits?.[0]?.count);
    const depth = await ws.depth({ symbol: SYMBOL, limit: 10 });
    expect(depth.data).toEqual({ lastUpdateId: expect.any(Number), bids: expect.any(Array), asks: expect.any(Array) });
    expect(depth.data?.bids).toHaveLength(10);
    expect(depth.data?.asks?.[0]?.[0]).toMatch(DECIMAL_8);
    // Web-socket-api.md "Order book": weight 5 for up to 100 levels (other clients may add to the shared count).
    expect(Number(depth.rateLimits?.[0]?.count) - weightBefore).toBeGreaterThanOrEqual(5);
    passed('ws-api depth');

    const logon = (await ws.sessionLogon()) as unknown as { data: Record<string, unknown> }[];
    expect(logon[0]?.data).toMatchObject({ apiKey: ED_KEY, userDataStream: false });
    passed('ws-api session.logon (Ed25519)');
    expect((await ws.sessionStatus()).data).toMatchObject({ apiKey: ED_KEY });
    passed('ws-api session.status');

    const events: Record<string, unknown>[] = [];
    const { response, stream } = await ws.userDataStreamSubscribe();
    expect(response.data).toEqual({ subscriptionId: expect.any(Number) });
    stream.on('message', (event) => {
      events.push(event as unknown as Record<string, unknown>);
    });
    passed('ws-api userDataStream.subscribe');

    const placed = await ws.orderPlace({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderPlaceSideEnum.BUY, type: SpotWebsocketAPI.OrderPlaceTypeEnum.MARKET, quantity: 0.01, newClientOrderId: 'ws-mkt-1' });
    expect(placed.data).toMatchObject({ clientOrderId: 'ws-mkt-1', status: 'FILLED', fills: [expect.objectContaining({ commissionAsset: 'ETH' })] });
    const orderLimits = placed.rateLimits?.map((limit) => `${limit.rateLimitType} ${limit.intervalNum} ${limit.interval}`);
    expect(orderLimits).toEqual(['ORDERS 10 SECOND', 'ORDERS 1 DAY', 'REQUEST_WEIGHT 1 MINUTE']);
    passed('ws-api order.place (logged-on session)');
    await until(() => events.some((event) => event['e'] === 'executionReport' && event['X'] === 'FILLED') && events.some((event) => event['e'] === 'outboundAccountPosition'), 'the fill on the user data stream');
    expect(events.find((event) => event['e'] === 'executionReport' && event['X'] === 'FILLED')).toMatchObject({ s: SYMBOL, c: 'ws-mkt-1', S: 'BUY', o: 'MARKET', x: 'TRADE' });

    const gtc = await ws.orderPlace({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderPlaceSideEnum.BUY, type: SpotWebsocketAPI.OrderPlaceTypeEnum.LIMIT, timeInForce: SpotWebsocketAPI.OrderPlaceTimeInForceEnum.GTC, quantity: 0.01, price: 2_600, newClientOrderId: 'ws-gtc-1' });
    expect(gtc.data).toMatchObject({ status: 'NEW' });
    passed('ws-api order.place LIMIT GTC');

    const status = await ws.orderStatus({ symbol: SYMBOL, orderId: Number(placed.data?.orderId) });
    expect(status.data).toMatchObject({ clientOrderId: 'ws-mkt-1', status: 'FILLED' });
    expect(status.rateLimits?.[0]).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT' });
    passed('ws-api order.status by orderId (filled)');
    expect((await ws.orderStatus({ symbol: SYMBOL, origClientOrderId: 'ws-gtc-1' })).data).toMatchObject({ orderId: gtc.data?.orderId, status: 'NEW' });
    passed('ws-api order.status by origClientOrderId');
    // Filled orders stay findable by their client id, as at Binance.
    expect((await ws.orderStatus({ symbol: SYMBOL, origClientOrderId: 'ws-mkt-1' })).data).toMatchObject({ orderId: placed.data?.orderId, status: 'FILLED' });
    expect(await wsRefusal(ws.orderStatus({ symbol: SYMBOL, orderId: 987_654 }))).toEqual({ code: -2013, msg: 'Order does not exist.' });
    passed('ws-api order.status absent (-2013)');

    expect((await ws.orderCancel({ symbol: SYMBOL, orderId: Number(gtc.data?.orderId) })).data).toMatchObject({ origClientOrderId: 'ws-gtc-1', status: 'CANCELED' });
    passed('ws-api order.cancel by orderId');
    expect((await ws.orderStatus({ symbol: SYMBOL, origClientOrderId: 'ws-gtc-1' })).data).toMatchObject({ orderId: gtc.data?.orderId, status: 'CANCELED' });
    passed('ws-api order.status by origClientOrderId (filled, canceled)');
    await ws.orderPlace({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderPlaceSideEnum.SELL, type: SpotWebsocketAPI.OrderPlaceTypeEnum.LIMIT_MAKER, quantity: 0.01, price: 2_900, newClientOrderId: 'ws-maker-1' });
    expect((await ws.orderCancel({ symbol: SYMBOL, origClientOrderId: 'ws-maker-1' })).data).toMatchObject({ origClientOrderId: 'ws-maker-1', type: 'LIMIT_MAKER', status: 'CANCELED' });
    passed('ws-api order.cancel by origClientOrderId');

    expect((await ws.orderTest({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderTestSideEnum.SELL, type: SpotWebsocketAPI.OrderTestTypeEnum.MARKET, quantity: 0.01 })).data).toEqual({});
    passed('ws-api order.test');

    await ws.orderPlace({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderPlaceSideEnum.BUY, type: SpotWebsocketAPI.OrderPlaceTypeEnum.LIMIT, timeInForce: SpotWebsocketAPI.OrderPlaceTimeInForceEnum.GTC, quantity: 0.01, price: 2_500, newClientOrderId: 'ws-gtc-2' });
    expect((await ws.openOrdersStatus({ symbol: SYMBOL })).data?.map((order) => order.clientOrderId)).toEqual(['ws-gtc-2']);
    passed('ws-api openOrders.status');
    const cancelAll = await ws.openOrdersCancelAll({ symbol: SYMBOL });
    expect((cancelAll.data as { origClientOrderId?: string; status?: string }[]).map((order) => [order.origClientOrderId, order.status])).toEqual([['ws-gtc-2', 'CANCELED']]);
    passed('ws-api openOrders.cancelAll');

    const account = await ws.accountStatus();
    expect(account.data?.balances).toContainEqual(expect.objectContaining({ asset: 'ETH', locked: '0.00000000' }));
    expect(account.rateLimits?.[0]).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT', count: expect.any(Number) });
    passed('ws-api account.status');
    expect((await ws.accountCommission({ symbol: SYMBOL })).data).toMatchObject({ symbol: SYMBOL, standardCommission: { taker: '0.00100000' }, discount: { discountAsset: 'BNB' } });
    passed('ws-api account.commission');
    const orderCounts = await ws.accountRateLimitsOrders();
    expect(orderCounts.data?.map((limit) => `${limit.rateLimitType} ${limit.intervalNum} ${limit.interval} ${limit.limit}`)).toEqual(['ORDERS 10 SECOND 100', 'ORDERS 1 DAY 200000']);
    expect(Number(orderCounts.data?.[1]?.count)).toBeGreaterThanOrEqual(4);
    passed('ws-api account.rateLimits.orders');

    expect((await ws.userDataStreamUnsubscribe()).data).toEqual({});
    expect((await ws.sessionStatus()).data).toMatchObject({ userDataStream: false });
    passed('ws-api userDataStream.unsubscribe');

  });

  it('serves the WebSocket API to an HMAC key: a signature subscription to the user data stream and signed orders without a session', async () => {
    const client = new Spot({ configurationWebsocketAPI: { apiKey: HMAC_KEY, apiSecret: HMAC_SECRET, wsURL: server.trading?.wsApiUrl ?? '', timeout: 5_000 } });
    const ws = await (client.websocketAPI as SpotWebsocketAPI.WebsocketAPI).connect();
    closers.push(() => ws.disconnect());
    const events: Record<string, unknown>[] = [];
    const { response, stream } = await ws.userDataStreamSubscribeSignature();
    expect(response.data).toEqual({ subscriptionId: expect.any(Number) });
    stream.on('message', (event) => {
      events.push(event as unknown as Record<string, unknown>);
    });
    passed('ws-api userDataStream.subscribe.signature (HMAC)');

    const placed = await ws.orderPlace({ symbol: SYMBOL, side: SpotWebsocketAPI.OrderPlaceSideEnum.SELL, type: SpotWebsocketAPI.OrderPlaceTypeEnum.MARKET, quoteOrderQty: 20, newClientOrderId: 'ws-hmac-1' });
    expect(placed.data).toMatchObject({ clientOrderId: 'ws-hmac-1', status: 'FILLED', origQuoteOrderQty: '20.00000000' });
    await until(() => events.some((event) => event['c'] === 'ws-hmac-1' && event['X'] === 'FILLED'), 'the HMAC account\'s fill on its stream');
    passed('ws-api order.place signed ad hoc (HMAC)');
  });

  it('serves the market streams the connector subscribes to: book ticker, diff and partial depth, trades and aggregate trades', async () => {
    const client = new Spot({ configurationWebsocketStreams: { wsURL: server.wsUrl } });
    const connection = await (client.websocketStreams as SpotWebsocketStreams.WebsocketStreams).connect({ stream: ['ethusdt@bookTicker'] });
    closers.push(() => connection.disconnect());
    const heard = new Map<string, Record<string, unknown>[]>();
    const listen = (name: string, stream: { on(event: 'message', callback: (data: unknown) => void): void }): void => {
      heard.set(name, []);
      stream.on('message', (data) => heard.get(name)?.push(data as Record<string, unknown>));
    };
    const replies: Record<string, unknown>[] = [];
    connection.on('message', (text: string) => {
      const message = JSON.parse(text) as Record<string, unknown>;
      if (!('stream' in message)) replies.push(message);
    });
    // One SUBSCRIBE for them all: a connection may send at most 5 messages a second
    // (web-socket-streams.md "WebSocket Limits"), and each stream method would send its own.
    connection.subscribe(['ethusdt@bookTicker', 'ethusdt@depth@100ms', 'ethusdt@depth', 'ethusdt@depth5@100ms', 'ethusdt@depth10', 'ethusdt@depth20@100ms', 'ethusdt@trade', 'ethusdt@aggTrade']);
    listen('bookTicker', connection.bookTicker({ symbol: SYMBOL }));
    listen('depth@100ms', connection.diffBookDepth({ symbol: SYMBOL, updateSpeed: SpotWebsocketStreams.DiffBookDepthUpdateSpeedEnum.UPDATE_SPEED_100ms }));
    listen('depth', connection.diffBookDepth({ symbol: SYMBOL }));
    listen('depth5@100ms', connection.partialBookDepth({ symbol: SYMBOL, levels: SpotWebsocketStreams.PartialBookDepthLevelsEnum.LEVELS_5, updateSpeed: SpotWebsocketStreams.PartialBookDepthUpdateSpeedEnum.UPDATE_SPEED_100ms }));
    listen('depth10', connection.partialBookDepth({ symbol: SYMBOL, levels: SpotWebsocketStreams.PartialBookDepthLevelsEnum.LEVELS_10 }));
    listen('depth20@100ms', connection.partialBookDepth({ symbol: SYMBOL, levels: SpotWebsocketStreams.PartialBookDepthLevelsEnum.LEVELS_20, updateSpeed: SpotWebsocketStreams.PartialBookDepthUpdateSpeedEnum.UPDATE_SPEED_100ms }));
    listen('trade', connection.trade({ symbol: SYMBOL }));
    listen('aggTrade', connection.aggTrade({ symbol: SYMBOL }));
    connection.kline({ symbol: SYMBOL, interval: SpotWebsocketStreams.KlineIntervalEnum.INTERVAL_1m });

    const count = (name: string): number => heard.get(name)?.length ?? 0;
    await until(() => ['bookTicker', 'depth@100ms', 'depth5@100ms', 'depth20@100ms', 'trade', 'aggTrade'].every((name) => count(name) >= 3) && count('depth') >= 2 && count('depth10') >= 2, 'every stream to deliver', 30_000);

    expect(heard.get('bookTicker')?.[0]).toMatchObject({ s: SYMBOL, u: expect.any(Number), b: expect.stringMatching(DECIMAL_8), A: expect.stringMatching(DECIMAL_8) });
    passed('stream combined connect');
    passed('stream bookTicker');
    expect(heard.get('depth@100ms')?.[0]).toMatchObject({ e: 'depthUpdate', s: SYMBOL, U: expect.any(Number), u: expect.any(Number) });
    passed('stream depth@100ms');
    // The 1000 ms diff stream merges the 100 ms diffs: its events chain exactly, as Binance's do.
    const slow = heard.get('depth') ?? [];
    expect(slow[0]).toMatchObject({ e: 'depthUpdate', s: SYMBOL });
    expect(slow[1]?.['U']).toBe(Number(slow[0]?.['u']) + 1);
    // One event per second at most: each closes the second its first diff fell in.
    expect(Math.floor(Number(slow[1]?.['E']) / 1_000)).toBeGreaterThan(Math.floor(Number(slow[0]?.['E']) / 1_000));
    passed('stream depth (1000ms)');
    for (const [name, levels] of [
      ['depth5@100ms', 5],
      ['depth10', 10],
      ['depth20@100ms', 20],
    ] as const) {
      const book = heard.get(name)?.[0] as { lastUpdateId: number; bids: string[][]; asks: string[][] };
      expect(Object.keys(book).sort()).toEqual(['asks', 'bids', 'lastUpdateId']);
      expect(book.bids).toHaveLength(levels);
      expect(book.asks).toHaveLength(levels);
      expect(Number(book.asks[0]?.[0])).toBeGreaterThan(Number(book.bids[0]?.[0]));
    }
    passed('stream depth5@100ms');
    passed('stream depth10 (1000ms)');
    passed('stream depth20@100ms');
    expect(heard.get('trade')?.[0]).toMatchObject({ e: 'trade', s: SYMBOL, t: expect.any(Number), p: expect.stringMatching(DECIMAL_8), m: expect.any(Boolean) });
    passed('stream trade');
    const aggregates = heard.get('aggTrade') ?? [];
    expect(aggregates[0]).toMatchObject({ e: 'aggTrade', s: SYMBOL, a: expect.any(Number), f: expect.any(Number), l: expect.any(Number), q: expect.stringMatching(DECIMAL_8) });
    // Aggregate ids count up by one, and each covers the trades after the previous one's.
    expect(aggregates[1]?.['a']).toBe(Number(aggregates[0]?.['a']) + 1);
    expect(aggregates[1]?.['f']).toBe(Number(aggregates[0]?.['l']) + 1);
    passed('stream aggTrade');

    // A stream the double does not serve is refused in the SUBSCRIBE reply, never acknowledged.
    await until(() => replies.some((reply) => 'code' in reply), 'the refusal of the kline subscription');
    expect(replies.find((reply) => 'code' in reply)).toEqual({ code: 2, msg: 'Invalid request: this venue does not serve stream ethusdt@kline_1m', id: expect.any(String) });
    passed('stream kline (not served: error reply)');
  });

  it('serves the replayed trades as Binance statistics: recent and aggregate trades, average price, tickers and klines, over REST and the WebSocket API', async () => {
    // The stream test started the replay: wait for trades (an aggregate closes at the next message).
    let aggregates = await (await rest.aggTrades({ symbol: SYMBOL })).data();
    for (const deadline = performance.now() + 20_000; aggregates.length < 2 && performance.now() < deadline; ) aggregates = await (await rest.aggTrades({ symbol: SYMBOL })).data();
    const trades = await (await rest.getTrades({ symbol: SYMBOL, limit: 1000 })).data();
    expect(trades.length).toBeGreaterThan(1);
    for (const [index, trade] of trades.entries()) {
      expect(trade).toEqual({ id: expect.any(Number), price: expect.stringMatching(DECIMAL_8), qty: expect.stringMatching(DECIMAL_8), quoteQty: expect.stringMatching(DECIMAL_8), time: expect.any(Number), isBuyerMaker: expect.any(Boolean), isBestMatch: true });
      // quoteQty = price × qty, 8 places, rounded down.
      expect(parseUnits(trade.quoteQty ?? '', 8)).toBe((parseUnits(trade.price ?? '', 8) * parseUnits(trade.qty ?? '', 8)) / 10n ** 8n);
      if (index > 0) expect(Number(trade.id)).toBeGreaterThan(Number(trades[index - 1]?.id));
    }
    expect((await (await rest.getTrades({ symbol: SYMBOL, limit: 1 })).data()).length).toBe(1);
    passed('rest trades');
    // Each aggregate covers consecutive trades of one price and side, and the next one starts after it.
    for (const [index, aggregate] of aggregates.entries()) {
      expect(aggregate).toEqual({ a: expect.any(Number), p: expect.stringMatching(DECIMAL_8), q: expect.stringMatching(DECIMAL_8), f: expect.any(Number), l: expect.any(Number), T: expect.any(Number), m: expect.any(Boolean), M: true });
      if (index > 0) expect(aggregate.a).toBe(Number(aggregates[index - 1]?.a) + 1);
      if (index > 0) expect(Number(aggregate.f)).toBeGreaterThan(Number(aggregates[index - 1]?.l));
      const members = trades.filter((trade) => Number(trade.id) >= Number(aggregate.f) && Number(trade.id) <= Number(aggregate.l));
      // Aggregates older than the 1000 recent trades cannot be checked against them.
      if (members.length > 0 && Number(members[0]?.id) === Number(aggregate.f)) {
        expect(members.every((trade) => trade.price === aggregate.p && trade.isBuyerMaker === aggregate.m)).toBe(true);
        expect(members.reduce((sum, trade) => sum + parseUnits(trade.qty ?? '', 8), 0n)).toBe(parseUnits(aggregate.q ?? '', 8));
      }
    }
    const fromFirst = await (await rest.aggTrades({ symbol: SYMBOL, fromId: Number(aggregates[0]?.a), limit: 1 })).data();
    expect(fromFirst).toEqual([aggregates[0]]);
    passed('rest aggTrades');

    const prices = trades.map((trade) => Number(trade.price));
    const average = await (await rest.avgPrice({ symbol: SYMBOL })).data();
    expect(average).toEqual({ mins: 5, price: expect.stringMatching(DECIMAL_8), closeTime: expect.any(Number) });
    expect(Number(average.price)).toBeGreaterThanOrEqual(Math.min(...prices) - 5);
    expect(Number(average.price)).toBeLessThanOrEqual(Math.max(...prices) + 5);
    expect(Number(average.closeTime)).toBeGreaterThanOrEqual(Number(trades.at(-1)?.time));
    passed('rest avgPrice');

    const day = (await (await rest.ticker24hr({ symbol: SYMBOL })).data()) as Record<string, unknown>;
    expect(Object.keys(day)).toEqual(['symbol', 'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'prevClosePrice', 'lastPrice', 'lastQty', 'bidPrice', 'bidQty', 'askPrice', 'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count']);
    expect(day['priceChangePercent']).toMatch(/^-?\d+\.\d{3}$/);
    expect(Number(day['openTime']) % 60_000).toBe(0);
    expect(Number(day['closeTime']) - Number(day['openTime'])).toBeGreaterThanOrEqual(86_400_000);
    expect(Number(day['count'])).toBeLessThanOrEqual(Number(day['lastId']) - Number(day['firstId']) + 1);
    expect(Number(day['count'])).toBeGreaterThanOrEqual(trades.length);
    expect(Number(day['highPrice'])).toBeGreaterThanOrEqual(Number(day['weightedAvgPrice']));
    expect(Number(day['weightedAvgPrice'])).toBeGreaterThanOrEqual(Number(day['lowPrice']));
    const change = String(day['priceChange']);
    const signedChange = change.startsWith('-') ? -parseUnits(change.slice(1), 8) : parseUnits(change, 8);
    expect(signedChange).toBe(parseUnits(String(day['lastPrice']), 8) - parseUnits(String(day['openPrice']), 8));
    passed('rest ticker/24hr symbol');
    const mini = (await (await rest.ticker24hr({ symbol: SYMBOL, type: SpotRestAPI.Ticker24hrTypeEnum.MINI })).data()) as Record<string, unknown>;
    expect(Object.keys(mini)).toEqual(['symbol', 'openPrice', 'highPrice', 'lowPrice', 'lastPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count']);
    const everything = (await (await rest.ticker24hr()).data()) as Record<string, unknown>[];
    expect(everything.map((ticker) => ticker['symbol'])).toEqual([SYMBOL]);
    passed('rest ticker/24hr MINI and all');
    const price = (await (await rest.tickerPrice({ symbol: SYMBOL })).data()) as Record<string, string>;
    expect(price).toEqual({ symbol: SYMBOL, price: expect.stringMatching(DECIMAL_8) });
    passed('rest ticker/price');

    const minutes = await (await rest.klines({ symbol: SYMBOL, interval: SpotRestAPI.KlinesIntervalEnum.INTERVAL_1m })).data();
    expect(minutes.length).toBeGreaterThan(0);
    for (const row of minutes) {
      expect(row).toEqual([expect.any(Number), expect.stringMatching(DECIMAL_8), expect.stringMatching(DECIMAL_8), expect.stringMatching(DECIMAL_8), expect.stringMatching(DECIMAL_8), expect.stringMatching(DECIMAL_8), expect.any(Number), expect.stringMatching(DECIMAL_8), expect.any(Number), expect.stringMatching(DECIMAL_8), expect.stringMatching(DECIMAL_8), '0']);
      expect([Number(row[0]) % 60_000, Number(row[6]) - Number(row[0])]).toEqual([0, 59_999]);
    }
    const hours = await (await rest.klines({ symbol: SYMBOL, interval: SpotRestAPI.KlinesIntervalEnum.INTERVAL_1h, timeZone: '5:45' })).data();
    expect(hours.every((row) => (Number(row[0]) + 45 * 60_000) % 3_600_000 === 0)).toBe(true);
    passed('rest klines 1m and 1h');
    // One-second candles are not kept: Binance's "not supported", never an empty list.
    expect(await refusal(rest.klines({ symbol: SYMBOL, interval: SpotRestAPI.KlinesIntervalEnum.INTERVAL_1s }))).toMatchObject({ name: 'BadRequestError', code: -1020, message: 'This operation is not supported.' });
    passed('rest klines 1s (not served: -1020)');
    expect(await refusal(rest.uiKlines({ symbol: SYMBOL, interval: SpotRestAPI.UiKlinesIntervalEnum.INTERVAL_1m }))).toMatchObject({ code: -1020, message: 'This operation is not supported.' });
    passed('rest uiKlines (not served: -1020)');

    const client = new Spot({ configurationWebsocketAPI: { apiKey: HMAC_KEY, apiSecret: HMAC_SECRET, wsURL: server.trading?.wsApiUrl ?? '', timeout: 5_000 } });
    const ws = await (client.websocketAPI as SpotWebsocketAPI.WebsocketAPI).connect();
    closers.push(() => ws.disconnect());
    const recent = await ws.tradesRecent({ symbol: SYMBOL, limit: 3 });
    expect(recent.data).toHaveLength(3);
    expect(recent.data?.[0]).toMatchObject({ id: expect.any(Number), quoteQty: expect.stringMatching(DECIMAL_8), isBestMatch: true });
    passed('ws-api trades.recent');
    expect((await ws.tradesAggregate({ symbol: SYMBOL, fromId: Number(aggregates[0]?.a), limit: 1 })).data).toEqual([aggregates[0]]);
    passed('ws-api trades.aggregate');
    expect((await ws.avgPrice({ symbol: SYMBOL })).data).toMatchObject({ mins: 5, price: expect.stringMatching(DECIMAL_8) });
    passed('ws-api avgPrice');
    const wsKlines = await ws.klines({ symbol: SYMBOL, interval: SpotWebsocketAPI.KlinesIntervalEnum.INTERVAL_1m, limit: 2 });
    expect(wsKlines.data?.length).toBeGreaterThan(0);
    expect(wsKlines.rateLimits?.[0]).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT' });
    passed('ws-api klines');
    expect((await ws.ticker24hr({ symbol: SYMBOL })).data).toMatchObject({ symbol: SYMBOL, count: expect.any(Number), priceChangePercent: expect.stringMatching(/^-?\d+\.\d{3}$/) });
    passed('ws-api ticker.24hr');
    expect((await ws.tickerPrice({ symbol: SYMBOL })).data).toEqual({ symbol: SYMBOL, price: expect.stringMatching(DECIMAL_8) });
    passed('ws-api ticker.price');
    expect((await ws.tickerBook({ symbol: SYMBOL })).data).toMatchObject({ symbol: SYMBOL, bidPrice: expect.stringMatching(DECIMAL_8), askQty: expect.stringMatching(DECIMAL_8) });
    passed('ws-api ticker.book');
    expect(await wsRefusal(ws.uiKlines({ symbol: SYMBOL, interval: SpotWebsocketAPI.UiKlinesIntervalEnum.INTERVAL_1m }))).toEqual({ code: -1020, msg: 'This operation is not supported.' });
    passed('ws-api uiKlines (not served: -1020)');

    // timeUnit=MICROSECOND on the connection URL: every time of every answer in µs.
    const microClient = new Spot({ configurationWebsocketAPI: { apiKey: HMAC_KEY, apiSecret: HMAC_SECRET, wsURL: server.trading?.wsApiUrl ?? '', timeout: 5_000, timeUnit: TimeUnit.MICROSECOND } });
    const microWs = await (microClient.websocketAPI as SpotWebsocketAPI.WebsocketAPI).connect();
    closers.push(() => microWs.disconnect());
    expect(Math.abs(Number((await microWs.time()).data?.serverTime) / 1000 - Date.now())).toBeLessThan(5_000);
    const microTrade = (await microWs.tradesRecent({ symbol: SYMBOL, limit: 1 })).data?.[0];
    expect(Math.abs(Number(microTrade?.time) / 1000 - Date.now())).toBeLessThan(60_000);
    const microKline = (await microWs.klines({ symbol: SYMBOL, interval: SpotWebsocketAPI.KlinesIntervalEnum.INTERVAL_1m, limit: 1 })).data?.[0];
    expect([Number(microKline?.[0]) % 60_000_000, Number(microKline?.[6]) - Number(microKline?.[0])]).toEqual([0, 59_999_000]);
    passed('ws-api timeUnit MICROSECOND');
  });

  it(`made the ${CORE_CALLS.length} core calls and the ${FURTHER_CALLS.length} further ones, each passing`, () => {
    expect(CORE_CALLS).toHaveLength(42);
    expect(CORE_CALLS.filter((name) => !made.has(name))).toEqual([]);
    expect(FURTHER_CALLS.filter((name) => !made.has(name))).toEqual([]);
  });
});
