/**
 * The recordings the benches replay: `../shared/data` beside the repository (never copied into
 * it), and the Binance ETHUSDT days imported into the replay format in a temporary folder.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importRecording } from '../src/backtest/data/index.ts';
import type { TickerRules } from '../src/core/index.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** `../shared/data` (or one level further up, from a nested worktree); undefined where absent. */
export const SHARED_DATA_DIR = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

/** ETH/USDT as the recording infers it: 0.01 tick, 0.00002 lot (sizes of the recorded book). */
export const ETHUSDT_RULES: TickerRules = { base: 'ETH', quote: 'USDT', isEcosystemBook: true, priceTick: 10_000n, qtyStep: 2n * 10n ** 13n, minQty: 2n * 10n ** 13n, baseDecimals: 18, quoteDecimals: 6 };

/** Imports the ETHUSDT recording of `days` (e.g. '20240808') into `dir`; returns the file. Needs `SHARED_DATA_DIR`. */
export async function importEthusdt(days: readonly string[], dir: string): Promise<string> {
  if (SHARED_DATA_DIR === undefined) throw new Error('../shared/data not found beside the repository');
  const recording = join(dir, 'ethusdt.data');
  const files = days.map((day) => join(SHARED_DATA_DIR as string, 'binance-spot-hftbacktest', `ethusdt_${day}.gz`));
  await importRecording('binance', files, recording, () => undefined);
  return recording;
}
