import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseDotenv } from 'dotenv';
import { SIGNAL_KEYS, readKeys } from '../../src/core/index.ts';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

describe('akira-mm fit: its flags', () => {
  it('prints its help with every flag', async () => {
    const { code, stdout } = await runCli(['fit', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--data', '--horizon', '--train-share', '--sample-ms', '--ridge', '--env', '--write', '--json']) expect(stdout).toContain(flag);
  });

  it('refuses a bad horizon, a train share of 1 and --write without --env, naming the flag', async () => {
    expect((await runCli(['fit', '--data', 'x.data', '--horizon', '1'])).stderr).toContain('--horizon=1: a positive duration with its unit');
    expect((await runCli(['fit', '--data', 'x.data', '--train-share', '1'])).stderr).toContain('--train-share=1');
    const noEnv = await runCli(['fit', '--data', 'x.data', '--write']);
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toContain('--write needs --env');
  });
});

describe.skipIf(dataDir === undefined)('akira-mm fit on recorded Binance ETHUSDT (2024-08-08, about six minutes)', () => {
  const dir = tempDir('fit');
  const data = join(dir, 'eth.data');
  beforeAll(async () => {
    const { code } = await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'ethusdt_20240808.gz'), '--out', data]);
    expect(code).toBe(0);
  }, 120_000);

  it('finds the book imbalance predicts the next second out of sample, and writes the weights into the pair file', async () => {
    const env = join(dir, 'eth.env');
    writeFileSync(env, '# ETH pair\nSTRATEGY=ladder\nSIGNAL_OBI_LEVELS=1\nALPHA_OBI_BPS=9\n');
    const { code, stdout } = await runCli(['fit', '--data', data, '--horizon', '1s', '--env', env, '--write', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { horizonMs: number; samples: { train: number; test: number }; r2: { inSample: number; outOfSample: number }; signals: Record<string, { coefficientBps: number; testCorrelation: number }>; written: string };
    expect(result.horizonMs).toBe(1_000);
    expect(result.samples.test).toBeGreaterThan(1_000);
    // Robust on this recording: top-of-book imbalance leans the next second's mid its way (corr ≈ 0.3).
    expect(result.r2.outOfSample).toBeGreaterThan(0);
    expect(result.signals['obi']?.coefficientBps).toBeGreaterThan(0);
    expect(result.signals['obi']?.testCorrelation).toBeGreaterThan(0.15);
    const text = readFileSync(env, 'utf8');
    expect(text.startsWith('# ETH pair\nSTRATEGY=ladder\nSIGNAL_OBI_LEVELS=1\n# ALPHA_* weights from akira-mm fit --horizon 1000ms')).toBe(true);
    expect(text).toContain(`out-of-sample R² ${result.r2.outOfSample.toFixed(4)}`);
    // The written file parses, and holds the fitted weight.
    const read = readKeys(SIGNAL_KEYS, parseDotenv(text));
    expect(read.ok).toBe(true);
    if (read.ok) expect(read.params.ALPHA_OBI_BPS).toBeCloseTo(result.signals['obi']?.coefficientBps ?? Number.NaN, 4);
  }, 120_000);

  it('prints a table of the weights, correlations and both R²', async () => {
    const { code, stdout } = await runCli(['fit', '--data', data, '--horizon', '1s']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^obi +-?\d+\.\d{4} +-?\d\.\d{3} +-?\d\.\d{4}$/m);
    expect(stdout).toMatch(/^R² in sample -?\d\.\d{4}, out of sample \d\.\d{4}$/m);
  }, 120_000);
});
