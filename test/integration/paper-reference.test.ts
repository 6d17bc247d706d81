/**
 * `npm start -- --reference` in process: the embedded exchange with its flow following the shared
 * ETHUSDT recording served by the `feed` server on loopback, and the bot pricing from that same
 * market (REFERENCE=binance:ETHUSDT at the loopback server, FAIR_PRICE=reference), with no
 * configuration. It says what it reads, quotes, shows the reference on the status line, /health
 * and /metrics, and leaves nothing resting.
 */
import { Readable } from 'node:stream';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { dataDir } from '../markets/binance/support.ts';

function captureIo(): CliIo & { out(): string; err(): string } {
  let stdout = '';
  let stderr = '';
  return {
    stdout: { write: (text: string) => (stdout += text), isTTY: true },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(['']),
    env: {},
    cwd: process.cwd(),
    out: () => stdout,
    err: () => stderr,
  };
}

describe.skipIf(dataDir === undefined)('npm start -- --reference', () => {
  it('paper-trades from the recorded reference with no configuration, and shows it', { timeout: 120_000 }, async () => {
    const io = captureIo();
    const metricsPort = await freePort();
    // Long enough for a loaded CI machine to start the feed, the sim and the bot and quote: the
    // metrics are read while it runs, so a short run ends before they exist.
    const running = main(['paper', '--reference', '--duration', '20', '--metrics-port', String(metricsPort)], io);
    let metrics = '';
    let health: Record<string, unknown> = {};
    const deadline = performance.now() + 60_000;
    while (performance.now() < deadline && !(/akira_mm_reference_fair_price\{[^}]*\} [1-9]/.test(metrics) && health['state'] === 'quoting')) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text(), () => '');
      health = (await fetch(`http://127.0.0.1:${metricsPort}/health`).then((response) => response.json(), () => ({}))) as Record<string, unknown>;
    }
    const code = await running;
    expect(io.err()).toMatch(/reference binance:ETHUSDT served at ws:\/\/127\.0\.0\.1:\d+ \(recorded, looping; the flow follows it\) · FAIR_PRICE=reference/);
    expect(code).toBe(0);
    expect(metrics).toMatch(/akira_mm_reference_mid\{[^}]*market="binance:ETHUSDT"[^}]*\} \d{4}/);
    expect(metrics).toMatch(/akira_mm_reference_state\{[^}]*state="synchronised"[^}]*\} 1/);
    expect(metrics).toContain('akira_mm_reference_basis_bps');
    expect(health).toMatchObject({ state: 'quoting', reference: { market: 'binance:ETHUSDT', state: 'synchronised' } });
    const lines = io.out().split('\r\x1b[2K').filter((line) => line.includes('ETH/USDC quoting'));
    expect(lines.some((line) => /quotes [\d.]+@[\d.]+ \| [\d.]+@[\d.]+ .* ref \d+\.\d+ basis -?\d+\.\dbps/.test(line))).toBe(true);
    expect(io.err()).toMatch(/stopped: \d+ fills, PnL .* USDC, 0 open orders left on the exchange/);
  });

  it('keeps the FAIR_PRICE a pair file sets, and refuses --reference-data without --reference', { timeout: 90_000 }, async () => {
    const env = join(mkdtempSync(join(tmpdir(), 'akira-paper-ref-')), 'pair.env');
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDC', 'CHAIN=mainnet', 'STRATEGY=ladder', 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=0.05', 'FAIR_PRICE=blend', 'TRADING_ACCOUNT=0x1', 'EXCHANGE_HTTP_URL=http://127.0.0.1:1', 'EXCHANGE_WS_URL=ws://127.0.0.1:1'].join('\n'), { mode: 0o600 });
    const io = captureIo();
    expect(await main(['paper', '--reference', '--env', env, '--duration', '3'], io)).toBe(0);
    expect(io.err()).toContain('FAIR_PRICE=blend');
    const refused = captureIo();
    expect(await main(['paper', '--reference-data', 'x.gz', '--duration', '1'], refused)).toBe(2);
    expect(refused.err()).toContain('--reference-data goes with --reference');
  });
});
