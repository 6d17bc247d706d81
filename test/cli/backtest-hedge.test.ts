/**
 * `akira-mm backtest --hedge FILE`: the ETHUSDT recording as the quoted venue and, replayed beside
 * it with its own latency, as the hedge venue. Every fill is hedged, the summary carries the hedge
 * keys, and the PnL split still sums to the total.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

function lastJson(stdout: string): Record<string, number | null | string> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, number | null | string>;
}

describe.skipIf(dataDir === undefined)('backtest --hedge', () => {
  const dir = tempDir('cli-hedge');
  const data = join(dir, 'ethusdt.data');
  const env = (lines: string[]): string => {
    const file = join(dir, `${lines.join('-').replace(/[^A-Za-z0-9]+/g, '_').slice(0, 60)}.env`);
    writeFileSync(file, ['BASE=ETH', 'QUOTE=USDC', ...lines].join('\n'));
    return file;
  };

  beforeAll(async () => {
    const files = ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((name) => join(dataDir as string, 'binance-spot-hftbacktest', name));
    const { code } = await runCli(['data', 'import', '--format', 'binance', ...files, '--out', data]);
    expect(code).toBe(0);
  }, 60_000);

  it('hedges every fill of glft on the recording itself: the net inventory stays flat and the split sums to the total', async () => {
    const file = env(['STRATEGY=glft', 'GLFT_ORDER_SIZE=0.05']);
    const hedged = await runCli(['backtest', '--data', data, '--env', file, '--hedge', data, '--json']);
    expect(hedged.stderr).toBe('');
    expect(hedged.code).toBe(0);
    expect(hedged.stdout).toContain('  hedge: ');
    const s = lastJson(hedged.stdout);
    expect(s['fills']).toBeGreaterThan(10);
    expect(s['hedges']).toBeGreaterThan(10);
    expect(s['hedge_latency_ms_p50']).toBe(10);
    expect(typeof s['hedge_slippage_bps']).toBe('number');
    expect(s['max_abs_net_inventory_base']).toBeLessThan(0.01);
    expect(s['max_abs_net_inventory_base']).toBeLessThan(s['max_abs_inventory_base'] as number);
    expect(s['unhedged_time_share']).toBeLessThan(0.05);
    expect(s['pnl_hedge_quote']).not.toBe(0);
    const sum = (s['pnl_spread_quote'] as number) + (s['pnl_inventory_quote'] as number) + (s['pnl_hedge_quote'] as number) - (s['fees_quote'] as number) - (s['gas_quote'] as number);
    expect(sum).toBeCloseTo(s['pnl_quote'] as number, 6);
    const plain = lastJson((await runCli(['backtest', '--data', data, '--env', file, '--json'])).stdout);
    expect(plain).toMatchObject({ hedges: 0, hedge_slippage_bps: null, hedge_latency_ms_p50: null, pnl_hedge_quote: 0, unhedged_time_share: 0 });
    expect(plain['max_abs_net_inventory_base']).toBe(plain['max_abs_inventory_base']);
  });

  it('refuses xemm without a hedge recording, and a HEDGE file without one', async () => {
    const xemm = await runCli(['backtest', '--data', data, '--env', env(['STRATEGY=xemm'])]);
    expect(xemm.code).toBe(2);
    expect(xemm.stderr).toContain('xemm quotes at the hedge\'s cost: it needs HEDGE=binance:SYMBOL');
    const hedgeOn = await runCli(['backtest', '--data', data, '--env', env(['STRATEGY=glft', 'HEDGE=binance:ETHUSDT', 'HEDGE_API_KEY=abcdefgh12', 'HEDGE_API_SECRET=secret-secret'])]);
    expect(hedgeOn.code).toBe(2);
    expect(hedgeOn.stderr).toContain('give a recording of that market with --hedge FILE');
  });
});
