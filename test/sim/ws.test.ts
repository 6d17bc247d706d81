import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { units } from './fixtures.ts';
import { DEV_BALANCES } from '../../src/sim/index.ts';
import { startTestSim, type TestSim } from './harness.ts';

const ETH_USDC = { base: 'ETH', quote: 'USDC', ecosystem_book: true };
let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('WebSocket streams', () => {
  it('fills a resting order with another account’s crossing order and sends both execution reports, trade, bbo and snap deltas', async () => {
    t = await startTestSim();
    await t.login(0);
    await t.login(1);
    const alice = await t.connect(0);
    const bob = await t.connect(1);
    const aliceFills = `fills_${addressToHex(t.accounts[0]?.address ?? 0n)}`;
    const bobFills = `fills_${addressToHex(t.accounts[1]?.address ?? 0n)}`;
    expect(await alice.subscribe(aliceFills)).toEqual({ id: 1, result: 'OK' });
    expect(await bob.subscribe(bobFills)).toEqual({ id: 1, result: 'OK' });
    for (const stream of ['bbo', 'trade', 'snap']) expect((await alice.subscribe(stream, ETH_USDC))['result']).toBe('OK');
    // Someone else's private stream is refused.
    expect((await bob.subscribe(aliceFills))['error']).toMatch(/another account/);

    const resting = await t.place(0, { side: 'buy', price: '3000', qty: '0.5' });
    expect(resting.reply.status).toBe(200);
    const open = await alice.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['status'] === 'OPEN', 'OPEN report');
    expect(open).toMatchObject({ stream: 'fills', client: addressToHex(t.accounts[0]?.address ?? 0n), pair: { base: 'ETH', quote: 'USDC' } });
    const snapshot = (await t.get('/book/snapshot', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 1, levels: -1 }, t.accounts[0]?.jwt)).body.result as {
      levels: { bids: unknown[]; msg_id: string };
    };
    expect(snapshot.levels.bids).toEqual([['3000', '0.5', 1]]);
    const bbo = (await t.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 1 }, t.accounts[0]?.jwt)).body.result;
    expect(bbo).toEqual({ to_ecosystem_book: true, bid: { price: '3000', volume: '0.5', orders: 1 }, ask: {}, pair: 'ETH-USDC' });

    const crossing = await t.place(1, { side: 'sell', price: '2990', qty: '0.5', postOnly: false });
    expect(crossing.reply.status).toBe(200);
    const makerReport = await alice.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['status'] === 'FILLED', 'maker fill');
    expect(makerReport['result']).toMatchObject({
      hash: addressToHex(resting.hash),
      fill_price: '3000',
      fill_base_qty: '0.5',
      fill_quote_qty: '1500',
      acc_base_qty: '0.5',
      is_sell_side: false,
      matcher_result: 'OK',
    });
    const takerReport = await bob.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['hash'] === addressToHex(crossing.hash), 'taker fill');
    expect(takerReport['result']).toMatchObject({ status: 'FILLED', fill_price: '3000', is_sell_side: true });
    const trade = await alice.waitFor((f) => f['stream'] === 'trade', 'trade');
    expect(trade).toMatchObject({ pair: { base: 'ETH', quote: 'USDC' }, ecosystem: true, result: { price: '3000', base_qty: '0.5', quote_qty: '1500', is_sell_side: true } });
    // Snap deltas continue the snapshot's msg id without gaps; the level is removed with volume 0.
    const snaps = alice.frames.filter((f) => f['stream'] === 'snap').map((f) => f['result'] as Record<string, unknown>);
    const last = snaps.at(-1);
    expect(last?.['msg_ids_start']).toBe(String(Number(snapshot.levels.msg_id) + 1));
    expect(last?.['bids']).toEqual([['3000', '0', 0]]);
    expect(await alice.waitFor((f) => f['stream'] === 'bbo' && JSON.stringify((f['result'] as Record<string, unknown>)['bid']) === '[]', 'empty bbo')).toBeDefined();
    // Balances: maker got 0.5 ETH less 200 pbips, taker 1500 USDC less 1000 pbips and gas.
    const aliceEth = t.sim.balancesOf(t.accounts[0]?.address ?? 0n).get('ETH');
    expect(aliceEth?.free).toBe(units('ETH', '100.5') - units('ETH', '0.0001'));
    const bobUsdc = t.sim.balancesOf(t.accounts[1]?.address ?? 0n).get('USDC');
    expect(bobUsdc?.free).toBe(units('USDC', DEV_BALANCES['USDC'] ?? '0') + units('USDC', '1500') - units('USDC', '1.5'));
  });

  it('refuses an upgrade without a live listen key, and closes sockets whose key expired', async () => {
    // Pings off: advancing 30 minutes at once would otherwise count missed pongs with no I/O between.
    t = await startTestSim({ settings: { wsPingIntervalMs: 3_600_000 } });
    await t.login(0);
    const socket = await t.connect(0);
    t.clock.advance(t.sim.settings.listenKeyTtlMs + t.sim.settings.sweepIntervalMs);
    expect(await socket.waitClosed()).toBe(4001);
    const refused = new WebSocket(`${t.sim.wsUrl}?listenKey=nope`);
    const error = await new Promise<Error>((resolve) => refused.once('error', resolve));
    expect(error.message).toMatch(/401/);
  });

  it('takes the listen key’s signer in any spelling and refuses one that is missing, not a felt or another key', async () => {
    const test = await startTestSim();
    t = test;
    await test.login(0);
    const key = (await test.get('/user/listen_key', {}, test.accounts[0]?.jwt)).body.result as string;
    const starkKey = test.accounts[0]?.signer.starkKey ?? 0n;
    const statusOf = (query: string): Promise<number> =>
      new Promise((resolve) => {
        const socket = new WebSocket(`${test.sim.wsUrl}?listenKey=${key}${query}`);
        socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
      });
    expect(await statusOf('')).toBe(401);
    expect(await statusOf('&signer=0xnot-a-key')).toBe(401);
    expect(await statusOf(`&signer=${addressToHex(test.accounts[1]?.signer.starkKey ?? 0n)}`)).toBe(401);
    // python_akira `signer.as_str()` (padded); akira-js the key as starknet.js prints it (unpadded).
    expect(await statusOf(`&signer=${addressToHex(starkKey)}`)).toBe(101);
    expect(await statusOf(`&signer=0x${starkKey.toString(16)}`)).toBe(101);
    expect(await statusOf(`&signer=0x${starkKey.toString(16).toUpperCase()}`)).toBe(101);
  });

  it('acks subscribe and unsubscribe with the request id and answers errors for bad requests', async () => {
    t = await startTestSim();
    await t.login(0);
    const socket = await t.connect(0);
    socket.socket.send('not json');
    expect((await socket.waitFor((f) => f['error'] === 'malformed JSON'))['id']).toBeNull();
    socket.socket.send(JSON.stringify({ action: 'subscribe', id: 9, stream: 'bbo', ticker: { base: 'ETH', quote: 'DOG', ecosystem_book: true } }));
    expect((await socket.waitFor((f) => f['id'] === 9))['error']).toMatch(/not listed/);
    socket.socket.send(JSON.stringify({ action: 'unsubscribe', id: 10, stream: 'bbo', ticker: ETH_USDC }));
    expect(await socket.waitFor((f) => f['id'] === 10)).toEqual({ id: 10, result: 'OK' });
  });

  it('pings every 15 s and drops a socket that misses two pongs', async () => {
    t = await startTestSim();
    await t.login(0);
    const answering = await t.connect(0);
    const key = (await t.get('/user/listen_key', {}, t.accounts[0]?.jwt)).body.result as string;
    const silent = new WebSocket(`${t.sim.wsUrl}?listenKey=${key}&signer=${addressToHex(t.accounts[0]?.signer.starkKey ?? 0n)}`, { autoPong: false });
    await new Promise((resolve) => silent.once('open', resolve));
    let pings = 0;
    answering.socket.on('ping', () => pings++);
    let silentClosed = false;
    silent.on('close', () => {
      silentClosed = true;
    });
    for (let i = 0; i < 4; i++) {
      t.clock.advance(15_000);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(pings).toBe(4);
    expect(answering.closed).toBeUndefined();
    expect(silentClosed).toBe(true);
  });
});
