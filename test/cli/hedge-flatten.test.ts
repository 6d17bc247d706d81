/**
 * `akira-mm hedge flatten --env FILE`: a daemon stopped with a fill unhedged (its hedge journal says
 * so) is flattened on the hedge venue, here `akira-mm feed --accounts` on loopback.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/index.ts';
import { FileHedgeJournal } from '../../src/engine/index.ts';
import { startFeedServer, type FeedServer } from '../../src/markets/binance/server/index.ts';
import { dataDir, recordingFiles } from '../markets/binance/support.ts';
import { HMAC_KEY, HMAC_SECRET, ed25519Pair, testAccounts } from '../markets/binance/trading-support.ts';
import { runCli } from './run-cli.ts';

let server: FeedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe.skipIf(dataDir === undefined)('akira-mm hedge flatten', () => {
  it('hedges what the journal says is uncovered and prints the result, then has nothing left to do', { timeout: 60_000 }, async () => {
    server = await startFeedServer({ files: recordingFiles('ethusdt'), clock: new LiveClock(), accounts: testAccounts(ed25519Pair().publicPem) });
    const dir = mkdtempSync(join(tmpdir(), 'akira-flatten-'));
    const envFile = join(dir, 'pair.env');
    writeFileSync(
      envFile,
      [
        'TRADING_ACCOUNT=0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
        'SIGNER_PRIVATE_KEY=0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc',
        'BASE=ETH',
        'QUOTE=USDC',
        'LOG_LEVEL=silent',
        'HEDGE=binance:ETHUSDT',
        `HEDGE_REST_URL=${server.httpUrl}`,
        `HEDGE_WS_URL=${server.trading?.wsApiUrl ?? ''}`,
        `HEDGE_STREAM_URL=${server.wsUrl}`,
        `HEDGE_API_KEY=${HMAC_KEY}`,
        `HEDGE_API_SECRET=${HMAC_SECRET}`,
      ].join('\n'),
      { mode: 0o600 },
    );
    // The daemon counted a 0.4 ETH buy and stopped before hedging it.
    const journal = new FileHedgeJournal(join(dir, 'akira-mm-ETH-USDC.journal.ETH-USDC.hedge'));
    const units = (40n * 10n ** 16n).toString();
    journal.append({ t: 'fill', orderId: 'order-1', cum: units, qty: units, delta: units, timeMs: 1 });
    journal.close();
    const first = await runCli(['hedge', 'flatten', '--env', envFile, '--journal', join(dir, 'akira-mm-ETH-USDC.journal'), '--timeout', '20']);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ market: 'binance:ETHUSDT', flat: true, uncovered_base: 0, hedges_sent: 1, hedge_position_base: -0.4 });
    expect(first.code).toBe(0);
    expect(server.trading?.desk.placed.map((order) => [order.side, order.type, order.executedQty])).toEqual([['SELL', 'MARKET', 40_000_000n]]);
    const again = await runCli(['hedge', 'flatten', '--env', envFile, '--journal', join(dir, 'akira-mm-ETH-USDC.journal')]);
    expect(JSON.parse(again.stdout)).toMatchObject({ flat: true, hedges_sent: 0 });
    expect(server.trading?.desk.placed).toHaveLength(1);
  });

  it('refuses a pair file without HEDGE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-flatten-'));
    const envFile = join(dir, 'pair.env');
    writeFileSync(envFile, ['TRADING_ACCOUNT=0x1', 'SIGNER_PRIVATE_KEY=0x1', 'BASE=ETH', 'QUOTE=USDC'].join('\n'), { mode: 0o600 });
    const { code, stderr } = await runCli(['hedge', 'flatten', '--env', envFile]);
    expect(code).toBe(2);
    expect(stderr).toContain('HEDGE is off');
  });
});
