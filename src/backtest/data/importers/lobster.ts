/**
 * LOBSTER (NASDAQ) sample files: a message file and the matching `orderbook_N` file, where row k
 * of the book is the book after message k (../shared/data README §3). The depth stream is the
 * difference between consecutive book rows (so it is exactly LOBSTER's own N-level book; a level
 * that leaves the N visible ones is removed), and executions (types 4, 5) are trades whose
 * aggressor is the opposite of the resting order's direction. LOBSTER times are exchange times
 * (seconds after midnight, New York); there is no receive clock and no sequence id.
 *
 * Executions against hidden orders (type 5) may print at half a cent (a midpoint peg): GOOG's and
 * AMZN's whole days have 50 and 63 of them. Quotes on NASDAQ step by whole cents at $1 and above
 * (Reg NMS rule 612), and the book here does, so such a price is moved to the cent away from the
 * quotes it could fill (a buy down, a sell up, an unknown side to the nearest): it then fills no
 * quote of ours the real trade would not have, and the recording's tick stays the book's cent
 * instead of a half cent our quotes could use and the venue's could not.
 */
import { basename } from 'node:path';
import { DataError, FLAG, KIND, SIDE_BUY, SIDE_NONE, SIDE_SELL, type RecordInput } from '../format.ts';
import { RecordingWriter } from '../writer.ts';
import { readLines } from './lines.ts';
import { SkipCounter, type ImportReport, type WarnSink } from './report.ts';

const FILE_NAME = /^([A-Za-z0-9.]+)_(\d{4})-(\d{2})-(\d{2})_\d+_\d+_(message|orderbook)_(\d+)\.csv(?:\.gz)?$/;
/** LOBSTER prices are USD × 10 000. */
const PRICE_DECIMALS = 4;
const EMPTY_PRICE = 9_999_999_999;
/** One cent, and one dollar, in LOBSTER's price units. */
const CENT = 100;
const DOLLAR = 10_000;

/** A trade price on NASDAQ's quoting grid (whole cents from $1 on), moved away from the quotes it could fill. */
function onQuoteGrid(price: number, aggressor: number): number {
  if (price < DOLLAR || price % CENT === 0) return price;
  const below = price - (price % CENT);
  if (aggressor === SIDE_BUY) return below;
  if (aggressor === SIDE_SELL) return below + CENT;
  return price % CENT < CENT / 2 ? below : below + CENT;
}

interface LobsterFile {
  readonly path: string;
  readonly symbol: string;
  readonly date: [number, number, number];
  readonly kind: 'message' | 'orderbook';
}

function describeFile(path: string): LobsterFile {
  const match = FILE_NAME.exec(basename(path));
  if (match === null) {
    throw new DataError('DATA_BAD_INPUT', `${path}: not a LOBSTER file name (TICKER_YYYY-MM-DD_start_end_message|orderbook_N.csv, or .csv.gz)`);
  }
  return { path, symbol: match[1] as string, date: [Number(match[2]), Number(match[3]), Number(match[4])], kind: match[5] as 'message' | 'orderbook' };
}

/** Offset of New York from UTC on that day, in minutes (−240 in summer, −300 in winter). */
export function newYorkOffsetMinutes(year: number, month: number, day: number): number {
  const noonUtc = new Date(Date.UTC(year, month - 1, day, 16));
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' })
    .formatToParts(noonUtc)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT([+-]\d+)(?::(\d+))?$/.exec(name ?? '');
  if (match === null) throw new DataError('DATA_BAD_INPUT', `cannot find the New York UTC offset for ${year}-${month}-${day} (${name ?? 'no ICU data'})`);
  const hours = Number(match[1]);
  return hours * 60 + Math.sign(hours) * Number(match[2] ?? 0);
}

/**
 * "34200.004241176" → nanoseconds after midnight, exactly. Some rows carry float noise below the
 * ns ("43002.632812672004", AMZN's full day): those digits are rounded to the nearest ns.
 */
function secondsToNs(text: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  const roundUp = fraction.length > 9 && Number(fraction[9]) >= 5 ? 1n : 0n;
  return BigInt(match[1] as string) * 1_000_000_000n + BigInt(fraction.slice(0, 9).padEnd(9, '0')) + roundUp;
}

type Levels = Map<number, number>;

function parseBookRow(line: string): { bids: Levels; asks: Levels } | undefined {
  const cells = line.split(',');
  if (cells.length === 0 || cells.length % 4 !== 0) return undefined;
  const bids: Levels = new Map();
  const asks: Levels = new Map();
  for (let i = 0; i < cells.length; i += 4) {
    const values = cells.slice(i, i + 4).map(Number);
    if (values.some((value) => !Number.isSafeInteger(value))) return undefined;
    const [askPrice, askSize, bidPrice, bidSize] = values as [number, number, number, number];
    if (askSize > 0 && askPrice > 0 && askPrice !== EMPTY_PRICE) asks.set(askPrice, askSize);
    if (bidSize > 0 && bidPrice > 0 && bidPrice !== EMPTY_PRICE) bids.set(bidPrice, bidSize);
  }
  return { bids, asks };
}

/**
 * Imports one LOBSTER message file and its order-book file (in either order) into `out`.
 * @throws DataError for missing or mismatched files.
 */
export async function importLobster(paths: readonly string[], out: string, warn: WarnSink): Promise<ImportReport> {
  const files = paths.map(describeFile);
  const message = files.find((file) => file.kind === 'message');
  const book = files.find((file) => file.kind === 'orderbook');
  if (files.length !== 2 || message === undefined || book === undefined) {
    throw new DataError('DATA_BAD_INPUT', 'LOBSTER import takes two files: the message file and its orderbook file');
  }
  if (message.symbol !== book.symbol || message.date.join('-') !== book.date.join('-')) {
    throw new DataError('DATA_BAD_INPUT', `${message.path} and ${book.path} are not the same symbol and day`);
  }
  const [year, month, day] = message.date;
  const midnightNs = BigInt(Date.UTC(year, month - 1, day)) * 1_000_000n - BigInt(newYorkOffsetMinutes(year, month, day)) * 60_000_000_000n;
  const skips = new SkipCounter(warn);
  const writer = new RecordingWriter(out, { symbol: message.symbol, source: 'lobster', priceDecimals: PRICE_DECIMALS, qtyDecimals: 0 });
  const books = readLines(book.path)[Symbol.asyncIterator]();
  let previous: { bids: Levels; asks: Levels } | undefined;
  let lastNs = -1n;
  let row = 0;
  let subCent = 0;
  try {
    for await (const line of readLines(message.path)) {
      row++;
      skips.lines++;
      const where = `${message.path}:${row}`;
      const bookLine = await books.next();
      if (bookLine.done === true) {
        warn(`${book.path} ends before ${message.path} (row ${row}); the rest is not imported`);
        break;
      }
      const cells = line.split(',');
      const timeNs = cells.length === 6 ? secondsToNs(cells[0] as string) : undefined;
      const type = Number(cells[1]);
      const size = Number(cells[3]);
      const price = Number(cells[4]);
      const direction = Number(cells[5]);
      const next = parseBookRow(bookLine.value);
      if (timeNs === undefined || !Number.isInteger(type) || !Number.isSafeInteger(size) || !Number.isSafeInteger(price) || (direction !== 1 && direction !== -1)) {
        skips.skip('malformed message row', where);
        continue;
      }
      if (next === undefined) {
        skips.skip('malformed order-book row', `${book.path}:${row}`);
        continue;
      }
      let ns = midnightNs + timeNs;
      if (ns < lastNs) {
        skips.skip('time went back (kept at the previous time)', where);
        ns = lastNs;
      }
      lastNs = ns;
      const records: RecordInput[] = [];
      if (type === 4 || type === 5 || type === 6) {
        // direction is the resting order's side: a sell order executed means a buyer came in. A cross (6) has no side.
        const side = type === 6 ? SIDE_NONE : direction === -1 ? SIDE_BUY : SIDE_SELL;
        const gridPrice = onQuoteGrid(price, side);
        if (gridPrice !== price) subCent++;
        records.push({ kind: KIND.trade, side, exchNs: ns, localNs: ns, price: gridPrice, qty: size });
      } else if (type === 7) {
        skips.skip('trading halt message', where);
      }
      if (previous === undefined) {
        records.push({ kind: KIND.clear, exchNs: ns, localNs: ns });
      }
      for (const [side, now, before] of [
        [SIDE_BUY, next.bids, previous?.bids],
        [SIDE_SELL, next.asks, previous?.asks],
      ] as const) {
        const flags = previous === undefined ? FLAG.snapshot : 0;
        for (const [levelPrice, levelSize] of now) {
          if (before?.get(levelPrice) !== levelSize) records.push({ kind: KIND.depth, side, flags, exchNs: ns, localNs: ns, price: levelPrice, qty: levelSize });
        }
        if (before !== undefined) {
          for (const levelPrice of before.keys()) {
            if (!now.has(levelPrice)) records.push({ kind: KIND.depth, side, exchNs: ns, localNs: ns, price: levelPrice, qty: 0 });
          }
        }
      }
      previous = next;
      records.forEach((record, i) => writer.append(i === records.length - 1 ? { ...record, flags: (record.flags ?? 0) | FLAG.endOfMessage } : record));
    }
    if ((await books.next()).done !== true) warn(`${book.path} has more rows than ${message.path}; the extra rows are not imported`);
  } catch (error) {
    writer.abort();
    throw error;
  }
  const header = writer.close();
  const notes = subCent === 0 ? [] : [`${subCent} executions at sub-cent prices (hidden orders) moved to the cent away from the quotes they could fill (a buy down, a sell up)`];
  return { format: 'lobster', lines: skips.lines, records: header.records, skipped: skips.counts, header, notes };
}
