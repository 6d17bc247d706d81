/**
 * Defaults that trade (issue "quoting", item 9): each strategy at the shipped defaults
 * (`config/ETH-USDC.env`, strategy keys at their defaults) backtested on the recorded ETHUSDT book
 * quotes both sides, fills, stays inside its caps, and keeps its churn within the scorecard's goals.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './data/fixtures.ts';
import { runCli } from '../cli/run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

describe.skipIf(dataDir === undefined)('shipped defaults on the ETHUSDT recording', () => {
  const recording = join(tempDir('shipped-defaults'), 'eth.data');

  beforeAll(async () => {
    const files = ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((name) => join(dataDir as string, 'binance-spot-hftbacktest', name));
    expect((await runCli(['data', 'import', '--format', 'binance', ...files, '--out', recording])).code).toBe(0);
  });

  it.each(['ladder', 'avellaneda-stoikov', 'glft'])('%s: ≥ 20 fills, two-sided ≥ 0.9, ≤ 20 orders per fill, no cap breach', async (strategy) => {
    const { code, stdout } = await runCli(['backtest', '--data', recording, '--env', join(repoRoot, 'config/ETH-USDC.env'), '--strategy', strategy, '--base', 'ETH', '--quote', 'USDT', '--json']);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout.trimEnd().split('\n').at(-1) as string) as Record<string, number>;
    expect(summary['fills']).toBeGreaterThanOrEqual(20);
    expect(summary['two_sided_uptime']).toBeGreaterThanOrEqual(0.9);
    expect(summary['orders_per_fill']).toBeLessThanOrEqual(20);
    expect(summary['cap_breaches']).toBe(0);
    expect(summary['max_abs_inventory_base']).toBeLessThanOrEqual(summary['inventory_cap_base'] as number);
    expect(summary['pnl_spread_quote']! + summary['pnl_inventory_quote']! - summary['fees_quote']! - summary['gas_quote']!).toBeCloseTo(summary['pnl_quote']!, 6);
  });
});
