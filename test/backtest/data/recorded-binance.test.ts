import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { importRecording } from '../../../src/backtest/data/importers/index.ts';
import { compareWithBookTicker, tempDir } from './fixtures.ts';

// Recorded data lives beside the clone in ../shared/data (CI puts it there); a git worktree one
// level deeper finds it one more level up.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

describe.skipIf(dataDir === undefined)('Binance ETHUSDT recording (2024-08-08/09, both files as one stream)', () => {
  const out = join(tempDir('eth'), 'eth.data');
  let skipped: Readonly<Record<string, number>> = {};

  beforeAll(async () => {
    const files = ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((name) => join(dataDir as string, 'binance-spot-hftbacktest', name));
    skipped = (await importRecording('binance', files, out, () => undefined)).skipped;
  });

  it('imports every line, dropping only the diffs the snapshot already holds', () => {
    expect(skipped).toEqual({ 'depth diff already in the snapshot': 2 });
  });

  it("rebuilds a book equal to Binance's own bookTicker wherever both have the same update id", async () => {
    const { compared, mismatches, bbo, crossed } = await compareWithBookTicker(out);
    expect(crossed).toBe(0);
    expect(mismatches).toEqual([]);
    // Over a thousand shared update ids across both files: the check is not vacuous.
    expect(compared).toBeGreaterThan(1_000);
    expect(bbo).toBe(24_077 + 34_681);
  });
});
