import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND, SIDE_BUY, SIDE_NONE, SIDE_SELL } from '../../../src/backtest/data/format.ts';
import { importRecording } from '../../../src/backtest/data/importers/index.ts';
import { newYorkOffsetMinutes } from '../../../src/backtest/data/importers/lobster.ts';
import { replayTopOfBook, type TopRow } from '../../../src/backtest/data/top-of-book.ts';
import { RecordingWriter } from '../../../src/backtest/data/writer.ts';
import { readAll, tempDir, writeLines } from './fixtures.ts';

const dir = tempDir('importers');

async function tops(path: string): Promise<TopRow[]> {
  const rows: TopRow[] = [];
  await replayTopOfBook(path, (row) => void rows.push(row));
  return rows;
}

describe('lobster importer', () => {
  const name = (kind: string): string => `AAPL_2012-06-21_34200000_57600000_${kind}_2.csv`;
  // Two levels a side: [ask, askSize, bid, bidSize] × 2.
  const book = (rows: number[][]): string[] => rows.map((row) => row.join(','));

  it('turns book rows into depth changes and executions into trades with the aggressor opposite the resting side', async () => {
    const messages = writeLines(dir, name('message'), [
      '34200.004241176,1,1,18,5853300,1', // new bid
      '34200.5,4,2,100,5859400,-1', // a resting ask executed: a buyer came in
      '34201,5,3,7,5855000,1', // hidden bid executed: a seller came in
      'garbage',
      '34202,3,1,18,5853300,1',
    ]);
    const orderbook = writeLines(dir, name('orderbook'), book([
      [5859400, 200, 5853300, 18, 5859800, 200, 5853000, 150],
      [5859400, 100, 5853300, 18, 5859800, 200, 5853000, 150],
      [5859400, 100, 5853300, 18, 5859800, 200, 5853000, 150],
      [5859400, 100, 5853300, 18, 5859800, 200, 5853000, 150],
      [5859400, 100, 5853000, 150, 5859800, 200, -9999999999, 0],
    ]));
    const out = join(dir, 'aapl.data');
    const warnings: string[] = [];
    const report = await importRecording('lobster', [orderbook, messages], out, (w) => warnings.push(w));
    expect(report.skipped).toEqual({ 'malformed message row': 1 });
    expect(report.header).toMatchObject({ symbol: 'AAPL', priceDecimals: 4, qtyDecimals: 0, tick: '0.01', lot: '1' });
    const records = await readAll(out);
    const trades = records.filter((r) => r.kind === KIND.trade).map((r) => [r.side, r.price, r.qty]);
    expect(trades).toEqual([
      [SIDE_BUY, 5859400, 100],
      [SIDE_SELL, 5855000, 7],
    ]);
    // 09:30:00.004241176 New York (EDT, UTC−4) on 2012-06-21.
    expect(records[0]?.exchNs).toBe(1_340_285_400_004_241_176n);
    expect(records[0]?.kind).toBe(KIND.clear);
    const rows = await tops(out);
    expect(rows.map((r) => [r.updateId, r.bid, r.bidQty, r.ask, r.askQty])).toEqual([
      [undefined, 5853300, 18, 5859400, 200],
      [undefined, 5853300, 18, 5859400, 100],
      [undefined, 5853000, 150, 5859400, 100],
    ]);
    expect(newYorkOffsetMinutes(2012, 1, 10)).toBe(-300);
  });

  it('reads a gzipped pair (.csv.gz, as LOBSTER ships whole days), moves sub-cent hidden executions to the cent away from our quotes, and rounds float noise below the ns', async () => {
    const gz = (kind: string): string => `AMZN_2012-06-21_34200000_57600000_${kind}_2.csv.gz`;
    const messages = writeLines(dir, gz('message'), [
      '34200.1,1,1,18,5853300,1',
      '43002.632812672004,5,2,7,5855050,-1', // hidden sell order executed at a half cent: a buyer came in
      '43003,5,3,7,5855050,1', // hidden buy order executed at a half cent: a seller came in
      '43004,4,4,100,5859400,-1',
    ]);
    const row = [5859400, 200, 5853300, 18, 5859800, 200, 5853000, 150];
    const orderbook = writeLines(dir, gz('orderbook'), book([row, row, row, [5859400, 100, 5853300, 18, 5859800, 200, 5853000, 150]]));
    const out = join(dir, 'amzn.data');
    const report = await importRecording('lobster', [messages, orderbook], out, () => undefined);
    expect(report.skipped).toEqual({});
    expect(report.header).toMatchObject({ symbol: 'AMZN', tick: '0.01' });
    expect(report.notes).toEqual(['2 executions at sub-cent prices (hidden orders) moved to the cent away from the quotes they could fill (a buy down, a sell up)']);
    const trades = (await readAll(out)).filter((r) => r.kind === KIND.trade);
    expect(trades.map((r) => [r.side, r.price])).toEqual([
      [SIDE_BUY, 5855000],
      [SIDE_SELL, 5855100],
      [SIDE_BUY, 5859400],
    ]);
    // 11:56:42.632812672004 New York: the digits below the ns are rounded off.
    expect(trades[0]?.exchNs).toBe(1_340_285_400_000_000_000n + (43_002_632_812_672n - 34_200_000_000_000n));
  });

  it('refuses files that are not a LOBSTER pair', async () => {
    const lone = writeLines(dir, name('message'), ['34200,1,1,1,1,1']);
    await expect(importRecording('lobster', [lone], join(dir, 'x.data'), () => undefined)).rejects.toThrow(/two files/);
    const other = writeLines(dir, 'prices.csv', ['1']);
    await expect(importRecording('lobster', [lone, other], join(dir, 'x.data'), () => undefined)).rejects.toThrow(/not a LOBSTER file name/);
  });
});

describe('bitstamp importer', () => {
  /** 2015-05-01 00:00:00 UTC plus `ms`, as obAnalytics stamps its lines (ms since the epoch). */
  const at = (ms: number): number => 1_430_438_400_000 + ms;
  const l3 = (ms: number, kind: string, price: string, side: 0 | 1, createdS: number): string =>
    `${at(ms)} ${kind} {"price": "${price}", "amount": "0.50000000", "datetime": "${1_430_438_400 + createdS}", "id": ${ms}, "order_type": ${side}}`;

  it('diffs top-20 snapshots, and settles trade sides from the L3 orders they hit, else from the book, and reports the shares', async () => {
    const log = writeLines(dir, 'bitstamp.log.gz', [
      `${at(1000)} order_book {"bids":[["236.47","1.5"],["236.40","2"]],"asks":[["236.60","1"],["236.70","3"]]}`,
      `${at(1010)} trade {"price":236.47,"amount":0.21144331000000001,"id":1}`, // at the best bid, no L3: sold (book)
      `${at(1020)} trade {"price":236.6,"amount":0.5,"id":2}`, // at the best ask, no L3: bought (book)
      l3(1030, 'order_deleted', '236.50', 1, 0),
      `${at(1035)} trade {"price":236.5,"amount":0.1,"id":3}`, // inside the spread: the ask deleted 5 ms before was hit
      `${at(1040)} trade {"price":236.55,"amount":0.1,"id":4}`, // nothing settles it
      // Both orders of a match at the trade's price: the one created first rested (the maker).
      l3(1100, 'order_changed', '236.47', 0, 1),
      l3(1102, 'order_deleted', '236.47', 1, -60),
      `${at(1110)} trade {"price":236.47,"amount":0.1,"id":5}`, // the older ask was the maker: bought, though at the best bid
      l3(1200, 'order_deleted', '236.40', 0, -5),
      `${at(1300)} trade {"price":236.4,"amount":0.1,"id":6}`, // the L3 event is 100 ms old: the book settles it
      `${at(1350)} order_book {"bids":[["236.47","1"]],"asks":[["236.60","1"],["236.70","3"]]}`,
      `${at(1360)} trade {"price":"x","amount":1,"id":7}`,
      'nonsense',
    ]);
    const out = join(dir, 'bitstamp.data');
    const report = await importRecording('bitstamp', [log], out, () => undefined);
    expect(report.skipped).toEqual({ 'L3 events used only for trade sides': 4, 'malformed trade': 1, 'malformed line (not <local_ts_ms> <kind> <json>)': 1 });
    const records = await readAll(out);
    expect(records.filter((r) => r.kind === KIND.trade).map((r) => [r.seq, r.side, r.qty])).toEqual([
      [1, SIDE_SELL, 21_144_331],
      [2, SIDE_BUY, 50_000_000],
      [3, SIDE_BUY, 10_000_000],
      [4, SIDE_NONE, 10_000_000],
      [5, SIDE_BUY, 10_000_000],
      [6, SIDE_SELL, 10_000_000],
    ]);
    expect(report.tradeSides).toEqual({ fromL3: 2, fromBook: 3, unknown: 1 });
    expect(report.notes).toEqual([
      'trade sides: 2 of 6 inferred from the L3 orders they hit (33.3 %), 3 from the top-20 book (50.0 %), 1 unknown (16.7 %; kept without a side, they fill none of our orders)',
    ]);
    expect(records[0]?.exchNs).toBe(BigInt(at(1000)) * 1_000_000n);
    expect((await tops(out)).map((r) => [r.bid, r.bidQty, r.ask])).toEqual([
      [23_647, 150_000_000, 23_660],
      [23_647, 100_000_000, 23_660],
    ]);
  });

  it('refuses a line stamped outside 2009–2100, naming its line', async () => {
    const log = writeLines(dir, 'bitstamp-1970.log', [`${at(0)} trade {"price":236.4,"amount":0.1,"id":1}`, '1010 trade {"price":236.4,"amount":0.1,"id":2}']);
    await expect(importRecording('bitstamp', [log], join(dir, 'bitstamp-1970.data'), () => undefined)).rejects.toThrow(/bitstamp-1970.log:2: local timestamp 1010 read as ms \(detected from line 1\) is 1970-01-01T00:00:01.010Z, outside 2009–2100/);
  });
});

describe('akira importer', () => {
  it('copies project recordings into one, checking every record', async () => {
    const meta = { symbol: 'ETHUSDC', source: 'record', priceDecimals: 6, qtyDecimals: 18 };
    const a = new RecordingWriter(join(dir, 'a.data'), meta);
    a.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: 1n, localNs: 1n, price: 3_000_000_000, qty: 10 ** 15 });
    a.append({ kind: KIND.gasPrice, exchNs: 2n, localNs: 2n, aux1: 1_234_456_788_907_878_798n });
    a.close();
    const b = new RecordingWriter(join(dir, 'b.data'), meta);
    b.append({ kind: KIND.depth, side: SIDE_SELL, exchNs: 3n, localNs: 3n, price: 3_000_010_000, qty: 2 * 10 ** 15 });
    b.close();
    const out = join(dir, 'joined.data');
    const report = await importRecording('akira', [join(dir, 'a.data'), join(dir, 'b.data')], out, () => undefined);
    expect(report.records).toBe(3);
    expect(report.header).toMatchObject({ symbol: 'ETHUSDC', tick: '0.01', lot: '0.001' });
    const c = new RecordingWriter(join(dir, 'c.data'), { ...meta, symbol: 'BTCUSDC' });
    c.close();
    await expect(importRecording('akira', [out, join(dir, 'c.data')], join(dir, 'y.data'), () => undefined)).rejects.toThrow(/one symbol per recording/);
  });
});
