import { existsSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLAG, KIND, SIDE_BUY, SIDE_SELL } from '../../../src/backtest/data/format.ts';
import { importRecording } from '../../../src/backtest/data/importers/index.ts';
import { replayTopOfBook, type TopRow } from '../../../src/backtest/data/top-of-book.ts';
import { binanceLine, depthLine, readAll, tempDir, writeLines } from './fixtures.ts';

const dir = tempDir('binance');
const T0 = 1_700_000_000_000_000_000n;
const ms = (n: number): bigint => T0 + BigInt(n) * 1_000_000n;

function snapshotLine(localNs: bigint, lastUpdateId: number, bids: [string, string][], asks: [string, string][]): string {
  return `${localNs} ${JSON.stringify({ lastUpdateId, bids, asks })}`;
}

async function importLines(name: string, lines: string[]): Promise<{ report: Awaited<ReturnType<typeof importRecording>>; warnings: string[]; out: string }> {
  const input = writeLines(dir, name, lines);
  const out = join(dir, `${name}.data`);
  const warnings: string[] = [];
  const report = await importRecording('binance', [input], out, (message) => warnings.push(message));
  return { report, warnings, out };
}

async function tops(path: string): Promise<TopRow[]> {
  const rows: TopRow[] = [];
  await replayTopOfBook(path, (row) => void rows.push(row));
  return rows;
}

describe('binance importer', () => {
  it('buffers diffs until the snapshot, drops the stale ones and applies the one that bridges it', async () => {
    const { report, out } = await importLines('bridge.gz', [
      depthLine(ms(1), 90, 99, [['100.00000000', '1.00000000']], []), // u ≤ L: already in the snapshot
      depthLine(ms(2), 100, 104, [['100.00000000', '2.00000000']], [['101.00000000', '0.00000000']]), // bridges L = 102
      snapshotLine(ms(3), 102, [['100.00000000', '5.00000000'], ['99.00000000', '1.00000000']], [['101.00000000', '3.00000000'], ['102.00000000', '1.00000000']]),
      depthLine(ms(4), 105, 106, [], [['101.50000000', '0.50000000']]),
    ]);
    expect(report.skipped).toEqual({ 'depth diff already in the snapshot': 1 });
    const records = await readAll(out);
    expect(records[0]?.kind).toBe(KIND.clear);
    expect(records[0]?.seq).toBe(102);
    const snapshot = records.filter((r) => (r.flags & FLAG.snapshot) !== 0);
    expect(snapshot).toHaveLength(4);
    // The bridging diff is written at the snapshot's receive time, after it.
    const bridged = records.filter((r) => r.kind === KIND.depth && r.seq === 104);
    expect(bridged.map((r) => r.localNs)).toEqual([ms(3), ms(3)]);
    expect(bridged.map((r) => r.aux1)).toEqual([100, 100]);
    const rows = await tops(out);
    expect(rows.map((r) => [r.updateId, r.bid, r.bidQty, r.ask, r.askQty])).toEqual([
      [102, 100e8, 5e8, 101e8, 3e8],
      [104, 100e8, 2e8, 102e8, 1e8],
      [106, 100e8, 2e8, 101.5e8, 0.5e8],
    ]);
  });

  it('takes a snapshot on the first line, before any stream message names the symbol, and resyncs at the next one after a gap', async () => {
    const { report, warnings, out } = await importLines('gap.txt', [
      snapshotLine(ms(0), 10, [['100.00000000', '1.00000000']], [['101.00000000', '1.00000000']]),
      depthLine(ms(1), 11, 12, [['100.00000000', '2.00000000']], []),
      depthLine(ms(2), 14, 15, [['100.00000000', '3.00000000']], []), // 13 missing
      depthLine(ms(3), 16, 16, [['100.00000000', '4.00000000']], []),
      snapshotLine(ms(4), 16, [['100.00000000', '4.00000000']], [['101.00000000', '9.00000000']]),
      depthLine(ms(5), 17, 17, [['100.00000000', '6.00000000']], []),
    ]);
    // The collector's first line is the REST snapshot: it is held until the diff names the symbol.
    expect(report.header.symbol).toBe('ETHUSDT');
    expect(report.skipped).toEqual({ 'depth diff after a gap': 1, 'depth diff already in the snapshot': 1 });
    expect(warnings.some((w) => w.includes('depth gap (expected U ≤ 13, got U=14)'))).toBe(true);
    const rows = await tops(out);
    expect(rows.map((r) => [r.updateId, r.bidQty / 1e8])).toEqual([
      [10, 1],
      [12, 2],
      [16, 4],
      [17, 6],
    ]);
    // Its exchange time is estimated from the first message that carries one (E − local).
    const records = await readAll(out);
    expect(records[0]?.kind).toBe(KIND.clear);
    expect(records[0]?.exchNs).toBe(ms(0) + (1_700_000_000_000n * 1_000_000n - ms(1)));
  });

  it('loses sync on a gap after a snapshot and says so', async () => {
    const trade = binanceLine(ms(0), 'ethusdt@trade', { e: 'trade', E: 1, s: 'ETHUSDT', t: 1, p: '100.00000000', q: '1.00000000', T: 1_700_000_000_001, m: true, M: true });
    const { report, warnings, out } = await importLines('gap2.txt', [
      trade,
      snapshotLine(ms(1), 10, [['100.00000000', '1.00000000']], [['101.00000000', '1.00000000']]),
      depthLine(ms(2), 11, 12, [['100.00000000', '2.00000000']], []),
      depthLine(ms(3), 14, 15, [['100.00000000', '3.00000000']], []),
      depthLine(ms(4), 16, 16, [['100.00000000', '4.00000000']], []),
    ]);
    expect(warnings.some((w) => w.includes('depth gap (expected U ≤ 13, got U=14)'))).toBe(true);
    expect(report.skipped['depth diff after a gap']).toBe(1);
    expect((await tops(out)).map((r) => r.updateId)).toEqual([10, 12]);
  });

  it('keeps trades with the aggressor from m, and bookTicker as BBO records', async () => {
    const { out } = await importLines('trades.gz', [
      binanceLine(ms(0), 'ethusdt@trade', { e: 'trade', E: 5, s: 'ETHUSDT', t: 7, p: '2683.81000000', q: '0.50000000', T: 1_700_000_001_000, m: false, M: true }),
      binanceLine(ms(1), 'ethusdt@trade', { e: 'trade', E: 5, s: 'ETHUSDT', t: 8, p: '2683.80000000', q: '0.25000000', T: 1_700_000_001_001, m: true, M: true }),
      binanceLine(ms(2), 'ethusdt@bookTicker', { u: 400, s: 'ETHUSDT', b: '2683.80000000', B: '3.02920000', a: '2683.81000000', A: '31.43950000' }),
    ]);
    const records = await readAll(out);
    expect(records.map((r) => [r.kind, r.side, r.seq])).toEqual([
      [KIND.trade, SIDE_BUY, 7],
      [KIND.trade, SIDE_SELL, 8],
      [KIND.bbo, 0, 400],
    ]);
    expect(records[0]?.exchNs).toBe(1_700_000_001_000n * 1_000_000n);
    // No exchange time on bookTicker: local time plus the last measured offset, flagged.
    expect((records[2]?.flags ?? 0) & FLAG.exchTsEstimated).toBe(FLAG.exchTsEstimated);
    expect(records[2]?.exchNs).toBe(ms(2) + (1_700_000_001_001n * 1_000_000n - ms(1)));
    expect([records[2]?.price, records[2]?.qty, records[2]?.aux1, records[2]?.aux2]).toEqual([268_380_000_000, 302_920_000, 268_381_000_000, 3_143_950_000]);
  });

  it('logs, counts and skips malformed lines and carries on', async () => {
    const { report, warnings } = await importLines('bad.txt', [
      binanceLine(ms(0), 'ethusdt@trade', { e: 'trade', E: 5, s: 'ETHUSDT', t: 7, p: '1.00000000', q: '1.00000000', T: 5, m: false }),
      'not a line',
      `${ms(1)} {"stream":`,
      binanceLine(ms(2), 'ethusdt@trade', { e: 'trade', s: 'ETHUSDT', t: 8, p: 'abc', q: '1', T: 5, m: false }),
      binanceLine(ms(3), 'ethusdt@depth@100ms', { U: 1, u: 2, b: [['x', '1']], a: [], E: 5 }),
      binanceLine(ms(4), 'ethusdt@kline_1m', {}),
      binanceLine(ms(5), 'btcusdt@trade', { e: 'trade', E: 5, s: 'BTCUSDT', t: 1, p: '1.00000000', q: '1.00000000', T: 5, m: false }),
      '',
      binanceLine(ms(6), 'ethusdt@trade', { e: 'trade', E: 5, s: 'ETHUSDT', t: 9, p: '1.00000000', q: '1.00000000', T: 6, m: true }),
    ]);
    expect(report.skipped).toEqual({
      'malformed line (no <local_ts> prefix)': 1,
      'malformed JSON': 1,
      'malformed trade': 1,
      'malformed depth diff': 1,
      'unknown stream': 1,
      'other symbol than ETHUSDT': 1,
    });
    expect(report.records).toBe(2);
    expect(warnings.some((w) => w.includes('bad.txt:2: malformed line'))).toBe(true);
    expect(warnings.some((w) => w.includes('bad.txt:3: malformed JSON'))).toBe(true);
  });

  it('fails on a truncated gzip file, naming it, and leaves no output', async () => {
    const whole = gzipSync(Array.from({ length: 2_000 }, (_, i) => depthLine(ms(i), i + 1, i + 1, [[`${100 + (i % 50)}.00000000`, '1.00000000']], [])).join('\n'));
    const cut = join(dir, 'cut.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const out = join(dir, 'cut.data');
    await expect(importRecording('binance', [cut], out, () => undefined)).rejects.toThrow(/cut.gz: .*corrupt or truncated gzip/);
    expect(existsSync(out)).toBe(false);
  });

  it('replays two files back to back as one stream and refuses them out of order', async () => {
    const first = writeLines(dir, 'day1.gz', [
      snapshotLine(ms(0), 1, [], []),
      depthLine(ms(1), 1, 3, [['100.00000000', '1.00000000']], [['101.00000000', '1.00000000']]),
      snapshotLine(ms(2), 3, [['100.00000000', '1.00000000']], [['101.00000000', '1.00000000']]),
    ]);
    const second = writeLines(dir, 'day2.gz', [depthLine(ms(3), 4, 5, [['100.00000000', '7.00000000']], [])]);
    const out = join(dir, 'days.data');
    // Day 2 has no snapshot of its own: its diffs continue day 1's book.
    const report = await importRecording('binance', [first, second], out, () => undefined);
    expect(report.skipped).toEqual({});
    expect((await tops(out)).map((r) => [r.updateId, r.bidQty / 1e8])).toEqual([
      [3, 1],
      [3, 1],
      [5, 7],
    ]);
    await expect(importRecording('binance', [second, first], join(dir, 'wrong.data'), () => undefined)).rejects.toThrow(/starts before the previous file ended/);
    expect(existsSync(join(dir, 'wrong.data'))).toBe(false);
  });

  describe('local timestamps', () => {
    /** A tiny recording with every kind of line, its local stamps written by `stamp` (from ns). */
    const lines = (stamp: (ns: bigint) => bigint): string[] => [
      snapshotLine(stamp(ms(0)), 10, [['100.00000000', '1.00000000']], [['101.00000000', '1.00000000']]),
      depthLine(stamp(ms(1) + 7_000n), 11, 12, [['100.00000000', '2.00000000']], [], 1_700_000_000_003),
      binanceLine(stamp(ms(2)), 'ethusdt@trade', { e: 'trade', E: 1_700_000_000_004, s: 'ETHUSDT', t: 1, p: '100.00000000', q: '1.00000000', T: 1_700_000_000_004, m: true, M: true }),
      binanceLine(stamp(ms(3) + 500_000n), 'ethusdt@bookTicker', { u: 12, s: 'ETHUSDT', b: '100.00000000', B: '2.00000000', a: '101.00000000', A: '1.00000000' }),
    ];

    it('reads µs stamps (16 digits) and ns stamps (19 digits) into the same recording', async () => {
      const inNs = await importLines('stamps-ns.txt', lines((ns) => ns));
      const inUs = await importLines('stamps-us.txt', lines((ns) => ns / 1_000n));
      const ns = await readAll(inNs.out);
      expect(ns.map((r) => r.kind)).toEqual([KIND.clear, KIND.depth, KIND.depth, KIND.depth, KIND.trade, KIND.bbo]);
      expect(await readAll(inUs.out)).toEqual(ns);
      expect(await tops(inUs.out)).toEqual(await tops(inNs.out));
    });

    it('takes the unit from --time-unit, and refuses a file whose stamps it puts outside 2009–2100', async () => {
      const input = writeLines(dir, 'stamps-flag.txt', lines((ns) => ns / 1_000n));
      const out = join(dir, 'stamps-flag.data');
      await importRecording('binance', [input], out, () => undefined, { timeUnit: 'us' });
      expect((await readAll(out))[0]?.localNs).toBe(ms(0));
      await expect(importRecording('binance', [input], out, () => undefined, { timeUnit: 'ns' })).rejects.toThrow(
        /stamps-flag.txt:1: local timestamp 1700000000000000 read as ns \(--time-unit ns\) is 1970-01-20T.*, outside 2009–2100/,
      );
      expect(existsSync(out)).toBe(false);
    });

    it('refuses a stamp outside 2009–2100 with its file and line, and leaves no output', async () => {
      const good = lines((ns) => ns / 1_000n);
      // Line 3 stamped in ns inside a µs file: read as µs it is millennia ahead.
      const input = writeLines(dir, 'stamps-bad.txt', [good[0] as string, good[1] as string, binanceLine(ms(2), 'ethusdt@trade', { e: 'trade', E: 1, s: 'ETHUSDT', t: 1, p: '1.00000000', q: '1.00000000', T: 1, m: true }), good[3] as string]);
      const out = join(dir, 'stamps-bad.data');
      await expect(importRecording('binance', [input], out, () => undefined)).rejects.toThrow(/stamps-bad.txt:3: local timestamp 1700000000002000000 read as us \(detected from line 1\) is .*, outside 2009–2100/);
      expect(existsSync(out)).toBe(false);
      const epoch = writeLines(dir, 'stamps-1970.txt', [binanceLine(1_000n, 'ethusdt@trade', { e: 'trade', E: 1, s: 'ETHUSDT', t: 1, p: '1.00000000', q: '1.00000000', T: 1, m: true })]);
      await expect(importRecording('binance', [epoch], out, () => undefined)).rejects.toThrow(/stamps-1970.txt:1: local timestamp 1000 is not a date in 2009–2100 read as ns, us or ms/);
    });
  });

  it('keeps only the last minute of diffs waiting for a snapshot, so memory stays flat however late it comes', async () => {
    const second = (n: number): bigint => T0 + BigInt(n) * 1_000_000_000n;
    const lines = Array.from({ length: 120 }, (_, i) => depthLine(second(i), i + 1, i + 1, [['100.00000000', `${i + 1}.00000000`]], []));
    lines.push(snapshotLine(second(120), 118, [['100.00000000', '118.00000000']], [['101.00000000', '1.00000000']]));
    lines.push(depthLine(second(121), 121, 121, [['100.00000000', '121.00000000']], []));
    const { report, out } = await importLines('late-snapshot.txt', lines);
    // Diffs 1–59 are over 60 s older than diff 120 when it arrives; 60–118 are in the snapshot, 119–120 continue it.
    expect(report.skipped).toEqual({ 'depth diff over 60 s before a snapshot (the snapshot covers it)': 59, 'depth diff already in the snapshot': 59 });
    expect((await tops(out)).map((r) => [r.updateId, r.bidQty / 1e8])).toEqual([
      [118, 118],
      [119, 119],
      [120, 120],
      [121, 121],
    ]);
  });

  it('names the recording after the file when it holds only a snapshot', async () => {
    const input = writeLines(dir, 'nexousdt_20240723.dat', [snapshotLine(ms(0), 10, [['1.20000000', '5.00000000']], [['1.20100000', '3.00000000']])]);
    const out = join(dir, 'only-snapshot.data');
    const report = await importRecording('binance', [input], out, () => undefined);
    expect([report.header.symbol, report.header.market, report.records]).toEqual(['NEXOUSDT', 'binance:NEXOUSDT', 3]);
  });
});
