/**
 * `akira-mm parity`'s parts (docs/parity.md): a session read from its journal, the comparison
 * with its backtest, and its outputs.
 */
import type { Journal, JournalRecord } from '../../engine/index.ts';
import { FLAG, KIND, readRecording, readRecordingHeader, replayTopOfBook } from '../data/index.ts';
import type { MidSeries } from './compare.ts';
import type { SessionTrace } from './session-trace.ts';

export { CAUSE_TEXT, compareSessions, midAt, type MatchTolerance, type MidSeries, type ParityComparison, type SideFigures, type UnmatchedCause, type UnmatchedFill } from './compare.ts';
export { formatParity, parityJson, paritySectionHtml, type ParityVerdict } from './format.ts';
export { ParityInputError, journalPairs, median, readSessionTrace, type SessionTrace, type TraceDecimals, type TraceFill, type TraceOrder } from './session-trace.ts';

/**
 * A journal kept in memory as the text a file would hold (each line with its pair): the backtest
 * writes one, and parity reads it exactly as it reads a live session's file.
 */
export class TextJournal implements Journal {
  private readonly lines: string[] = [];

  constructor(private readonly pair: string) {}

  append(record: JournalRecord): void {
    this.lines.push(JSON.stringify({ ...record, pair: this.pair }));
  }

  unresolvedOrders(): [] {
    return [];
  }

  compact(): void {}

  close(): void {}

  /** What was written, one record a line. */
  text(): string {
    return this.lines.map((line) => `${line}\n`).join('');
  }
}

/** The recordings' mid after every book change (quote per base), back to back, in time order. */
export async function loadMidSeries(paths: readonly string[]): Promise<MidSeries> {
  const timesMs: number[] = [];
  const mids: number[] = [];
  for (const path of paths) {
    const scale = 10 ** readRecordingHeader(path).priceDecimals;
    await replayTopOfBook(path, (row) => {
      if (row.bid === undefined || row.ask === undefined) return;
      const timeMs = Number(row.exchMs);
      // Each stream keeps its own clock: the series never goes back in time.
      if (timesMs.length > 0 && timeMs < (timesMs[timesMs.length - 1] as number)) return;
      timesMs.push(timeMs);
      mids.push((row.bid + row.ask) / 2 / scale);
    });
  }
  return { timesMs, mids };
}

/**
 * How far the recording's exchange clock runs ahead of its receive clock: the median of exchange
 * minus receive time over its trades and book messages (times the exchange stamped), ms. A
 * session's journal is on the receive side's clock (the bot's machine, or a paper session's
 * served recording, which replays at receive time), the backtest on the exchange's; parity moves
 * the journal by this much (docs/parity.md "Clocks"). 0 for a recording without receive times.
 */
export async function exchangeMinusReceiveMs(paths: readonly string[]): Promise<number> {
  const offsets: number[] = [];
  for (const path of paths) {
    await readRecording(path, (record) => {
      if ((record.kind !== KIND.trade && record.kind !== KIND.depth) || (record.flags & FLAG.exchTsEstimated) !== 0 || record.localMs === 0) return;
      if ((record.flags & FLAG.endOfMessage) === 0 && record.kind === KIND.depth) return;
      offsets.push(record.exchMs - record.localMs);
    });
  }
  if (offsets.length === 0) return 0;
  offsets.sort((a, b) => a - b);
  return Math.round(offsets[Math.floor(offsets.length / 2)] as number);
}

/** The trace with every time moved by `offsetMs` (onto the recording's exchange clock). */
export function shiftTrace(trace: SessionTrace, offsetMs: number): SessionTrace {
  const move = (ms: number | undefined): number | undefined => (ms === undefined ? undefined : ms + offsetMs);
  return {
    ...trace,
    startMs: trace.startMs + offsetMs,
    endMs: trace.endMs + offsetMs,
    orders: trace.orders.map((order) => ({ ...order, sentMs: order.sentMs + offsetMs, ackMs: move(order.ackMs), doneMs: move(order.doneMs) })),
    fills: trace.fills.map((fill) => ({ ...fill, timeMs: fill.timeMs + offsetMs })),
  };
}
