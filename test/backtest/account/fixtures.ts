/** The ETHUSDT and BTCUSDT recordings (2024-08-08 files, about six minutes each) the account backtest tests replay. */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runCli } from '../../cli/run-cli.ts';
import { tempDir } from '../data/fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** `../shared/data`, where the recordings live; undefined when absent (the tests skip). */
export const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

/** Paths of one test's recordings and pair files, in a fresh temporary directory. */
export function accountFiles(label: string): { dir: string; eth: string; btc: string; ethEnv: string; btcEnv: string } {
  const dir = tempDir(label);
  return { dir, eth: join(dir, 'eth.data'), btc: join(dir, 'btc.data'), ethEnv: join(dir, 'eth.env'), btcEnv: join(dir, 'btc.env') };
}

/** Imports the two recordings with `akira-mm data import`. */
export async function importEthBtc(files: { eth: string; btc: string }): Promise<void> {
  for (const [symbol, out] of [['ethusdt', files.eth], ['btcusdt', files.btc]] as const) {
    const { code } = await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', `${symbol}_20240808.gz`), '--out', out]);
    expect(code).toBe(0);
  }
}
