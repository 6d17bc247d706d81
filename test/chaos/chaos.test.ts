import { describe, expect, it } from 'vitest';
import { findSecret, findText } from '../../src/chaos/invariants.ts';
import { summarize } from '../../src/chaos/report.ts';
import { runChaos, type RunResult } from '../../src/chaos/run.ts';
import { FAULT_KINDS, drawSchedule, runSeed, type FaultKind } from '../../src/chaos/schedule.ts';

// The CI variant of `npm run chaos`: real bot child processes against the embedded exchange.
// Kinds that take > 10 s by nature (late-applied timeouts) are left to the long campaign.
// SIGKILL has its own test below.
const CI_KINDS: FaultKind[] = FAULT_KINDS.filter((kind) => kind !== 'post-timeout-applied-late' && kind !== 'bot-sigkill');

const results: RunResult[] = [];

describe('chaos against the embedded exchange', () => {
  it('two short seeded runs with faults break no invariant', { timeout: 120_000 }, async () => {
    const runs = await Promise.all(
      [0, 1].map((index) => {
        const seed = runSeed(20_260_601, index);
        return runChaos({ seed, schedule: drawSchedule(seed, { faultsPerRun: 3, kinds: CI_KINDS, gapMs: [2_000, 3_000] }) });
      }),
    );
    results.push(...runs);
    const report = summarize(20_260_601, runs, 0);
    expect(report.faults).toBeGreaterThan(0);
    expect(runs.flatMap((run) => run.violations)).toEqual([]);
    expect(report.violations).toBe(0);
  });

  it('a quoting bot killed with SIGKILL, restarted and stopped with SIGTERM leaves zero open orders', { timeout: 120_000 }, async () => {
    const run = await runChaos({ seed: 77, schedule: [{ kind: 'bot-sigkill', atMs: 1_000, durationMs: 200, rate: 1 }] });
    results.push(run);
    expect(run.botProcesses).toBe(2);
    expect(run.faults[0]?.resumedAfterMs).toBeDefined();
    expect(run.violations).toEqual([]);
  });

  it('no log line, error or report of those runs contains the private key in any form, or the keystore password', () => {
    expect(results.length).toBeGreaterThan(0);
    for (const run of results) {
      expect(run.lines.length).toBeGreaterThan(5);
      expect(findSecret(run.lines, run.privateKey)).toEqual([]);
      expect(findText(run.lines, run.keystorePassword)).toEqual([]);
      expect(findSecret([JSON.stringify(summarize(0, [run], 0))], run.privateKey)).toEqual([]);
      expect(findText([JSON.stringify(summarize(0, [run], 0))], run.keystorePassword)).toEqual([]);
    }
  });
});
