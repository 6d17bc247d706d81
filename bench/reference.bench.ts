/**
 * How many Binance frames per second the reference feed takes in (`reference.binance.frames_per_sec`):
 * the ETHUSDT recording's WebSocket frames (bookTicker, depth@100ms, trade, as received) through
 * the feed's market state — parse, book sync, top choice, listener — with no sockets, looped for
 * about 3 s. The baseline is `JSON.parse` alone over the same frames: what the frames cost before
 * any of our work.
 */
import { join } from 'node:path';
import { readLines } from '../src/backtest/data/index.ts';
import { createSilentLogger } from '../src/core/index.ts';
import { BinanceMarketState, FULL_SCALE, parseDepthSnapshot, type DepthSnapshot } from '../src/markets/binance/index.ts';
import { measureRate, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';
import { SHARED_DATA_DIR as dataDir } from './recordings.ts';

/** The recording as the client would meet it: frames, and the snapshot at its place. */
type Step = { readonly frame: string } | { readonly snapshot: DepthSnapshot };

async function loadSteps(days: readonly string[]): Promise<Step[]> {
  const steps: Step[] = [];
  for (const day of days) {
    for await (const line of readLines(join(dataDir as string, 'binance-spot-hftbacktest', `ethusdt_${day}.gz`))) {
      const json = line.slice(line.indexOf(' ') + 1);
      if (json.startsWith('{"lastUpdateId"')) steps.push({ snapshot: parseDepthSnapshot(JSON.parse(json), FULL_SCALE, 0) });
      else steps.push({ frame: json });
    }
  }
  return steps;
}

const suite: BenchSuite = {
  name: 'reference',
  async run(context: BenchContext): Promise<BenchResult[]> {
    if (dataDir === undefined) {
      process.stderr.write('reference bench: ../shared/data not found beside the repository; skipped\n');
      return [];
    }
    // Quick: one day (it holds the snapshot the book syncs on) and one pass of each.
    const steps = await loadSteps(context.pick(['20240808', '20240809'], ['20240808']));
    const frames = steps.filter((step): step is { frame: string } => 'frame' in step).length;
    let tops = 0;
    const pass = (): void => {
      const state = new BinanceMarketState({ market: 'binance:ETHUSDT', symbol: 'ETHUSDT', scale: FULL_SCALE, depth: true, staleAfterMs: 5_000, logger: createSilentLogger(), nowMs: () => 0 });
      state.setListener({ onTop: () => void tops++, onTrade: () => undefined, onStatus: () => undefined });
      state.connected();
      for (const step of steps) {
        if ('frame' in step) state.handleText(step.frame, 0);
        else state.applySnapshot(step.snapshot);
      }
      if (state.status().counters.snapshots !== 1) throw new Error('the recording did not synchronise');
    };
    const rate = await measureRate(pass, { durationMs: context.pick(3_000, 1), warmupMs: context.pick(1_000, 0), opsPerCall: frames });
    let sink = 0;
    const baseline = await measureRate(
      () => {
        for (const step of steps) if ('frame' in step) sink += (JSON.parse(step.frame) as object) === null ? 0 : 1;
      },
      { durationMs: context.pick(2_000, 1), warmupMs: context.pick(500, 0), opsPerCall: frames },
    );
    if (tops === 0 || sink === 0) throw new Error('nothing measured');
    return [{ bench: 'reference.binance.frames_per_sec', value: rate, unit: 'frames/s', baseline }];
  },
};

export const benches: BenchSuite[] = [suite];
