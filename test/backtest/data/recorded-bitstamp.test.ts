import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KIND, SIDE_BUY, SIDE_SELL } from '../../../src/backtest/data/format.ts';
import { importRecording } from '../../../src/backtest/data/importers/index.ts';
import { readAll, tempDir } from './fixtures.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'bitstamp-btcusd-2015-obanalytics')));

// ../shared/data README §2: the first 5 hours of Bitstamp BTC/USD on 2015-05-01, 575 trades with no side.
describe.skipIf(dataDir === undefined)('Bitstamp BTC/USD recording (2015-05-01, 00:00–05:04)', () => {
  it('infers the side of all but a few trades from the L3 orders they hit, and reports the shares', async () => {
    const out = join(tempDir('bitstamp'), 'bitstamp.data');
    const report = await importRecording('bitstamp', [join(dataDir as string, 'bitstamp-btcusd-2015-obanalytics', '2015-05-01.log.gz')], out, () => undefined);
    expect(report.tradeSides).toEqual({ fromL3: 564, fromBook: 9, unknown: 2 });
    expect(report.notes?.[0]).toContain('564 of 575 inferred from the L3 orders they hit (98.1 %), 9 from the top-20 book (1.6 %), 2 unknown (0.3 %');
    const trades = (await readAll(out)).filter((r) => r.kind === KIND.trade);
    expect(trades).toHaveLength(575);
    // The log's first two trades: an ask resting for a minute hit by a new bid (bought), then
    // that bid, resting, hit by a new ask at 236.46 (sold at the bid's 236.47).
    expect(trades.slice(0, 2).map((r) => [r.seq, r.side, r.price])).toEqual([
      [8_111_041, SIDE_BUY, 23_647],
      [8_111_042, SIDE_SELL, 23_647],
    ]);
  });
});
