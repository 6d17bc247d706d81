/**
 * `akira-mm backtest --reference FILE`: the ETHUSDT recording as the quoted venue and, replayed
 * beside it on the same clock with its own latency, as the reference market. FAIR_PRICE=reference
 * quotes from it (fills, uptime, a basis near 0 since venue = reference), repeats exactly, reads
 * Binance's own .gz files as well as the replay format, and the stale rule pauses on gaps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

function lastJson(stdout: string): Record<string, number | null | string> {
  const lines = stdout.trimEnd().split('\n');
  const summary = JSON.parse(lines[lines.length - 1] as string) as Record<string, number | null | string>;
  delete summary['events_per_sec'];
  return summary;
}

describe.skipIf(dataDir === undefined)('backtest --reference', () => {
  const dir = tempDir('cli-reference');
  const data = join(dir, 'ethusdt.data');
  const gzFiles = ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((name) => join(dataDir as string, 'binance-spot-hftbacktest', name));
  const env = join(dir, 'glft.env');
  const glft = ['backtest', '--data', data, '--env', env, '--base', 'ETH', '--quote', 'USDT', '--json'];

  beforeAll(async () => {
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=glft', 'GLFT_ORDER_SIZE=0.05'].join('\n'));
    const { code } = await runCli(['data', 'import', '--format', 'binance', ...gzFiles, '--out', data]);
    expect(code).toBe(0);
  }, 60_000);

  it('quotes glft from the recording replayed as its own reference: fills, uptime, a basis near 0, the same figures twice', async () => {
    const args = [...glft, '--reference', data, '--set', 'FAIR_PRICE=reference'];
    const first = await runCli(args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/ {2}reference: .*ethusdt\.data \(ETHUSDT\); latency 50 ms; FAIR_PRICE=reference, basis estimated online/);
    const s = lastJson(first.stdout);
    expect(s['fills']).toBeGreaterThan(10);
    expect(s['two_sided_uptime']).toBeGreaterThan(0.9);
    expect(s['cap_breaches']).toBe(0);
    expect(typeof s['basis_bps_mean']).toBe('number');
    expect(Math.abs(s['basis_bps_mean'] as number)).toBeLessThan(1);
    expect(s['reference_pauses']).toBeGreaterThanOrEqual(0);
    const second = lastJson((await runCli(args)).stdout);
    expect(second).toEqual(s);
    // Without a reference the summary still carries the keys, empty.
    const plain = lastJson((await runCli(glft)).stdout);
    expect(plain).toMatchObject({ reference_pauses: 0, basis_bps_mean: null });
    expect(plain['fills']).not.toBe(s['fills']);
  });

  it("reads Binance's .gz collector files as the reference as well, with the same result as their import", async () => {
    const args = [...glft, '--set', 'FAIR_PRICE=reference', '--reference-latency-ms', '20'];
    const imported = lastJson((await runCli([...args, '--reference', data])).stdout);
    const raw = await runCli([...args, ...gzFiles.flatMap((file) => ['--reference', file])]);
    expect(raw.code).toBe(0);
    expect(lastJson(raw.stdout)).toEqual(imported);
  });

  it('pauses on a reference that goes quiet for REFERENCE_STALE_MS, and resumes with it', async () => {
    const strict = lastJson((await runCli([...glft, '--reference', data, '--set', 'FAIR_PRICE=reference', '--set', 'REFERENCE_STALE_MS=200'])).stdout);
    const loose = lastJson((await runCli([...glft, '--reference', data, '--set', 'FAIR_PRICE=reference', '--set', 'REFERENCE_STALE_MS=60000'])).stdout);
    expect(strict['reference_pauses']).toBeGreaterThan(loose['reference_pauses'] as number);
    expect(strict['two_sided_uptime']).toBeLessThan(loose['two_sided_uptime'] as number);
    expect(strict['fills']).toBeGreaterThan(0);
  });

  it('blends venue and reference, and shows the reference fair and basis in the report', async () => {
    const report = join(dir, 'blend.html');
    const blend = await runCli([...glft, '--reference', data, '--set', 'FAIR_PRICE=blend', '--report', report]);
    expect(blend.code).toBe(0);
    expect(lastJson(blend.stdout)['fills']).toBeGreaterThan(0);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<div class="chart" id="basis"></div>');
    expect(html).toMatch(/"reference":\{"fair":\[[\d.]+/);
  });

  it('refuses FAIR_PRICE=reference without a reference recording, and --reference-latency-ms alone', async () => {
    const missing = await runCli([...glft, '--set', 'FAIR_PRICE=reference']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('give a recording of the reference market with --reference FILE');
    const alone = await runCli([...glft, '--reference-latency-ms', '5']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--reference-latency-ms goes with --reference FILE');
    const bad = await runCli([...glft, '--reference', env, '--set', 'FAIR_PRICE=reference']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--reference ${env}: neither a replay-format recording nor Binance collector files`);
  });
});
