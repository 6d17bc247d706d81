/**
 * A recording as the backtest's `RecordedEventSource`: records are streamed from the files, their
 * scaled prices and quantities become integer ticks and lots of the pair's rules, and they reach
 * the handler in file (receive) order at exchange time. Exchange time is clamped so it never goes
 * back: streams of one venue (depth, trades) carry their own clocks, and the receive order is the
 * order the bot would have seen them in.
 */
import type { TickerRules } from '../../core/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from '../run.ts';
import { DataError, decimalToScaled, type RecordingHeader } from './format.ts';
import { readRecordingChunks, readRecordingHeader } from './reader.ts';
import { RecordDispatcher } from './record-dispatcher.ts';

/** Integer factors that turn a scaled value into ticks or lots: value × multiply / divide. */
export interface ScaleFactors {
  readonly multiply: number;
  readonly divide: number;
}

function bigGcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** value / 10^decimals in units of `step` (base units with `unitDecimals`): reduced integer factors. */
function factors(decimals: number, step: bigint, unitDecimals: number): ScaleFactors {
  const numerator = 10n ** BigInt(unitDecimals);
  const denominator = 10n ** BigInt(decimals) * step;
  const g = bigGcd(numerator, denominator);
  return { multiply: Number(numerator / g), divide: Number(denominator / g) };
}

/** How one file's prices and quantities become ticks and lots of `rules`. */
export interface RecordingScale {
  readonly price: ScaleFactors;
  readonly qty: ScaleFactors;
}

/**
 * The scale of a recording under `rules`, after checking that the recording's tick and lot are
 * whole multiples of the rules' tick and step (so every recorded value converts exactly).
 * @throws DataError `DATA_RULES_MISMATCH` naming the tick or lot that does not fit.
 */
export function recordingScale(header: RecordingHeader, rules: TickerRules, source: string): RecordingScale {
  const scale = {
    price: factors(header.priceDecimals, rules.priceTick, rules.quoteDecimals),
    qty: factors(header.qtyDecimals, rules.qtyStep, rules.baseDecimals),
  };
  const fits = (value: string, decimals: number, f: ScaleFactors): boolean => {
    const scaled = decimalToScaled(value, decimals);
    return scaled !== undefined && (scaled * f.multiply) % f.divide === 0;
  };
  if (!fits(header.tick, header.priceDecimals, scale.price)) {
    throw new DataError('DATA_RULES_MISMATCH', `${source}: recorded prices step by ${header.tick}, which is not a multiple of the tick ${formatStep(rules.priceTick, rules.quoteDecimals)}`);
  }
  if (!fits(header.lot, header.qtyDecimals, scale.qty)) {
    throw new DataError('DATA_RULES_MISMATCH', `${source}: recorded sizes step by ${header.lot}, which is not a multiple of the lot ${formatStep(rules.qtyStep, rules.baseDecimals)}`);
  }
  return scale;
}

function formatStep(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${units / scale}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Options of {@link createRecordedEventSource}. */
export interface RecordedSourceOptions {
  /** Replays the files this many times (benchmarks), each pass starting after the last ended. Default 1. */
  readonly passes?: number;
  /** Called as records are read: done and total over all files and passes. */
  readonly onProgress?: (recordsRead: number, totalRecords: number) => void;
}

/**
 * The files as one event source for `runBacktest`, replayed back to back. Venue BBO records and
 * conversion rates are not events of the replay (the book is rebuilt from depth) and are not
 * counted.
 * @throws DataError when a file is unreadable or does not fit the rules.
 */
export function createRecordedEventSource(paths: readonly string[], rules: TickerRules, options: RecordedSourceOptions = {}): RecordedEventSource {
  if (paths.length === 0) throw new DataError('DATA_BAD_INPUT', 'no recording given');
  const files = paths.map((path) => {
    const header = readRecordingHeader(path);
    return { path, header, scale: recordingScale(header, rules, path) };
  });
  const passes = Math.max(1, Math.floor(options.passes ?? 1));
  const totalRecords = passes * files.reduce((sum, file) => sum + file.header.records, 0);
  return {
    async replay(handler: RecordedEventHandler): Promise<number> {
      const dispatcher = new RecordDispatcher(handler);
      let readBefore = 0;
      for (let pass = 0; pass < passes; pass++) {
        if (pass > 0) dispatcher.startPass();
        for (const file of files) {
          const before = readBefore;
          dispatcher.startFile(file.path, file.scale);
          await readRecordingChunks(
            file.path,
            async (chunk) => {
              for (let next = dispatcher.dispatch(chunk, 0); next >= 0; next = dispatcher.dispatch(chunk, next)) await dispatcher.pending;
            },
            options.onProgress === undefined ? {} : { onProgress: (done) => options.onProgress?.(before + done, totalRecords) },
          );
          readBefore += file.header.records;
        }
      }
      return dispatcher.events;
    },
  };
}
