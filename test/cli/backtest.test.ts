import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));
const CONTRACT_KEYS = [
  'events', 'fills', 'maker_fills', 'taker_fills', 'volume_base', 'fees_quote', 'gas_quote', 'pnl_quote', 'max_abs_inventory_base',
  'inventory_std_base', 'sharpe', 'max_drawdown_quote', 'quote_uptime', 'markout_1s_bps', 'markout_10s_bps', 'markout_60s_bps', 'events_per_sec',
  'sharpe_horizon', 'sharpe_hourly',
];

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
}

describe.skipIf(dataDir === undefined)('akira-mm data and backtest on the ETHUSDT recording', () => {
  const dir = tempDir('cli-backtest');
  const recording = join(dir, 'eth.data');
  const env = join(dir, 'eth.env');
  const base = ['backtest', '--data', recording, '--env', env, '--base', 'ETH', '--quote', 'USDT'];

  beforeAll(async () => {
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=2', 'LADDER_ASK_SPREAD_BPS=2', 'METRICS_PORT=0'].join('\n'));
    const files = ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((name) => join(dataDir as string, 'binance-spot-hftbacktest', name));
    const { code, stdout, stderr } = await runCli(['data', 'import', '--format', 'binance', ...files, '--out', recording]);
    expect(stderr).toContain('depth diff already in the snapshot');
    expect(code).toBe(0);
    expect(stdout).toContain('symbol ETHUSDT (ETH/USDT), tick 0.01');
  });

  it('data bbo prints the rebuilt top after every book change as CSV with the update id', async () => {
    const { code, stdout } = await runCli(['data', 'bbo', recording]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('exch_ts_ms,update_id,bid,bid_qty,ask,ask_qty');
    // The snapshot (lastUpdateId 35346513512), then the first diff applied on it.
    expect(lines[1]).toBe('1723161255423,35346513512,2683.8,3.0292,2683.81,31.4395');
    expect(lines[2]).toBe('1723161255508,35346513514,2683.8,3.0292,2683.81,31.4395');
    expect(lines.length).toBeGreaterThan(6_000);
    for (const line of lines.slice(1, 200)) expect(line).toMatch(/^\d{13},\d+,\d+(\.\d+)?,\d+(\.\d+)?,\d+(\.\d+)?,\d+(\.\d+)?$/);
  });

  it('backtest prints a summary and, with --json, one JSON object with every contract key on the last line', async () => {
    // 30 s blocks: the 10 min 50 s recording spans 21, past the 20 an interval needs (60 s blocks give 10: none, and the reason).
    const { code, stdout, stderr } = await runCli([...base, '--bootstrap-block-ms', '30000', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nfills +\d+ \(\d+ maker, \d+ taker\)\n/);
    const summary = lastJson(stdout);
    for (const key of CONTRACT_KEYS) expect(summary).toHaveProperty(key);
    expect(summary['events']).toBeGreaterThan(280_000);
    expect(summary['fills']).toBeGreaterThan(0);
    // Error bars: the PnL, per notional and each markout horizon with its 95 % interval, in text and JSON.
    for (const key of ['pnl_quote_ci95', 'pnl_per_notional_bps_ci95', 'markout_1s_bps_ci95', 'markout_10s_bps_ci95', 'markout_60s_bps_ci95']) expect(summary[key], key).toHaveLength(2);
    expect([summary['bootstrap_block_ms'], summary['bootstrap_samples'], summary['bootstrap_seed'], summary['bootstrap_blocks'], summary['ci95_withheld']]).toEqual([30_000, 1_000, 1, 21, null]);
    expect(stdout).toMatch(/\nPnL +−?[\d.]+ \[−?[\d.]+, −?[\d.]+\] USDT\n/);
    expect(stdout).toMatch(/\nmarkout 10 s +−?[\d.]+ \[−?[\d.]+, −?[\d.]+\] bps\n/);
  });

  it('credits a maker rebate given as a negative --maker-pbips: fees_quote is negative and the PnL still adds up', async () => {
    const { code, stdout } = await runCli([...base, '--maker-pbips=-50', '--json']);
    expect(code).toBe(0);
    const summary = lastJson(stdout) as Record<string, number>;
    expect(summary['maker_fills']).toBeGreaterThan(0);
    expect(summary['fees_quote']).toBeLessThan(0);
    expect(summary['pnl_spread_quote']! + summary['pnl_inventory_quote']! - summary['fees_quote']! - summary['gas_quote']!).toBeCloseTo(summary['pnl_quote']!, 6);
  });

  it('gives a byte-identical deterministic summary for the same data, flags and seed', async () => {
    const run = async (): Promise<string> => {
      const { code, stdout } = await runCli([...base, '--json', '--seed', '7', '--latency-jitter-ms', '10', '--queue', 'power:2']);
      expect(code).toBe(0);
      const { events_per_sec: _speed, ...rest } = lastJson(stdout);
      return JSON.stringify(rest);
    };
    expect(await run()).toBe(await run());
  });

  it('--report writes one self-contained HTML file with the charts and the summary', async () => {
    const report = join(dir, 'r.html');
    const { code, stdout } = await runCli([...base, '--report', report]);
    expect(code).toBe(0);
    expect(stdout).toContain(`report: ${report}`);
    const html = readFileSync(report, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('uPlot');
    expect(html).toContain('pnl_quote');
    expect(html).not.toMatch(/<script[^>]+src=/);
    for (const id of ['price', 'pnl', 'inventory', 'distance']) expect(html).toContain(`<div class="chart" id="${id}">`);
  });

  it('prints the summary for people: UTC span, durations, units, Sharpe per hour, the scorecard', async () => {
    const { stdout } = await runCli(base);
    expect(stdout).toMatch(/\nsimulated time +10 min 50 s \(2024-08-08 23:54:15.423 UTC → 2024-08-09 00:05:05.809 UTC\)\n/);
    // 60 s blocks: 10 of them, too few for an interval; the figure stands alone and the reason is printed.
    expect(stdout).toMatch(/\nPnL +−?[\d.]+ USDT\n/);
    expect(stdout).toContain('\nerror bars         no interval: the run spans 10 blocks of 60 s, fewer than 20');
    expect(stdout).toMatch(/\nvolume +[\d.]+ ETH\n/);
    expect(stdout).toMatch(/\nSharpe \(per hour\) +−?[\d.]+\n/);
    expect(stdout).toMatch(/\n {2}orders sent +[\d,]+/);
    expect(stdout).not.toContain('1723161255423');
  });

  it('runs a sweep in shards whose merged results equal the unsharded sweep exactly', async () => {
    const grid = ['--sweep', 'LADDER_BID_SPREAD_BPS=2,5', '--sweep', 'queue=risk-averse,log'];
    const whole = join(dir, 'whole.jsonl');
    const report = join(dir, 'sweep.html');
    const unsharded = await runCli([...base, ...grid, '--json', '--jsonl', whole, '--report', report]);
    expect(unsharded.stderr).toBe('');
    expect(unsharded.code).toBe(0);
    const shards = [1, 2, 3].map((k) => join(dir, `shard-${k}.jsonl`));
    for (const [i, file] of shards.entries()) {
      const shard = await runCli([...base, ...grid, '--shard', `${i + 1}/3`, '--jsonl', file, '--workers', '1']);
      expect(shard.code).toBe(0);
      expect(shard.stdout).toContain(`(${i === 0 ? 2 : 1} of 4 cells)`);
    }
    const merged = join(dir, 'merged.jsonl');
    const merge = await runCli(['backtest', 'merge', ...shards.reverse(), '--json', '--jsonl', merged]);
    expect(merge.stderr).toBe('');
    expect(merge.code).toBe(0);
    const withoutFileLine = (text: string): string => text.split('\n').filter((line) => !line.startsWith('results: ') && !line.startsWith('report: ')).join('\n');
    expect(withoutFileLine(merge.stdout)).toBe(withoutFileLine(unsharded.stdout));
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    expect(readFileSync(whole, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    // The sweep report ranks every cell and draws PnL and fills heatmaps over the two keys.
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<table class="heat" id="heatmap-pnl_quote">');
    expect(html).toContain('<table class="heat" id="heatmap-fills">');
    expect(html.match(/<td style="background:/g)?.length).toBe(8);
    // Shards of another sweep, or a missing shard, are refused.
    const partial = await runCli(['backtest', 'merge', shards[0] as string]);
    expect([partial.code, /cells .* of 4 are missing/.test(partial.stderr)]).toEqual([2, true]);
    const other = join(dir, 'other.jsonl');
    expect((await runCli([...base, '--sweep', 'LADDER_BID_SPREAD_BPS=3', '--jsonl', other])).code).toBe(0);
    const mixed = await runCli(['backtest', 'merge', whole, other]);
    expect([mixed.code, mixed.stderr.includes('from another sweep')]).toEqual([2, true]);
    // Nine backtests (the grid whole, in three shards, and one more cell): minutes on a loaded 2-core machine.
  }, 240_000);

  it('--sweep runs the grid on worker threads and prints it best PnL first', async () => {
    const { code, stdout, stderr } = await runCli([...base, '--sweep', 'LADDER_BID_SPREAD_BPS=2,5', '--sweep', 'queue=risk-averse', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+LADDER_BID_SPREAD_BPS\s+queue\s+pnl_quote/);
    const result = lastJson(stdout) as { sweep: { params: Record<string, string>; pnl_quote: number }[] };
    expect(result.sweep.map((row) => row.params['LADDER_BID_SPREAD_BPS']).sort()).toEqual(['2', '5']);
    expect(result.sweep[0]?.pnl_quote).toBeGreaterThanOrEqual(result.sweep[1]?.pnl_quote ?? Infinity);
    expect(lines).toHaveLength(4);
    // A cell on a worker thread gives exactly what a plain run with the same settings gives.
    const plain = await runCli([...base, '--json']);
    const { events_per_sec: _speed, ...expected } = lastJson(plain.stdout);
    const { params: _params, ...cell } = result.sweep.find((row) => row.params['LADDER_BID_SPREAD_BPS'] === '2') ?? { params: {} };
    expect(cell).toEqual(expected);
  });

  it.each([
    [['--queue', 'fifo'], '--queue=fifo'],
    [['--tick', '0.05'], '--tick'],
    [['--lot', '0.001'], '--lot'],
    [['--latency-ms', 'fast'], '--latency-ms=fast'],
    [['--seed', '1.5'], '--seed=1.5'],
    [['--initial-base', '0'], '--initial-base=0'],
    [['--sweep', 'LADDER_LEVELS=2,many'], '--sweep LADDER_LEVELS=many'],
    [['--sweep', 'spread=1'], '--sweep spread=1'],
    [['--sweep', 'queue=risk-averse,fifo'], '--sweep queue=fifo'],
    [['--sweep', 'latency-ms=10,soon'], '--latency-ms=soon'],
    [['--sweep', 'LADDER_LEVELS=2', '--shard', '3/2'], '--shard 3/2'],
    [['--shard', '1/2'], '--shard applies to sweeps only'],
    [['--set', 'ladder=1'], '--set ladder=1'],
    [['--set', 'LADDER_ORDER_SIZE=lots'], 'LADDER_ORDER_SIZE'],
    [['--base-decimals', '40'], '--base-decimals=40'],
    [['--tick', '0.000000001'], '--tick=0.000000001 has more decimals than USDT has in this backtest (8); raise --quote-decimals'],
    [['--bogus'], '--bogus'],
    [['--maker-pbips=-201'], '--maker-pbips=-201 is out of range (allowed -200..1000000)'],
    [['--maker-pbips=-50', '--taker-pbips=-1'], '--taker-pbips=-1'],
    // A negative value needs the = form; node's parser says so.
    [['--maker-pbips', '-50'], "use '--maker-pbips=-XYZ'"],
    [['--sweep', 'maker-pbips=-100,-300'], '--sweep maker-pbips=-300: a rebate is at most the taker fee (allowed ≥ −200)'],
    [['--bootstrap-samples', '5'], '--bootstrap-samples=5 is out of range (allowed 100..100000)'],
    [['--bootstrap-block-ms', 'long'], '--bootstrap-block-ms=long'],
    [['--rank-by', 'pnl_quote'], '--rank-by applies to sweeps only'],
    [['--sweep', 'LADDER_LEVELS=2', '--rank-by', 'pnl'], '--rank-by pnl is not a figure a sweep ranks by'],
  ])('exits 2 naming the bad flag: %j', async (extra, named) => {
    const { code, stderr } = await runCli([...base, ...extra]);
    expect(code).toBe(2);
    expect(stderr).toContain(named);
  });

  it('--to-share and --from-share replay one part of the recording\'s time span each, the two halves adding up to the whole', async () => {
    const whole = lastJson((await runCli([...base, '--json'])).stdout);
    const first = await runCli([...base, '--to-share', '0.5', '--json']);
    const second = await runCli([...base, '--from-share', '0.5', '--json']);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(second.stdout).toContain("window: shares 0.5 to 1 of the recording's time span");
    const [a, b] = [lastJson(first.stdout), lastJson(second.stdout)];
    const [startMs, endMs] = [whole['start_ms'] as number, whole['end_ms'] as number];
    // The span is the records' (the first, the snapshot, is 1.4 s before the book is two-sided and the run starts).
    const middle = startMs + (endMs - startMs) / 2;
    expect(a['start_ms']).toBe(startMs);
    expect(a['end_ms']).toBeLessThan(b['start_ms'] as number);
    expect(Math.abs((b['start_ms'] as number) - middle)).toBeLessThan(1_500);
    expect(b['end_ms']).toBe(endMs);
    expect((a['duration_s'] as number) + (b['duration_s'] as number)).toBeCloseTo(whole['duration_s'] as number, 0);
    // Each half trades: the second starts on the book as it stood at its start.
    expect([a['fills'], b['fills']].every((fills) => (fills as number) > 0)).toBe(true);
    // The whole span is the plain replay.
    expect(lastJson((await runCli([...base, '--from-share', '0', '--to-share', '1', '--json'])).stdout)).toEqual({ ...whole, events_per_sec: expect.any(Number) as unknown });
  });

  it('--from-time and --to-time trade between two UTC times inside the recording, on the book as it stood at the first', async () => {
    const run = await runCli([...base, '--from-time', '2024-08-08T23:58:00Z', '--to-time', '2024-08-09 00:02', '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('window: times 2024-08-08T23:58:00.000Z → 2024-08-09T00:02:00.000Z (the book before it is built, not traded on)');
    const summary = lastJson(run.stdout);
    expect(summary['start_ms']).toBeGreaterThanOrEqual(Date.UTC(2024, 7, 8, 23, 58));
    expect(summary['start_ms']).toBeLessThan(Date.UTC(2024, 7, 8, 23, 58, 1));
    expect(summary['end_ms']).toBeLessThanOrEqual(Date.UTC(2024, 7, 9, 0, 2));
    expect(summary['fills']).toBeGreaterThan(0);
  });

  it.each([
    [['--from-time', '2024-08-09T01:00:00Z'], '--from-time/--to-time: the window 2024-08-09T01:00:00.000Z → 2024-08-09T00:05:05.817Z reaches outside'],
    [['--to-time', '2024-08-08T23:00:00Z'], 'reaches outside the recording: the recording spans 2024-08-08T23:54:14.024Z → 2024-08-09T00:05:05.817Z'],
    [['--from-time', '2024-08-09T00:01:00Z', '--to-time', '2024-08-09T00:00:00Z'], '--from-time=2024-08-09T00:01:00Z must be before --to-time=2024-08-09T00:00:00Z'],
    [['--from-time', 'yesterday'], '--from-time=yesterday is not a UTC time: expected ISO 8601'],
    [['--from-time', '2024-08-09T00:00:00Z', '--from-share', '0.5'], '--from-time and --from-share/--to-share both cut the recording: give one of them'],
    [['--from-share', '1.5'], "--from-share=1.5 is not a share of the recording's time span (a number ≥ 0 and ≤ 1)"],
    [['--to-share', 'half'], '--to-share=half is not a share'],
    [['--from-share', '0.6', '--to-share', '0.4'], '--from-share=0.6 must be below --to-share=0.4'],
  ])('exits 2 naming a window outside the recording, a bad time or a bad share: %j', async (extra, named) => {
    const { code, stderr } = await runCli([...base, ...extra]);
    expect(code).toBe(2);
    expect(stderr).toContain(named);
  });

  it('exits 2 naming what is missing or unreadable', async () => {
    expect((await runCli(['backtest', '--env', env])).stderr).toContain('--data FILE is required');
    expect((await runCli(['backtest', '--data', recording])).stderr).toContain('--env FILE is required');
    const missing = await runCli(['backtest', '--data', join(dir, 'none.data'), '--env', env]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--data cannot open');
    const notData = await runCli(['backtest', '--data', env, '--env', env]);
    expect(notData.stderr).toMatch(/--data .*(too short|not an akira-mm recording)/);
    const format = await runCli(['data', 'import', '--format', 'csv', 'x', '--out', 'y']);
    expect([format.code, format.stderr.includes('--format=csv')]).toEqual([2, true]);
    const bbo = await runCli(['data', 'bbo']);
    expect([bbo.code, bbo.stderr.includes('one recording FILE')]).toEqual([2, true]);
  });
});
