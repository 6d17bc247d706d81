/**
 * A time window of a recording (`backtest --from-time T1 --to-time T2`, `--from-share X
 * --to-share Y`, the walk-forward spans): the replay of only part of the recording's time span,
 * so one part can fit and tune and the other test. {@link timeWindow} is the one way to cut a
 * recording by time: shares and times both go through it, and it refuses a window that reaches
 * outside the recording. The book
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

/**
 * The window from `fromMs` to `toMs` (exchange times, ms since the epoch; a bound left out is the
 * span's own) of the recordings' span.
 * @throws DataError `DATA_BAD_INPUT` when the window is empty or reaches outside the span, naming
 *   both in UTC.
 */
export function timeWindow(span: RecordingSpan, bounds: { readonly fromMs?: number | undefined; readonly toMs?: number | undefined } = {}): TimeWindow {
  const fromMs = bounds.fromMs ?? span.firstMs;
  const toMs = bounds.toMs ?? span.lastMs;
  const spanText = `the recording spans ${isoTime(span.firstMs)} → ${isoTime(span.lastMs)}`;
  if (fromMs < span.firstMs || fromMs >= span.lastMs || toMs > span.lastMs || toMs <= span.firstMs) {
    throw new DataError('DATA_BAD_INPUT', `the window ${isoTime(fromMs)} → ${isoTime(toMs)} reaches outside the recording: ${spanText}`);
  }
  if (!(fromMs < toMs)) throw new DataError('DATA_BAD_INPUT', `the window ${isoTime(fromMs)} → ${isoTime(toMs)} is empty: its start must come before its end (${spanText})`);
  return { fromMs, toMs };
}

/** The exchange times of the shares `from` to `to` (0 ≤ from < to ≤ 1) of a span. */
export function shareWindow(span: RecordingSpan, fromShare: number, toShare: number): TimeWindow {
  if (!(fromShare >= 0 && fromShare < toShare && toShare <= 1)) throw new RangeError(`shares ${fromShare}..${toShare}: need 0 ≤ from < to ≤ 1`);
  const length = span.lastMs - span.firstMs;
  return timeWindow(span, { fromMs: span.firstMs + fromShare * length, toMs: toShare === 1 ? span.lastMs : span.firstMs + toShare * length });
}

/** A time in ms as UTC ISO 8601 (`2024-07-24T16:00:00.000Z`). */
export function isoTime(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}

const UTC_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date or time (`2024-07-24`, `2024-07-24T16:00`, `2024-07-24T16:00:00.250Z`,
 * `2024-07-24T18:00+02:00`) as ms since the epoch. Without a zone it is UTC, never the machine's
 * local time, so a window means the same instant on every machine.
 * @throws DataError `DATA_BAD_INPUT` naming the text when it is not such a time or not a real date.
 */
export function parseUtcTime(text: string): number {
  const match = UTC_TIME.exec(text.trim());
  const invalid = (): DataError => new DataError('DATA_BAD_INPUT', `${text} is not a UTC time: expected ISO 8601, e.g. 2024-07-24T16:00:00Z (a time without a zone is UTC)`);
  if (match === null) throw invalid();
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i] ?? 0)) as [number, number, number, number, number, number];
  const millis = Number((match[7] ?? '').padEnd(3, '0'));
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const back = new Date(ms);
  // Date.UTC rolls 2024-02-30 over into March: a field that changed was out of range.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || back.getUTCHours() !== hour || back.getUTCMinutes() !== minute || back.getUTCSeconds() !== second) throw invalid();
  const zone = match[8];
  if (zone === undefined || zone.toUpperCase() === 'Z') return ms;
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone) as RegExpExecArray;
  const minutes = Number(offset[2]) * 60 + Number(offset[3]);
  if (Number(offset[2]) > 23 || Number(offset[3]) > 59) throw invalid();
  return ms - (offset[1] === '-' ? -1 : 1) * minutes * 60_000;
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
