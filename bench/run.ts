/**
 * `npm run bench [-- --json] [-- --filter REGEX] [-- --quick]`: runs every suite found in
 * `bench/**\/*.bench.ts` (or `--dir DIR`), each to its end. With --json, stdout holds one JSON
 * line per figure and nothing else. A suite that throws (or will not load, or returns a malformed
 * figure) is named on stderr with its error; the others still run, and the exit code is 1.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchContext, round3, type BenchResult, type BenchSuite } from './harness.ts';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

const USAGE = `Usage: npm run bench -- [--json] [--filter REGEX] [--quick] [--dir DIR]

Runs every benchmark suite (bench/**/*.bench.ts) to its end and prints its figures.

Options:
  --json           one line per figure on stdout and nothing else:
                   {"bench": NAME, "value": NUMBER, "unit": STRING, "baseline": NUMBER|null}
  --filter REGEX   run only the suites whose name matches (e.g. '^sim$', 'signer')
  --quick          tiny counts and durations: checks that every suite runs and prints its
                   lines (npm test does this), figures not worth quoting
  --dir DIR        load the suites from DIR instead of bench/
  -h, --help       print this help and exit

Exit status: 0 when every suite ran, 1 when a suite failed (named on stderr; the others still
run), 2 for a usage error. The lines and the latest figures: bench/README.md.
`;

const OPTIONS = {
  json: { type: 'boolean' },
  filter: { type: 'string' },
  quick: { type: 'boolean' },
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const VALID_FLAGS = '--json, --filter REGEX, --quick, --dir DIR, --help';

/** What the command line asked for. */
interface RunOptions {
  readonly json: boolean;
  readonly quick: boolean;
  readonly filter: RegExp | undefined;
  readonly dir: string;
}

type Parsed = { readonly kind: 'run'; readonly options: RunOptions } | { readonly kind: 'help' } | { readonly kind: 'usage-error'; readonly message: string };

/** Reads the arguments after `npm run bench --`; a bad one comes back as a message naming it. */
function parseCommandLine(args: readonly string[]): Parsed {
  let values: { json?: boolean; filter?: string; quick?: boolean; dir?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { kind: 'usage-error', message: usageMessage(error) };
  }
  if (values.help === true) return { kind: 'help' };
  let filter: RegExp | undefined;
  if (values.filter !== undefined) {
    try {
      filter = new RegExp(values.filter);
    } catch (error) {
      return { kind: 'usage-error', message: `--filter: ${JSON.stringify(values.filter)} is not a regular expression (${(error as Error).message})` };
    }
  }
  const dir = values.dir === undefined ? BENCH_DIR : resolve(values.dir);
  if (values.dir !== undefined && !(existsSync(dir) && statSync(dir).isDirectory())) {
    return { kind: 'usage-error', message: `--dir: ${JSON.stringify(values.dir)} is not a directory` };
  }
  return { kind: 'run', options: { json: values.json === true, quick: values.quick === true, filter, dir } };
}

/** parseArgs' errors, reworded to name the argument and what is allowed. */
function usageMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = (error as Error).message;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? message}; valid options: ${VALID_FLAGS}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${JSON.stringify(quoted ?? message)}: bench takes no positional arguments; valid options: ${VALID_FLAGS}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /--[a-z-]+/.exec(message)?.[0] ?? message;
      const takesValue = flag === '--filter' || flag === '--dir';
      return `${flag} ${takesValue ? 'needs a value' : 'takes no value'}; valid options: ${VALID_FLAGS}`;
    }
    default:
      return `${message}; valid options: ${VALID_FLAGS}`;
  }
}

function findBenchFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findBenchFiles(path));
    else if (entry.name.endsWith('.bench.ts')) found.push(path);
  }
  return found.sort();
}

/** A suite and where it came from, or a file that would not load (reported like a failed suite). */
type Loaded = { readonly suite: BenchSuite; readonly file: string } | { readonly file: string; readonly loadError: unknown };

async function loadSuites(dir: string): Promise<Loaded[]> {
  const loaded: Loaded[] = [];
  for (const path of findBenchFiles(dir)) {
    const file = relative(dir, path);
    try {
      const module = (await import(pathToFileURL(path).href)) as { benches?: unknown };
      if (!Array.isArray(module.benches)) throw new Error('exports no `benches` list');
      for (const suite of module.benches as BenchSuite[]) loaded.push({ suite, file });
    } catch (error) {
      loaded.push({ file, loadError: error });
    }
  }
  return loaded;
}

/** The line as printed, or why it breaks the line format. */
function checkedLine(result: BenchResult): BenchResult | string {
  const { bench, value, unit, baseline } = result as Partial<BenchResult>;
  if (typeof bench !== 'string' || bench === '') return `a figure has no bench name (${JSON.stringify(result)})`;
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${bench}: value ${String(value)} is not a finite number`;
  if (typeof unit !== 'string' || unit === '') return `${bench}: unit ${JSON.stringify(unit)} is not a non-empty string`;
  if (baseline !== null && (typeof baseline !== 'number' || !Number.isFinite(baseline))) return `${bench}: baseline ${String(baseline)} is neither a finite number nor null`;
  return { bench, value: round3(value), unit, baseline: baseline === null ? null : round3(baseline) };
}

function printLine(line: BenchResult, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(line) + '\n');
    return;
  }
  const vs = line.baseline === null ? '' : `  (baseline ${line.baseline}, ×${round3(line.value / line.baseline)})`;
  process.stdout.write(`${line.bench.padEnd(28)} ${String(line.value).padStart(12)} ${line.unit}${vs}\n`);
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/**
 * Runs the suites in turn, each to its end, and returns the exit code: 0 when all ran, 1 when
 * any failed, 2 when the filter matched none.
 */
async function runBenchmarks(options: RunOptions): Promise<number> {
  const loaded = await loadSuites(options.dir);
  const context = benchContext(options.quick);
  const failed: string[] = [];
  const fail = (name: string, file: string, why: string): void => {
    failed.push(name);
    process.stderr.write(`bench suite ${name} (${file}) failed: ${why}\n`);
  };
  const failToLoad = (file: string, error: unknown): void => {
    failed.push(file);
    process.stderr.write(`bench file ${file} did not load: ${describeError(error)}\n`);
  };
  // A stray rejection or throw from a suite's timers must not end the run: it is that suite's failure.
  let running: { name: string; file: string } | undefined;
  const stray = (error: unknown): void => fail(running?.name ?? '(between suites)', running?.file ?? '-', `uncaught: ${describeError(error)}`);
  process.on('unhandledRejection', stray);
  process.on('uncaughtException', stray);

  let matched = 0;
  for (const entry of loaded) {
    if (!('suite' in entry)) {
      failToLoad(entry.file, entry.loadError);
      continue;
    }
    const { suite, file } = entry;
    if (options.filter !== undefined && !options.filter.test(suite.name)) continue;
    matched++;
    if (!options.json) process.stderr.write(`running ${suite.name} (${file})…\n`);
    running = { name: suite.name, file };
    const started = performance.now();
    try {
      const results = await suite.run(context);
      const lines = results.map(checkedLine);
      const broken = lines.filter((line): line is string => typeof line === 'string');
      // Only well-formed figures reach stdout: a script parsing it must never meet a null value.
      for (const line of lines) if (typeof line !== 'string') printLine(line, options.json);
      if (broken.length > 0) fail(suite.name, file, broken.join('; '));
    } catch (error) {
      fail(suite.name, file, describeError(error));
    }
    if (!options.json) process.stderr.write(`${suite.name}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    running = undefined;
  }
  process.off('unhandledRejection', stray);
  process.off('uncaughtException', stray);

  if (matched === 0 && options.filter !== undefined) {
    const names = loaded.flatMap((entry) => ('suite' in entry ? [entry.suite.name] : []));
    process.stderr.write(`bench: --filter ${options.filter.source} matched no suite; suites: ${names.join(', ')}\n`);
    return failed.length > 0 ? 1 : 2;
  }
  if (failed.length > 0) {
    const names = [...new Set(failed)];
    process.stderr.write(`bench: ${names.length} failed: ${names.join(', ')}\n`);
    return 1;
  }
  return 0;
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    process.stderr.write(`bench: ${parsed.message}\nRun \`npm run bench -- --help\` for usage.\n`);
    return 2;
  }
  return runBenchmarks(parsed.options);
}

const code = await main();
// Worker pools or sockets left by a suite must not keep the runner alive.
process.exit(code);
