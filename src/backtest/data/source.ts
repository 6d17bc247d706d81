/**
 * A recording as the backtest's `RecordedEventSource`: records are streamed from the files, their
 * scaled prices and quantities become integer ticks and lots of the pair's rules, and they reach
 * the handler in file (receive) order at exchange time. Exchange time is clamped so it never goes
 * back: streams of one venue (depth, trades) carry their own clocks, and the receive order is the
 * order the bot would have seen them in.
 */
import type { TickerRules } from '../../core/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from './events.ts';
import { DataError } from './format.ts';
import { readRecordingChunks, readRecordingHeader } from './reader.ts';
import { RecordDispatcher } from './record-dispatcher.ts';
import { recordingScale } from './scale.ts';

/** Options of {@link createRecordedEventSource}. */
export interface RecordedSourceOptions {
  /** Replays the files this many times (benchmarks), each pass starting after the last ended. Default 1. */
  readonly passes?: number;
  /** Called as records are read: done and total over all files and passes. */
  readonly onProgress?: (recordsRead: number, totalRecords: number) => void;
  /** The recordings are a reference market: sizes finer than the venue's lot come as fractions of it (`recordingScale`). */
  readonly fractionalLots?: boolean;
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
    return { path, header, scale: recordingScale(header, rules, path, { fractionalLots: options.fractionalLots === true }) };
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
