/**
 * The embedded exchange speaks exactly as LayerAkira's own SDKs expect (docs/venue.md): each test
 * repeats the SDK code that reads a frame or builds a request (akira-js @56339b1, python_akira
 * @d8df017), so a sim that drifts from what the real venue sends fails here, not in a user's
 * script. And it is as strict as the venue may be: forms no SDK sends are refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signHash } from '../../src/exchange/signer/index.ts';
import { fastSignMessageHash, parseFastSignChallenge } from '../../src/exchange/client/fast-sign.ts';
import { addressToHex, feltToHex } from '../../src/exchange/wire/fields.ts';
import { formatCancelAllBody, formatCancelBody, formatIncreaseNonceBody, formatOrderBody } from '../../src/exchange/wire/requests.ts';
import { CHAIN, gasFee, order, token } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function loggedIn(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  t = await startTestSim(options);
  await t.login(0);
  await t.login(1);
  return t;
}

/** akira-js websocket/utils.ts `normalize` and `stringHash`: how it finds a fills subscriber. */
function akiraJsNormalize(value: string): string {
  return value.startsWith('0x') ? `0x${value.slice(2).padStart(64, '0')}`.toLowerCase() : `0x${BigInt(value).toString(16).padStart(64, '0')}`;
}

/** akira-js http/utils.ts `isConvertibleToBigint` + `convertToBigintRecursively` on one value. */
function akiraJsBigint(value: unknown): unknown {
  return typeof value === 'string' && (/^\d+$/.test(value) || /^0x[0-9a-fA-F]+$/.test(value)) ? BigInt(value) : value;
}

describe('what the SDKs read from the sim', () => {
  it('sends private events on stream "fills" with the padded client, the only form both SDKs route', async () => {
    const test = await loggedIn();
    const socket = await test.connect(0);
    const account = test.accounts[0]?.address ?? 0n;
    expect(await socket.subscribe(`fills_${addressToHex(account)}`)).toMatchObject({ result: 'OK' });
    const { hash } = await test.place(0, { price: '2000' });
    const event = await socket.waitFor((frame) => frame['id'] === undefined, 'private event');
    // akira-js LayerAkiraWSSAPI.handleSubsEvent: `json.stream == SocketEvent.EXECUTION_REPORT` ("fills").
    // python_akira WsClient._handle_websocket_message: `stream == Stream.FILLS` ("fills").
    expect(event['stream']).toBe('fills');
    expect(akiraJsNormalize(event['client'] as string)).toBe(akiraJsNormalize(feltToHex(account)));
    expect(event['client']).toBe(addressToHex(account));
    // python_akira `int(d['hash'], 16)`.
    expect(BigInt(((event['result'] as Record<string, unknown>)['hash']) as string)).toBe(hash);
  });

  it('numbers snap deltas with digit strings, so akira-js DepthBook applies them in sequence', async () => {
    const test = await loggedIn();
    const socket = await test.connect(0);
    await socket.subscribe('snap', { base: 'ETH', quote: 'USDC', ecosystem_book: true });
    const snapshot = (await test.get('/book/snapshot', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 1 }, test.accounts[0]?.jwt)).body.result as { levels: { msg_id: unknown } };
    await test.place(0, { price: '2000' });
    const delta = (await socket.waitFor((frame) => frame['stream'] === 'snap', 'snap'))['result'] as Record<string, unknown>;
    const current = akiraJsBigint(snapshot.levels.msg_id);
    // DepthBook.run: `currentMsgId + 1n === evt.msg_ids_start` (a JSON number would never be equal).
    expect(typeof current).toBe('bigint');
    expect((current as bigint) + 1n === akiraJsBigint(delta['msg_ids_start'])).toBe(true);
    // python_akira `_parse_md`: `int(d['msg_id'])`, `int(d.get('msg_ids_start', "0"))`.
    expect(Number.parseInt(delta['msg_id'] as string, 10)).toBe(Number(current) + 1);
  });

  it('writes stp as a number in both order modes (python_akira STPMode(d["stp"]) is an int enum)', async () => {
    const test = await loggedIn();
    const { hash } = await test.place(0, { price: '2000', stp: 2 });
    await test.sim.idle();
    const query = { order_hash: addressToHex(hash), trading_account: addressToHex(test.accounts[0]?.address ?? 0n) };
    const reduced = (await test.get('/user/order', { ...query, mode: 2 }, test.accounts[0]?.jwt)).body.result as Record<string, unknown>;
    const full = (await test.get('/user/order', { ...query, mode: 1 }, test.accounts[0]?.jwt)).body.result as { constraints: Record<string, unknown> };
    expect(reduced['stp']).toBe(2);
    expect(full.constraints['stp']).toBe(2);
  });

  it('reports a settled nonce increase with tx_hash, order_hash and source (python_akira TxHashRollupReport reads all three)', async () => {
    const test = await loggedIn();
    const socket = await test.connect(0);
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    await socket.subscribe(`fills_${addressToHex(a.address)}`);
    const nonce = a.signer.signIncreaseNonce({ maker: a.address, newNonce: 1, salt: 5n, gasFee: gasFee({ gasPerAction: 100 }), signScheme: 'ecdsa curve' });
    expect((await test.post('/increase_nonce', formatIncreaseNonceBody(nonce.request), a.jwt)).status).toBe(200);
    test.clock.advance(test.sim.settings.nonceDelayMs);
    const report = (await socket.waitFor((frame) => (frame['result'] as Record<string, unknown> | undefined)?.['tx_hash'] !== undefined, 'rollup report'))['result'] as Record<string, string>;
    expect(BigInt(report['tx_hash'] ?? '')).toBe(nonce.hash);
    expect(BigInt(report['order_hash'] ?? '')).toBe(nonce.hash);
    expect(report['source']).toBe('increase_nonce');
  });
});

describe('what the sim refuses, as the venue may', () => {
  it('takes each endpoint’s booleans only in the SDKs’ spelling', async () => {
    const test = await loggedIn();
    const jwt = test.accounts[0]?.jwt;
    const account = addressToHex(test.accounts[0]?.address ?? 0n);
    const orders = (query: Record<string, string>) => test.get('/user/orders', { trading_account: account, mode: 2, limit: 20, ...query }, jwt);
    // akira-js getOrders: URLSearchParams of a bool; python_akira get_orders: `is_active={bool(is_active)}`.
    expect((await orders({ active: 'true', to_ecosystem_book: 'true' })).status).toBe(200);
    expect((await orders({ is_active: 'True' })).status).toBe(200);
    expect((await orders({ is_active: 'False' })).status).toBe(200);
    const digit = await orders({ active: '1' });
    expect(digit.status).toBe(400);
    expect(digit.body).toMatchObject({ error: 'WRONG_INPUT', field: 'active' });
    // /user/order: both SDKs send `active` as 1|0.
    const hash = addressToHex(1n);
    expect((await test.get('/user/order', { order_hash: hash, trading_account: account, mode: 1, active: 'true' }, jwt)).status).toBe(400);
    expect((await test.get('/user/order', { order_hash: hash, trading_account: account, mode: 1, active: '1' }, jwt)).status).toBe(404);
    // /book/bbo and /book/snapshot: akira-js `+to_ecosystem_book`, python_akira `int(...)`.
    expect((await test.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 'true' }, jwt)).status).toBe(400);
    expect((await test.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: '1' }, jwt)).status).toBe(200);
  });

  it('refuses unpadded addresses in queries, bodies and the fills stream name, naming the field', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    const info = await test.get('/user/user_info', { trading_account: feltToHex(a.address) }, a.jwt);
    expect(info.status).toBe(400);
    expect(info.body).toMatchObject({ error: 'WRONG_INPUT', field: 'trading_account' });
    const signed = a.signer.signOrder(order({ maker: a.address, price: '2000' }));
    const body = formatOrderBody(signed.request) as { maker: string; constraints: Record<string, unknown> };
    const unpadded = await test.post('/place_order', { ...body, maker: feltToHex(a.address) }, a.jwt);
    expect(unpadded.status).toBe(400);
    expect(unpadded.body).toMatchObject({ error: 'WRONG_INPUT', field: 'maker' });
    const named = await test.post('/place_order', { ...body, constraints: { ...body.constraints, stp: 'NONE' } }, a.jwt);
    expect(named.body).toMatchObject({ error: 'WRONG_INPUT', field: 'constraints.stp' });
    const socket = await test.connect(0);
    expect((await socket.subscribe(`fills_${feltToHex(a.address)}`))['error']).toMatch(/zero-padded/);
    expect((await test.post('/place_order', body, a.jwt)).status).toBe(200);
  });
});

describe('fast-sign keys', () => {
  it('issues a key for a signed challenge; cancels carrying it need no signature until it expires', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    const privateKey = test.sim.accounts[0]?.privateKey;
    if (a === undefined || privateKey === undefined) throw new Error('account');
    // akira-js features/webLimitOrders sends user and account; python_akira sends neither.
    const withIdentity = await test.get('/sign/request_fast_sign_key', { user: addressToHex(a.signer.starkKey), account: addressToHex(a.address) }, a.jwt);
    expect(withIdentity.status).toBe(200);
    const challenge = parseFastSignChallenge((await test.get('/sign/request_fast_sign_key', {}, a.jwt)).body.result);
    expect(challenge.expirationTs).toBe(Math.floor(test.clock.nowMs() / 1000) + 3600);
    const wrongKey = signHash(fastSignMessageHash(CHAIN, a.address, challenge), privateKey + 1n);
    expect((await test.post('/sign/issue_fast_sign_key', { msg: challenge.msg, signature: [feltToHex(wrongKey.r), feltToHex(wrongKey.s)] }, a.jwt)).status).toBe(400);
    const again = parseFastSignChallenge((await test.get('/sign/request_fast_sign_key', {}, a.jwt)).body.result);
    const signature = signHash(fastSignMessageHash(CHAIN, a.address, again), privateKey);
    const issued = await test.post('/sign/issue_fast_sign_key', { msg: again.msg, signature: [feltToHex(signature.r), feltToHex(signature.s)] }, a.jwt);
    expect(issued.status).toBe(200);
    const key = issued.body.result as string;

    const { hash } = await test.place(0, { price: '2000' });
    await test.sim.idle();
    const cancel = { ...formatCancelBody({ maker: a.address, orderHash: hash, salt: 3n, signScheme: 'ecdsa curve' }), sign: ['0x0', '0x0'] };
    // Someone else's key does not cancel our orders.
    expect((await test.post('/cancel_order', { ...cancel, fast_sign_key: 'f'.repeat(32) }, a.jwt)).body).toMatchObject({ error: 'FAILED_SIGN_CHECK' });
    expect((await test.post('/cancel_order', { ...cancel, fast_sign_key: key }, a.jwt)).status).toBe(200);
    await test.sim.idle();
    expect(test.sim.orderOf(hash)?.status).toBe('CANCELLED');
    const all = formatCancelAllBody({ maker: a.address, salt: 4n, base: token('ETH'), quote: token('USDC'), toEcosystemBook: true, signScheme: 'ecdsa curve' });
    expect((await test.post('/cancel_all', { ...all, fast_sign_key: key }, a.jwt)).status).toBe(200);
    test.clock.advance(3600 * 1000);
    const late = await test.post('/cancel_all', { ...all, salt: '5', fast_sign_key: key }, a.jwt);
    expect(late.body).toMatchObject({ error: 'FAILED_SIGN_CHECK' });
  });
});

describe('rate limit', () => {
  it('answers 429 with the venue’s suggested sleep past the burst, and lets requests through again as tokens refill', async () => {
    const test = await loggedIn({ settings: { rateLimit: { perSecond: 20, burst: 3 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await test.place(0, { price: String(2000 + i) })).reply.status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await test.place(0, { price: '1990' });
    expect(limited.reply.body).toEqual({ code: 429, error: 'Rate limit exceeded. Suggested sleep time: 50ms' });
    // Another account has its own bucket; reads are not limited.
    expect((await test.place(1, { price: '1980' })).reply.status).toBe(200);
    expect((await test.get('/gas/price', {}, test.accounts[0]?.jwt)).status).toBe(200);
    test.clock.advance(50);
    expect((await test.place(0, { price: '1991' })).reply.status).toBe(200);
  });

  it('is on by default at 20 per second with bursts of 40', async () => {
    const test = await loggedIn();
    expect(test.sim.settings.rateLimit).toEqual({ perSecond: 20, burst: 40 });
  });
});
