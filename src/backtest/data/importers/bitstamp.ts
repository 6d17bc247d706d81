/**
 * Bitstamp logs as obAnalytics recorded them (../shared/data README §2, §5): `<local_ts_ms> <kind>
 * <json>` lines with top-20 `order_book` snapshots, `trade`s and L3 order events. The depth
 * stream is the change between consecutive top-20 snapshots (the first one after a CLEAR; a level
 * that leaves the top 20 is removed). The L3 events are not replayed as depth — the stream starts
 * without the resting orders, so their sizes cannot be trusted — but they settle a trade's
 * aggressor (bitstamp-sides.ts). Bitstamp sends no exchange time: exch_ts = local, flagged.
 */
import { DataError, FLAG, KIND, SIDE_BUY, SIDE_SELL, decimalToScaled } from '../format.ts';
import { RecordingWriter } from '../writer.ts';
import { TradeSideInference } from './bitstamp-sides.ts';
import { readLines } from './lines.ts';
import { SkipCounter, type ImportOptions, type ImportReport, type WarnSink } from './report.ts';
import { LocalStampReader } from './time-unit.ts';

const PRICE_DECIMALS = 2;
const QTY_DECIMALS = 8;

type Levels = Map<number, number>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseLevels(value: unknown): Levels | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: Levels = new Map();
  for (const entry of value) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') return undefined;
    const price = decimalToScaled(entry[0], PRICE_DECIMALS);
    const qty = decimalToScaled(entry[1], QTY_DECIMALS);
    if (price === undefined || qty === undefined || price === 0) return undefined;
    if (qty > 0) levels.set(price, qty);
  }
  return levels;
}

/** A JSON number with float noise (236.47000000000003) → scaled integer, or undefined if not close. */
function numberToScaled(value: unknown, decimals: number): number | undefined {
  if (typeof value === 'string') return decimalToScaled(value, decimals);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const scaled = value * 10 ** decimals;
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-3 && Number.isSafeInteger(rounded) ? rounded : undefined;
}

function best(levels: Levels | undefined, isBid: boolean): number | undefined {
  if (levels === undefined || levels.size === 0) return undefined;
  let top: number | undefined;
  for (const price of levels.keys()) if (top === undefined || (isBid ? price > top : price < top)) top = price;
  return top;
}

/** Imports Bitstamp logs (in time order) into `out`. */
export async function importBitstamp(paths: readonly string[], out: string, warn: WarnSink, options: ImportOptions = {}): Promise<ImportReport> {
  const skips = new SkipCounter(warn);
  const writer = new RecordingWriter(out, { symbol: 'BTCUSD', source: 'bitstamp', priceDecimals: PRICE_DECIMALS, qtyDecimals: QTY_DECIMALS, base: 'BTC', quote: 'USD' });
  let book: { bids: Levels; asks: Levels } | undefined;
  let lastMs = -1;
  const sides = new TradeSideInference();
  try {
    for (const path of paths) {
      let lineNo = 0;
      const stamps = new LocalStampReader(path, options.timeUnit ?? 'auto');
      for await (const line of readLines(path)) {
        lineNo++;
        skips.lines++;
        const where = `${path}:${lineNo}`;
        if (line.trim() === '') continue;
        const match = /^(\d{1,19}) ([a-z_]+) (.*)$/.exec(line);
        if (match === null) {
          if (lineNo === 1 && line.startsWith('id,')) throw new DataError('DATA_BAD_INPUT', `${path} is the orders.csv table; import the .log file`);
          skips.skip('malformed line (not <local_ts_ms> <kind> <json>)', where);
          continue;
        }
        let ms = Number(stamps.toNs(match[1] as string, lineNo) / 1_000_000n);
        const kind = match[2] as string;
        let data: unknown;
        try {
          data = JSON.parse(match[3] as string);
        } catch {
          skips.skip('malformed JSON', where);
          continue;
        }
        if (!isRecord(data)) {
          skips.skip('malformed JSON', where, 'not an object');
          continue;
        }
        if (ms < lastMs) {
          skips.skip('local time went back (kept at the previous time)', where);
          ms = lastMs;
        }
        const ns = BigInt(ms) * 1_000_000n;
        if (kind === 'order_book') {
          const bids = parseLevels(data['bids']);
          const asks = parseLevels(data['asks']);
          if (bids === undefined || asks === undefined) {
            skips.skip('malformed order_book', where);
            continue;
          }
          lastMs = ms;
          const records: { side: number; price: number; qty: number }[] = [];
          for (const [side, now, before] of [
            [SIDE_BUY, bids, book?.bids],
            [SIDE_SELL, asks, book?.asks],
          ] as const) {
            for (const [price, qty] of now) if (before?.get(price) !== qty) records.push({ side, price, qty });
            if (before !== undefined) for (const price of before.keys()) if (!now.has(price)) records.push({ side, price, qty: 0 });
          }
          const flags = FLAG.exchTsEstimated | (book === undefined ? FLAG.snapshot : 0);
          if (book === undefined) writer.append({ kind: KIND.clear, flags: FLAG.exchTsEstimated, exchNs: ns, localNs: ns });
          records.forEach((r, i) =>
            writer.append({ kind: KIND.depth, side: r.side, flags: flags | (i === records.length - 1 ? FLAG.endOfMessage : 0), exchNs: ns, localNs: ns, price: r.price, qty: r.qty }),
          );
          book = { bids, asks };
        } else if (kind === 'trade') {
          const price = numberToScaled(data['price'], PRICE_DECIMALS);
          const qty = numberToScaled(data['amount'], QTY_DECIMALS);
          const id = data['id'];
          if (price === undefined || qty === undefined || price === 0 || typeof id !== 'number' || !Number.isSafeInteger(id)) {
            skips.skip('malformed trade', where);
            continue;
          }
          lastMs = ms;
          const side = sides.aggressor(ms, price, best(book?.bids, true), best(book?.asks, false));
          writer.append({ kind: KIND.trade, side, flags: FLAG.endOfMessage | FLAG.exchTsEstimated, exchNs: ns, localNs: ns, seq: id, price, qty });
        } else if (kind === 'order_created' || kind === 'order_changed' || kind === 'order_deleted') {
          const price = numberToScaled(data['price'], PRICE_DECIMALS);
          const orderType = data['order_type'];
          const createdS = Number(data['datetime']);
          if (price === undefined || (orderType !== 0 && orderType !== 1) || !Number.isSafeInteger(createdS)) {
            skips.skip(`malformed ${kind}`, where);
            continue;
          }
          lastMs = ms;
          if (kind !== 'order_created') sides.touch({ ms, price, side: orderType === 0 ? SIDE_BUY : SIDE_SELL, createdS });
          skips.counts['L3 events used only for trade sides'] = (skips.counts['L3 events used only for trade sides'] ?? 0) + 1;
        } else {
          skips.skip('unknown kind', where, kind);
        }
      }
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  const header = writer.close();
  return { format: 'bitstamp', lines: skips.lines, records: header.records, skipped: skips.counts, header, notes: [sides.describe()], tradeSides: { ...sides.counts } };
}
