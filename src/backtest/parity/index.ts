/**
 * `akira-mm parity`'s parts (docs/parity.md): a session read from its journal, the comparison
 * with its backtest, and its outputs.
 */
import type { Journal, JournalRecord } from '../../engine/index.ts';
import { readRecordingHeader, replayTopOfBook } from '../data/index.ts';
import type { MidSeries } from './compare.ts';

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
