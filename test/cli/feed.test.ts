import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { LiveClock, createRng, createSilentLogger } from '../../src/core/index.ts';
import { BinanceReferenceFeed } from '../../src/markets/binance/index.ts';
import { Heard, dataDir, recordingFiles, until } from '../markets/binance/support.ts';
import { runCli } from './run-cli.ts';

describe('akira-mm feed', () => {
  it('--help lists every option with its unit and default', async () => {
    const { code, stdout } = await runCli(['feed', '--help']);
    expect(code).toBe(0);
    for (const option of ['--data FILE…', '--port N', '--host H', '--speed X|max', '--loop']) expect(stdout).toContain(option);
    expect(stdout).toContain('(default 127.0.0.1)');
    expect(stdout).toContain('(× recorded pace, default 1)');
    expect(stdout).toContain('(port, required)');
    expect(stdout).toContain('/api/v3/depth');
    expect((await runCli(['--help'])).stdout).toContain('akira-mm feed --data FILE --port N');
  });

  it('names a missing or bad flag, and a file it cannot serve, and exits 2', async () => {
    expect(await runCli(['feed', '--port', '0'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--data FILE is required') });
    expect(await runCli(['feed', '--data', 'x.gz'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--port N is required') });
    expect(await runCli(['feed', '--data', 'x.gz', '--port', '0', '--speed', 'fast'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--speed fast') });
    expect(await runCli(['feed', '--data', 'no-such-file.gz', '--port', '0'])).toMatchObject({ code: 2, stderr: expect.stringContaining('no-such-file.gz') });
    const noSnapshot = await runCli(['feed', '--data', 'config/example.env', '--port', '0']);
    expect(noSnapshot.code).toBe(2);
    expect(noSnapshot.stderr).toContain('no depth snapshot');
  });

  it.skipIf(dataDir === undefined)('serves both ETHUSDT files at max speed to a client, then ends cleanly with a summary', async () => {
    let stdout = '';
    const io: CliIo = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true }, stdin: Readable.from(['']), env: { LOG_LEVEL: 'silent' }, cwd: process.cwd() };
    const [first, second] = recordingFiles('ethusdt');
    const running = main(['feed', '--data', first as string, '--data', second as string, '--port', '0', '--speed', 'max'], io);
    await until(() => stdout.includes('\n'), 'the listening line');
    const listening = JSON.parse(stdout.split('\n')[0] as string) as { symbol: string; httpUrl: string; wsUrl: string };
    expect(listening).toMatchObject({ symbol: 'ETHUSDT', speed: 'max', loop: false });
    const heard = new Heard();
    const feed = new BinanceReferenceFeed({ symbol: 'ETHUSDT', wsUrl: listening.wsUrl, restUrl: listening.httpUrl, clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger(), staleAfterMs: 600_000 });
    await feed.start(heard);
    expect(await running).toBe(0);
    await feed.stop();
    const summary = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    expect(summary).toMatchObject({ ended: 'end of recording', passes: 1, depth: 3_434 + 3_036, tickers: 24_077 + 34_681, trades: 6_106 + 8_409, connections: 1, skipped: {} });
    expect(heard.tops.length).toBeGreaterThan(10_000);
    expect(feed.status().counters.snapshots).toBe(1);
    for (const top of heard.tops) expect(top.bidPrice).toBeLessThan(top.askPrice);
  }, 60_000);
});
