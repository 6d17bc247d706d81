/**
 * The benchmark runner as users run it (`npm run bench`, i.e. bench/run.ts in its own process):
 * a quick run of every real suite prints exactly the lines bench/README.md lists, each in the
 * line format; a suite that throws is named on stderr without stopping the others; --help and a
 * bad flag answer as documented. No figure is checked against a speed: only its shape.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures/bench');
/** The suites that read the recordings in ../shared/data, and skip (saying so) without them. */
const DATA_SUITES = new Set(['backtest', 'reference']);
const dataDir = [resolve(ROOT, '../shared/data'), resolve(ROOT, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** bench/run.ts in a child process, as `npm run bench -- ARGS` runs it (`tsx bench/run.ts`). */
function runBench(args: readonly string[]): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

interface DocumentedLine {
  readonly bench: string;
  readonly unit: string;
  readonly suite: string;
}

/** The rows of the table under "## Lines" in bench/README.md: `bench` | `unit` | suite | … */
function documentedLines(): DocumentedLine[] {
  const readme = readFileSync(join(ROOT, 'bench/README.md'), 'utf8');
  const section = /^## Lines\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('bench/README.md has no "## Lines" section');
  const rows: DocumentedLine[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const bench = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    const unit = /^`([^`]+)`$/.exec(cells[2] ?? '')?.[1];
    const suite = /^`([^`]+)`$/.exec(cells[3] ?? '')?.[1];
    if (bench !== undefined && unit !== undefined && suite !== undefined) rows.push({ bench, unit, suite });
  }
  return rows;
}

/** Each stdout line parsed, failing on anything that is not the line format. */
function parseLines(stdout: string): { bench: string; value: number; unit: string; baseline: number | null }[] {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((text) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(['bench', 'value', 'unit', 'baseline']);
    expect(typeof line.bench).toBe('string');
    expect(Number.isFinite(line.value)).toBe(true);
    expect(typeof line.unit).toBe('string');
    expect(line.baseline === null || Number.isFinite(line.baseline)).toBe(true);
    return line as { bench: string; value: number; unit: string; baseline: number | null };
  });
}

describe('npm run bench', () => {
  it('reads one table of every line from bench/README.md', () => {
    const rows = documentedLines();
    expect(rows.length).toBeGreaterThanOrEqual(28);
    expect(new Set(rows.map((row) => row.bench)).size).toBe(rows.length);
    expect(rows.map((row) => row.bench)).toContain('sim.place_order');
    expect(rows.map((row) => row.bench)).toContain('sign.order');
  });

  it(
    'in quick mode runs every suite to its end, exits 0 and prints exactly the lines bench/README.md lists, each with a finite value and its unit',
    async () => {
      const run = await runBench(['--json', '--quick']);
      expect(run.stderr).not.toMatch(/failed|did not load/);
      expect(run.code).toBe(0);
      const printed = parseLines(run.stdout);
      const expected = documentedLines().filter((row) => dataDir !== undefined || !DATA_SUITES.has(row.suite));
      expect(printed.map((line) => line.bench).sort()).toEqual(expected.map((row) => row.bench).sort());
      for (const row of expected) expect(printed.find((line) => line.bench === row.bench)?.unit, row.bench).toBe(row.unit);
      if (dataDir === undefined) for (const suite of DATA_SUITES) expect(run.stderr).toContain(`${suite} bench: ../shared/data not found`);
    },
    240_000,
  );

  it('names a suite that throws, or will not load, or returns a value that is not a number, on stderr with its error, still runs the others, and exits 1', async () => {
    const run = await runBench(['--json', '--dir', FIXTURES]);
    expect(run.code).toBe(1);
    // The suites before and after the broken ones printed; the broken ones printed nothing malformed.
    expect(parseLines(run.stdout)).toEqual([
      { bench: 'fixture.first', value: 1.23, unit: 'things/s', baseline: null },
      { bench: 'fixture.stray', value: 7, unit: 'ms', baseline: 8 },
      { bench: 'fixture.last', value: 2, unit: 'mode', baseline: null },
    ]);
    expect(run.stderr).toContain('bench suite throws (b-throws.bench.ts) failed: Error: fixture set-up failed on purpose');
    expect(run.stderr).toContain('bench suite not-a-number (b-throws.bench.ts) failed: fixture.nan: value NaN is not a finite number');
    expect(run.stderr).toContain('bench file c-does-not-load.bench.ts did not load: Error: fixture module failed to load on purpose');
    expect(run.stderr).toContain('bench suite stray (d-stray.bench.ts) failed: uncaught: Error: fixture stray rejection on purpose');
    expect(run.stderr).toContain('bench: 4 failed: throws, not-a-number, c-does-not-load.bench.ts, stray');
  });

  it('passes --quick to the suites and --filter picks suites by name', async () => {
    const run = await runBench(['--json', '--quick', '--dir', FIXTURES, '--filter', '^(first|last)$']);
    expect(run.code).toBe(1); // the file that does not load is reported whatever the filter
    expect(parseLines(run.stdout).map((line) => [line.bench, line.value])).toEqual([
      ['fixture.first', 1.23],
      ['fixture.last', 1],
    ]);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const run = await runBench(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm run bench -- \[--json\] \[--filter REGEX\] \[--quick\] \[--dir DIR\]/);
    expect(run.stderr).toBe('');
  });

  it('refuses an unknown flag by name, lists the valid ones and exits 2', async () => {
    const run = await runBench(['--jsn']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('bench: unknown option --jsn; valid options: --json, --filter REGEX, --quick, --dir DIR, --help');
  });

  it('refuses a filter that is not a regular expression, and one that matches no suite, naming it', async () => {
    const bad = await runBench(['--filter', '(']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bench: --filter: "(" is not a regular expression');
    const none = await runBench(['--json', '--filter', '^no-such-suite$']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/--filter \^no-such-suite\$ matched no suite; suites: .*\bsim\b/);
  });
});
