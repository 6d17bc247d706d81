/**
 * `npm run chaos -- --hedge`: a campaign of hedge chaos runs (`hedge-run.ts`), one after the
 * other (each is a whole loop of exchange, hedge venue and bot), with a table and, with --json, a
 * last JSON line: runs, faults, violations (contract keys), faults by kind, violations by
 * invariant, fills, hedges, failed seeds. Exit code 0 when no run broke an invariant.
 */
import { LiveClock } from '../../src/core/index.ts';
import { HEDGE_FAULT_KINDS, drawHedgeSchedule, type HedgeFaultKind } from './hedge-faults.ts';
import { HEDGE_INVARIANTS, runHedgeChaos, type HedgeInvariant, type HedgeRunResult } from './hedge-run.ts';
import { runSeed } from './schedule.ts';

/** A campaign's settings. */
export interface HedgeCampaignOptions {
  readonly runs: number;
  readonly seed: number;
  readonly faultsPerRun: number;
  readonly kinds: readonly string[] | undefined;
  readonly json: boolean;
  readonly verbose: boolean;
}

/** The campaign's report. */
export interface HedgeChaosReport {
  readonly runs: number;
  readonly faults: number;
  readonly violations: number;
  readonly seed: number;
  readonly faultsByKind: Record<HedgeFaultKind, number>;
  readonly violationsByInvariant: Record<HedgeInvariant, number>;
  readonly fills: number;
  readonly hedges: number;
  readonly hedgesFailed: number;
  readonly maxAbsNetBase: number;
  readonly failedSeeds: readonly number[];
  readonly wallS: number;
}

/** Aggregates runs. */
export function summarizeHedgeRuns(seed: number, results: readonly HedgeRunResult[], wallMs: number): HedgeChaosReport {
  const faultsByKind = Object.fromEntries(HEDGE_FAULT_KINDS.map((kind) => [kind, 0])) as Record<HedgeFaultKind, number>;
  const violationsByInvariant = Object.fromEntries(HEDGE_INVARIANTS.map((name) => [name, 0])) as Record<HedgeInvariant, number>;
  for (const result of results) {
    for (const kind of result.faults) faultsByKind[kind]++;
    for (const violation of result.violations) violationsByInvariant[violation.invariant]++;
  }
  return {
    runs: results.length,
    faults: results.reduce((sum, result) => sum + result.faults.length, 0),
    violations: results.reduce((sum, result) => sum + result.violations.length, 0),
    seed,
    faultsByKind,
    violationsByInvariant,
    fills: results.reduce((sum, result) => sum + result.fills, 0),
    hedges: results.reduce((sum, result) => sum + result.hedges, 0),
    hedgesFailed: results.reduce((sum, result) => sum + result.hedgesFailed, 0),
    maxAbsNetBase: results.reduce((worst, result) => Math.max(worst, result.maxAbsNetBase), 0),
    failedSeeds: results.filter((result) => result.violations.length > 0).map((result) => result.seed),
    wallS: Math.round(wallMs / 1000),
  };
}

/** Runs the campaign; returns the exit code. */
export async function runHedgeCampaign(options: HedgeCampaignOptions): Promise<number> {
  const kinds = options.kinds as HedgeFaultKind[] | undefined;
  const unknown = kinds?.filter((kind) => !(HEDGE_FAULT_KINDS as readonly string[]).includes(kind));
  if (unknown !== undefined && unknown.length > 0) throw new Error(`unknown hedge fault kind(s) ${unknown.join(', ')}; known: ${HEDGE_FAULT_KINDS.join(', ')}`);
  const clock = new LiveClock();
  const startedMs = clock.nowMs();
  const results: HedgeRunResult[] = [];
  for (let index = 0; index < options.runs; index++) {
    const seed = runSeed(options.seed, index);
    const schedule = drawHedgeSchedule(seed, options.faultsPerRun, kinds ?? HEDGE_FAULT_KINDS);
    const result = await runHedgeChaos({ seed, schedule, clock, ...(options.verbose ? { log: (line: string) => process.stderr.write(`[hedge run ${index + 1} seed ${seed}] ${line}\n`) } : {}) });
    results.push(result);
    process.stderr.write(
      `hedge run ${index + 1}/${options.runs} seed ${seed}: ${result.faults.join(', ')} → ${result.violations.length === 0 ? 'ok' : result.violations.map((v) => `${v.invariant}: ${v.detail}`).join('; ')} ` +
        `(${result.fills} fills, ${result.hedges} hedges, ${Math.round(result.wallMs / 1000)} s)\n`,
    );
  }
  const report = summarizeHedgeRuns(options.seed, results, clock.nowMs() - startedMs);
  const rows = [
    ['runs', String(report.runs)],
    ['faults', `${report.faults} (${Object.entries(report.faultsByKind).filter(([, n]) => n > 0).map(([kind, n]) => `${kind} ${n}`).join(', ')})`],
    ['fills / hedges', `${report.fills} / ${report.hedges} (${report.hedgesFailed} failed and retried)`],
    ['max |net position|', `${report.maxAbsNetBase.toFixed(6)} base`],
    ['violations', `${report.violations}${report.violations === 0 ? '' : ` (${Object.entries(report.violationsByInvariant).filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n}`).join(', ')}; seeds ${report.failedSeeds.join(', ')})`}`],
  ];
  process.stdout.write(`${rows.map(([label, value]) => `${(label as string).padEnd(20)}${value}`).join('\n')}\n`);
  if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  return report.violations === 0 ? 0 : 1;
}
