/**
 * Aggregates chaos runs into the table and the one-line JSON report of `npm run chaos`.
 */
import { FAULT_KINDS, type FaultKind } from './schedule.ts';
import { INVARIANTS, findSecret, findText, type InvariantName } from './invariants.ts';
import type { RunResult } from './run.ts';

/** The JSON report; `runs`, `faults` and `violations` are the contract keys. */
export interface ChaosReport {
  readonly runs: number;
  readonly faults: number;
  readonly violations: number;
  readonly seed: number;
  /** Pairs each run quoted on its one account (`--pairs`). */
  readonly pairs: number;
  readonly faultsByKind: Record<FaultKind, number>;
  /** Faults whose window caught something to act on (a placement failed, a cancel raced a fill…), by kind. */
  readonly faultsStruckByKind: Record<FaultKind, number>;
  readonly violationsByInvariant: Record<InvariantName, number>;
  readonly botProcesses: number;
  readonly ordersOnExchange: number;
  readonly filledOrders: number;
  /** Requests of ours the venue's own rate limit refused (429), over every run. */
  readonly rateLimited: number;
  /** Fault end → both sides quoted again, over every fault that resumed (ms). */
  readonly resumeMs: Percentiles | undefined;
  /** Dead-man: the bot's stale-feed pause → the exchange's timestamp of our last cancel (ms). */
  readonly deadManLatencyMs: Percentiles | undefined;
  /** Market data stopped → the bot paused (ms; STALE_FEED_MS plus the check interval). */
  readonly staleDetectedAfterMs: Percentiles | undefined;
  /** Lines of bot logs and harness output scanned for the private key, and hits (must be 0). */
  readonly secretScan: { readonly lines: number; readonly hits: number };
  readonly failedSeeds: readonly number[];
  readonly wallS: number;
}

export interface Percentiles {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly max: number;
}

function percentiles(values: readonly number[]): Percentiles | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] ?? 0 };
}

/** Builds the report of a campaign. */
export function summarize(seed: number, results: readonly RunResult[], wallMs: number): ChaosReport {
  const faultsByKind = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  const faultsStruckByKind = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  const violationsByInvariant = Object.fromEntries(INVARIANTS.map((name) => [name, 0])) as Record<InvariantName, number>;
  const resume: number[] = [];
  const deadMan: number[] = [];
  const staleDetected: number[] = [];
  let lines = 0;
  let hits = 0;
  for (const result of results) {
    for (const fault of result.faults) {
      faultsByKind[fault.kind]++;
      if (fault.struck) faultsStruckByKind[fault.kind]++;
      if (fault.resumedAfterMs !== undefined) resume.push(fault.resumedAfterMs);
      if (fault.deadManLatencyMs !== undefined) deadMan.push(fault.deadManLatencyMs);
      if (fault.staleDetectedAfterMs !== undefined) staleDetected.push(fault.staleDetectedAfterMs);
    }
    for (const violation of result.violations) violationsByInvariant[violation.invariant]++;
    lines += result.lines.length;
    hits += findSecret(result.lines, result.privateKey).length + findText(result.lines, result.keystorePassword).length;
  }
  return {
    runs: results.length,
    faults: results.reduce((sum, result) => sum + result.faults.length, 0),
    violations: results.reduce((sum, result) => sum + result.violations.length, 0) + hits,
    seed,
    pairs: Math.max(1, ...results.map((result) => result.pairs)),
    faultsByKind,
    faultsStruckByKind,
    violationsByInvariant,
    botProcesses: results.reduce((sum, result) => sum + result.botProcesses, 0),
    ordersOnExchange: results.reduce((sum, result) => sum + result.ordersOnExchange, 0),
    filledOrders: results.reduce((sum, result) => sum + result.filledOrders, 0),
    rateLimited: results.reduce((sum, result) => sum + result.rateLimited, 0),
    resumeMs: percentiles(resume),
    deadManLatencyMs: percentiles(deadMan),
    staleDetectedAfterMs: percentiles(staleDetected),
    secretScan: { lines, hits },
    failedSeeds: results.filter((result) => result.violations.length > 0).map((result) => result.seed),
    wallS: Math.round(wallMs / 100) / 10,
  };
}

/** The human table. */
export function renderTable(report: ChaosReport): string {
  const rows: [string, string][] = [
    ['runs', String(report.runs)],
    ['pairs on the account', String(report.pairs)],
    ['bot processes', String(report.botProcesses)],
    ['orders on the exchange / filled', `${report.ordersOnExchange} / ${report.filledOrders}`],
    ['faults', String(report.faults)],
    ...FAULT_KINDS.map((kind): [string, string] => [`  ${kind}`, `${report.faultsByKind[kind]} (struck ${report.faultsStruckByKind[kind]})`]),
    ['429s from the venue\'s own rate limit', String(report.rateLimited)],
    ['violations', String(report.violations)],
    ...INVARIANTS.map((name): [string, string] => [`  ${name}`, String(report.violationsByInvariant[name])]),
    ['  private key or keystore password in logs (lines scanned)', `${report.secretScan.hits} (${report.secretScan.lines})`],
    ['quoting resumed after fault (ms)', formatPercentiles(report.resumeMs)],
    ['dead-man: feed quiet → bot paused (ms)', formatPercentiles(report.staleDetectedAfterMs)],
    ['dead-man: paused → last cancel (ms)', formatPercentiles(report.deadManLatencyMs)],
    ['failed run seeds', report.failedSeeds.length === 0 ? '-' : report.failedSeeds.join(' ')],
    ['wall time (s)', String(report.wallS)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

function formatPercentiles(value: Percentiles | undefined): string {
  return value === undefined ? '-' : `p50 ${value.p50} · p90 ${value.p90} · max ${value.max} (n=${value.n})`;
}
