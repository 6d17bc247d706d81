import { describe, expect, it } from 'vitest';
import { findSecret, findText } from '../../tools/chaos/invariants.ts';
import { summarize } from '../../tools/chaos/report.ts';
import { runChaos, type RunResult } from '../../tools/chaos/run.ts';
import { FAULT_KINDS, drawSchedule, runSeed, type FaultKind, type ScheduledFault } from '../../tools/chaos/schedule.ts';

// The CI variant of `npm run chaos`: real bot child processes against the embedded exchange, on
// fixed seeds. Kinds that take > 10 s by nature (a late-applied timeout; five failed placements
// pause quoting for 30 s) are left to the long campaign; SIGKILL and the venue's real failure
// modes (issue 13) get explicit schedules below, so each of them runs in CI every time.
const LONG_KINDS: readonly FaultKind[] = ['post-timeout-applied-late', 'place-fails-after-accept'];
const CI_KINDS: FaultKind[] = FAULT_KINDS.filter((kind) => !LONG_KINDS.includes(kind) && kind !== 'bot-sigkill');

const results: RunResult[] = [];

/** Faults one after another, each `durationMs` long (0 for one-shot kinds). */
function schedule(...faults: [FaultKind, number, number?][]): ScheduledFault[] {
  return faults.map(([kind, durationMs, rate = 1], index) => ({ kind, atMs: 500 + index * 1_000, durationMs, rate }));
}

describe('chaos against the embedded exchange', () => {
  it('two short seeded runs with faults break no invariant', { timeout: 120_000 }, async () => {
    const runs = await Promise.all(
      [0, 1].map((index) => {
        const seed = runSeed(20_260_601, index);
        return runChaos({ seed, schedule: drawSchedule(seed, { faultsPerRun: 3, kinds: CI_KINDS }) });
      }),
    );
    results.push(...runs);
    const report = summarize(20_260_601, runs, 0);
    expect(report.faults).toBeGreaterThan(0);
    expect(runs.flatMap((run) => run.violations)).toEqual([]);
    expect(report.violations).toBe(0);
  });

  it('the venue\'s real failure modes, each once, break no invariant', { timeout: 150_000 }, async () => {
    const runs = await Promise.all([
      runChaos({
        seed: 13_001,
        schedule: schedule(['cancel-fails-after-accept', 2_000, 0.6], ['partial-fill-cancel-race', 2_000, 0.6], ['rate-limit-storm', 2_500], ['ws-split-merge', 2_000, 0.6], ['cancel-all-fails', 6_000]),
      }),
      runChaos({
        seed: 13_002,
        schedule: schedule(['slow-consumer', 1_500, 0.2], ['clock-step', 1_500, 0.9], ['clock-step', 1_500, 0.1], ['journal-disk-full', 0], ['exchange-down-at-sigterm', 0]),
      }),
    ]);
    results.push(...runs);
    expect(runs.flatMap((run) => run.violations)).toEqual([]);
    const struck = new Set(runs.flatMap((run) => run.faults.filter((fault) => fault.struck).map((fault) => fault.kind)));
    for (const kind of ['partial-fill-cancel-race', 'ws-split-merge', 'cancel-all-fails', 'journal-disk-full', 'exchange-down-at-sigterm'] as const) expect(struck).toContain(kind);
    // The disk-full run started a second bot after the halt, and a third after the exchange came back.
    expect(runs[1]?.botProcesses).toBe(3);
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
