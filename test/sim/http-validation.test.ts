import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { formatIncreaseNonceBody, formatOrderBody, formatWithdrawBody } from '../../src/exchange/wire/requests.ts';
import { VENUE_ERROR_NAMES, venueErrorCode } from '../../src/sim/index.ts';
import { START_MS, gasFee, order, token, units } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim;
let withdrawBody: Record<string, unknown>;
let nonceBody: Record<string, unknown>;
let orderBody: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestSim();
  await t.login(0);
  const a = t.accounts[0];
  if (a === undefined) throw new Error('account');
  withdrawBody = formatWithdrawBody(
    a.signer.signWithdraw({ maker: a.address, token: token('USDC'), amount: units('USDC', '1'), salt: 1n, receiver: a.address, gasFee: gasFee(), signScheme: 'ecdsa curve' }).request,
  );
  nonceBody = formatIncreaseNonceBody(a.signer.signIncreaseNonce({ maker: a.address, newNonce: 1, salt: 2n, gasFee: gasFee({ gasPerAction: 100 }), signScheme: 'ecdsa curve' }).request);
  orderBody = formatOrderBody(a.signer.signOrder(order({ maker: a.address })).request);
});
afterAll(async () => {
  await t.stop();
});

function edit(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1) as string] = value;
  return copy;
}

describe('malformed inputs (seed-interface §2, §8) get a 4xx with an error body, are never queued, and the sim keeps serving', () => {
  const cases: Array<[string, string, () => unknown]> = [
    ['malformed JSON', '/withdraw', () => '{"maker": '],
    ['an empty body', '/withdraw', () => ''],
    ['a JSON array instead of an object', '/withdraw', () => [1, 2]],
    ['a negative amount', '/withdraw', () => edit(withdrawBody, 'amount', '-1')],
    ['a negative salt', '/withdraw', () => edit(withdrawBody, 'salt', -5)],
    ['a signature of 3 items', '/withdraw', () => edit(withdrawBody, 'sign', ['1', '2', '3'])],
    ['a negative signature item', '/withdraw', () => edit(withdrawBody, 'sign', ['-1', '2'])],
    ['a negative gas_per_action', '/withdraw', () => edit(withdrawBody, 'gas_fee.gas_per_action', -150)],
    ['a negative max_gas_price', '/withdraw', () => edit(withdrawBody, 'gas_fee.max_gas_price', '-0.1')],
    ['a conversion_rate of 3 items', '/withdraw', () => edit(withdrawBody, 'gas_fee.conversion_rate', ['1', '1', '1'])],
    ['a negative conversion_rate item', '/withdraw', () => edit(withdrawBody, 'gas_fee.conversion_rate', ['-1', '1'])],
    ['a missing receiver', '/withdraw', () => edit(withdrawBody, 'receiver', undefined)],
    ['a salt beyond the field prime', '/withdraw', () => edit(withdrawBody, 'salt', (2n ** 252n).toString())],
    ['a negative new_nonce', '/increase_nonce', () => edit(nonceBody, 'new_nonce', -1)],
    ['a new_nonce that is not an integer', '/increase_nonce', () => edit(nonceBody, 'new_nonce', 1.5)],
    ['a signature of 3 items on increase_nonce', '/increase_nonce', () => edit(nonceBody, 'sign', ['1', '2', '3'])],
    ['an unknown token', '/withdraw', () => edit(withdrawBody, 'token', 'XYZ')],
    ['an order with a string flag', '/place_order', () => edit(orderBody, 'flags.post_only', 'true')],
    ['an order with a negative price', '/place_order', () => edit(orderBody, 'price', '-3000')],
  ];

  for (const [name, path, body] of cases) {
    it(`refuses ${name}`, async () => {
      const before = t.sim.balancesOf(t.accounts[0]?.address ?? 0n);
      const reply = await t.post(path, body(), t.accounts[0]?.jwt);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'WRONG_INPUT', code: venueErrorCode('WRONG_INPUT') });
      expect(typeof reply.body['detail']).toBe('string');
      await t.sim.idle();
      expect(t.sim.balancesOf(t.accounts[0]?.address ?? 0n)).toEqual(before);
      expect((await t.get('/gas/price', {}, t.accounts[0]?.jwt)).status).toBe(200);
    });
  }

  it('names the bad field', async () => {
    const reply = await t.post('/withdraw', edit(withdrawBody, 'gas_fee.conversion_rate', ['1', '1', '1']), t.accounts[0]?.jwt);
    expect(reply.body['field']).toBe('gas_fee.conversion_rate');
  });

  it('answers 413 for an oversized body and 404/405 for unknown paths and methods', async () => {
    expect((await t.post('/place_order', 'x'.repeat(100_000), t.accounts[0]?.jwt)).status).toBe(413);
    expect((await t.get('/nope', {}, t.accounts[0]?.jwt)).status).toBe(404);
    expect((await t.get('/place_order', {}, t.accounts[0]?.jwt)).status).toBe(405);
  });
});

describe('venue validation answers 422 with the REFERENCE §4 names', () => {
  const nowSec = Math.floor(START_MS / 1000);
  const cases: Array<[string, Parameters<typeof order>[0]]> = [
    ['NOT_ENOUGH_BALANCE', { side: 'sell', qty: '1000' }],
    ['WRONG_MAX_GAS_PRICE', { postOnly: false, maxGasPrice: 1n }],
    ['WRONG_GAS_PER_ACTION', { gasPerAction: 10 }],
    ['WRONG_CONVERSION_RATE', { postOnly: false, feeToken: 'USDC', conversionRate: [10n ** 18n, 5_000_000n] }],
    ['WRONG_FEE_RECIPIENT', { recipient: 0x1234n }],
    ['WRONG_PBIPS', { takerPbips: 10 }],
    ['UNSUPPORTED_TRADED_PAIR', { base: 'ETH', quote: 'DOG' }],
    ['WRONG_INPUT', { price: '3000.001' }],
    ['STALE_ORDER', { createdAtSec: nowSec - 100, durationSec: 50 }],
    ['WRONG_TIMESTAMP', { createdAtSec: nowSec + 3600 }],
    ['WRONG_FLAGS_FOR_MARKET_ORDER', { market: true, postOnly: true }],
    ['WRONG_FLAGS_FOR_LIMIT_ORDER', { postOnly: true, fullFillOnly: true }],
  ];
  for (const [name, spec] of cases) {
    it(`refuses with ${name}`, async () => {
      const { reply } = await t.place(0, spec);
      expect(reply.status).toBe(422);
      expect(reply.body).toMatchObject({ error: name, code: VENUE_ERROR_NAMES.indexOf(name as never) + 1 });
    });
  }

  it('refuses a tampered signature with FAILED_SIGN_CHECK and the same order twice with ORDER_ALREADY_IN_PROGRESS', async () => {
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    const signed = a.signer.signOrder(order({ maker: a.address, price: '2000' }));
    const body = formatOrderBody(signed.request);
    const tampered = edit(body, 'price', '2000.01');
    expect((await t.post('/place_order', tampered, a.jwt)).body.error).toBe('FAILED_SIGN_CHECK');
    expect((await t.post('/place_order', body, a.jwt)).status).toBe(200);
    expect((await t.post('/place_order', body, a.jwt)).body.error).toBe('ORDER_ALREADY_IN_PROGRESS');
  });

  it('refuses an order whose maker is not the logged-in account', async () => {
    const b = t.accounts[1];
    if (b === undefined) throw new Error('account');
    const body = formatOrderBody(b.signer.signOrder(order({ maker: b.address })).request);
    const reply = await t.post('/place_order', body, t.accounts[0]?.jwt);
    expect(reply.body.error).toBe('NOT_THIS_CLIENT_ORDER');
    expect(feltToHex(b.address)).toMatch(/^0x/);
  });
});
