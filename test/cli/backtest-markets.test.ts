import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));
const pairFile = join(repoRoot, 'config/ETH-USDC.env');

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
}

/** The recordings of ../shared/data, as a new user imports them. */
const RECORDINGS = [
  { name: 'BTCUSDT (Binance)', format: 'binance', dir: 'binance-spot-hftbacktest', files: ['btcusdt_20240808.gz', 'btcusdt_20240809.gz'], market: 'BTC/USDT', override: ['BTC', 'USDT'] },
  { name: 'AAPL (LOBSTER)', format: 'lobster', dir: 'lobster-aapl-2012-06-21-head', files: ['message', 'orderbook'], market: 'AAPL/USD', override: ['AAPL', 'USD'] },
  { name: 'BTCUSD (Bitstamp)', format: 'bitstamp', dir: 'bitstamp-btcusd-2015-obanalytics', files: ['2015-05-01.log.gz'], market: 'BTC/USD', override: ['XBT', 'USD'] },
] as const;

describe.skipIf(dataDir === undefined)('a recording of any market backtests with a LayerAkira pair file', () => {
  const dir = tempDir('cli-markets');
  const recordings = new Map<string, string>();

  beforeAll(async () => {
    for (const recording of RECORDINGS) {
      const folder = join(dataDir as string, recording.dir);
      const names = readdirSync(folder);
      const files = recording.files.map((part) => join(folder, names.find((name) => name.includes(part)) as string));
      const out = join(dir, `${recording.format}.data`);
      const { code } = await runCli(['data', 'import', '--format', recording.format, ...files, '--out', out]);
      expect(code).toBe(0);
      recordings.set(recording.name, out);
    }
  }, 60_000);

  it.each(RECORDINGS)('$name: the market comes from the recording, and --base/--quote rename it', async (recording) => {
    const data = recordings.get(recording.name) as string;
    const plain = await runCli(['backtest', '--data', data, '--env', pairFile, '--json']);
    expect(plain.stderr).toBe('');
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`  market: ${recording.market} from the recording`);
    const summary = lastJson(plain.stdout);
    expect(summary['events']).toBeGreaterThan(1_000);
    expect(summary['duration_s']).toBeGreaterThan(40);
    const [base, quote] = recording.override;
    const renamed = await runCli(['backtest', '--data', data, '--env', pairFile, '--base', base, '--quote', quote, '--json']);
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toContain(`  market: ${base}/${quote} from the flags`);
    const { events_per_sec: _a, ...same } = lastJson(renamed.stdout);
    const { events_per_sec: _b, ...expected } = summary;
    expect(same).toEqual(expected);
  });

  it('trades on Bitstamp with the shipped ETH/USDC ladder', async () => {
    const { stdout } = await runCli(['backtest', '--data', recordings.get('BTCUSD (Bitstamp)') as string, '--env', pairFile, '--json']);
    expect(lastJson(stdout)['fills']).toBeGreaterThan(10);
  });

  it('says why nothing traded when the order size is below the lot, and trades once it is not (AAPL in whole shares)', async () => {
    const data = recordings.get('AAPL (LOBSTER)') as string;
    const tooSmall = await runCli(['backtest', '--data', data, '--env', pairFile]);
    expect(tooSmall.stdout).toContain("No orders reached the venue, so nothing could fill. Check that the strategy's order size (e.g. LADDER_ORDER_SIZE) is at least the recording's lot (1 AAPL)");
    const shares = await runCli(['backtest', '--data', data, '--env', pairFile, '--set', 'LADDER_ORDER_SIZE=100', '--set', 'LADDER_BID_SPREAD_BPS=1', '--set', 'LADDER_ASK_SPREAD_BPS=1', '--initial-base', '1000', '--json']);
    expect(shares.code).toBe(0);
    expect(shares.stdout).toMatch(/\n {2}orders sent +[1-9][\d,]*\n/);
    expect(lastJson(shares.stdout)['quote_uptime']).toBeGreaterThan(0.5);
  });
});
