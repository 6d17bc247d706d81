import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotProcess } from '../../tools/chaos/bot-process.ts';
import { checkFills, checkInventory, type ChaosPair } from '../../tools/chaos/checks.ts';
import type { Violation } from '../../tools/chaos/invariants.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';

// The two-pair checks of `npm run chaos -- --pairs 2` hold the bot to the exchange on the account
// and per pair: these cases make them fail, so a chaos run that passes means something.
const PAIRS: readonly ChaosPair[] = [
  { base: 'ETH', quote: 'USDC' },
  { base: 'STRK', quote: 'USDC' },
];

let sim: SimHandle;
let address: bigint;

beforeAll(async () => {
  sim = await startSim({ seed: 3, flow: false, signatureWorkers: 0, devAccounts: 1 });
  address = (sim.accounts[0] as { address: bigint }).address;
});
afterAll(() => sim.stop());

/** The exchange's balance of every token of the pairs, as the bot's account ledger would export it. */
function accountLedger(adjust: Readonly<Record<string, number>> = {}): Map<string, number> {
  const sample = new Map<string, number>();
  for (const token of ['ETH', 'STRK', 'USDC']) {
    const holding = sim.balancesOf(address).get(token);
    const units = holding === undefined ? 0n : holding.free + holding.locked;
    sample.set(`akira_mm_account_balance{token="${token}"}`, Number(units) / 10 ** (token === 'USDC' ? 6 : 18) + (adjust[token] ?? 0));
  }
  return sample;
}

function collect(): { violations: Violation[]; violate: (invariant: Violation['invariant'], detail: string) => void } {
  const violations: Violation[] = [];
  return { violations, violate: (invariant, detail) => violations.push({ invariant, detail }) };
}

describe('chaos checks with two pairs on one account', () => {
  it('the account ledger equal to the exchange for every token passes', () => {
    const { violations, violate } = collect();
    checkInventory(sim, address, accountLedger(), violate, PAIRS);
    expect(violations).toEqual([]);
  });

  it('one base unit of the shared quote token off, or a token missing, is a violation naming it', () => {
    const off = collect();
    checkInventory(sim, address, accountLedger({ USDC: 0.000001 }), off.violate, PAIRS);
    expect(off.violations).toHaveLength(1);
    expect(off.violations[0]?.invariant).toBe('inventory-matches-exchange');
    expect(off.violations[0]?.detail).toMatch(/^USDC: account ledger/);

    const missing = collect();
    const sample = accountLedger();
    sample.delete('akira_mm_account_balance{token="STRK"}');
    checkInventory(sim, address, sample, missing.violate, PAIRS);
    expect(missing.violations.map((violation) => violation.detail)).toEqual(['STRK: the bot exports no account balance (akira_mm_account_balance{token="STRK"})']);
  });

  it('fills are counted per pair: one pair claiming a fill the exchange never made is named, the other is not', () => {
    const { violations, violate } = collect();
    const bot = {} as BotProcess;
    const journal = [
      { t: 'start' as const, timeMs: 1, pair: 'ETH/USDC' },
      { t: 'start' as const, timeMs: 1, pair: 'STRK/USDC' },
    ];
    const sample = new Map([
      ['akira_mm_filled_base_total{side="buy",pair="ETH/USDC"}', 0],
      ['akira_mm_filled_base_total{side="buy",pair="STRK/USDC"}', 10],
    ]);
    checkFills(journal, sim, address, [bot], new Map(), sample, violate, PAIRS);
    expect(violations).toEqual([{ invariant: 'no-unaccounted-fill', detail: 'STRK/USDC: last bot process counted 10 STRK buy filled; the exchange filled 0 on its orders' }]);
  });
});
