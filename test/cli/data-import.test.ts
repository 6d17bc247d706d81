import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binanceLine, tempDir, writeLines } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const dir = tempDir('cli-import');
const T0_US = 1_721_749_182_850_494n;

describe('akira-mm data import', () => {
  const trade = (stamp: bigint, id: number): string => binanceLine(stamp, 'nexousdt@trade', { e: 'trade', E: 1_721_749_183_000, s: 'NEXOUSDT', t: id, p: '1.21400000', q: '10.00000000', T: 1_721_749_183_000, m: true, M: true });

  it('reads µs stamps by default and takes --time-unit', async () => {
    const input = writeLines(dir, 'nexousdt_20240723.dat', [trade(T0_US, 1), trade(T0_US + 1_000n, 2)]);
    const auto = await runCli(['data', 'import', '--format', 'binance', input, '--out', join(dir, 'auto.data')]);
    expect([auto.code, auto.stdout]).toEqual([0, expect.stringContaining('2 records from 2 input lines (binance)')]);
    const us = await runCli(['data', 'import', '--format', 'binance', input, '--out', join(dir, 'us.data'), '--time-unit', 'us']);
    expect(us.code).toBe(0);
    const ns = await runCli(['data', 'import', '--format', 'binance', input, '--out', join(dir, 'ns.data'), '--time-unit', 'ns']);
    expect(ns.code).toBe(2);
    expect(ns.stderr).toContain('nexousdt_20240723.dat:1: local timestamp 1721749182850494 read as ns (--time-unit ns) is 1970-01-20T22:15:49.182Z, outside 2009–2100');
    expect(existsSync(join(dir, 'ns.data'))).toBe(false);
  });

  it.each([
    [['--time-unit', 'seconds'], '--time-unit=seconds is not a unit (one of auto, ns, us, ms)'],
    [['--format', 'lobster', '--time-unit', 'ms'], '--time-unit applies to binance and bitstamp files only; lobster files carry their own times'],
  ])('exits 2 naming a bad --time-unit: %j', async (extra, named) => {
    const args = extra.includes('--format') ? extra : ['--format', 'binance', ...extra];
    const { code, stderr } = await runCli(['data', 'import', ...args, 'x.csv', '--out', join(dir, 'x.data')]);
    expect(code).toBe(2);
    expect(stderr).toContain(named);
  });

  it('prints what a Bitstamp import inferred: the share of trade sides from the L3 events', async () => {
    const at = (ms: number): number => 1_430_438_400_000 + ms;
    const log = writeLines(dir, 'bitstamp.log', [
      `${at(0)} order_book {"bids":[["236.47","1.5"]],"asks":[["236.60","1"]]}`,
      `${at(10)} order_deleted {"price": "236.50", "amount": "0.00000000", "datetime": "1430438399", "id": 9, "order_type": 1}`,
      `${at(20)} trade {"price":236.5,"amount":0.1,"id":1}`,
    ]);
    const { code, stdout } = await runCli(['data', 'import', '--format', 'bitstamp', log, '--out', join(dir, 'bitstamp.data')]);
    expect(code).toBe(0);
    expect(stdout).toContain('trade sides: 1 of 1 inferred from the L3 orders they hit (100.0 %), 0 from the top-20 book (0.0 %), 0 unknown (0.0 %');
  });
});
