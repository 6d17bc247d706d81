/**
 * The venue's failures after a 200 (issue 13 item 2), as the sim injects them: a placement or a
 * single cancel that fails when it is processed (a `fail` report, nothing applied), a taker fill
 * that races an accepted cancel, and WebSocket messages cut into fragments at odd byte offsets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { formatCancelBody } from '../../src/exchange/wire/requests.ts';
import { startTestSim, type TestSim, type TestSocket } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function connected(options: Parameters<typeof startTestSim>[0] = {}): Promise<{ sim: TestSim; socket: TestSocket }> {
  t = await startTestSim(options);
  await t.login(0);
  const socket = await t.connect(0);
  await socket.subscribe(`fills_${addressToHex(t.accounts[0]?.address ?? 0n)}`);
  return { sim: t, socket };
}

function resultOf(frame: Record<string, unknown>): Record<string, unknown> {
  return (frame['result'] as Record<string, unknown> | undefined) ?? {};
}

async function cancel(sim: TestSim, hash: bigint, salt: bigint): Promise<number> {
  const account = sim.accounts[0];
  if (account === undefined) throw new Error('account');
  const signed = account.signer.signCancel({ maker: account.address, orderHash: hash, salt, signScheme: 'ecdsa curve' });
  return (await sim.post('/cancel_order', formatCancelBody(signed.request), account.jwt)).status;
}

describe('faults after the 200', () => {
  it('fails an accepted placement as it is processed: a fail report, no execution report, the funds unlocked', async () => {
    const { sim, socket } = await connected();
    const address = sim.accounts[0]?.address ?? 0n;
    const before = sim.sim.balancesOf(address).get('USDC');
    sim.sim.faults.set({ queuedOrderFailRate: 1 });
    const placed = await sim.place(0, { price: '2000', qty: '0.5' });
    expect(placed.reply.status).toBe(200);
    await sim.sim.idle();
    const fail = await socket.waitFor((frame) => resultOf(frame)['report_type'] !== undefined, 'fail report');
    expect(resultOf(fail)).toMatchObject({ report_type: 'PLACE_ORDER', req_hash: addressToHex(placed.hash) });
    expect(sim.sim.orderOf(placed.hash)?.status).toBe('NOT_PROCESSED');
    expect(sim.sim.openOrdersOf(address)).toEqual([]);
    expect(sim.sim.balancesOf(address).get('USDC')).toEqual(before);
    expect(socket.frames.some((frame) => resultOf(frame)['hash'] === addressToHex(placed.hash))).toBe(false);
    expect(sim.sim.faults.stats.ordersFailed).toBe(1);
  });

  it('fails an accepted single cancel: a fail report, and the order keeps resting', async () => {
    const { sim, socket } = await connected();
    const placed = await sim.place(0, { price: '2000', qty: '0.5' });
    await sim.sim.idle();
    sim.sim.faults.set({ queuedCancelFailRate: 1 });
    expect(await cancel(sim, placed.hash, 21n)).toBe(200);
    await sim.sim.idle();
    const fail = await socket.waitFor((frame) => resultOf(frame)['report_type'] === 'CANCEL_ORDER', 'fail report');
    expect(resultOf(fail)['error_code_orderbook']).toContain('ACTION_FAILED');
    expect(sim.sim.orderOf(placed.hash)?.status).toBe('OPEN');
    // The venue forgot the failed cancel: a new one goes through.
    sim.sim.faults.reset();
    expect(await cancel(sim, placed.hash, 22n)).toBe(200);
    await sim.sim.idle();
    expect(sim.sim.orderOf(placed.hash)?.status).toBe('CANCELLED');
  });

  it('lets a taker fill part of an order whose cancel was just accepted, before the cancel is processed', async () => {
    const { sim, socket } = await connected({ flow: true });
    // Inside the flow's ladder (±10 bps around 3000), so the taker meets this order first.
    const placed = await sim.place(0, { price: '2999.5', qty: '1', side: 'buy' });
    await sim.sim.idle();
    expect(sim.sim.orderOf(placed.hash)?.status).toBe('OPEN');
    sim.sim.faults.set({ cancelRaceFillRate: 1 });
    expect(await cancel(sim, placed.hash, 23n)).toBe(200);
    await sim.sim.idle();
    const order = sim.sim.orderOf(placed.hash);
    expect(order?.status).toBe('CANCELLED');
    expect(order?.filledBase).toBeGreaterThan(0n);
    expect(order?.filledBase).toBeLessThan(order?.request.baseQty ?? 0n);
    const reports = async (): Promise<string[]> => {
      await socket.waitFor((frame) => resultOf(frame)['hash'] === addressToHex(placed.hash) && resultOf(frame)['status'] === 'CANCELLED', 'cancelled report');
      return socket.frames.filter((frame) => resultOf(frame)['hash'] === addressToHex(placed.hash)).map((frame) => String(resultOf(frame)['status']));
    };
    // The fill reaches the order while its cancel is scheduled: the report says so.
    expect(await reports()).toEqual(['OPEN', 'SCHEDULED_TO_CANCEL', 'CANCELLED']);
    const fill = socket.frames.find((frame) => resultOf(frame)['hash'] === addressToHex(placed.hash) && resultOf(frame)['status'] === 'SCHEDULED_TO_CANCEL');
    expect(Number(resultOf(fill ?? {})['fill_base_qty'])).toBeGreaterThan(0);
    expect(sim.sim.faults.stats.cancelRaceFills).toBe(1);
  });

  it('cuts WebSocket messages into text or binary fragments at odd byte offsets that still reassemble', async () => {
    const { sim, socket } = await connected();
    sim.sim.faults.set({ wsFragmentRate: 1 });
    const placed = await sim.place(0, { price: '2000', qty: '0.5' });
    await sim.sim.idle();
    const report = await socket.waitFor((frame) => resultOf(frame)['hash'] === addressToHex(placed.hash), 'report');
    expect(resultOf(report)['status']).toBe('OPEN');
    expect(sim.sim.faults.stats.fragmentedMessages).toBeGreaterThan(0);
  });
});
