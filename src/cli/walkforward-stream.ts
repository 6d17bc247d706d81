/**
 * The stream a walk-forward replays and the spans cut from it. Training and test files are one
 * recording in time order (a test file often has no book snapshot of its own: NEXOUSDT's 0725 file
 * continues the 0724 file's book), so they replay back to back and every span is a time window
 * over the whole stream: the book before a span is built, not traded on. Replay-format files are
 * read as they are; Binance collector files are imported together, on the fly, into one temporary
 * recording (as `backtest --reference` reads them).
 */
import { DataError, readRecording, readRecordingHeader, recordingSpan, type RecordingHeader, type RecordingSpan } from '../backtest/data/index.ts';
import { SpanError, rollingWindows, splitSpans, type RollingMode, type WalkforwardWindow } from '../backtest/walkforward/spans.ts';
import { replayRecordings, type ReferenceRecordings } from './backtest-reference.ts';
import { UsageError } from './io.ts';

/** The stream of a walk-forward and its windows. */
export interface WalkforwardStream {
  /** Replay-format recordings of the whole stream, replayed back to back. */
  readonly paths: readonly string[];
  readonly header: RecordingHeader;
  readonly windows: readonly WalkforwardWindow[];
  /** `split`: --train then --test; `rolling` / `expanding`: --windows N over --data. */
  readonly mode: 'split' | RollingMode;
  /** Where the stream came from, for the output's context lines. */
  readonly context: readonly string[];
  /** Removes what was imported for it. */
  dispose(): void;
}

type Warn = (message: string) => void;

function spanOf(paths: readonly string[], flag: string): RecordingSpan {
  try {
    return recordingSpan(paths);
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`${flag} ${error.message}`);
    throw error;
  }
}

function headerOf(path: string, flag: string): RecordingHeader {
  try {
    return readRecordingHeader(path);
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(`${flag} ${error.message}`);
    throw error;
  }
}

/**
 * Every recording of the stream is of one market.
 * @throws UsageError naming the first file of another market.
 */
function checkOneMarket(files: readonly { readonly path: string; readonly flag: string }[]): RecordingHeader {
  const headers = files.map((file) => headerOf(file.path, file.flag));
  const first = headers[0] as RecordingHeader;
  headers.forEach((header, i) => {
    if (header.symbol !== first.symbol || header.source !== first.source) {
      const file = files[i] as { path: string; flag: string };
      throw new UsageError(`${file.flag} ${file.path} is ${header.symbol} (${header.source}), ${(files[0] as { path: string }).path} is ${first.symbol} (${first.source}): a walk-forward runs on one market's stream`);
    }
  });
  return first;
}

/** The exchange time of record `index` of a recording and of the one before it (kind, seq and time), reading up to it. */
async function recordsAround(path: string, index: number): Promise<{ readonly before: string; readonly atMs: number }> {
  const found = { before: '', atMs: Number.NaN };
  const stop = new Error('found');
  try {
    await readRecording(path, (record, i) => {
      if (i === index - 1) found.before = `${record.kind}:${record.seq}:${record.exchMs}`;
      if (i === index) {
        found.atMs = record.exchMs;
        throw stop;
      }
    });
  } catch (error) {
    if (error !== stop) throw error;
  }
  return found;
}

/** The last record of a recording, as {@link recordsAround} describes it. */
async function lastRecord(path: string): Promise<string> {
  let last = '';
  await readRecording(path, (record) => {
    last = `${record.kind}:${record.seq}:${record.exchMs}`;
  });
  return last;
}

function spansError(error: unknown): never {
  if (error instanceof SpanError) throw new UsageError(error.message);
  throw error;
}

/**
 * `--train FILES… --test FILES…`: one stream, cut where the test files start (the exchange time of
 * their first event). Imported files are imported twice: together (the stream) and the training
 * files alone, whose record count says where the test files' records start in the stream.
 * @throws UsageError for files of two formats or markets, test files that do not follow the
 *   training files, or a span without events.
 */
export async function splitStream(train: readonly string[], test: readonly string[], warn: Warn): Promise<WalkforwardStream> {
  const overlap = train.find((path) => test.includes(path));
  if (overlap !== undefined) throw new UsageError(`${overlap} is given to both --train and --test: the test span must be held out`);
  const stream = await replayRecordings([...train, ...test], '--train/--test', warn);
  try {
    if (stream.imported === undefined) {
      const header = checkOneMarket([...train.map((path) => ({ path, flag: '--train' })), ...test.map((path) => ({ path, flag: '--test' }))]);
      const window = cutOrError(spanOf(train, '--train'), spanOf(test, '--test'));
      return { paths: stream.paths, header, windows: [window], mode: 'split', context: [`train: ${train.join(', ')}`, `test: ${test.join(', ')}`], dispose: stream.dispose };
    }
    return await importedSplit(stream, train, test);
  } catch (error) {
    stream.dispose();
    throw error;
  }
}

function cutOrError(train: RecordingSpan, test: RecordingSpan): WalkforwardWindow {
  try {
    return splitSpans(train, test);
  } catch (error) {
    return spansError(error);
  }
}

/** The cut of an imported stream: where the training files' own import ends in it. */
async function importedSplit(stream: ReferenceRecordings, train: readonly string[], test: readonly string[]): Promise<WalkforwardStream> {
  const joined = stream.paths[0] as string;
  const alone = await replayRecordings(train, '--train', () => undefined);
  try {
    const trainPath = alone.paths[0] as string;
    const trainRecords = headerOf(trainPath, '--train').records;
    const header = headerOf(joined, '--test');
    if (header.records <= trainRecords) {
      const skipped = Object.entries(stream.imported?.skipped ?? {}).map(([reason, count]) => `${count} × ${reason}`);
      throw new UsageError(`--test ${test.join(' ')}: adds no event to the stream of --train (${header.symbol})${skipped.length === 0 ? '' : `; the import skipped ${skipped.join(', ')}`}: give the recordings of the same market that continue the training files`);
    }
    const cut = await recordsAround(joined, trainRecords);
    // The importers stream line by line, so the training files' records are the stream's first ones;
    // a mismatch would cut the spans in the wrong place.
    if (cut.before !== (await lastRecord(trainPath))) throw new Error(`the import of --train alone is not the start of the import of --train and --test: cannot tell where the test span starts`);
    const trainSpan = spanOf([trainPath], '--train');
    const window = cutOrError(trainSpan, { firstMs: cut.atMs, lastMs: spanOf([joined], '--test').lastMs });
    const context = [`stream: ${[...train, ...test].join(', ')}, imported as Binance collector files into one recording (${header.symbol}, ${header.records} records)`, `train: ${train.join(', ')}`, `test: ${test.join(', ')}`];
    return { paths: stream.paths, header, windows: [window], mode: 'split', context, dispose: stream.dispose };
  } finally {
    alone.dispose();
  }
}

/**
 * `--data FILES… --windows N`: the recordings as one stream cut into N + 1 equal parts of time.
 * @throws UsageError for files of two formats or markets, or a stream too short for N windows.
 */
export async function rollingStream(data: readonly string[], count: number, mode: RollingMode, warn: Warn): Promise<WalkforwardStream> {
  const stream = await replayRecordings(data, '--data', warn);
  try {
    const header = stream.imported === undefined ? checkOneMarket(data.map((path) => ({ path, flag: '--data' }))) : headerOf(stream.paths[0] as string, '--data');
    let windows: WalkforwardWindow[];
    try {
      windows = rollingWindows(spanOf(stream.paths, '--data'), count, mode);
    } catch (error) {
      return spansError(error);
    }
    const how = stream.imported === undefined ? '' : ', imported as Binance collector files into one recording';
    return { paths: stream.paths, header, windows, mode, context: [`stream: ${data.join(', ')}${how} (${header.symbol})`], dispose: stream.dispose };
  } catch (error) {
    stream.dispose();
    throw error;
  }
}
