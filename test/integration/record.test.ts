/**
 * `akira-mm record` against the embedded exchange, then the recording through `data bbo` and
 * `backtest`: what a user records from the venue is what a backtest replays.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecordingHeader } from '../../src/backtest/data/reader.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { runCli } from '../cli/run-cli.ts';

let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('akira-mm record', () => {
  it('records book, trades, bbo, gas and rate that data bbo and backtest then read', async () => {
    sim = await startSim({ seed: 3, flow: true, devAccounts: 2 });
    const account = sim.accounts[1]!;
    const dir = mkdtempSync(join(tmpdir(), 'akira-record-'));
    const env = join(dir, 'pair.env');
    writeFileSync(
      env,
      [`EXCHANGE_HTTP_URL=${sim.httpUrl}`, `EXCHANGE_WS_URL=${sim.wsUrl}`, `TRADING_ACCOUNT=${feltToHex(account.address)}`, `SIGNER_PRIVATE_KEY=${feltToHex(account.privateKey!)}`, 'BASE=ETH', 'QUOTE=USDC', 'LOG_LEVEL=silent'].join('\n'),
      // It holds a key: only its owner may read it (the commands refuse it otherwise).
      { mode: 0o600 },
    );
    const out = join(dir, 'eth.data');
    const recorded = await runCli(['record', '--env', env, '--out', out, '--duration', '4']);
    expect(recorded.code).toBe(0);
    const summary = JSON.parse(recorded.stdout.trim()) as { records: number; depth: number; bbo: number; snapshots: number; gas: number };
    expect(summary.snapshots).toBeGreaterThanOrEqual(1);
    expect(summary.gas).toBeGreaterThanOrEqual(1);
    expect(summary.records).toBeGreaterThan(10);
    const header = readRecordingHeader(out);
    expect(header).toMatchObject({ base: 'ETH', quote: 'USDC', source: 'akira', records: summary.records, priceDecimals: 2 });

    const bbo = await runCli(['data', 'bbo', out]);
    expect(bbo.code).toBe(0);
    expect(bbo.stdout.split('\n')[0]).toBe('exch_ts_ms,update_id,bid,bid_qty,ask,ask_qty');
    expect(bbo.stdout.split('\n').length).toBeGreaterThan(2);

    const backtest = await runCli(['backtest', '--data', out, '--env', 'config/ETH-USDC.env', '--json']);
    expect(backtest.code).toBe(0);
    const result = JSON.parse(backtest.stdout.trim().split('\n').at(-1)!) as { events: number };
    expect(result.events).toBeGreaterThan(0);
  }, 60_000);

  it('names a missing flag and exits 2', async () => {
    expect((await runCli(['record', '--env', 'config/ETH-USDC.env'])).code).toBe(2);
  });
});
