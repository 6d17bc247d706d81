import { describe, expect, it } from 'vitest';
import { findSecret, findText } from '../../tools/chaos/invariants.ts';
import { runChaos } from '../../tools/chaos/run.ts';
import type { FaultKind, ScheduledFault } from '../../tools/chaos/schedule.ts';

// Issue 17 item 6, the CI variant of `npm run chaos -- --pairs 2`: the bot quotes ETH/USDC and
// STRK/USDC of ONE account from one process (`run --env ETH-USDC.env --env STRK-USDC.env`, a real
// child process) while faults strike one pair's stream (snap gaps and repeats; a stale feed that
// must pause that pair alone), the other's, the whole connection, and the process itself
// (SIGKILL and a restart in the middle). The invariants are checked per pair
// (both sides quoted again, fills counted = the exchange's) and on the account (its ledger =
// the exchange's free + locked for ETH, STRK and the shared USDC; zero orders on both books
// after SIGTERM; every order of ours has a journal intent).

/** Faults one after another; `pairs` aims a snap fault at one pair's stream. */
function schedule(...faults: [FaultKind, number, number?, string[]?][]): ScheduledFault[] {
  return faults.map(([kind, durationMs, rate = 1, pairs], index) => ({ kind, atMs: 500 + index * 1_000, durationMs, rate, ...(pairs === undefined ? {} : { pairs }) }));
}

describe('chaos with two pairs on one account', () => {
  it('faults on either pair\'s stream, a SIGKILL and restart in the middle: every invariant holds, checked on the account', { timeout: 150_000 }, async () => {
    const runs = await Promise.all([
      runChaos({
        seed: 17_006,
        pairs: 2,
        schedule: schedule(['snap-gap', 1_500, 0.6, ['STRK-USDC']], ['bot-sigkill', 300], ['snap-duplicate', 1_500, 0.6, ['ETH-USDC']], ['report-reorder', 1_500, 0.5]),
      }),
      runChaos({
        seed: 17_007,
        pairs: 2,
        // The stale feed mutes STRK/USDC's market data only: that pair pauses and pulls its quotes, ETH/USDC quotes on (`pairs-independent`).
        schedule: schedule(['partial-fill-cancel-race', 1_500, 0.6], ['exchange-restart', 800], ['stale-feed', 4_700, 1, ['STRK-USDC']], ['report-duplicate', 1_500, 0.5]),
      }),
    ]);
    expect(runs.flatMap((run) => run.violations)).toEqual([]);
    const [killed, restarted] = runs;
    expect(killed?.pairs).toBe(2);
    expect(killed?.botProcesses).toBe(2);
    expect(killed?.faults.map((fault) => fault.targetPairs)).toEqual([['STRK-USDC'], undefined, ['ETH-USDC'], undefined]);
    for (const run of runs) {
      // Both pairs were quoted and every fault was followed by both sides of both pairs again.
      expect(Object.keys(run.byPair)).toEqual(['ETH-USDC', 'STRK-USDC']);
      for (const pair of Object.values(run.byPair)) expect(pair.orders).toBeGreaterThan(0);
      for (const fault of run.faults) expect(fault.resumedAfterMs).toBeDefined();
      expect(findSecret(run.lines, run.privateKey)).toEqual([]);
      expect(findText(run.lines, run.keystorePassword)).toEqual([]);
    }
    expect(restarted?.faults.find((fault) => fault.kind === 'partial-fill-cancel-race')?.struck).toBe(true);
    const stale = restarted?.faults.find((fault) => fault.kind === 'stale-feed');
    expect(stale?.targetPairs).toEqual(['STRK-USDC']);
    expect(stale?.deadManLatencyMs).toBeDefined();
  });
});
