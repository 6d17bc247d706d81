/**
 * `npm start -- --hedge` in process: the embedded exchange, a recorded Binance market served as the
 * hedge venue, the bot quoting xemm and hedging every fill there, with no configuration. The live
 * status line shows the hedges; /metrics exports them; after the stop nothing rests anywhere.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { dataDir } from '../markets/binance/support.ts';

describe.skipIf(dataDir === undefined)('npm start -- --hedge', () => {
  it('paper-trades the whole cross-venue loop with no configuration, and its status line shows the hedges', { timeout: 200_000 }, async () => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: { write: (text: string) => (stdout += text), isTTY: true },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from(['']),
      env: {},
      cwd: process.cwd(),
    };
    const metricsPort = await freePort();
    const running = main(['paper', '--hedge', '--duration', '150', '--metrics-port', String(metricsPort)], io);
    let metrics = '';
    // The reference's takers are few (1 % of its trades by default): a hedge may take a minute.
    // A scrape that fails (the run ended) keeps the last one read.
    const deadline = performance.now() + 140_000;
    while (performance.now() < deadline && !/akira_mm_hedges_sent_total\{[^}]*\} [1-9]/.test(metrics)) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text(), () => metrics);
    }
    const health = (await fetch(`http://127.0.0.1:${metricsPort}/health`).then((response) => response.json(), () => ({}))) as Record<string, unknown>;
    // Stopped as Ctrl-C stops it once a hedge is seen (--duration bounds a run that never hedges).
    process.emit('SIGINT', 'SIGINT');
    const code = await running;
    expect(stderr).toContain('hedging every fill on binance:ETHUSDT');
    expect(code).toBe(0);
    expect(metrics).toMatch(/akira_mm_hedges_sent_total\{[^}]*side="(buy|sell)"[^}]*\} [1-9]/);
    expect(metrics).toContain('akira_mm_hedge_uncovered_base');
    expect(metrics).toContain('akira_mm_hedge_latency_seconds_bucket');
    expect(metrics).toContain('akira_mm_net_position_base');
    expect(health).toMatchObject({ hedge: { state: 'ok' } });
    const lines = stdout.split('\r\x1b[2K').filter((line) => line.includes('ETH/USDC'));
    expect(lines.some((line) => /hedges [1-9]\d* .*unhedged -?\d/.test(line))).toBe(true);
    expect(stderr).toMatch(/stopped: \d+ fills, [1-9]\d* hedges \(.* ETH unhedged, hedges' PnL .*\), PnL .* USDC, 0 open orders left on the exchange/);
  });
});
