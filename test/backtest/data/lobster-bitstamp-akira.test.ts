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

  it('refuses files that are not a LOBSTER pair', async () => {
    const lone = writeLines(dir, name('message'), ['34200,1,1,1,1,1']);
    await expect(importRecording('lobster', [lone], join(dir, 'x.data'), () => undefined)).rejects.toThrow(/two files/);
    const other = writeLines(dir, 'prices.csv', ['1']);
    await expect(importRecording('lobster', [lone, other], join(dir, 'x.data'), () => undefined)).rejects.toThrow(/not a LOBSTER file name/);
  });
});

describe('bitstamp importer', () => {
  it('diffs top-20 snapshots, and settles trade sides from the book, else from the L3 order just hit', async () => {
    const log = writeLines(dir, 'bitstamp.log.gz', [
      '1000 order_book {"bids":[["236.47","1.5"],["236.40","2"]],"asks":[["236.60","1"],["236.70","3"]]}',
      '1010 trade {"price":236.47,"amount":0.21144331000000001,"id":1}',
      '1020 trade {"price":236.6,"amount":0.5,"id":2}',
      '1030 order_deleted {"price":"236.50","amount":"0.00000000","datetime":"1","id":9,"order_type":1}',
      '1035 trade {"price":236.5,"amount":0.1,"id":3}',
      '1040 trade {"price":236.55,"amount":0.1,"id":4}',
      '1050 order_book {"bids":[["236.47","1"]],"asks":[["236.60","1"],["236.70","3"]]}',
      '1060 trade {"price":"x","amount":1,"id":5}',
      'nonsense',
    ]);
    const out = join(dir, 'bitstamp.data');
    const report = await importRecording('bitstamp', [log], out, () => undefined);
    expect(report.skipped).toEqual({ 'L3 events used only for trade sides': 1, 'malformed trade': 1, 'malformed line (not <local_ts_ms> <kind> <json>)': 1 });
    const records = await readAll(out);
    expect(records.filter((r) => r.kind === KIND.trade).map((r) => [r.seq, r.side, r.qty])).toEqual([
      [1, SIDE_SELL, 21_144_331],
      [2, SIDE_BUY, 50_000_000],
      [3, SIDE_BUY, 10_000_000], // inside the spread: the ask order deleted 5 ms before was hit
      [4, SIDE_NONE, 10_000_000],
    ]);
    expect((await tops(out)).map((r) => [r.bid, r.bidQty, r.ask])).toEqual([
      [23_647, 150_000_000, 23_660],
      [23_647, 100_000_000, 23_660],
    ]);
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
