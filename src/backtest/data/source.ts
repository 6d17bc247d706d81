/**
 * A recording as the backtest's `RecordedEventSource`: records are streamed from the files, their
 * scaled prices and quantities become integer ticks and lots of the pair's rules, and they reach
 * the handler in file (receive) order at exchange time. Exchange time is clamped so it never goes
 * back: streams of one venue (depth, trades) carry their own clocks, and the receive order is the
 * order the bot would have seen them in.
 */
import type { Side, TickerRules } from '../../core/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from '../run.ts';
import { DataError, KIND, RECORD_BYTES, SIDE_BUY, SIDE_SELL, decimalToScaled, nsHalvesToMs, type RecordingHeader } from './format.ts';
import { readExactFields, readRecordingChunks, readRecordingHeader } from './reader.ts';

const TWO_32 = 4_294_967_296;

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
      // Fields of one object, not closure variables: V8 boxes a double held in a closure on
      // every write, and these change on every record.
      // `hi`/`lo`: the raw time of the last record read (-1: none yet in this file and pass).
      const at = { events: 0, lastMs: Number.NEGATIVE_INFINITY, offsetMs: 0, firstMs: 0, hasFirst: false, hi: -1, lo: -1 };
      let readBefore = 0;
      for (let pass = 0; pass < passes; pass++) {
        if (pass > 0 && at.hasFirst) at.offsetMs = at.lastMs + 1 - at.firstMs;
        for (const file of files) {
          const { multiply: pm, divide: pd } = file.scale.price;
          const { multiply: qm, divide: qd } = file.scale.qty;
          // A quotient of integers below 2^53 is whole exactly when the division is exact (a
          // remainder of at least 1/divide outweighs the rounding), so no floating-point `%`,
          // which is a C call per record.
          const toTicks = (value: number, index: number): number => {
            const ticks = (value * pm) / pd;
            if (!Number.isInteger(ticks)) throw new DataError('DATA_RULES_MISMATCH', `${file.path}: record ${index} price ${value} is off the tick`);
            return ticks;
          };
          const toLots = (value: number, index: number): number => {
            const lots = (value * qm) / qd;
            if (!Number.isInteger(lots)) throw new DataError('DATA_RULES_MISMATCH', `${file.path}: record ${index} size ${value} is off the lot`);
            return lots;
          };
          const before = readBefore;
          at.hi = -1;
          // Decodes only the fields the replay reads (decodeRecord has the layout); a record
          // costs a few array reads and one handler call.
          await readRecordingChunks(
            file.path,
            async (chunk) => {
              const { u32, i32 } = chunk;
              for (let i = 0; i < chunk.count; i++) {
                const w = i * 16;
                const w0 = u32[w] as number;
                const kind = w0 & 0xff;
                if (kind === KIND.bbo || kind === KIND.conversionRate) continue;
                const index = chunk.first + i;
                // The records of one venue message share their time: only a new time is
                // converted (a division per record otherwise) and may move the clock.
                const hi = u32[w + 3] as number;
                const lo = u32[w + 2] as number;
                if (hi !== at.hi || lo !== at.lo) {
                  at.hi = hi;
                  at.lo = lo;
                  const exchMs = nsHalvesToMs(hi, lo);
                  if (!at.hasFirst) {
                    at.firstMs = exchMs;
                    at.hasFirst = true;
                  }
                  const shifted = exchMs + at.offsetMs;
                  if (shifted > at.lastMs) {
                    at.lastMs = shifted;
                    const moving = handler.advance(shifted);
                    if (moving !== undefined) await moving;
                  }
                }
                let result: Promise<void> | undefined;
                if (kind === KIND.depth) {
                  const sideByte = (w0 >>> 8) & 0xff;
                  const side: Side = sideByte === SIDE_BUY ? 'buy' : 'sell';
                  const price = (i32[w + 9] as number) * TWO_32 + (u32[w + 8] as number);
                  const qty = (i32[w + 11] as number) * TWO_32 + (u32[w + 10] as number);
                  at.events++;
                  result = handler.depth(side, toTicks(price, index), toLots(qty, index));
                } else if (kind === KIND.trade) {
                  const sideByte = (w0 >>> 8) & 0xff;
                  const aggressor: Side | undefined = sideByte === SIDE_BUY ? 'buy' : sideByte === SIDE_SELL ? 'sell' : undefined;
                  const price = (i32[w + 9] as number) * TWO_32 + (u32[w + 8] as number);
                  const qty = (i32[w + 11] as number) * TWO_32 + (u32[w + 10] as number);
                  at.events++;
                  result = handler.trade(aggressor, toTicks(price, index), toLots(qty, index));
                } else if (kind === KIND.clear) {
                  at.events++;
                  result = handler.clear();
                } else if (kind === KIND.gasPrice) {
                  at.events++;
                  result = handler.gasPrice(readExactFields({ bytes: chunk.bytes, offset: i * RECORD_BYTES }).aux1);
                } else {
                  throw new DataError('DATA_BAD_RECORD', `${file.path}: record ${index} has unknown kind ${kind}`);
                }
                if (result !== undefined) await result;
              }
            },
            options.onProgress === undefined ? {} : { onProgress: (done) => options.onProgress?.(before + done, totalRecords) },
          );
          readBefore += file.header.records;
        }
      }
      return at.events;
    },
  };
}
