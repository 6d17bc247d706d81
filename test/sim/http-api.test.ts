import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { formatCancelAllBody, formatCancelBody, formatIncreaseNonceBody, formatWithdrawBody } from '../../src/exchange/wire/requests.ts';
import { referenceCancelHash, referenceOrderHash } from '../../src/exchange/signer/reference.ts';
import { venueErrorCode } from '../../src/sim/index.ts';
import { CHAIN, gasFee, token, units } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
  await t.login(0);
  await t.login(1);
});
afterAll(async () => {
  await t.stop();
});

describe('auth', () => {
  it('logs in with a SNIP-12 signature over the challenge and returns a JWT', async () => {
    expect(t.accounts[0]?.jwt.split('.')).toHaveLength(3);
    const info = await t.get('/user/user_info', { trading_account: addressToHex(t.accounts[0]?.address ?? 0n) }, t.accounts[0]?.jwt);
    expect(info.status).toBe(200);
  });

  it('answers 401 without a token, with a bad one and with a "Bearer" prefix', async () => {
    expect((await t.get('/gas/price')).status).toBe(401);
    expect((await t.get('/gas/price')).body.error).toBe('Auth header required');
    expect((await t.get('/gas/price', {}, 'not.a.jwt')).status).toBe(401);
    expect((await t.get('/gas/price', {}, `Bearer ${t.accounts[0]?.jwt ?? ''}`)).status).toBe(401);
    const tampered = (t.accounts[0]?.jwt ?? '').replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await t.get('/gas/price', {}, tampered)).status).toBe(401);
  });

  it('refuses a challenge for a signer that is not the account’s key, a bad signature, a reused and an expired challenge', async () => {
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    const wrong = await t.get('/sign/request_sign_data', { user: addressToHex(0x1234n), account: addressToHex(a.address) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Wrong account');
    const query = { user: addressToHex(a.signer.starkKey), account: addressToHex(a.address) };
    const challenge = (await t.get('/sign/request_sign_data', query)).body.result as string;
    const other = t.accounts[1]?.signer.signLogin(BigInt(challenge)).signature;
    const bad = await t.post('/sign/auth', { msg: challenge, signature: [String(other?.r), String(other?.s)] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid signature');
    const good = a.signer.signLogin(BigInt(challenge)).signature;
    expect((await t.post('/sign/auth', { msg: challenge, signature: [String(good.r), String(good.s)] })).status).toBe(200);
    expect((await t.post('/sign/auth', { msg: challenge, signature: [String(good.r), String(good.s)] })).status).toBe(400);
    const late = (await t.get('/sign/request_sign_data', query)).body.result as string;
    t.clock.advance(t.sim.settings.challengeTtlMs);
    const sig = a.signer.signLogin(BigInt(late)).signature;
    const expired = await t.post('/sign/auth', { msg: late, signature: [String(sig.r), String(sig.s)] });
    expect(expired.body.error).toBe('Message expired');
    const three = await t.post('/sign/auth', { msg: late, signature: ['1', '2', '3'] });
    expect(three.status).toBe(400);
  });
});

describe('information endpoints', () => {
  const jwt = (): string => t.accounts[0]?.jwt ?? '';

  it('serves the gas price as a raw integer string', async () => {
    const reply = await t.get('/gas/price', {}, jwt());
    expect(reply.body.result).toBe(t.sim.gasPriceFri().toString());
  });

  it('serves steps on both spellings, ticker specs, router details and conversion rates', async () => {
    const steps = await t.get('/info/steps_specifications', {}, jwt());
    expect(steps.body.result).toEqual({ swapEcosystem: 150, swapRouter: 250, withdraw: 150, nonce: 100 });
    expect((await t.get('/info/steps_specification', {}, jwt())).body.result).toEqual(steps.body.result);
    const specs = (await t.get('/info/ticker_specifications', {}, jwt())).body.result as Array<Record<string, unknown>>;
    expect(specs).toHaveLength(12);
    expect(specs[0]).toMatchObject({ ticker: { pair: { base: 'ETH', quote: 'USDC' }, isEcosystemBook: true }, rawPriceIncrement: '10000', rawMinQuoteQty: '1000000000000000', rawQuoteQtyIncrement: '100000000000000' });
    const router = (await t.get('/info/router_details', {}, jwt())).body.result as Record<string, unknown>;
    expect(router).toMatchObject({ routerTakerPbips: 500, routerMakerPbips: 0, routerFeeRecipient: CHAIN.feeRecipient });
    expect((await t.get('/info/conversion_rate', { token: 'USDC' }, jwt())).body.result).toEqual(['1', '0.5']);
    expect((await t.get('/info/conversion_rate', { token: 'STRK' }, jwt())).body.result).toEqual(['1', '1']);
    expect((await t.get('/info/conversion_rate', { token: 'DOG' }, jwt())).status).toBe(422);
  });

  it('serves user info with nonce, balances and per-pair fees, and only for the logged-in account', async () => {
    const address = addressToHex(t.accounts[0]?.address ?? 0n);
    const info = (await t.get('/user/user_info', { trading_account: address }, jwt())).body.result as Record<string, unknown>;
    expect(info['nonce']).toBe(0);
    expect(info['balances']).toContainEqual({ token: 'ETH', balance: '100', locked: '0' });
    expect(info['fees']).toContainEqual({ base: 'ETH', quote: 'USDC', fee: [200, 1000] });
    const other = await t.get('/user/user_info', { trading_account: addressToHex(t.accounts[1]?.address ?? 0n) }, jwt());
    expect(other.status).toBe(422);
  });

  it('returns one listen key per account and extends it on a second call', async () => {
    const first = await t.get('/user/listen_key', {}, jwt());
    const second = await t.get('/user/listen_key', {}, jwt());
    expect(second.body.result).toBe(first.body.result);
  });

  it('answers 404 for a book that is not listed and 400 for a bad levels parameter', async () => {
    expect((await t.get('/book/bbo', { base: 'ETH', quote: 'DOG', to_ecosystem_book: 1 }, jwt())).status).toBe(404);
    expect((await t.get('/book/snapshot', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 1, levels: 'x' }, jwt())).status).toBe(400);
  });
});

describe('signed requests', () => {
  it('places an order and returns the hash starknet.js computes; the order is readable in both modes', async () => {
    const { reply, hash, request } = await t.place(0, { price: '2500', qty: '0.1' });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toBe(addressToHex(hash));
    expect(hash).toBe(referenceOrderHash(request, CHAIN));
    await t.sim.idle();
    const jwt = t.accounts[0]?.jwt ?? '';
    const address = addressToHex(t.accounts[0]?.address ?? 0n);
    const full = (await t.get('/user/order', { order_hash: addressToHex(hash), trading_account: address, mode: 1 }, jwt)).body.result as Record<string, unknown>;
    expect(full).toMatchObject({ price: '2500', ticker: { base: 'ETH', quote: 'USDC' }, state: { status: 'OPEN', limit_price: '2500', filled_base_amount: '0' } });
    expect(full['flags']).toEqual([false, false, true, false, false, true, false]);
    const reduced = (await t.get('/user/order', { order_hash: hash.toString(), trading_account: address, mode: 2 }, jwt)).body.result as Record<string, unknown>;
    expect(reduced).toMatchObject({ hash: addressToHex(hash), stp: 0 });
    const page = (await t.get('/user/orders', { trading_account: address, mode: 2, limit: 20, active: 'true' }, jwt)).body.result as { data: unknown[]; cursor: unknown };
    expect(page.data.length).toBeGreaterThan(0);
    expect((await t.get('/user/order', { order_hash: '0x1', trading_account: address }, jwt)).status).toBe(404);
    const router = await t.get('/user/order_router', { order_hash: addressToHex(hash), trading_account: address }, t.accounts[1]?.jwt);
    expect(router.status).toBe(200);
  });

  it('cancels one order, cancels all on both paths, withdraws and increases the nonce, each returning the signer’s hash', async () => {
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    const { hash } = await t.place(0, { price: '2400', qty: '0.1' });
    await t.sim.idle();
    const cancel = a.signer.signCancel({ maker: a.address, orderHash: hash, salt: 11n, signScheme: 'ecdsa curve' });
    const cancelReply = await t.post('/cancel_order', formatCancelBody(cancel.request), a.jwt);
    expect(cancelReply.body.result).toBe(addressToHex(cancel.hash));
    expect(cancel.hash).toBe(referenceCancelHash(cancel.request, CHAIN));
    await t.sim.idle();
    expect(t.sim.orderOf(hash)?.status).toBe('CANCELLED');
    for (const [path, salt] of [['/cancel_all', 12n], ['/cancel_all_orders', 13n]] as const) {
      const all = a.signer.signCancelAll({ maker: a.address, salt, base: token('ETH'), quote: token('USDC'), toEcosystemBook: true, signScheme: 'ecdsa curve' });
      expect((await t.post(path, formatCancelAllBody(all.request), a.jwt)).body.result).toBe(addressToHex(all.hash));
    }
    const withdraw = a.signer.signWithdraw({ maker: a.address, token: token('USDT'), amount: units('USDT', '10'), salt: 14n, receiver: a.address, gasFee: gasFee(), signScheme: 'ecdsa curve' });
    expect((await t.post('/withdraw', formatWithdrawBody(withdraw.request), a.jwt)).body.result).toBe(addressToHex(withdraw.hash));
    await t.sim.idle();
    expect(t.sim.totals('USDT').withdrawn).toBe(units('USDT', '10'));
    const nonce = a.signer.signIncreaseNonce({ maker: a.address, newNonce: 5, salt: 15n, gasFee: gasFee({ gasPerAction: 100 }), signScheme: 'ecdsa curve' });
    expect((await t.post('/increase_nonce', formatIncreaseNonceBody(nonce.request), a.jwt)).body.result).toBe(addressToHex(nonce.hash));
    t.clock.advance(t.sim.settings.nonceDelayMs);
    await t.sim.idle();
    expect(t.sim.nonceOf(a.address)).toBe(5);
    const stale = await t.place(0, { nonce: 4 });
    expect(stale.reply.status).toBe(422);
    expect(stale.reply.body).toMatchObject({ error: 'WRONG_NONCE', code: venueErrorCode('WRONG_NONCE') });
  });
});
