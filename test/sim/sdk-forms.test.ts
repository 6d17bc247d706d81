/**
 * The embedded exchange speaks as LayerAkira's own SDKs expect (docs/venue.md): each test repeats
 * the SDK code that reads a frame or builds a request (akira-js @56339b1 and features/webLimitOrders
 * @286eb4d, python_akira @d8df017), so a sim that drifts from what the real venue sends fails here,
 * not in a user's script. It reads every form an SDK sends (addresses in any spelling, compared as
 * numbers) and keeps only the refusals an SDK's user relies on: a bad signature, a stale nonce, a
 * bad amount, a wrong fee recipient, stp as a name.
 */
import { getChecksumAddress } from 'starknet';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { signHash } from '../../src/exchange/signer/index.ts';
import { fastSignMessageHash, parseFastSignChallenge } from '../../src/exchange/client/fast-sign.ts';
import { addressToHex, feltToHex } from '../../src/exchange/wire/fields.ts';
import { formatCancelAllBody, formatCancelBody, formatIncreaseNonceBody, formatOrderBody, formatWithdrawBody } from '../../src/exchange/wire/requests.ts';
import { CHAIN, gasFee, nonceRequest, order, token, withdrawRequest } from './fixtures.ts';
import { startTestSim, TestSocket, type TestSim } from './harness.ts';

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

describe('query booleans', () => {
  it('takes every SDK’s boolean spelling on every endpoint and refuses what is no boolean', async () => {
    const test = await loggedIn();
    const jwt = test.accounts[0]?.jwt;
    const account = addressToHex(test.accounts[0]?.address ?? 0n);
    const orders = (query: Record<string, string>) => test.get('/user/orders', { trading_account: account, mode: 2, limit: 20, ...query }, jwt);
    // akira-js getOrders: URLSearchParams of a bool; python_akira get_orders: `is_active={bool(is_active)}`.
    for (const query of [{ active: 'true', to_ecosystem_book: 'true' }, { is_active: 'True' }, { is_active: 'False' }, { active: '1', is_taker: '0' }]) {
      expect((await orders(query)).status).toBe(200);
    }
    const maybe = await orders({ active: 'maybe' });
    expect(maybe.status).toBe(400);
    expect(maybe.body).toMatchObject({ error: 'WRONG_INPUT', field: 'active' });
    // /user/order: both SDKs send `active` as 1|0; a word is the same boolean.
    const hash = addressToHex(1n);
    expect((await test.get('/user/order', { order_hash: hash, trading_account: account, mode: 1, active: '1' }, jwt)).status).toBe(404);
    expect((await test.get('/user/order', { order_hash: hash, trading_account: account, mode: 1, active: 'true' }, jwt)).status).toBe(404);
    // /book/bbo and /book/snapshot: akira-js `+to_ecosystem_book`, python_akira `int(...)`.
    expect((await test.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: '1' }, jwt)).status).toBe(200);
    expect((await test.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 'false' }, jwt)).status).toBe(200);
    expect((await test.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 'yes' }, jwt)).body).toMatchObject({ error: 'WRONG_INPUT', field: 'to_ecosystem_book' });
  });
});

/** The spellings an address reaches the venue in: python_akira pads; akira-js passes its caller's string on. */
function spellings(value: bigint): Record<string, string> {
  const hex = value.toString(16);
  return { padded: addressToHex(value), unpadded: `0x${hex}`, upper: `0x${hex.toUpperCase()}`, checksummed: getChecksumAddress(addressToHex(value)) };
}

describe('what the sim reads in any spelling, compared as numbers', () => {
  it('logs in and reads the account in every spelling akira-js and python_akira send', async () => {
    t = await startTestSim();
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    const signer = spellings(a.signer.starkKey);
    const account = spellings(a.address);
    // akira-js api.test.ts signs in with a checksummed account and the key as starknet.js prints it.
    const challenge = await t.get('/sign/request_sign_data', { user: signer.unpadded ?? '', account: account.checksummed ?? '' });
    expect(challenge.status).toBe(200);
    const { signature } = a.signer.signLogin(BigInt(challenge.body.result as string));
    const auth = await t.post('/sign/auth', { msg: challenge.body.result, signature: [signature.r.toString(), signature.s.toString()] });
    expect(auth.status).toBe(200);
    a.jwt = auth.body.result as string;
    const infos = await Promise.all(Object.values(account).map((spelled) => t?.get('/user/user_info', { trading_account: spelled }, a.jwt)));
    expect(infos.map((info) => info?.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(infos.map((info) => JSON.stringify(info?.body))).size).toBe(1);
    expect((await t.get('/sign/request_fast_sign_key', { user: signer.upper ?? '', account: account.unpadded ?? '' }, a.jwt)).status).toBe(200);
    expect((await t.get('/user/user_info', { trading_account: '0xnot-an-address' }, a.jwt)).body).toMatchObject({ error: 'WRONG_INPUT', field: 'trading_account' });
  });

  it('places an order carrying akira-js’s forms: a checksummed maker and fee recipient, router_signer as /info/router_details served it', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    const details = (await test.get('/info/router_details', {}, a.jwt)).body.result as { routerSigner: string };
    const routerSigner = BigInt(details.routerSigner);
    const base = order({ maker: a.address, price: '2000' });
    const signed = a.signer.signOrder({ ...base, constraints: { ...base.constraints, routerSigner } });
    const body = formatOrderBody(signed.request) as { fee: { trade_fee: Record<string, unknown> }; constraints: Record<string, unknown> };
    const sent = {
      ...body,
      maker: spellings(a.address).checksummed,
      fee: { ...body.fee, trade_fee: { ...body.fee.trade_fee, recipient: spellings(BigInt(CHAIN.feeRecipient)).checksummed } },
      constraints: { ...body.constraints, router_signer: details.routerSigner },
    };
    const placed = await test.post('/place_order', sent, a.jwt);
    expect(placed.status).toBe(200);
    expect(BigInt(placed.body.result as string)).toBe(signed.hash);
    await test.sim.idle();

    // Order hashes: python_akira `hex(order_hash)` (unpadded), akira-js the venue's string or, in its own tests, a decimal.
    const lookups = [feltToHex(signed.hash), `0x${signed.hash.toString(16).toUpperCase()}`, signed.hash.toString(10), addressToHex(signed.hash)];
    for (const orderHash of lookups) {
      const found = await test.get('/user/order', { order_hash: orderHash, trading_account: spellings(a.address).checksummed ?? '', mode: 1, active: 1 }, a.jwt);
      expect(found.status).toBe(200);
      expect((found.body.result as { hash: string }).hash).toBe(addressToHex(signed.hash));
    }
    const cancel = a.signer.signCancel({ maker: a.address, orderHash: signed.hash, salt: 77n, signScheme: 'ecdsa curve' });
    const cancelBody = { ...formatCancelBody(cancel.request), maker: spellings(a.address).upper, order_hash: feltToHex(signed.hash) };
    expect((await test.post('/cancel_order', cancelBody, a.jwt)).status).toBe(200);
    await test.sim.idle();
    expect(test.sim.orderOf(signed.hash)?.status).toBe('CANCELLED');
  });

  it('withdraws to a receiver in another spelling of the same account', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    const signed = a.signer.signWithdraw(withdrawRequest(a.address, 'USDC', '10'));
    const body = { ...formatWithdrawBody(signed.request), maker: spellings(a.address).checksummed, receiver: spellings(a.address).unpadded };
    const reply = await test.post('/withdraw', body, a.jwt);
    expect(reply.status).toBe(200);
    expect(BigInt(reply.body.result as string)).toBe(signed.hash);
  });

  it('opens the socket for the key as starknet.js prints it and routes fills to a checksummed fills_ subscription', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    const key = (await test.get('/user/listen_key', {}, a.jwt)).body.result as string;
    const raw = new WebSocket(`${test.sim.wsUrl}?listenKey=${key}&signer=${spellings(a.signer.starkKey).unpadded ?? ''}`);
    await new Promise<void>((resolve, reject) => {
      raw.once('open', () => resolve());
      raw.once('error', reject);
    });
    const socket = new TestSocket(raw);
    try {
      // akira-js subscribeOnExecReport: `fills_${tradingAccount}` with the caller's string.
      expect(await socket.subscribe(`fills_${spellings(a.address).checksummed ?? ''}`)).toMatchObject({ result: 'OK' });
      expect((await socket.subscribe(`fills_${addressToHex(test.accounts[1]?.address ?? 0n)}`))['error']).toMatch(/another account/);
      const { hash } = await test.place(0, { price: '2000' });
      const event = await socket.waitFor((frame) => frame['stream'] === 'fills', 'private event');
      expect(BigInt((event['result'] as Record<string, string>)['hash'] ?? '')).toBe(hash);
    } finally {
      raw.terminate();
    }
  });
});

describe('what the sim still refuses: the errors an SDK’s user relies on', () => {
  it('refuses a bad signature, a stale nonce, a bad amount, a wrong fee recipient in any spelling and stp as a name', async () => {
    const test = await loggedIn();
    const a = test.accounts[0];
    if (a === undefined) throw new Error('account');
    const signed = a.signer.signOrder(order({ maker: a.address, price: '2000' }));
    const body = formatOrderBody(signed.request) as { price: string; fee: { trade_fee: Record<string, unknown> }; constraints: Record<string, unknown> };
    // Signed by another key: FAILED_SIGN_CHECK, whatever the spelling of the maker.
    const foreign = test.accounts[1]?.signer.signOrder(order({ maker: a.address, price: '2000' }));
    expect((await test.post('/place_order', { ...formatOrderBody(foreign?.request ?? signed.request), maker: spellings(a.address).checksummed }, a.jwt)).body).toMatchObject({ error: 'FAILED_SIGN_CHECK' });
    // A nonce that is not above the account's: WRONG_NONCE.
    const nonce = a.signer.signIncreaseNonce(nonceRequest(a.address, 0));
    expect((await test.post('/increase_nonce', formatIncreaseNonceBody(nonce.request), a.jwt)).body).toMatchObject({ error: 'WRONG_NONCE' });
    // An amount with more decimals than the token has (USDC: 6), named.
    expect((await test.post('/place_order', { ...body, price: '2000.0000001' }, a.jwt)).body).toMatchObject({ error: 'WRONG_INPUT', field: 'price' });
    // Another recipient stays another recipient in upper case (the signature would not hold either).
    const wrongRecipient = a.signer.signOrder(order({ maker: a.address, price: '2000', recipient: 0xbadn }));
    const wrongBody = formatOrderBody(wrongRecipient.request) as { fee: { trade_fee: Record<string, unknown> } };
    const wrong = await test.post('/place_order', { ...wrongBody, fee: { ...wrongBody.fee, trade_fee: { ...wrongBody.fee.trade_fee, recipient: '0xBAD' } } }, a.jwt);
    expect(wrong.body).toMatchObject({ error: 'WRONG_FEE_RECIPIENT' });
    const named = await test.post('/place_order', { ...body, constraints: { ...body.constraints, stp: 'NONE' } }, a.jwt);
    expect(named.body).toMatchObject({ error: 'WRONG_INPUT', field: 'constraints.stp' });
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
