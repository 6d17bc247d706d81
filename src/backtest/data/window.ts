/**
 * A time window of a recording (`backtest --from-share X --to-share Y`): the replay of only a
 * share of the recording's time span, so one half can fit and tune and the other test. The book
 * at the window's start is the recording's book then: every depth record before it is applied to
 * a book of its own, and that book reaches the handler as one snapshot of levels at the window's
 * first event, with the last gas price seen; the trades before it are not replayed (nobody
 * quotes yet). The replay stops at the first record after the window's end.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { OrderBook, type Side } from '../../core/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from './events.ts';
import { DataError, HEADER_BYTES, RECORD_BYTES, emptyRecord } from './format.ts';
import { decodeRecord, readRecordingHeader } from './reader.ts';

/** First and last exchange time of recordings replayed back to back, ms. */
export interface RecordingSpan {
  readonly firstMs: number;
  readonly lastMs: number;
}

/** Exchange times (ms) the window keeps: events at `fromMs` ≤ t ≤ `toMs`. */
export interface TimeWindow {
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The span from the first record of the first file to the last time of the last. Records are in
 * receive order and each stream (depth, trades) keeps its own clock, so the last record need not
 * carry the latest time: the replay, which never lets time go back, ends at the latest time of the
 * file's tail, read here from its last {@link TAIL_RECORDS} records.
 * @throws DataError for an unreadable or empty recording.
 */
export function recordingSpan(paths: readonly string[]): RecordingSpan {
  const first = paths[0];
  const last = paths[paths.length - 1];
  if (first === undefined || last === undefined) throw new DataError('DATA_BAD_INPUT', 'no recording given');
  return { firstMs: recordTimesMs(first, 'head')[0] as number, lastMs: Math.max(...recordTimesMs(last, 'tail')) };
}

/** Records read at the end of a file for its last time: far more than one venue message's. */
const TAIL_RECORDS = 1024;

function recordTimesMs(path: string, where: 'head' | 'tail'): number[] {
  const header = readRecordingHeader(path);
  if (header.records === 0) throw new DataError('DATA_BAD_INPUT', `${path}: has no records, so no time span to take a share of`);
  const count = where === 'head' ? 1 : Math.min(TAIL_RECORDS, header.records);
  const buffer = new ArrayBuffer(count * RECORD_BYTES);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, new Uint8Array(buffer), 0, buffer.byteLength, HEADER_BYTES + (header.records - (where === 'head' ? header.records : count)) * RECORD_BYTES);
  } finally {
    closeSync(fd);
  }
  const [u32, i32, record] = [new Uint32Array(buffer), new Int32Array(buffer), emptyRecord()];
  return Array.from({ length: count }, (_, i) => {
    decodeRecord(u32, i32, i, record);
    return record.exchMs;
  });
}

/** The exchange times of the shares `from` to `to` (0 ≤ from < to ≤ 1) of a span. */
export function shareWindow(span: RecordingSpan, fromShare: number, toShare: number): TimeWindow {
  if (!(fromShare >= 0 && fromShare < toShare && toShare <= 1)) throw new RangeError(`shares ${fromShare}..${toShare}: need 0 ≤ from < to ≤ 1`);
  const length = span.lastMs - span.firstMs;
  return { fromMs: span.firstMs + fromShare * length, toMs: toShare === 1 ? span.lastMs : span.firstMs + toShare * length };
}

/** Thrown through the reader to stop it after the window's end; never leaves {@link windowedSource}. */
class WindowEnd extends Error {}

/**
 * `source` replayed over `window` only. The event count is what reached the handler (the start's
 * snapshot levels included).
 */
export function windowedSource(source: RecordedEventSource, window: TimeWindow): RecordedEventSource {
  return {
    async replay(handler: RecordedEventHandler): Promise<number> {
      const book = new OrderBook();
      const state = { inside: false, events: 0, gas: undefined as bigint | undefined };
      const enter = async (timeMs: number): Promise<void> => {
        state.inside = true;
        await handler.advance(timeMs);
        for (const side of ['buy', 'sell'] as const) {
          for (const level of book.levels(side, -1)) {
            state.events++;
            await handler.depth(side, level.priceTicks, level.qtyLots);
          }
        }
        book.clear();
        if (state.gas !== undefined) {
          state.events++;
          await handler.gasPrice(state.gas);
        }
      };
      const windowed: RecordedEventHandler = {
        advance(timeMs) {
          if (timeMs > window.toMs) throw new WindowEnd();
          if (state.inside) return handler.advance(timeMs);
          return timeMs >= window.fromMs ? enter(timeMs) : undefined;
        },
        depth(side: Side, priceTicks: number, qtyLots: number) {
          if (!state.inside) {
            book.setLevel(side, priceTicks, qtyLots);
            return undefined;
          }
          state.events++;
          return handler.depth(side, priceTicks, qtyLots);
        },
        clear() {
          if (!state.inside) {
            book.clear();
            return undefined;
          }
          state.events++;
          return handler.clear();
        },
        trade(aggressor, priceTicks, qtyLots) {
          if (!state.inside) return undefined;
          state.events++;
          return handler.trade(aggressor, priceTicks, qtyLots);
        },
        gasPrice(gasPriceUnits) {
          if (!state.inside) {
            state.gas = gasPriceUnits;
            return undefined;
          }
          state.events++;
          return handler.gasPrice(gasPriceUnits);
        },
      };
      try {
        await source.replay(windowed);
      } catch (error) {
        if (!(error instanceof WindowEnd)) throw error;
      }
      return state.events;
    },
  };
}
