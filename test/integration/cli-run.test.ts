/**
 * The two commands a user runs, as real processes: `akira-mm run --env FILE` against a running
 * embedded exchange quotes both sides, counts orders in /metrics, and after SIGTERM the exchange
 * shows zero open orders for its account; `akira-mm paper` (npm start) does the same on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountJournalPath, accountKey } from '../../src/cli/state-dir.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { eventually } from './support.ts';

const BIN = new URL('../../bin/akira-mm.js', import.meta.url).pathname;
let sim: SimHandle | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await sim?.stop();
  sim = undefined;
});


function launch(args: string[], cwd: string): { process: ChildProcess; output: () => string; exit: Promise<number | null> } {
  let output = '';
  const proc = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { process: proc, output: () => output, exit };
}

describe('akira-mm run and paper as processes', () => {
  it('run: quotes both sides, counts orders in /metrics, and SIGTERM leaves zero open orders', async () => {
    sim = await startSim({ seed: 0, flow: true, devAccounts: 2 });
    const account = sim.accounts[0]!;
    const metricsPort = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'akira-run-'));
    const env = join(dir, 'pair.env');
    writeFileSync(
      env,
      [
        `EXCHANGE_HTTP_URL=${sim.httpUrl}`,
        `EXCHANGE_WS_URL=${sim.wsUrl}`,
        `TRADING_ACCOUNT=${feltToHex(account.address)}`,
        `SIGNER_PRIVATE_KEY=${feltToHex(account.privateKey!)}`,
        'BASE=ETH',
        'QUOTE=USDC',
        `METRICS_PORT=${metricsPort}`,
        'LOG_LEVEL=info',
      ].join('\n'),
    );
    const stateDir = join(dir, 'state');
    const run = launch(['run', '--env', env, '--state-dir', stateDir], dir);
    child = run.process;
    const s = sim;
    await eventually(() => {
      const open = s.openOrdersOf(account.address);
      return open.some((o) => o.request.flags.isSellSide) && open.some((o) => !o.request.flags.isSellSide);
    }, 40_000, 'two-sided quotes');
    const metrics = await eventually(async () => {
      const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text(), () => '');
      return /akira_mm_orders_placed_total\{[^}]*\} [1-9]/.test(text) ? text : undefined;
    }, 20_000, 'orders counted in /metrics');
    expect(metrics).toContain('akira_mm_fills_total');
    expect(metrics).toContain('akira_mm_presign_hits_total');
    // One pair is an account of one: its account-wide series keep the pair's label, the account's are added.
    expect(metrics).toMatch(/akira_mm_process_resident_memory_bytes\{pair="ETH\/USDC"\} \d+/);
    expect(metrics).toMatch(/akira_mm_account_pairs\{state="quoting",pair="ETH\/USDC"\} 1/);
    const health = await fetch(`http://127.0.0.1:${metricsPort}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ state: 'quoting', reason: null, account: { state: 'ok', reason: null }, pairs: { 'ETH/USDC': { state: 'quoting', reason: null } } });
    // A second process for the same account and state directory fails at once, naming the first.
    const second = launch(['run', '--env', env, '--state-dir', stateDir], dir);
    expect(await second.exit).toBe(2);
    expect(second.output()).toContain(`already served by pid ${run.process.pid}`);
    // The journal lives in the state directory, keyed by venue and account.
    const key = accountKey(sim.httpUrl, feltToHex(account.address));
    expect(existsSync(accountJournalPath(stateDir, key))).toBe(true);

    run.process.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(existsSync(join(stateDir, key.venueId, `${key.account}.lock`))).toBe(false);
    await sim.idle();
    expect(sim.openOrdersOf(account.address)).toHaveLength(0);
    expect(run.output()).not.toContain(account.privateKey!.toString(16));
  }, 120_000);

  it('paper: starts its own exchange, quotes, and stops with zero open orders', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-paper-'));
    const paper = launch(['paper', '--duration', '10'], dir);
    child = paper.process;
    expect(await paper.exit).toBe(0);
    expect(paper.output()).toContain('paper trading ETH/USDC');
    expect(paper.output()).toMatch(/stopped: \d+ fills, PnL -?[\d.]+ USDC, 0 open orders left on the exchange/);
  }, 120_000);
});
