import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError, RateLimitCounter, RestClient } from '../../../src/exchange/client/index.ts';
import { createRng, createSilentLogger, getToken } from '../../../src/core/index.ts';
import type { OrderRequest } from '../../../src/exchange/wire/requests.ts';
import { LoopbackVenue } from '../support/loopback-venue.ts';
import { ACCOUNT, CHAIN, FastClock, makeRest } from '../support/helpers.ts';
import { FAKE_SIGNATURE, FakeSigner, fakeHash } from '../support/fake-signer.ts';
import { formatOrderBody } from '../../../src/exchange/wire/requests.ts';

const ETH = getToken(CHAIN, 'ETH');
const USDC = getToken(CHAIN, 'USDC');
const STRK = getToken(CHAIN, 'STRK');

function order(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    maker: ACCOUNT,
    price: 3000_000000n,
    baseQty: 10n ** 17n,
    quoteQty: 0n,
    base: ETH,
    quote: USDC,
    fee: {
      tradeFee: { recipient: BigInt(CHAIN.feeRecipient), makerPbips: 200, takerPbips: 1000 },
      routerFee: { recipient: 0n, makerPbips: 0, takerPbips: 0 },
      integratorFee: { recipient: 0n, makerPbips: 0, takerPbips: 0 },
      applyToReceiptAmount: true,
      gasFee: { gasPerAction: 150, feeToken: STRK, maxGasPrice: 1_250_000_000n, conversionRate: [10n ** 18n, 10n ** 18n] },
    },
    constraints: { numberOfSwapsAllowed: 0, durationValid: 3600, createdAt: 1_700_000_000, stp: 0, nonce: 3, minReceiveAmount: 0n, routerSigner: 0n },
    salt: 42n,
    flags: { fullFillOnly: false, bestLevelOnly: false, postOnly: true, isSellSide: false, isMarketOrder: false, toEcosystemBook: true, externalFunds: false },
    source: 'layerakira',
    signScheme: 'ecdsa curve',
    sign: FAKE_SIGNATURE,
    ...overrides,
  };
}

function errorOf(promise: Promise<unknown>): Promise<ExchangeError> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ExchangeError);
      return error as ExchangeError;
    },
  );
}

describe('REST client against a loopback venue', () => {
  let venue: LoopbackVenue;
  let rest: RestClient;
  let clock: FastClock;

  beforeEach(async () => {
    venue = await new LoopbackVenue().start();
    clock = new FastClock();
    ({ rest } = makeRest(venue.httpUrl, { clock }));
  });

  afterEach(async () => {
    await rest.close();
    await venue.stop();
  });

  it('logs in with the signed challenge and sends the raw JWT, without "Bearer"', async () => {
    await rest.gasPrice();
    const [challenge] = venue.seen('GET /sign/request_sign_data');
    expect(challenge?.query).toEqual({ user: '0x0000000000000000000000000000000000000000000000000000000000005eed', account: '0x000000000000000000000000000000000000000000000000000000000000acc0' });
    const [auth] = venue.seen('POST /sign/auth');
    expect(auth?.body).toEqual({ msg: '123456789', signature: ['123456789', '7'] });
    expect(venue.seen('GET /gas/price')[0]?.headers.authorization).toBe('jwt-1');
  });

  it('parses every GET endpoint into exact values', async () => {
    expect(await rest.gasPrice()).toBe(1_000_000_000n);
    expect(await rest.bbo({ base: 'ETH', quote: 'USDC' }, true)).toEqual({ bid: { price: 3000_000000n, qty: 15n * 10n ** 17n, orders: 2 }, ask: undefined });
    const snapshot = await rest.snapshot({ base: 'ETH', quote: 'USDC' }, true);
    expect(snapshot).toEqual({ bids: [{ price: 3000_000000n, qty: 15n * 10n ** 17n, orders: 2 }], asks: [{ price: 3001_000000n, qty: 2n * 10n ** 18n, orders: 1 }], msgId: 100n });
    expect(venue.seen('GET /book/snapshot')[0]?.query).toEqual({ base: 'ETH', quote: 'USDC', to_ecosystem_book: '1', levels: '-1' });
    const info = await rest.userInfo();
    expect(info.nonce).toBe(3);
    expect(info.balances.get('ETH')).toEqual({ balance: 10n * 10n ** 18n, locked: 0n });
    expect(info.unknownTokens).toEqual(['AUNI']);
    expect(info.fees).toEqual([{ base: 'ETH', quote: 'USDC', makerPbips: 200, takerPbips: 1000 }]);
    expect((await rest.listenKey()).reveal()).toBe('lk-1');
    expect(await rest.conversionRate('USDC')).toEqual([10n ** 18n, 550_000n]);
    expect(await rest.stepsSpecifications()).toEqual({ withdraw: 150, swapRouter: 250, swapEcosystem: 150, nonce: 100 });
    const specs = await rest.tickerSpecifications();
    expect(specs[0]).toEqual({ base: 'ETH', quote: 'USDC', isEcosystemBook: true, priceTick: 10000n, minQty: 10n ** 15n, qtyStep: 10n ** 14n });
    expect(await rest.routerDetails()).toEqual({ routerTakerPbips: 100, routerMakerPbips: 50, routerSigner: 0x123n, routerFeeRecipient: 0x456n });
  });

  it('places an order with the formatted body and returns the venue hash; queries it back', async () => {
    const request = order();
    const hash = await rest.placeOrder(request);
    expect(hash).toBe(fakeHash(formatOrderBody(request)));
    const [placed] = venue.seen('POST /place_order');
    expect(placed?.body).toMatchObject({ maker: '0x000000000000000000000000000000000000000000000000000000000000acc0', price: '3000', qty: { base_qty: '0.1', quote_qty: '0' }, ticker: ['ETH', 'USDC'], sign: ['4369', '8738'] });
    const found = await rest.order(hash, { active: true });
    expect(found).toMatchObject({ hash, price: 3000_000000n, baseQty: 10n ** 17n, status: 'OPEN', isSellSide: false, postOnly: true, isEcosystemBook: true, nonce: 3, createdAtS: 1_700_000_000 });
    expect(venue.seen('GET /user/order')[0]?.query).toEqual({ order_hash: `0x${hash.toString(16).padStart(64, '0')}`, trading_account: '0x000000000000000000000000000000000000000000000000000000000000acc0', mode: '1', active: '1' });
    const page = await rest.orders({ active: true });
    expect(page.orders.map((o) => o.hash)).toEqual([hash]);
    expect(await rest.orderRouter(hash, ACCOUNT, { active: true })).toMatchObject({ hash });
  });

  it('sends cancel, cancel-all, withdraw, increase-nonce and router signing to the SPEC paths', async () => {
    const hash = await rest.placeOrder(order());
    await rest.cancelOrder({ maker: ACCOUNT, orderHash: hash, salt: 1n, signScheme: 'ecdsa curve', sign: FAKE_SIGNATURE });
    expect((await rest.order(hash, { active: false }))?.status).toBe('CANCELLED');
    await rest.cancelAll({ maker: ACCOUNT, salt: 2n, base: ETH, quote: USDC, toEcosystemBook: true, signScheme: 'ecdsa curve', sign: FAKE_SIGNATURE });
    expect(venue.seen('POST /cancel_all')[0]?.body).toMatchObject({ order_hash: 0, ticker: { base: 'ETH', quote: 'USDC', to_ecosystem_book: true } });
    const gasFee = order().fee.gasFee;
    await rest.withdraw({ maker: ACCOUNT, token: USDC, amount: 10_500000n, salt: 3n, receiver: ACCOUNT, gasFee, signScheme: 'ecdsa curve', sign: FAKE_SIGNATURE });
    expect(venue.seen('POST /withdraw')[0]?.body).toMatchObject({ token: 'USDC', amount: '10.5' });
    await rest.increaseNonce({ maker: ACCOUNT, newNonce: 4, salt: 4n, gasFee, signScheme: 'ecdsa curve', sign: FAKE_SIGNATURE });
    expect(venue.nonce).toBe(4);
    expect(await rest.signExternalOrder(order())).toEqual({ r: 1n, s: 2n });
  });

  it('refuses to send an unsigned request', async () => {
    const error = await errorOf(rest.placeOrder(order({ sign: undefined as never })));
    expect(error.code).toBe('EXCHANGE_BAD_REQUEST');
    expect(venue.seen('POST /place_order')).toHaveLength(0);
  });

  it('keeps every digit of a numeric challenge beyond 2^53', async () => {
    venue.queue('GET /sign/request_sign_data', { status: 200, body: '{"result": 123456789012345678901234567}' });
    await rest.login();
    expect(venue.seen('POST /sign/auth')[0]?.body).toMatchObject({ msg: '123456789012345678901234567', signature: ['123456789012345678901234567', '7'] });
  });

  it('logs in again once on a 401 and repeats the request', async () => {
    await rest.gasPrice();
    venue.validJwts.clear();
    expect(await rest.gasPrice()).toBe(1_000_000_000n);
    expect(venue.seen('POST /sign/auth')).toHaveLength(2);
    expect(venue.seen('GET /gas/price').at(-1)?.headers.authorization).toBe('jwt-2');
  });

  it('gives up with EXCHANGE_UNAUTHORIZED when the fresh JWT is refused too', async () => {
    venue.queue('GET /gas/price', { status: 401, body: '{"code":401,"error":"Auth header invalid"}' }, { status: 401, body: '{"code":401,"error":"Auth header invalid"}' });
    const error = await errorOf(rest.gasPrice());
    expect(error.code).toBe('EXCHANGE_UNAUTHORIZED');
    expect(venue.seen('GET /gas/price')).toHaveLength(2);
  });

  it('one re-login serves a burst of concurrent 401s', async () => {
    await rest.gasPrice();
    venue.validJwts.clear();
    await Promise.all([rest.gasPrice(), rest.userInfo(), rest.stepsSpecifications()]);
    expect(venue.seen('POST /sign/auth')).toHaveLength(2);
  });

  it('waits the suggested sleep of a 429 plus jitter, then retries', async () => {
    venue.queue('GET /gas/price', { status: 429, body: '{"code":429,"error":"Rate limit exceeded. Suggested sleep time: 1000ms"}' });
    expect(await rest.gasPrice()).toBe(1_000_000_000n);
    const [delay] = clock.delays;
    expect(delay).toBeGreaterThanOrEqual(1000);
    expect(delay).toBeLessThanOrEqual(1200);
  });

  it('honours a 429 on a POST too: the venue did not process it', async () => {
    venue.queue('POST /place_order', { status: 429, body: '{"code":429,"error":"Rate limit exceeded. Suggested sleep time: 50ms"}' });
    await rest.placeOrder(order());
    expect(venue.seen('POST /place_order')).toHaveLength(2);
  });

  it('counts every 429 answer of the venue, per endpoint, those waited out and the one it gives up on', async () => {
    const counter = new RateLimitCounter();
    const counted = makeRest(venue.httpUrl, { clock, rateLimits: counter.sink }).rest;
    const limited = { status: 429, body: '{"code":429,"error":"Rate limit exceeded. Suggested sleep time: 10ms"}' };
    venue.queue('GET /gas/price', limited, limited);
    expect(await counted.gasPrice()).toBe(1_000_000_000n);
    for (let i = 0; i < 4; i++) venue.queue('POST /place_order', limited);
    expect((await errorOf(counted.placeOrder(order()))).code).toBe('EXCHANGE_RATE_LIMITED');
    expect(counter.total()).toBe(6);
    expect(Object.fromEntries(counter.byEndpoint())).toEqual({ 'GET /gas/price': 2, 'POST /place_order': 4 });
    await counted.close();
  });

  it('retries a GET on 5xx with growing jittered delays', async () => {
    venue.queue('GET /info/steps_specifications', { status: 502, body: 'bad gateway' }, { status: 500, body: '{"code":500,"error":"boom"}' });
    await rest.stepsSpecifications();
    expect(venue.seen('GET /info/steps_specifications')).toHaveLength(3);
    expect(clock.delays).toHaveLength(2);
    expect(clock.delays[0]).toBeGreaterThanOrEqual(100);
    expect(clock.delays[0]).toBeLessThanOrEqual(200);
    expect(clock.delays[1]).toBeGreaterThanOrEqual(200);
    expect(clock.delays[1]).toBeLessThanOrEqual(400);
  });

  it('stops retrying a GET after the allowed attempts', async () => {
    for (let i = 0; i < 4; i++) venue.queue('GET /gas/price', { status: 503, body: '{"code":503,"error":"down"}' });
    const error = await errorOf(rest.gasPrice());
    expect(error.code).toBe('EXCHANGE_SERVER_ERROR');
    expect(error.venueError).toBe('down');
    expect(venue.seen('GET /gas/price')).toHaveLength(4);
  });

  it('never repeats a POST after a 5xx', async () => {
    venue.queue('POST /place_order', { status: 500, body: '{"code":500,"error":"internal"}', afterApplying: true });
    const error = await errorOf(rest.placeOrder(order()));
    expect(error.code).toBe('EXCHANGE_SERVER_ERROR');
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });

  it('turns a venue error into EXCHANGE_REJECTED carrying the §4 name', async () => {
    venue.queue('POST /place_order', { status: 422, body: '{"code":14,"error":"WRONG_MAX_GAS_PRICE"}' });
    const error = await errorOf(rest.placeOrder(order()));
    expect(error).toMatchObject({ code: 'EXCHANGE_REJECTED', status: 422, venueError: 'WRONG_MAX_GAS_PRICE', venueErrorName: 'WRONG_MAX_GAS_PRICE', venueCode: 14 });
    expect(error.message).toContain('POST /place_order');
  });

  it('returns undefined for an order the venue does not know', async () => {
    expect(await rest.order(0xdeadn, { active: true })).toBeUndefined();
  });

  it('keeps the raw body of a malformed response', async () => {
    venue.queue('GET /gas/price', { status: 200, body: '{"result":"not a number"}' });
    const error = await errorOf(rest.gasPrice());
    expect(error.code).toBe('EXCHANGE_MALFORMED');
    expect(error.rawBody).toBe('{"result":"not a number"}');
    venue.queue('GET /user/user_info', { status: 200, body: '<html>oops</html>' });
    const html = await errorOf(rest.userInfo());
    expect(html.code).toBe('EXCHANGE_MALFORMED');
    expect(html.rawBody).toBe('<html>oops</html>');
  });

  it('names the field of a malformed result', async () => {
    venue.queue('GET /info/steps_specifications', { status: 200, body: '{"result":{"withdraw":150,"swapRouter":-1,"swapEcosystem":150,"nonce":100}}' });
    const error = await errorOf(rest.stepsSpecifications());
    expect(error.code).toBe('EXCHANGE_MALFORMED');
    expect(error.message).toContain('swapRouter: -1');
  });

  it('reports a refused connection as a network error that never reached the venue', async () => {
    const port = new URL(venue.httpUrl).port;
    await venue.stop();
    const { rest: offline } = makeRest(`http://127.0.0.1:${port}`, { retry: { getAttempts: 1 } });
    const error = await errorOf(offline.gasPrice());
    expect(error.code).toBe('EXCHANGE_NETWORK');
    expect(error.mayHaveReachedVenue).toBe(false);
    await offline.close();
    venue = await new LoopbackVenue().start();
  });

  it('times out a request the venue never answers, as an outcome that may have landed', async () => {
    const client = new RestClient({
      baseUrl: venue.httpUrl,
      chain: CHAIN,
      account: ACCOUNT,
      signer: new FakeSigner(),
      clock,
      rng: createRng(2),
      logger: createSilentLogger(),
      http: { headersTimeoutMs: 150, bodyTimeoutMs: 150 },
    });
    await client.login();
    venue.hang.add('POST /place_order');
    const error = await errorOf(client.placeOrder(order()));
    expect(error.code).toBe('EXCHANGE_NETWORK');
    expect(error.mayHaveReachedVenue).toBe(true);
    await client.close();
  });

  it('never shows the JWT when printed', async () => {
    const key = await rest.listenKey();
    expect(String(key)).toBe('<redacted>');
    expect(JSON.stringify({ key })).toBe('{"key":"<redacted>"}');
  });
});
