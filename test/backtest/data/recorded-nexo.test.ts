import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FLAG, KIND } from '../../../src/backtest/data/format.ts';
import { importRecording, type ImportReport } from '../../../src/backtest/data/importers/index.ts';
import { readExactFields, readRecording } from '../../../src/backtest/data/reader.ts';
import { compareWithBookTicker, tempDir } from './fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-nexousdt')));

// ../shared/data README §4: 34 h of NEXOUSDT in three files with µs stamps, one REST snapshot on
// the first line of the first file; the last file has no snapshot and continues the day before.
describe.skipIf(dataDir === undefined)('Binance NEXOUSDT recording (2024-07-23 → 25, three files as one stream, µs stamps)', () => {
  const out = join(tempDir('nexo'), 'nexo.data');
  let report: ImportReport;

  beforeAll(async () => {
    const files = ['nexousdt_20240723.dat.gz', 'nexousdt_20240724.dat.gz', 'nexousdt_20240725.dat.gz'].map((name) => join(dataDir as string, 'binance-spot-nexousdt', name));
    report = await importRecording('binance', files, out, () => undefined);
  });

  it('imports every line: the leading snapshot and all 99,030 depth diffs, chained with 0 gaps', async () => {
    expect(report.skipped).toEqual({});
    expect(report.lines).toBe(1_804 + 112_274 + 52_762);
    let clears = 0;
    let diffs = 0;
    let gaps = 0;
    let trades = 0;
    let lastUpdateId = -1;
    let lastMessage = -1;
    let firstLocalNs: bigint | undefined;
    let lastLocalNs = 0n;
    await readRecording(out, (record, _index, raw) => {
      const { localNs } = readExactFields(raw);
      firstLocalNs ??= localNs;
      lastLocalNs = localNs;
      if (record.kind === KIND.clear) {
        clears++;
        lastUpdateId = record.seq;
      } else if (record.kind === KIND.trade) trades++;
      else if (record.kind === KIND.depth && (record.flags & FLAG.snapshot) === 0 && record.seq !== lastMessage) {
        diffs++;
        lastMessage = record.seq;
        if (record.aux1 !== lastUpdateId + 1) gaps++;
        lastUpdateId = record.seq;
      }
    });
    expect({ clears, diffs, gaps, trades }).toEqual({ clears: 1, diffs: 1_188 + 66_994 + 30_848, gaps: 0, trades: 178 + 12_280 + 6_359 });
    // The µs stamps read as µs: 2024-07-23 15:39:42.850494 to 2024-07-25 01:51:47 UTC, not 1970.
    expect(firstLocalNs).toBe(1_721_749_182_850_494_000n);
    expect(new Date(Number(lastLocalNs / 1_000_000n)).toISOString().slice(0, 16)).toBe('2024-07-25T01:51');
  });

  it("rebuilds a book equal to Binance's own bookTicker wherever both have the same update id, across the three files", async () => {
    const { compared, mismatches, bbo, crossed } = await compareWithBookTicker(out);
    expect(crossed).toBe(0);
    expect(mismatches).toEqual([]);
    expect([compared, bbo]).toEqual([17_468, 437 + 33_000 + 15_555]);
  });
});
