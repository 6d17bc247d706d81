/**
 * `npx tsx tools/tables/ablation.ts --data eth.data --out DIR [--rows FILE] [--venues thin,thin-ref,deep] [--strategies …] [--split 0.5] [--workers N]`:
 * the signals' ablation (issue 24, item 4; docs/strategies.md "Ablation: the signals out of
 * sample"). On the part of the recording before `--split` (a share of its time span): `akira-mm
 * fit` writes the alpha weights, and each row's tuned keys (ALPHA_MAX_BPS, TOXICITY_WIDEN_RATIO, …)
 * run as a sweep whose best PnL after fees per strategy is kept; on the part after it, each row
 * and strategy runs once with what the first part chose. Nothing of the second part chooses
 * anything. Every command is printed and written to DIR/commands.txt, every test run's summary to
 * DIR/test.jsonl; the markdown tables (tools/tables/sweep-table.ts) go to stdout.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { FIT_SCALE, chooseTuned, parseAblationRows, resolveOverlay, type AblationRow } from './ablation-plan.ts';
import { describeSpan, parseResultLines, renderTable, type ResultLine } from './sweep-table.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const USAGE = 'usage: npx tsx tools/tables/ablation.ts --data FILE --out DIR [--rows FILE] [--venues thin,thin-ref,deep] [--strategies ladder,avellaneda-stoikov,glft] [--split 0.5] [--workers N]';

/** The venues a row runs on, as backtest flags (`thin-ref`: the engine also reads the recording as REFERENCE). */
function venueFlags(venue: string, data: string): string[] {
  if (venue === 'thin') return ['--venue', 'thin'];
  if (venue === 'thin-ref') return ['--venue', 'thin', '--reference', data];
  if (venue === 'deep') return [];
  throw new Error(`--venues: ${venue} is not one of thin, thin-ref, deep`);
}

const VENUE_TITLES: Readonly<Record<string, string>> = {
  thin: "thin venue, its defaults (LayerAkira's fees: maker 2 bp, taker 10 bp); the engine reads the venue's own book",
  'thin-ref': 'thin venue, its defaults, and the engine reads the recording as REFERENCE (`--reference`): the signals read the deep book',
  deep: 'deep venue: the plain replay of the recording (maker fee 1 bp)',
};

const COLUMNS: Readonly<Record<string, string[]>> = {
  thin: ['thin-fills', 'pickoff', 'pnl', 'pnl-bps', 'before-fees-bps', 'markout-1s', 'verdict'],
  deep: ['fills', 'pnl', 'pnl-bps', 'before-fees-bps', 'markout-1s', 'verdict'],
};

interface Context {
  readonly out: string;
  readonly data: string;
  readonly baseEnv: string;
}

/** Runs `akira-mm ARGS` from the repository, logging the command as a user would type it. */
function akira(context: Context, args: readonly string[]): string {
  const line = `akira-mm ${args.map((arg) => (/^[\w./=,:@+-]+$/.test(arg) ? arg : `'${arg}'`)).join(' ')}`;
  appendFileSync(join(context.out, 'commands.txt'), `${line}\n`);
  process.stderr.write(`$ ${line}\n`);
  return execFileSync(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'src/cli.ts'), ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function sets(pairs: readonly (readonly [string, string])[]): string[] {
  return pairs.flatMap(([key, value]) => ['--set', `${key}=${value}`]);
}

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
}

function main(argv: readonly string[]): number {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      data: { type: 'string' },
      out: { type: 'string' },
      rows: { type: 'string', default: join(REPO, 'tools/tables/ablation-rows.txt') },
      venues: { type: 'string', default: 'thin,thin-ref,deep' },
      strategies: { type: 'string', default: 'ladder,avellaneda-stoikov,glft' },
      split: { type: 'string', default: '0.5' },
      workers: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true || values.data === undefined || values.out === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return values.help === true ? 0 : 2;
  }
  const split = values.split;
  if (!(Number(split) > 0 && Number(split) < 1)) throw new Error(`--split=${split}: a share of the recording's time span, > 0 and < 1`);
  const out = resolve(values.out);
  const data = resolve(values.data);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'commands.txt'), '');
  const rows = parseAblationRows(readFileSync(values.rows, 'utf8'), values.rows);
  const strategies = values.strategies.split(',');
  const venues = values.venues.split(',');
  venues.forEach((venue) => venueFlags(venue, data));
  // The base pair file: every key at its default (the strategy comes with --strategy or the sweep).
  const baseEnv = join(out, 'base.env');
  writeFileSync(baseEnv, 'BASE=ETH\nQUOTE=USDC\nSTRATEGY=ladder\n');
  const context: Context = { out, data, baseEnv };

  // The fit, on the first part only.
  const fitEnv = join(out, 'fit.env');
  writeFileSync(fitEnv, readFileSync(baseEnv, 'utf8'));
  akira(context, ['fit', '--data', data, '--train-share', split, '--env', fitEnv, '--write', '--json']);
  const fitted = Object.fromEntries(Object.entries(parseDotenv(readFileSync(fitEnv, 'utf8'))).filter(([key]) => key.startsWith('ALPHA_')));

  const results: ResultLine[] = [];
  const testFile = join(out, 'test.jsonl');
  writeFileSync(testFile, '');
  for (const venue of venues) {
    for (const row of rows) {
      const tuned = tune(context, venue, row, fitted, strategies, split, values.workers);
      for (const strategy of strategies) {
        const choice = tuned.get(strategy) ?? [];
        const scale = Number(choice.find(([key]) => key === FIT_SCALE)?.[1] ?? 1);
        const overlay = resolveOverlay(row, fitted, scale);
        const envChoice = choice.filter(([key]) => key !== FIT_SCALE);
        const stdout = akira(context, ['backtest', ...venueFlags(venue, data), '--data', data, '--env', baseEnv, '--from-share', split, '--strategy', strategy, ...sets(overlay), ...sets(envChoice), '--json']);
        const summary = lastJson(stdout);
        const line: ResultLine = {
          params: { venue, strategy, signals: row.name, tuned: choice.length === 0 ? '–' : choice.map(([key, value]) => `${key === FIT_SCALE ? 'fit ×' : `${key}=`}${value}`).join(' ') },
          overlay: overlay.map(([key, value]) => `${key}=${value}`).join(' '),
          ...summary,
        };
        results.push(line);
        appendFileSync(testFile, `${JSON.stringify(line)}\n`);
      }
    }
  }
  process.stdout.write(`${renderAblation(results, venues)}\n`);
  return 0;
}

/**
 * The row's tuned keys, chosen per strategy on the first part: a sweep of the env keys' grid for
 * each scale of the fitted weights (`@fit=k1,k2`; one sweep at scale 1 without); none for a row
 * without tuned keys.
 */
function tune(context: Context, venue: string, row: AblationRow, fitted: Readonly<Record<string, string>>, strategies: readonly string[], split: string, workers: string): Map<string, [string, string][]> {
  if (row.tune.length === 0) return new Map();
  const scales = row.tune.find(({ key }) => key === FIT_SCALE)?.values ?? ['1'];
  const envKeys = row.tune.filter(({ key }) => key !== FIT_SCALE);
  const lines: ResultLine[] = [];
  for (const [i, scale] of scales.entries()) {
    const jsonl = join(context.out, `tune-${venue}-${row.name}${scales.length > 1 ? `-fit${scale}` : ''}.jsonl`);
    akira(context, [
      'backtest',
      ...venueFlags(venue, context.data),
      '--data',
      context.data,
      '--env',
      context.baseEnv,
      '--to-share',
      split,
      ...sets(resolveOverlay(row, fitted, Number(scale))),
      '--sweep',
      `STRATEGY=${strategies.join(',')}`,
      ...envKeys.flatMap(({ key, values }) => ['--sweep', `${key}=${values.join(',')}`]),
      '--workers',
      workers,
      '--jsonl',
      jsonl,
    ]);
    // The scale's cells after the previous scale's, so a tie keeps the first scale given.
    for (const line of parseResultLines(readFileSync(jsonl, 'utf8'), jsonl)) {
      lines.push({ ...line, cell: i * 1_000_000 + Number(line['cell'] ?? 0), params: { ...line.params, ...(scales.length > 1 || row.tune.some(({ key }) => key === FIT_SCALE) ? { [FIT_SCALE]: scale } : {}) } });
    }
  }
  return chooseTuned(lines, strategies, row.tune.map(({ key }) => key));
}

/** One table per venue, each row against the no-signal row of its strategy. */
export function renderAblation(results: readonly ResultLine[], venues: readonly string[]): string {
  return venues
    .map((venue) => {
      const lines = results.filter((line) => line.params['venue'] === venue);
      const columns = COLUMNS[venue === 'deep' ? 'deep' : 'thin'] as string[];
      return [`**${VENUE_TITLES[venue] ?? venue}**, second half: ${describeSpan(lines)}.`, '', renderTable(lines, { params: ['strategy', 'signals', 'tuned'], columns, baseline: { param: 'signals', value: 'none', figures: ['pnl_quote', 'markout_1s_bps'] } })].join('\n');
    })
    .join('\n\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`tools/tables/ablation.ts: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    process.exitCode = 2;
  }
}
