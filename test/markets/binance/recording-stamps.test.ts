/**
 * The replay server reads a collector file's local stamps in the file's own unit: hftbacktest's
 * files are in ns, the NEXOUSDT collector's in µs (read as ns, its 2024 stamps fell in 1970 and the
 * feed's pacing and stamps were wrong). The first stamp decides, as `data import --time-unit auto`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingSource, type ReplayEvent } from '../../../src/markets/binance/server/index.ts';
import { tempDir } from '../../backtest/data/fixtures.ts';

const T0_MS = Date.UTC(2024, 6, 24, 16, 0, 0, 123);

function trade(id: number, tradeMs: number): string {
  return JSON.stringify({ stream: 'nexousdt@trade', data: { e: 'trade', E: tradeMs, s: 'NEXOUSDT', t: id, p: '1.25100000', q: '10.00000000', T: tradeMs, m: true } });
}

async function localTimes(lines: readonly string[]): Promise<{ times: number[]; skipped: Record<string, number> }> {
  const path = join(tempDir('recording-stamps'), 'collector.txt');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const source = new RecordingSource([path]);
  const times: number[] = [];
  await source.forEach((event: ReplayEvent) => {
    times.push(event.localMs);
  });
  return { times, skipped: { ...source.skipped } };
}

describe('collector stamps in the file’s unit', () => {
  it('reads µs stamps as µs and ns stamps as ns: the same times', async () => {
    const us = await localTimes([`${T0_MS * 1000 + 5} ${trade(1, T0_MS)}`, `${(T0_MS + 250) * 1000} ${trade(2, T0_MS + 250)}`]);
    const ns = await localTimes([`${BigInt(T0_MS) * 1_000_000n + 5n} ${trade(1, T0_MS)}`, `${BigInt(T0_MS + 250) * 1_000_000n} ${trade(2, T0_MS + 250)}`]);
    expect(us.times).toEqual([T0_MS, T0_MS + 250]);
    expect(ns.times).toEqual(us.times);
  });

  it('skips a later line whose stamp is no date in the file’s unit, and refuses a file whose first is none', async () => {
    const later = await localTimes([`${T0_MS * 1000} ${trade(1, T0_MS)}`, `12 ${trade(2, T0_MS + 1)}`, `${(T0_MS + 2) * 1000} ${trade(3, T0_MS + 2)}`]);
    expect(later.times).toEqual([T0_MS, T0_MS + 2]);
    expect(later.skipped).toEqual({ 'local timestamp outside 2009–2100': 1 });
    await expect(localTimes([`12 ${trade(1, T0_MS)}`])).rejects.toThrow(/collector\.txt:1: local timestamp 12 is not a date in 2009–2100/);
  });
});
