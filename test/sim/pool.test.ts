import { afterEach, describe, expect, it } from 'vitest';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { formatOrderBody } from '../../src/exchange/wire/requests.ts';
import { order } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('signature checks on worker threads', () => {
  it('accepts good signatures and refuses a bad one, each order applied once, with the pool running', async () => {
    t = await startTestSim({ signatureWorkers: 2 });
    await t.login(0);
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    // Let the workers start (they build their Pedersen tables) so the batch below really goes to them.
    await t.sim.signaturesReady();
    const bodies = Array.from({ length: 6 }, (_, i) => formatOrderBody(a.signer.signOrder(order({ maker: a.address, price: String(2000 + i) })).request));
    const bad = { ...bodies[3], price: '1' };
    const replies = await Promise.all([...bodies.map((body) => t?.post('/place_order', body, a.jwt)), t.post('/place_order', bad, a.jwt)]);
    expect(replies.slice(0, 6).every((reply) => reply?.status === 200)).toBe(true);
    expect(replies[6]?.body.error).toBe('FAILED_SIGN_CHECK');
    await t.sim.idle();
    // Each good order applied once, one after another (the six posts travel on several
    // connections, so the order they arrive in, and so their sequence, is the network's to pick).
    const sequences = replies.slice(0, 6).map((reply) => t?.sim.orderOf(BigInt(reply?.body.result as string))?.sequence ?? -1);
    const sorted = [...sequences].sort((x, y) => x - y);
    expect(new Set(sequences).size).toBe(6);
    expect(sorted.every((sequence) => sequence >= 0)).toBe(true);
    expect(feltToHex(a.address)).toMatch(/^0x/);
    // Worker start-up builds curve tables on every thread: slow when the suite shares the cores.
  }, 120_000);
});
