/**
 * `akira-mm backtest --venue thin`: the first five minutes of the Binance ETHUSDT recording replay
 * as the reference and the ladder quotes on a thin venue priced off it (docs/thin-venue.md). The
 * summary says who took each fill and measures markouts against the reference mid; the taker
 * models' flags set, sweep and refuse values as declared.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));
const THIN_KEYS = ['markout_against', 'uninformed_fills', 'arb_fills', 'background_maker_fills', 'pickoff_cost_quote', 'volume_quote'];
/** Arbitrageurs with no fee on either leg and no edge, the only maker a background one that lags 5 s: our quotes are picked off often. */
const EAGER_ARBITRAGE = ['--taker-pbips', '0', '--thin-arb-edge-bps', '0', '--thin-arb-reference-fee-bps', '0', '--thin-background-lag-ms', '5000', '--thin-competitor-depth-share', '0'];

type Summary = Record<string, number | string | null>;

function lastJson(stdout: string): Summary {
  const lines = stdout.trimEnd().split('\n');
  const summary = JSON.parse(lines[lines.length - 1] as string) as Summary;
  delete summary['events_per_sec'];
  return summary;
}

/**
 * The thin counts partition the venue's fills; `fills` counts the fill increments the engine
 * heard, where two fills of one order reported together count once: never more, and the same
 * volume (the venue's notional over the engine's base volume is a price of the recording).
 */
function expectPartition(s: Summary): void {
  const tagged = (s['uninformed_fills'] as number) + (s['arb_fills'] as number) + (s['background_maker_fills'] as number);
  expect(tagged).toBeGreaterThanOrEqual(s['fills'] as number);
  expect(tagged).toBeLessThanOrEqual((s['fills'] as number) * 1.25);
  const price = (s['volume_quote'] as number) / (s['volume_base'] as number);
  expect(price > 2_600 && price < 2_700 || price > 61_000 && price < 62_000).toBe(true);
}

describe.skipIf(dataDir === undefined)('backtest --venue thin on the ETHUSDT recording as the reference', () => {
  const dir = tempDir('cli-thin');
  const recording = join(dir, 'eth.data');
  const env = join(dir, 'ladder.env');
  const thin = ['backtest', '--data', recording, '--env', env, '--venue', 'thin'];

  beforeAll(async () => {
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.05'].join('\n'));
    // One file of the two: 5 min 45 s of the reference is enough and keeps each run short.
    const { code } = await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'ethusdt_20240808.gz'), '--out', recording]);
    expect(code).toBe(0);
  }, 60_000);

  it("quotes on the thin venue with LayerAkira's fees: every fill is uninformed, arbitrage or ours taking the background maker, and markouts are against the reference mid", async () => {
    const { code, stdout, stderr } = await runCli([...thin, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('  fees: maker 200 / taker 1000 pbips');
    expect(stdout).toMatch(/ {2}venue: thin, priced off the recording as the reference .*uninformed takers 0\.01 of the reference's trades/);
    expect(stdout).toMatch(/\nthin venue fills +\d+ uninformed, \d+ arbitrage, \d+ taking the background maker\n/);
    for (const horizon of ['1 s', '10 s', '60 s']) expect(stdout).toMatch(new RegExp(`\nmarkout ${horizon} +.* bps \\(against the reference mid\\)\n`));
    const s = lastJson(stdout);
    for (const key of THIN_KEYS) expect(s).toHaveProperty(key);
    expect(s['markout_against']).toBe('reference');
    expect(s['fills']).toBeGreaterThan(10);
    expectPartition(s);
    expect(typeof s['markout_10s_bps']).toBe('number');
    expect(s['volume_quote']).toBeGreaterThan((s['volume_base'] as number) * 2_600);
  });

  it('counts picked-off quotes as arb_fills with their cost, and none with --thin-arbitrage off', async () => {
    const eager = lastJson((await runCli([...thin, ...EAGER_ARBITRAGE, '--json'])).stdout);
    expect(eager['arb_fills']).toBeGreaterThan(10);
    // Picked off: the arbitrageur only takes a quote the reference has moved through.
    expect(eager['pickoff_cost_quote']).toBeGreaterThan(0);
    const off = await runCli([...thin, ...EAGER_ARBITRAGE, '--thin-arbitrage', 'off', '--json']);
    expect(off.code).toBe(0);
    const calm = lastJson(off.stdout);
    expect(calm).toMatchObject({ arb_fills: 0, pickoff_cost_quote: 0 });
    expect(calm['uninformed_fills']).toBeGreaterThan(0);
    expectPartition(calm);
  });

  it('gives the same summary for the same seed, byte for byte, and other takers for another seed', async () => {
    const args = [...thin, '--thin-taker-share', '0.03', '--json'];
    const bytes = (stdout: string): string => (stdout.trimEnd().split('\n').pop() as string).replace(/"events_per_sec":\d+,/, '');
    const first = await runCli([...args, '--seed', '7']);
    const second = await runCli([...args, '--seed', '7']);
    expect(bytes(second.stdout)).toBe(bytes(first.stdout));
    expect(lastJson(first.stdout)['taker_seed']).toBe(7);
    const other = lastJson((await runCli([...args, '--seed', '8'])).stdout);
    expect(other['uninformed_fills']).not.toBe(lastJson(first.stdout)['uninformed_fills']);
    // The takers' own seed: --thin-taker-seed 7 under --seed 8 brings the seed-7 takers.
    const takers = lastJson((await runCli([...args, '--seed', '8', '--thin-taker-seed', '7'])).stdout);
    expect(takers['uninformed_fills']).toBe(lastJson(first.stdout)['uninformed_fills']);
  });

  it('runs several taker seeds and reports the PnL of each with its min, median and max; the rest of the summary is the first seed\'s', async () => {
    const { code, stdout } = await runCli([...thin, '--thin-taker-share', '0.03', '--seed', '7', '--taker-seeds', '3', '--json']);
    expect(code).toBe(0);
    const s = lastJson(stdout);
    expect(s['taker_seeds']).toEqual([7, 8, 9]);
    const pnls = s['pnl_quote_by_taker_seed'] as unknown as number[];
    expect(pnls).toHaveLength(3);
    expect(pnls[0]).toBe(s['pnl_quote']);
    const sorted = [...pnls].sort((a, b) => a - b);
    expect([s['pnl_quote_taker_seeds_min'], s['pnl_quote_taker_seeds_median'], s['pnl_quote_taker_seeds_max']]).toEqual(sorted);
    expect(stdout).toMatch(/\nPnL by taker seed +min .* over seeds 7, 8, 9 /);
    expect((await runCli([...thin, '--taker-seeds', '0'])).stderr).toContain('--taker-seeds=0: allowed a count from 1 to 100');
  });

  it('sweeps a thin-venue flag on worker threads: more takers bring more uninformed fills, and a cell equals a plain run', async () => {
    const { code, stdout, stderr } = await runCli([...thin, '--sweep', 'thin-taker-share=0.005,0.04', '--workers', '1', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^#\s+thin-taker-share\s+pnl_quote/);
    const cells = (JSON.parse(stdout.trimEnd().split('\n').pop() as string) as { sweep: (Summary & { params: Record<string, string> })[] }).sweep;
    const byShare = new Map(cells.map((cell) => [cell.params['thin-taker-share'], cell]));
    expect(byShare.get('0.04')?.['uninformed_fills']).toBeGreaterThan(byShare.get('0.005')?.['uninformed_fills'] as number);
    const { params: _params, ...cell } = byShare.get('0.005') as Summary & { params: Record<string, string> };
    expect(cell).toEqual(lastJson((await runCli([...thin, '--thin-taker-share', '0.005', '--json'])).stdout));
  });

  it('keeps a replay of the recorded book as it was: markouts against the venue, no thin keys filled', async () => {
    const replay = lastJson((await runCli(['backtest', '--data', recording, '--env', env, '--json'])).stdout);
    expect(replay).toMatchObject({ markout_against: 'venue', uninformed_fills: null, arb_fills: null, background_maker_fills: null, pickoff_cost_quote: null });
    expect(await runCli(['backtest', '--data', recording, '--env', env, '--venue', 'replay', '--json']).then((run) => lastJson(run.stdout))).toEqual(replay);
  });

  it('quotes two pairs of one account each on its own thin venue, its recording its reference', async () => {
    const btc = join(dir, 'btc.data');
    const btcEnv = join(dir, 'btc.env');
    writeFileSync(btcEnv, ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.001'].join('\n'));
    expect((await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'btcusdt_20240808.gz'), '--out', btc])).code).toBe(0);
    const { code, stdout, stderr } = await runCli(['backtest', '--venue', 'thin', '--data', recording, '--env', env, '--data', btc, '--env', btcEnv, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const { pairs } = JSON.parse(stdout.trimEnd().split('\n').pop() as string) as { pairs: Record<string, Summary> };
    expect(Object.keys(pairs).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    for (const pair of Object.values(pairs)) {
      expect(pair['markout_against']).toBe('reference');
      expect(pair['uninformed_fills']).toBeGreaterThan(0);
      expectPartition(pair);
    }
  }, 60_000);

  it.each([
    [['--thin-taker-share', '1.5'], '--thin-taker-share=1.5: allowed a number ≥ 0 and ≤ 1 (share of the reference volume)'],
    [['--thin-size-scale', '0'], '--thin-size-scale=0: allowed a number > 0'],
    [['--thin-background-lag-ms', 'soon'], '--thin-background-lag-ms=soon: allowed a number ≥ 0 and ≤ 3600000 ms'],
    [['--thin-arb-latency-ms=-1'], '--thin-arb-latency-ms=-1: allowed a number ≥ 0 and ≤ 3600000 ms'],
    [['--thin-arbitrage', 'maybe'], '--thin-arbitrage=maybe: allowed on or off'],
    [['--sweep', 'thin-arb-edge-bps=5,20000'], '--sweep thin-arb-edge-bps=20000: --thin-arb-edge-bps=20000: allowed a number ≥ 0 and ≤ 10000 bps'],
  ])('exits 2 naming the flag, its value and what is allowed: %j', async (extra, named) => {
    const { code, stderr } = await runCli([...thin, ...extra]);
    expect(code).toBe(2);
    expect(stderr).toContain(named);
  });

  it('refuses a thin-venue flag without --venue thin, and an unknown venue', async () => {
    const plain = ['backtest', '--data', recording, '--env', env];
    expect((await runCli([...plain, '--thin-taker-share', '0.1'])).stderr).toContain('--thin-taker-share applies to --venue thin only');
    expect((await runCli([...plain, '--sweep', 'thin-taker-share=0.1,0.2'])).stderr).toContain('--thin-taker-share applies to --venue thin only');
    expect((await runCli([...plain, '--venue', 'deep'])).stderr).toContain('--venue=deep: allowed replay or thin');
  });

  it('--help lists every thin-venue flag with its unit, range and default', async () => {
    const { code, stdout } = await runCli(['backtest', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--venue replay\|thin +.*\(default replay\)/);
    expect(stdout).toMatch(/--thin-taker-share X +.*\(share of the reference volume; a number ≥ 0 and ≤ 1, default 0\.01\)/);
    const defaults: readonly (readonly [string, string])[] = [
      ['thin-size-scale', '1'],
      ['thin-taker-limit-bps', '10'],
      ['thin-background-spread-bps', '10'],
      ['thin-background-lag-ms', '1000'],
      ['thin-background-depth', '10000'],
      ['thin-arb-latency-ms', '50'],
      ['thin-arb-edge-bps', '0'],
      ['thin-arb-reference-fee-bps', '2.4'],
      ['thin-arbitrage', 'on'],
      ['thin-taker-slack-bps', '5'],
      ['thin-competitor-depth-share', '0.01'],
      ['thin-competitor-offset-ticks', '0'],
      ['thin-competitor-spread-bps', '3'],
      ['thin-competitor-lag-ms', '250'],
    ];
    for (const [flag, value] of defaults) expect(stdout).toMatch(new RegExp(`--${flag} .*default ${value}\\)`));
    // A long value name puts the description on the next line.
    expect(stdout).toMatch(/--thin-taker-limit-model elastic\|fixed\n +--venue thin: .*\(default elastic\)/);
  });
});
