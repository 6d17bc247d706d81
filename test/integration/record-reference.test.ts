/**
 * `akira-mm record --reference`: the reference market recorded in the project format, alone or
 * beside the venue, then read back by `data bbo`, `data import` and `akira-mm feed`.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importRecording, readRecordingHeader, replayTopOfBook, type VenueTop } from '../../src/backtest/data/index.ts';
import { startFeedServer, type FeedServer } from '../../src/markets/binance/server/index.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { runCli } from '../cli/run-cli.ts';
import { dataDir, recordingFiles } from '../markets/binance/support.ts';
import { writeDevPairFile } from './support.ts';

let server: FeedServer | undefined;
let sim: SimHandle | undefined;
afterEach(async () => {
  await server?.stop();
  await sim?.stop();
  server = sim = undefined;
});

/** The rebuilt top equals the recorded bookTicker wherever their update ids meet. */
async function checkBookAgainstTickers(path: string): Promise<number> {
  const rebuilt = new Map<number, string>();
  const tickers: VenueTop[] = [];
  await replayTopOfBook(
    path,
    (row) => {
      if (row.updateId !== undefined) rebuilt.set(row.updateId, `${row.bid} ${row.bidQty} ${row.ask} ${row.askQty}`);
    },
    (top) => tickers.push(top),
  );
  let compared = 0;
  for (const top of tickers) {
    const ours = top.updateId === undefined ? undefined : rebuilt.get(top.updateId);
    if (ours === undefined) continue;
    compared++;
    expect(ours).toBe(`${top.bid} ${top.bidQty} ${top.ask} ${top.askQty}`);
  }
  return compared;
}

describe.skipIf(dataDir === undefined)('akira-mm record --reference', () => {
  it('records a reference alone into a file that data bbo, data import and akira-mm feed read back', async () => {
    server = await startFeedServer({ files: recordingFiles('ethusdt'), speed: 20 });
    const dir = mkdtempSync(join(tmpdir(), 'akira-record-ref-'));
    const out = join(dir, 'eth.reference.data');
    const recorded = await runCli(['record', '--reference', 'binance:ethusdt', '--reference-ws-url', server.wsUrl, '--reference-rest-url', server.httpUrl, '--out', out, '--duration', '2']);
    expect(recorded.stderr).toContain('recording binance:ETHUSDT to');
    expect(recorded.code).toBe(0);
    const summary = (JSON.parse(recorded.stdout.trim()) as { reference: Record<string, number | string> }).reference;
    expect(summary).toMatchObject({ out, market: 'binance:ETHUSDT', snapshots: 1, resyncs: 0, gaps: 0 });
    // How many arrive in 2 s of wall clock depends on the machine's load (a loaded 2-core CI box
    // records a fifth of an idle one's): enough of each stream to prove it is recorded.
    expect(summary['depth']).toBeGreaterThan(10);
    expect(summary['bbo']).toBeGreaterThan(10);
    expect(summary['trades']).toBeGreaterThan(10);
    expect(readRecordingHeader(out)).toMatchObject({ symbol: 'ETHUSDT', source: 'binance', market: 'binance:ETHUSDT', base: 'ETH', quote: 'USDT', priceDecimals: 8, qtyDecimals: 8, records: summary['records'] });
    expect(await checkBookAgainstTickers(out)).toBeGreaterThan(5);

    const bbo = await runCli(['data', 'bbo', out]);
    expect(bbo.code).toBe(0);
    expect(bbo.stdout.split('\n').length).toBeGreaterThan(10);
    const joined = join(dir, 'joined.data');
    const imported = await importRecording('akira', [out], joined, () => undefined);
    expect(imported.header.market).toBe('binance:ETHUSDT');

    // The recording is a market `akira-mm feed` can serve again.
    await server.stop();
    server = await startFeedServer({ files: [out], speed: 'max' });
    const depth = (await (await fetch(`${server.httpUrl}/api/v3/depth?symbol=ETHUSDT&limit=5`)).json()) as { lastUpdateId: number; bids: string[][] };
    expect(depth.lastUpdateId).toBeGreaterThanOrEqual(35_346_513_512);
    expect(depth.bids[0]?.[0]).toMatch(/^\d+\.\d{8}$/);
  }, 60_000);

  it('records the pair file’s REFERENCE beside the venue, into <out>.reference.data', async () => {
    server = await startFeedServer({ files: recordingFiles('btcusdt'), speed: 20 });
    sim = await startSim({ seed: 3, flow: true, devAccounts: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'akira-record-both-'));
    const env = writeDevPairFile(sim, 1, ['REFERENCE=binance:BTCUSDT', `REFERENCE_WS_URL=${server.wsUrl}`, `REFERENCE_REST_URL=${server.httpUrl}`]);
    const out = join(dir, 'eth.data');
    const recorded = await runCli(['record', '--env', env, '--out', out, '--duration', '2']);
    expect(recorded.code).toBe(0);
    const summary = JSON.parse(recorded.stdout.trim()) as { records: number; reference: { out: string; records: number; market: string } };
    expect(summary.records).toBeGreaterThan(10);
    expect(summary.reference).toMatchObject({ out: join(dir, 'eth.reference.data'), market: 'binance:BTCUSDT' });
    expect(readRecordingHeader(join(dir, 'eth.reference.data'))).toMatchObject({ symbol: 'BTCUSDT', market: 'binance:BTCUSDT', records: summary.reference.records });
    expect(readRecordingHeader(out).market).toBeUndefined();

    const skipped = await runCli(['record', '--env', env, '--out', join(dir, 'venue-only.data'), '--duration', '1', '--reference', 'off']);
    expect(JSON.parse(skipped.stdout.trim())).not.toHaveProperty('reference');
    expect(existsSync(join(dir, 'venue-only.reference.data'))).toBe(false);
  }, 60_000);

  it('names what is missing or wrong', async () => {
    expect(await runCli(['record', '--out', 'x.data'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--env FILE is required (or --reference binance:SYMBOL') });
    expect(await runCli(['record', '--reference', 'kraken:XBT', '--out', 'x.data'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--reference kraken:XBT: expected off, or binance:SYMBOL') });
  });

  it('marks a Binance import with its market', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'akira-import-market-')), 'eth.data');
    const report = await importRecording('binance', recordingFiles('ethusdt').slice(0, 1), out, () => undefined);
    expect(report.header.market).toBe('binance:ETHUSDT');
  }, 60_000);
});
