/**
 * `npm run chaos -- --runs N --seed S [--json] [--parallel P] [--faults-per-run K] [--kinds a,b]
 * [--resume-within-ms T] [--verbose] [--dump DIR] [--max-minutes M] [--pairs 2]`: seeded chaos runs against the embedded exchange with the
 * bot as a real child process; prints a table and, with --json, one last JSON line.
 * --pairs 2: the bot quotes ETH/USDC and STRK/USDC of one account from one process (`run --env
 * A --env B`), invariants checked per pair and on the account (default 1: ETH/USDC alone).
 * --dump DIR writes every failed run's bot logs there (they hold no key: the secrets scan checks).
 * --max-minutes M starts no new run after M minutes (the report says how many ran).
 * --replay RUN_SEED plays the one run a campaign printed with that seed (its schedule is a pure
 * function of it; --kinds and --faults-per-run must match the campaign's).
 * Exit code 0 when no run broke an invariant, 1 otherwise, 2 on bad arguments.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFlags, type CommandHelp } from '../../src/cli/args.ts';
import { UsageError, runReportingUsage } from '../../src/cli/io.ts';
import { LiveClock } from '../../src/core/index.ts';
import { summarize, renderTable } from './report.ts';
import { MAX_CHAOS_PAIRS, runChaos, type RunResult } from './run.ts';
import { HEDGE_FAULT_KINDS } from './hedge-faults.ts';
import { FAULT_KINDS, drawSchedule, runSeed, type FaultKind } from './schedule.ts';

const USAGE = 'npm run chaos -- [--runs N] [--seed S] [--json] [--parallel P] [--faults-per-run K] [--kinds k1,k2] [--resume-within-ms T] [--verbose] [--dump DIR] [--max-minutes M] [--replay RUN_SEED] [--pairs 1|2] [--hedge]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'Seeded chaos runs against the embedded exchange with the bot as a real child process: each run injects faults (kills, restarts, drops, 5xx/429, resets…) and checks the invariants against the exchange. Prints a table and, with --json, one last JSON line. Exit 0 when no run broke an invariant, 1 when one did, 2 on bad arguments.',
};

const OPTIONS = {
  runs: { type: 'string', value: 'N', default: 3, doc: 'runs in the campaign' },
  seed: { type: 'string', value: 'S', default: 1, doc: "the campaign's seed: each run's seed and faults follow from it" },
  json: { type: 'boolean', doc: 'print the report as one last JSON line too' },
  parallel: { type: 'string', value: 'P', default: 1, doc: 'runs at a time' },
  'faults-per-run': { type: 'string', value: 'K', default: 3, doc: 'faults injected in each run' },
  kinds: { type: 'string', value: 'k1,k2', default: 'every kind', doc: `fault kinds to draw from: ${FAULT_KINDS.join(', ')}; with --hedge: ${HEDGE_FAULT_KINDS.join(', ')}` },
  'resume-within-ms': { type: 'string', value: 'T', unit: 'ms', default: 10_000, doc: 'the bot must quote again this soon after each fault ends' },
  verbose: { type: 'boolean', doc: "each run's progress on stderr" },
  dump: { type: 'string', value: 'DIR', default: 'none', doc: "write every failed run's bot logs here (they hold no key)" },
  'max-minutes': { type: 'string', value: 'M', unit: 'min', default: '0 (no limit)', doc: 'start no new run after this long (the report says how many ran)' },
  replay: { type: 'string', value: 'RUN_SEED', default: 'none', doc: 'play the one run a campaign printed with this seed (--kinds and --faults-per-run must match the campaign\'s)' },
  pairs: { type: 'string', value: '1|2', default: '1 (ETH/USDC alone)', doc: 'with 2 the bot quotes ETH/USDC and STRK/USDC of one account from one process; invariants per pair and on the account' },
  hedge: { type: 'boolean', doc: 'hedge fault campaigns (reject, expire, delay, disconnect, balance short, unknown outcome) on the whole loop, invariants checked against both venues' },
} as const;

function integer(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${text}"\nusage: ${USAGE}`);
  return value;
}

async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.hedge === true) {
    const { runHedgeCampaign } = await import('./hedge-campaign.ts');
    return runHedgeCampaign({
      runs: integer('runs', values.runs, 3, 1),
      seed: integer('seed', values.seed, 1, 0),
      faultsPerRun: integer('faults-per-run', values['faults-per-run'], 3, 1),
      kinds: values.kinds?.split(',').map((kind) => kind.trim()),
      json: values.json === true,
      verbose: values.verbose === true,
    });
  }
  const runs = values.replay === undefined ? integer('runs', values.runs, 3, 1) : 1;
  const seed = integer('seed', values.seed, 1, 0);
  const parallel = integer('parallel', values.parallel, 1, 1);
  const faultsPerRun = integer('faults-per-run', values['faults-per-run'], 3, 1);
  const resumeWithinMs = integer('resume-within-ms', values['resume-within-ms'], 10_000, 1);
  const kinds = values.kinds?.split(',').map((kind) => kind.trim()) as FaultKind[] | undefined;
  const unknown = kinds?.filter((kind) => !FAULT_KINDS.includes(kind));
  if (unknown !== undefined && unknown.length > 0) throw new UsageError(`unknown fault kind(s) ${unknown.join(', ')}; known: ${FAULT_KINDS.join(', ')}`);
  const maxMinutes = integer('max-minutes', values['max-minutes'], 0, 0);
  const replay = values.replay === undefined ? undefined : integer('replay', values.replay, 0, 0);
  const pairs = integer('pairs', values.pairs, 1, 1);
  if (pairs > MAX_CHAOS_PAIRS) throw new UsageError(`--pairs must be at most ${MAX_CHAOS_PAIRS} (ETH/USDC and STRK/USDC on one account), got ${pairs}\nusage: ${USAGE}`);
  const clock = new LiveClock();
  const startedMs = clock.nowMs();
  const results: RunResult[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs && (maxMinutes === 0 || clock.nowMs() - startedMs < maxMinutes * 60_000)) {
      const index = next++;
      const seedOfRun = replay ?? runSeed(seed, index);
      const schedule = drawSchedule(seedOfRun, { faultsPerRun, ...(kinds === undefined ? {} : { kinds }) });
      const result = await runChaos({
        seed: seedOfRun,
        schedule,
        resumeWithinMs,
        clock,
        pairs,
        ...(values.verbose === true ? { log: (line: string) => process.stderr.write(`[run ${index + 1} seed ${seedOfRun}] ${line}\n`) } : {}),
      });
      results.push(result);
      if (values.dump !== undefined && result.violations.length > 0) {
        mkdirSync(values.dump, { recursive: true });
        writeFileSync(join(values.dump, `run-${seedOfRun}.log`), [JSON.stringify(schedule), ...result.lines].join('\n') + '\n');
      }
      process.stderr.write(
        `run ${index + 1}/${runs} seed ${seedOfRun}: ${result.faults.map((fault) => (fault.targetPairs === undefined ? fault.kind : `${fault.kind} (${fault.targetPairs.join(' + ')})`)).join(', ')} → ` +
          `${result.violations.length === 0 ? 'ok' : result.violations.map((violation) => `${violation.invariant}: ${violation.detail}`).join('; ')} (${Math.round(result.wallMs / 1000)} s)\n`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, runs) }, () => worker()));
  const report = summarize(replay ?? seed, results, clock.nowMs() - startedMs);
  process.stdout.write(`${renderTable(report)}\n`);
  if (values.json === true) process.stdout.write(`${JSON.stringify(report)}\n`);
  return report.violations === 0 ? 0 : 1;
}

runReportingUsage('chaos', process, () => main(process.argv.slice(2))).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
