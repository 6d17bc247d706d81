import { afterEach, describe, expect, it } from 'vitest';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { startTestSim, type TestSim } from './harness.ts';

const ETH_USDC = { base: 'ETH', quote: 'USDC', ecosystem_book: true };
let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function ready(): Promise<TestSim> {
  t = await startTestSim();
  await t.login(0);
  await t.login(1);
  return t;
}

describe('fault injection', () => {
  it('drops every WebSocket on demand', async () => {
    const sim = await ready();
    const socket = await sim.connect(0);
    expect(sim.sim.faults.dropAllConnections()).toBe(1);
    await socket.waitClosed();
  });

  it('skips and duplicates snap msg ids', async () => {
    const sim = await ready();
    const socket = await sim.connect(0);
    await socket.subscribe('snap', ETH_USDC);
    sim.sim.faults.set({ snapSkipRate: 1 });
    await sim.place(0, { price: '2000' });
    await sim.sim.idle();
    sim.sim.faults.set({ snapSkipRate: 0, snapDuplicateRate: 1 });
    await sim.place(0, { price: '2001' });
    const snaps = async (): Promise<string[]> => {
      await socket.waitFor((f) => f['stream'] === 'snap' && (f['result'] as Record<string, unknown>)['msg_id'] === '2', 'snap 2');
      return socket.frames.filter((f) => f['stream'] === 'snap').map((f) => (f['result'] as Record<string, string>)['msg_ids_start'] as string);
    };
    // Id 1 was skipped (a gap), id 2 came twice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await snaps()).toEqual(['2', '2']);
  });

  it('aims snap faults at one pair\'s books: another pair\'s stream on the same socket flows on', async () => {
    const sim = await ready();
    const socket = await sim.connect(0);
    await socket.subscribe('snap', ETH_USDC);
    sim.sim.faults.set({ snapSkipRate: 1, snapDuplicateRate: 1, streamPairs: ['STRK-USDC'] });
    await sim.place(0, { price: '2000' });
    await sim.sim.idle();
    sim.sim.faults.set({ snapDuplicateRate: 0, streamPairs: ['ETH-USDC'] });
    await sim.place(0, { price: '2001' });
    await sim.sim.idle();
    sim.sim.faults.reset();
    await sim.place(0, { price: '2002' });
    await socket.waitFor((f) => f['stream'] === 'snap' && (f['result'] as Record<string, unknown>)['msg_id'] === '3', 'snap 3');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Id 1 came once (the faults were aimed at STRK/USDC), id 2 was skipped (aimed at ETH/USDC).
    expect(socket.frames.filter((f) => f['stream'] === 'snap').map((f) => (f['result'] as Record<string, string>)['msg_ids_start'])).toEqual(['1', '3']);
  });

  it('duplicates and reorders execution reports', async () => {
    const sim = await ready();
    const socket = await sim.connect(0);
    await socket.subscribe(`fills_${addressToHex(sim.accounts[0]?.address ?? 0n)}`);
    sim.sim.faults.set({ reportDuplicateRate: 1 });
    const first = await sim.place(0, { price: '2000' });
    await socket.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['hash'] === addressToHex(first.hash));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(socket.frames.filter((f) => (f['result'] as Record<string, unknown> | undefined)?.['hash'] === addressToHex(first.hash))).toHaveLength(2);
    sim.sim.faults.set({ reportDuplicateRate: 0, reportReorderRate: 1 });
    const second = await sim.place(0, { price: '2001' });
    await sim.sim.idle();
    sim.sim.faults.set({ reportReorderRate: 0 });
    const third = await sim.place(0, { price: '2002' });
    await socket.waitFor((f) => (f['result'] as Record<string, unknown> | undefined)?.['hash'] === addressToHex(second.hash));
    const order = socket.frames.map((f) => (f['result'] as Record<string, unknown> | undefined)?.['hash']).filter((h) => h === addressToHex(second.hash) || h === addressToHex(third.hash));
    expect(order).toEqual([addressToHex(third.hash), addressToHex(second.hash)]);
  });

  it('a reordered report that nothing overtakes still arrives, within a second', async () => {
    const sim = await ready();
    const socket = await sim.connect(0);
    await socket.subscribe(`fills_${addressToHex(sim.accounts[0]?.address ?? 0n)}`);
    sim.sim.faults.set({ reportReorderRate: 1 });
    const only = await sim.place(0, { price: '2003' });
    await sim.sim.idle();
    sim.sim.faults.set({ reportReorderRate: 0 });
    // No later report of this account comes to overtake it: held for now, sent a second later.
    const isOnly = (f: Record<string, unknown>): boolean => (f['result'] as Record<string, unknown> | undefined)?.['hash'] === addressToHex(only.hash);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(socket.frames.filter(isOnly)).toHaveLength(0);
    sim.clock.advance(1_000);
    await socket.waitFor(isOnly);
  });

  it('fails a request with 500 before applying it, or after (the order exists, the client must query)', async () => {
    const sim = await ready();
    sim.sim.faults.set({ httpErrorRate: 1, paths: ['/place_order'] });
    const before = await sim.place(0, { price: '2100' });
    expect(before.reply.status).toBe(500);
    await sim.sim.idle();
    expect(sim.sim.orderOf(before.hash)).toBeUndefined();
    sim.sim.faults.set({ failAfterApply: true });
    const after = await sim.place(0, { price: '2101' });
    expect(after.reply.status).toBe(500);
    await sim.sim.idle();
    expect(sim.sim.orderOf(after.hash)?.status).toBe('OPEN');
    sim.sim.faults.reset();
    const query = await sim.get('/user/order', { order_hash: addressToHex(after.hash), trading_account: addressToHex(sim.accounts[0]?.address ?? 0n) }, sim.accounts[0]?.jwt);
    expect(query.status).toBe(200);
  });

  it('answers 429 with a suggested sleep', async () => {
    const sim = await ready();
    sim.sim.faults.set({ httpRateLimitRate: 1, rateLimitSleepMs: 1500 });
    const reply = await sim.get('/gas/price', {}, sim.accounts[0]?.jwt);
    expect(reply.status).toBe(429);
    expect(reply.body.error).toBe('Rate limit exceeded. Suggested sleep time: 1500ms');
  });

  it('delays a request on the venue clock', async () => {
    const sim = await ready();
    sim.sim.faults.set({ httpDelayRate: 1, httpDelayMs: 5_000 });
    let done = false;
    const pending = sim.get('/gas/price', {}, sim.accounts[0]?.jwt).then((reply) => {
      done = true;
      return reply;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    sim.clock.advance(5_000);
    expect((await pending).status).toBe(200);
  });
});
