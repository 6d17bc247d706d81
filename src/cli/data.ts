/**
 * `akira-mm data import --format <binance|lobster|bitstamp|akira> FILES… --out FILE` converts a
 * recording into the project format; `akira-mm data bbo FILE` prints the rebuilt top of book
 * after every book change, as CSV, so users can check a recording against the venue's own BBO.
 */
import { DataError, IMPORT_FORMATS, TIME_UNITS, importRecording, isImportFormat, isTimeUnit, readRecordingHeader, replayTopOfBook, scaledToDecimal, type TopRow } from '../backtest/data/index.ts';
import { parseFlags, selectSubcommand } from './args.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';

const IMPORT_USAGE = `akira-mm data import --format <${IMPORT_FORMATS.join('|')}> FILES… --out FILE [--time-unit ${TIME_UNITS.join('|')}]`;
const BBO_USAGE = 'akira-mm data bbo FILE';

const SUBCOMMANDS = [
  { name: 'import', usage: IMPORT_USAGE, summary: 'convert recordings (gzip or plain) into the replay format; docs/data-format.md' },
  { name: 'bbo', usage: BBO_USAGE, summary: 'print the rebuilt top of book after every book change as CSV' },
];

const IMPORT_OPTIONS = {
  format: { type: 'string', value: `<${IMPORT_FORMATS.join('|')}>`, required: true, doc: 'the input format' },
  out: { type: 'string', value: 'FILE', required: true, doc: 'the recording to write (nothing is left behind on failure)' },
  'time-unit': {
    type: 'string',
    value: `<${TIME_UNITS.join('|')}>`,
    default: 'auto',
    doc: 'unit of the local timestamps (binance, bitstamp); auto: per file, the unit that puts the first stamp in 2009–2100. A stamp outside 2009–2100 fails the import, naming its file and line',
  },
} as const;

/** Formats whose lines carry a local timestamp of their own. */
const STAMPED_FORMATS: readonly string[] = ['binance', 'bitstamp'];

/** Turns a data error into a one-line usage error (exit 2): the input is what is wrong. */
async function asUsage<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DataError) throw new UsageError(error.message);
    throw error;
  }
}

async function runImport(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, IMPORT_OPTIONS, { usage: IMPORT_USAGE, summary: SUBCOMMANDS[0]?.summary ?? '', notes: ['FILES: the input files in time order (binance: each day\'s file continues the one before; lobster: the message file and its orderbook file).'] });
  if (values.format === undefined) throw new UsageError(`--format is required (one of ${IMPORT_FORMATS.join(', ')})\nusage: ${IMPORT_USAGE}`);
  if (!isImportFormat(values.format)) throw new UsageError(`--format=${values.format} is not a known format (one of ${IMPORT_FORMATS.join(', ')})`);
  if (values.out === undefined) throw new UsageError(`--out FILE is required\nusage: ${IMPORT_USAGE}`);
  if (positionals.length === 0) throw new UsageError(`no input FILES given\nusage: ${IMPORT_USAGE}`);
  const timeUnit = values['time-unit'] ?? 'auto';
  if (!isTimeUnit(timeUnit)) throw new UsageError(`--time-unit=${timeUnit} is not a unit (one of ${TIME_UNITS.join(', ')})`);
  if (values['time-unit'] !== undefined && !STAMPED_FORMATS.includes(values.format)) {
    throw new UsageError(`--time-unit applies to ${STAMPED_FORMATS.join(' and ')} files only; ${values.format} files carry their own times`);
  }
  const format = values.format;
  const out = values.out;
  const report = await asUsage(() => importRecording(format, positionals, out, (message) => io.stderr.write(`warning: ${message}\n`), { timeUnit }));
  const h = report.header;
  const skipped = Object.entries(report.skipped);
  const lines = [
    `${out}: ${report.records} records from ${report.lines} input lines (${report.format})`,
    `symbol ${h.symbol}${h.base === undefined ? '' : ` (${h.base}/${h.quote ?? '?'})`}, tick ${h.tick}, lot ${h.lot}, prices ×10^${h.priceDecimals}, sizes ×10^${h.qtyDecimals}`,
    ...(skipped.length === 0 ? ['nothing skipped'] : ['not imported:', ...skipped.map(([reason, count]) => `  ${count} × ${reason}`)]),
  ];
  io.stdout.write(lines.join('\n') + '\n');
  return 0;
}

function formatRow(row: TopRow, priceDecimals: number, qtyDecimals: number): string {
  const price = (value: number | undefined): string => (value === undefined ? '' : scaledToDecimal(value, priceDecimals));
  const qty = (value: number, side: number | undefined): string => (side === undefined ? '' : scaledToDecimal(value, qtyDecimals));
  return `${row.exchMs},${row.updateId ?? ''},${price(row.bid)},${qty(row.bidQty, row.bid)},${price(row.ask)},${qty(row.askQty, row.ask)}`;
}

async function runBbo(args: readonly string[], io: CliIo): Promise<number> {
  const { positionals } = parseFlags(args, {}, { usage: BBO_USAGE, summary: SUBCOMMANDS[1]?.summary ?? '', notes: ['Columns: exch_ts_ms,update_id,bid,bid_qty,ask,ask_qty.'] });
  if (positionals.length !== 1) throw new UsageError(`one recording FILE is required\nusage: ${BBO_USAGE}`);
  const path = positionals[0] as string;
  const header = await asUsage(async () => readRecordingHeader(path));
  // `data bbo FILE | head` closes the pipe early: stop reading quietly instead of crashing on EPIPE.
  let isClosed = false;
  const stream = io.stdout as { on?: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => unknown };
  stream.on?.('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    isClosed = true;
  });
  io.stdout.write('exch_ts_ms,update_id,bid,bid_qty,ask,ask_qty\n');
  // Rows are written in batches: one write per row would dominate on a pipe.
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    io.stdout.write(batch.join('\n') + '\n');
    batch = [];
    // Let a pending EPIPE surface before reading on.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  await asUsage(() =>
    replayTopOfBook(path, (row) => {
      if (isClosed) return undefined;
      batch.push(formatRow(row, header.priceDecimals, header.qtyDecimals));
      return batch.length === 4096 ? flush() : undefined;
    }),
  );
  if (batch.length > 0 && !isClosed) io.stdout.write(batch.join('\n') + '\n');
  return 0;
}

/** `akira-mm data …`. */
export const runData: CommandRunner = async (args, io) => {
  const { subcommand, rest } = selectSubcommand('data', args, SUBCOMMANDS);
  return subcommand.name === 'import' ? runImport(rest, io) : runBbo(rest, io);
};
