/**
 * `akira-mm walkforward` on short excerpts of the ETHUSDT recording: the collector file cut into
 * two files that continue one another (the second without a snapshot of its own, as a held-out
 * day's file), 62 s each; the bootstrap's blocks are 1 s so even a 40 s span has the blocks an
 * interval needs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeLines } from '../backtest/data/fixtures.ts';
import { runCli, runCliProcess } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

type Json = Record<string, unknown>;

function lastJson(stdout: string): Json {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Json;
}

/** Lines `from` to `to` (1-based, inclusive) of a collector file. */
function collectorLines(name: string, from: number, to: number): string[] {
  return gunzipSync(readFileSync(join(dataDir as string, 'binance-spot-hftbacktest', name))).toString('utf8').split('\n').slice(from - 1, to);
}

describe.skipIf(dataDir === undefined)('akira-mm walkforward on ETHUSDT excerpts', () => {
  const dir = tempDir('cli-walkforward');
  const train = join(dir, 'ethusdt_a.gz');
  const test = join(dir, 'ethusdt_b.gz');
  const btc = join(dir, 'btcusdt_a.gz');
  const stream = join(dir, 'eth.data');
  const ladder = join(dir, 'ladder.env');
  const glft = join(dir, 'glft.env');
  const short = ['--bootstrap-block-ms', '1000', '--bootstrap-samples', '200'];

  beforeAll(async () => {
    writeLines(dir, 'ethusdt_a.gz', collectorLines('ethusdt_20240808.gz', 1, 6_000));
    writeLines(dir, 'ethusdt_b.gz', collectorLines('ethusdt_20240808.gz', 6_001, 12_000));
    writeLines(dir, 'btcusdt_a.gz', collectorLines('btcusdt_20240809.gz', 1, 2_000));
    writeLines(dir, 'ladder.env', ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_ORDER_NOTIONAL=20']);
    writeLines(dir, 'glft.env', ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=glft', 'GLFT_ORDER_NOTIONAL=20']);
    const { code } = await runCli(['data', 'import', '--format', 'binance', train, test, '--out', stream]);
    expect(code).toBe(0);
  });

  it('tunes two strategies on the training file, freezes each choice and prints the held-out table of the file after it', async () => {
    const jsonl = join(dir, 'runs.jsonl');
    const report = join(dir, 'walkforward.html');
    const { code, stdout, stderr } = await runCliProcess([
      'walkforward', '--train', train, '--test', test,
      '--sweep', 'LADDER_BID_SPREAD_BPS=1,3', '--env', ladder,
      '--sweep', 'GLFT_ADJ1=1,2', '--env', glft,
      '--min-fills', '1', '--also', 'maker-pbips=0', '--also', 'latency-ms=100', ...short, '--workers', '2',
      '--json', '--jsonl', jsonl, '--report', report,
    ]);
    expect(stderr).not.toMatch(/Error|error:/);
    expect(code).toBe(0);
    expect(stdout).toContain('akira-mm walkforward: ladder, glft on ETHUSDT as ETH/USDT');
    expect(stdout).toMatch(/held out: the test span \(1 min \d+ s\) at the settings the training span froze/);
    for (const row of ['ladder +frozen', 'ladder +maker-pbips=0', 'ladder +latency-ms=100', 'glft +frozen', 'glft +maker-pbips=0']) expect(stdout).toMatch(new RegExp(`\\n${row} +\\d+ +[\\d,.]+ +−?[\\d.]+ \\[`));

    const result = lastJson(stdout)['walkforward'] as Json;
    expect(result['mode']).toBe('split');
    const [window] = result['windows'] as Json[];
    const spans = window as { train: { from_ms: number; to_ms: number }; test: { from_ms: number; to_ms: number }; strategies: Json[] };
    // The spans meet at the test file's first event and share none.
    expect(spans.train.to_ms).toBe(spans.test.from_ms - 0.001);

    // Each strategy froze the training cell with the best PnL among those that traded (--min-fills 1), as its training lines show.
    const lines = readFileSync(jsonl, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
    for (const strategy of spans.strategies) {
      const cells = lines.filter((line) => line['span'] === 'train' && line['strategy'] === strategy['strategy']);
      expect(cells).toHaveLength(2);
      const best = cells.filter((line) => (line['fills'] as number) >= 1).sort((a, b) => (b['pnl_quote'] as number) - (a['pnl_quote'] as number) || (a['cell'] as number) - (b['cell'] as number))[0] as Json;
      expect((strategy['chosen'] as Json)['params']).toEqual(best['params']);
      expect(cells.filter((line) => line['chosen'] === true)).toEqual([best]);
      // The test runs start inside the test span; a training run ends before it.
      const tests = strategy['test'] as Json[];
      expect(tests[0]?.['row']).toBe('frozen');
      for (const run of tests) expect(run['start_ms']).toBeGreaterThanOrEqual(spans.test.from_ms);
      expect((strategy['train'] as Json)['end_ms']).toBeLessThan(spans.test.from_ms);
    }
    const outOfSample = result['out_of_sample'] as Json[];
    const ladderTests = (spans.strategies[0] as Json)['test'] as Json[];
    expect(outOfSample.filter((row) => row['strategy'] === 'ladder').map((row) => row['row'])).toEqual(ladderTests.map((run) => run['row']));
    // Every held-out row carries its notional and its intervals.
    for (const row of outOfSample) {
      expect(row['volume_quote']).toBeGreaterThan(0);
      expect(row['pnl_quote_ci95']).toHaveLength(2);
      // A ratio's interval is null where too few fills were drawn (docs/strategies.md, "Error bars").
      for (const key of ['pnl_per_notional_bps_ci95', 'markout_1s_bps_ci95', 'markout_10s_bps_ci95', 'markout_60s_bps_ci95']) expect(row).toHaveProperty(key);
    }
    expect(outOfSample[0]).toMatchObject({ fills: ladderTests[0]?.['fills'], pnl_quote: ladderTests[0]?.['pnl_quote'], pnl_quote_ci95: ladderTests[0]?.['pnl_quote_ci95'] });

    // The frozen ladder's test run is the plain backtest of the joined stream over the test span.
    const chosen = ((spans.strategies[0] as Json)['chosen'] as Json)['params'] as Record<string, string>;
    const iso = (ms: number): string => new Date(ms).toISOString();
    const plain = await runCli(['backtest', '--data', stream, '--env', ladder, '--set', `LADDER_BID_SPREAD_BPS=${chosen['LADDER_BID_SPREAD_BPS'] ?? ''}`, '--from-time', iso(spans.test.from_ms), '--to-time', iso(spans.test.to_ms), ...short, '--json']);
    expect(plain.code).toBe(0);
    const { events_per_sec: _speed, ...backtest } = lastJson(plain.stdout);
    const { row: _row, params: _params, ...frozen } = ladderTests[0] as Json;
    expect(frozen).toEqual(backtest);

    const html = readFileSync(report, 'utf8');
    for (const text of ['held out: the test span', 'Settings frozen on each training span', 'Training grids', 'ladder, window 1', 'glft, window 1', 'GLFT_ADJ1']) expect(html).toContain(text);
  }, 240_000);

  it('walks forward over one recording: per-window spans, each tuned on the one before, the test spans joined; the same with one worker or two', async () => {
    const args = ['walkforward', '--data', stream, '--windows', '2', '--sweep', 'LADDER_BID_SPREAD_BPS=1,3', '--env', ladder, '--min-fills', '1', '--also', 'none', ...short, '--json'];
    const [one, two] = [await runCli([...args, '--workers', '1']), await runCli([...args, '--workers', '2'])];
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(two.stdout);
    expect(one.stdout).toMatch(/out of sample: the 2 test spans joined/);
    const result = lastJson(one.stdout)['walkforward'] as Json;
    expect(result['mode']).toBe('rolling');
    const windows = result['windows'] as { train: { from_ms: number }; test: { from_ms: number; to_ms: number }; strategies: Json[] }[];
    expect(windows).toHaveLength(2);
    // The second window tunes on the first one's test span.
    expect(windows[1]?.train.from_ms).toBe(windows[0]?.test.from_ms);
    const tests = windows.map((window) => ((window.strategies[0] as Json)['test'] as Json[])[0] as Json);
    const [joined] = result['out_of_sample'] as Json[];
    expect(joined).toMatchObject({ strategy: 'ladder', row: 'frozen', spans: 2, fills: (tests[0]?.['fills'] as number) + (tests[1]?.['fills'] as number) });
    expect(joined?.['pnl_quote']).toBeCloseTo((tests[0]?.['pnl_quote'] as number) + (tests[1]?.['pnl_quote'] as number), 8);
  }, 240_000);

  it('fits the alpha weights on the training span alone and freezes them with the cell the grid chose', async () => {
    const fitEnv = join(dir, 'glft-alpha.env');
    writeLines(dir, 'glft-alpha.env', ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=glft', 'GLFT_ORDER_NOTIONAL=20', 'ALPHA_MAX_BPS=4']);
    const { code, stdout } = await runCli(['walkforward', '--train', train, '--test', test, '--fit', '--sweep', 'fit-scale=0,4', '--env', fitEnv, '--min-fills', '1', '--also', 'none', ...short, '--workers', '1', '--json']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/window 1, glft: alpha weights fitted on \d+ training samples, R² [\d.-]+; on the test span's \d+ samples [\d.-]+ \(reported, not used\)/);
    const [window] = ((lastJson(stdout)['walkforward'] as Json)['windows'] as Json[]) as [Json];
    const [strategy] = window['strategies'] as [Json];
    const chosen = strategy['chosen'] as { params: Record<string, string>; fit: { weights_bps: Record<string, number>; samples: { train: number; test: number } } };
    expect(Object.keys(chosen.fit.weights_bps)).toEqual(['ALPHA_OBI_BPS', 'ALPHA_OFI_BPS', 'ALPHA_TRADE_FLOW_BPS']);
    expect(chosen.fit.samples.train).toBeGreaterThan(100);
    expect(chosen.fit.samples.test).toBeGreaterThan(100);
    // The frozen settings name the chosen scale and the weights it multiplies.
    expect(stdout).toMatch(new RegExp(`frozen: fit-scale=${chosen.params['fit-scale'] ?? ''}; fitted ALPHA_OBI_BPS=`));
  }, 120_000);

  it('refuses spans that cannot make a walk-forward, each with a clear error', async () => {
    const cases: [string[], RegExp][] = [
      [['--train', train, '--test', train], /is given to both --train and --test/],
      [['--train', test, '--test', train], /starts before the previous file ended: give the files in time order/],
      [['--train', train, '--test', btc], /--test .*btcusdt_a.gz: adds no event to the stream of --train \(ETHUSDT\); the import skipped .*2000 × other symbol than ETHUSDT/],
      [['--data', stream, '--windows', '200'], /too short for 201 parts of at least a second each/],
      [['--data', stream, '--windows', '2', '--train', train], /--windows walks over --data/],
      [['--train', train, '--test', test, '--expanding'], /--expanding goes with --windows N/],
      [['--train', train, '--test', test, '--objective', 'pnl'], /--objective pnl is not a figure/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(['walkforward', ...args, '--env', ladder]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(message);
    }
  }, 120_000);

  it('refuses a sweep key its strategy does not read, and recordings of two markets', async () => {
    const unread = await runCli(['walkforward', '--train', train, '--test', test, '--sweep', 'GLFT_ADJ1=1,2', '--env', ladder]);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toMatch(/--sweep GLFT_ADJ1: a key of glft, and .*ladder.env runs STRATEGY=ladder, which does not read it/);
    const btcData = join(dir, 'btc.data');
    expect((await runCli(['data', 'import', '--format', 'binance', btc, '--out', btcData])).code).toBe(0);
    const markets = await runCli(['walkforward', '--train', stream, '--test', btcData, '--env', ladder]);
    expect(markets.code).toBe(2);
    expect(markets.stderr).toMatch(/--test .*btc.data is BTCUSDT \(binance\), .*eth.data is ETHUSDT \(binance\): a walk-forward runs on one market's stream/);
  }, 60_000);

  it('documents every flag in --help', async () => {
    const { code, stdout } = await runCli(['walkforward', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--train FILE…', '--test FILE…', '--windows N', '--expanding', '--objective KEY', '--min-fills N', '--also KEY=v1,v2…', '--fit', '--queue MODEL', '--maker-pbips N', '--report FILE', '--jsonl FILE']) expect(stdout).toContain(flag);
    expect(stdout).toContain('default pnl_quote');
  });
});
