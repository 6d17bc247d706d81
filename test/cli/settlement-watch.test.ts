/**
 * The daemon's continuous settlement check: its figures (what akira_mm_unsettled_fills, the lag
 * and the foreign-trade gauges export) from the journal's fills log and the double's Trade events,
 * on the venue's manual clock, and the gauges on a registry.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { registerSettlementMetrics } from '../../src/cli/account-metrics.ts';
import { SettlementWatch } from '../../src/cli/settlement-watch.ts';
import { createSilentLogger } from '../../src/core/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { settle, startTestSim, type TestSim } from '../sim/harness.ts';

let test: TestSim | undefined;
afterEach(async () => {
  await test?.stop();
  test = undefined;
});

describe('the daemon’s settlement check', () => {
  it('counts a fill unsettled once its deadline passes, and zero once its rollup lands', async () => {
    test = await startTestSim({ rollupMs: 5_000 });
    await test.login(0);
    await test.login(1);
    const maker = await test.place(0, { side: 'sell', price: '3000', qty: '0.1', postOnly: true });
    await settle(test);
    await test.place(1, { side: 'buy', price: '3000', qty: '0.1', postOnly: false });
    await settle(test);
    const order = test.sim.orderOf(maker.hash)!;
    const journalPath = join(mkdtempSync(join(tmpdir(), 'akira-watch-')), 'account.journal');
    writeFileSync(`${journalPath}.fills`, `${JSON.stringify({ t: 'fill', orderId: feltToHex(maker.hash), side: 'sell', qty: order.filledBase.toString(), quote: order.filledQuote.toString(), price: '3000000000', maker: true, timeMs: test.clock.nowMs(), pair: 'ETH/USDC' })}\n`);
    const watch = new SettlementWatch({ rpcUrl: test.sim.rpcUrl, chain: test.sim.chain, account: test.sim.accounts[0]!.address, journalPath, clock: test.clock, logger: createSilentLogger(), deadlineMs: 2_000 });
    const registry = new Registry();
    registerSettlementMetrics(registry, () => watch.figures());

    expect((await watch.check())?.counts.pending).toBe(1);
    expect(watch.figures().unsettledFills).toBe(0);
    test.clock.advance(3_000); // past the deadline, before the rollup
    expect((await watch.check())?.counts.unsettled).toBe(1);
    expect(watch.figures().unsettledFills).toBe(1);
    expect(await registry.metrics()).toMatch(/^akira_mm_unsettled_fills 1$/m);

    test.clock.advance(2_000); // the rollup at 5 s
    expect(test.sim.rollup.history()).toHaveLength(1);
    expect((await watch.check())?.counts.settled).toBe(1);
    expect(watch.figures()).toEqual({ unsettledFills: 0, lagSeconds: 5, foreignTrades: 0 });
    expect(await registry.metrics()).toMatch(/^akira_mm_settlement_lag_seconds 5$/m);
  });
});
