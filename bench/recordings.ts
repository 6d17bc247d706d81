/**
 * The recordings the benches replay: `../shared/data` beside the repository (never copied into
 * it), and the Binance ETHUSDT days imported into the replay format in a temporary folder.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KIND, importRecording, readRecording, readRecordingHeader } from '../src/backtest/data/index.ts';
import type { TickerRules } from '../src/core/index.ts';
import type { BenchContext, BenchResult } from './harness.ts';

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

/** How a replay bench runs: the days imported, the events each measured run replays at least, its warm-up, its measured runs. */
export interface ReplayBenchPlan {
  readonly days: readonly string[];
  readonly targetEvents: number;
  readonly warmup: boolean;
  readonly measuredRuns: number;
}

/** The ETHUSDT recording a replay bench measures on. */
export interface EthusdtReplay {
  readonly plan: ReplayBenchPlan;
  /** The imported file (in a temporary folder, removed after the bench). */
  readonly recording: string;
  /** Records in the file. */
  readonly records: number;
  /** Events one pass of the recording replays (venue BBO and conversion-rate records are not events). */
  readonly perPass: number;
}

/**
 * The prologue and epilogue every replay bench shares: the plan (two days, ≥ `targetEvents` per
 * measured run after a warm-up, `measuredRuns` runs; with --quick one day, one pass, no warm-up,
 * one run), the recording imported into a temporary folder and counted, and the folder removed
 * afterwards. Without ../shared/data the suite is skipped with a note on stderr (no figures).
 */
export async function withEthusdtReplay(suite: string, context: BenchContext, targetEvents: number, measuredRuns: number, measure: (replay: EthusdtReplay) => Promise<BenchResult[]>): Promise<BenchResult[]> {
  const plan = context.pick<ReplayBenchPlan>({ days: ['20240808', '20240809'], targetEvents, warmup: true, measuredRuns }, { days: ['20240808'], targetEvents: 1, warmup: false, measuredRuns: 1 });
  if (SHARED_DATA_DIR === undefined) {
    process.stderr.write(`${suite} bench: ../shared/data not found beside the repository; skipped\n`);
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'akira-bench-'));
  try {
    const recording = await importEthusdt(plan.days, dir);
    let perPass = 0;
    await readRecording(recording, (record) => {
      if (record.kind !== KIND.bbo && record.kind !== KIND.conversionRate) perPass++;
    });
    return await measure({ plan, recording, records: readRecordingHeader(recording).records, perPass });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
