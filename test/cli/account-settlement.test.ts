/**
 * Rollups in the Starknet double and `akira-mm account settlement`: fills between two accounts
 * settle in a batch transaction with one Trade event each and a rollup report on the WebSocket;
 * the check matches the journal's fills to them, and catches a dropped fill (unsettled past its
 * deadline), an altered one, a foreign trade and a failed rollup.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/engine/index.ts';
import { addressToHex, feltToHex } from '../../src/exchange/wire/fields.ts';
import { settle, startTestSim, type TestSim } from '../sim/harness.ts';
import { runCli } from './run-cli.ts';

let test: TestSim | undefined;
afterEach(async () => {
  await test?.stop();
  test = undefined;
});

function pairFile(venue: TestSim, index: number): string {
  const account = venue.sim.accounts[index]!;
  const path = join(mkdtempSync(join(tmpdir(), 'akira-settle-')), 'pair.env');
  writeFileSync(
    path,
    [`EXCHANGE_HTTP_URL=${venue.sim.httpUrl}`, `EXCHANGE_WS_URL=${venue.sim.wsUrl}`, `STARKNET_RPC_URL=${venue.sim.rpcUrl}`, `TRADING_ACCOUNT=${feltToHex(account.address)}`, `SIGNER_PRIVATE_KEY=${feltToHex(account.privateKey!)}`, 'BASE=ETH', 'QUOTE=USDC', 'LOG_LEVEL=silent'].join('\n'),
    { mode: 0o600 },
  );
  return path;
}

/** One trade: account 0 rests a sell, account 1 takes it. Returns account 0's fill as the journal records it. */
async function trade(venue: TestSim, qty: string): Promise<JournalRecord & { t: 'fill' }> {
  const maker = await venue.place(0, { side: 'sell', price: '3000', qty, postOnly: true });
  expect(maker.reply.status).toBe(200);
  await settle(venue);
  expect((await venue.place(1, { side: 'buy', price: '3000', qty, postOnly: false })).reply.status).toBe(200);
  await settle(venue);
  const order = venue.sim.orderOf(maker.hash)!;
  expect(order.filledBase).toBeGreaterThan(0n);
  return { t: 'fill', orderId: feltToHex(maker.hash), side: 'sell', qty: order.filledBase.toString(), quote: order.filledQuote.toString(), price: '3000000000', fee: '0', feeToken: 'quote', feeQuote: 0, maker: true, timeMs: venue.clock.nowMs(), atMs: venue.clock.nowMs() };
}

function journal(records: readonly JournalRecord[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-journal-')), 'journal.jsonl');
  writeFileSync(path, records.map((record) => JSON.stringify({ ...record, pair: 'ETH/USDC' })).join('\n'));
  return path;
}

async function settlement(venue: TestSim, records: readonly JournalRecord[]): Promise<{ code: number; report: { counts: Record<string, number>; clean: boolean; findings: { kind: string; orderHash?: string }[] } }> {
  const result = await runCli(['account', 'settlement', '--env', pairFile(venue, 0), '--journal', journal(records), '--deadline-s', '60', '--json']);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as never };
}

describe('rollups and the settlement check', () => {
  it('settles fills in one rollup transaction per batch, a Trade event per fill, and reports it on the WebSocket', async () => {
    test = await startTestSim({ rollupMs: 1_000 });
    await test.login(0);
    await test.login(1);
    const socket = await test.connect(0);
    expect(await socket.subscribe(`fills_${addressToHex(test.accounts[0]!.address)}`)).toEqual({ id: 1, result: 'OK' });
    const first = await trade(test, '0.1');
    const second = await trade(test, '0.2');
    expect(test.sim.rollup.pendingFills()).toBe(2);
    test.clock.advance(1_000);
    const batches = test.sim.rollup.history();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.fills).toBe(2);
    expect(batches[0]!.transaction.succeeded).toBe(true);
    expect(batches[0]!.transaction.events).toHaveLength(2);
    const txHash = `0x${batches[0]!.transaction.hash.toString(16)}`;
    await socket.waitFor((frame) => (frame['result'] as { tx_hash?: string } | undefined)?.tx_hash === txHash && BigInt((frame['result'] as { order_hash: string }).order_hash) === BigInt(first.orderId), 'rollup report');

    const clean = await settlement(test, [first, second]);
    expect(clean.report.counts).toMatchObject({ settled: 2, failed: 0, altered: 0, unsettled: 0, foreign: 0 });
    expect(clean.code).toBe(0);
  });

  it('catches a dropped, an altered and a foreign trade, and a failed rollup', async () => {
    test = await startTestSim({ rollupMs: 1_000 });
    await test.login(0);
    await test.login(1);
    const settled = await trade(test, '0.1');
    const altered = await trade(test, '0.2');
    await trade(test, '0.3'); // left out of the journal: foreign
    test.clock.advance(1_000);
    test.sim.rollup.failNext();
    const failed = await trade(test, '0.4');
    test.clock.advance(1_000);
    const dropped: JournalRecord = { ...settled, orderId: '0x1234', timeMs: test.clock.nowMs() - 3_600_000 };
    const { code, report } = await settlement(test, [settled, { ...altered, qty: (BigInt(altered.qty) - 1n).toString() }, failed, dropped]);
    expect(code).toBe(1);
    expect(report.clean).toBe(false);
    expect(report.counts).toMatchObject({ settled: 1, altered: 1, failed: 1, unsettled: 1, foreign: 1 });
    expect(BigInt(report.findings.find((finding) => finding.kind === 'unsettled')?.orderHash ?? 0)).toBe(0x1234n);
    expect(BigInt(report.findings.find((finding) => finding.kind === 'failed')?.orderHash ?? 0)).toBe(BigInt(failed.orderId));
  });
});
