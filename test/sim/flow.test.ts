import { afterEach, describe, expect, it } from 'vitest';
import { FLOW_MAKER, FLOW_TAKER } from '../../src/sim/index.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('synthetic flow', () => {
  it('keeps a two-sided book around the reference price and fills a bot quoting inside it, conserving money', async () => {
    t = await startTestSim({ flow: true });
    await t.login(0);
    const jwt = t.accounts[0]?.jwt;
    const bbo = (await t.get('/book/bbo', { base: 'ETH', quote: 'USDC', to_ecosystem_book: 1 }, jwt)).body.result as Record<string, Record<string, string>>;
    expect(Number(bbo['bid']?.['price'])).toBeLessThan(3000);
    expect(Number(bbo['ask']?.['price'])).toBeGreaterThan(3000);
    const bid = await t.place(0, { side: 'buy', price: '2999.5', qty: '0.01' });
    const ask = await t.place(0, { side: 'sell', price: '3000.5', qty: '0.01' });
    const gasBefore = t.sim.gasPriceFri();
    for (let i = 0; i < 120; i++) {
      t.clock.advance(1_000);
      await t.sim.idle();
    }
    const filled = [t.sim.orderOf(bid.hash), t.sim.orderOf(ask.hash)].filter((order) => order?.status === 'FILLED');
    expect(filled.length).toBeGreaterThan(0);
    expect(t.sim.gasPriceFri()).not.toBe(gasBefore);
    expect(t.sim.openOrdersOf(FLOW_MAKER).length).toBeGreaterThan(20);
    expect(t.sim.balancesOf(FLOW_TAKER).size).toBeGreaterThan(0);
    for (const token of t.sim.tokens()) {
      const totals = t.sim.totals(token);
      expect(totals.accounts + totals.fees + totals.gas + totals.withdrawn).toBe(totals.deposited);
    }
  });
});
