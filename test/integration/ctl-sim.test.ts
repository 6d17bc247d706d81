/**
 * `akira-mm ctl` against the daemon on the embedded exchange, the daemon started as `run` starts
 * it from a pair file (its STATE_DIR holds the control socket) and `ctl` run as the CLI: pause
 * pulls every quote within a second and /health answers 503 with reason `paused`; resume quotes
 * again; `set` of a spread moves the next quotes without a cancel-all; `reload` takes the file's
 * live keys and names the ones that need a restart; with two pairs, `--pair` steers one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/index.ts';
import type { LiveVenue } from '../../src/exchange/index.ts';
import { startLiveRun, type LiveRun } from '../../src/cli/live.ts';
import { loadPairFile } from '../../src/cli/pair-config.ts';
import { accountKey, controlAuditPath } from '../../src/cli/state-dir.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import type { SimHandle } from '../../src/sim/index.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { runCli } from '../cli/run-cli.ts';
import { ETH, USDC, counterparty, eventually, place, silentIo, startTestSim, writeDevPairFile } from './support.ts';

let sim: SimHandle | undefined;
let bot: { run: LiveRun; stop: () => Promise<number> } | undefined;
const venues: LiveVenue[] = [];

afterEach(async () => {
  await bot?.stop();
  bot = undefined;
  for (const venue of venues.splice(0)) await venue.stop();
  await sim?.stop();
  sim = undefined;
});

/** A background ETH/USDC market from dev account 2: 1 ETH bid at 2990 and ask at 3010. */
async function makeMarket(s: SimHandle): Promise<void> {
  const maker = await counterparty(s, 2);
  venues.push(maker);
  await place(maker, { side: 'buy', priceUnits: 2990n * USDC, qtyUnits: ETH, postOnly: true });
  await place(maker, { side: 'sell', priceUnits: 3010n * USDC, qtyUnits: ETH, postOnly: true });
}

/** Starts the daemon from pair files, as `run --env A [--env B]` does (reload reads them again the same way). */
async function startFromFiles(paths: readonly string[]): Promise<{ run: LiveRun; stop: () => Promise<number> }> {
  const [config, ...otherConfigs] = paths.map((path) => loadPairFile(path));
  let stop: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  const run = await startLiveRun({ config: config!, otherConfigs, paths, io: silentIo(), logger: createSilentLogger(), stopSignal, showStatus: false, signingWorkers: 0, reloadConfig: (index) => loadPairFile(paths[index]!) });
  let done: Promise<number> | undefined;
  return {
    run,
    stop: () => {
      stop('SIGTERM');
      done ??= run.daemon.done;
      return done;
    },
  };
}

function sides(s: SimHandle, account: bigint, base = 'ETH') {
  const open = s.openOrdersOf(account).filter((order) => order.market.base.symbol === base);
  const bids = open.filter((o) => !o.request.flags.isSellSide).map((o) => o.request.price);
  const asks = open.filter((o) => o.request.flags.isSellSide).map((o) => o.request.price);
  return { bids, asks, count: open.length };
}

const best = (prices: readonly bigint[], side: 'bid' | 'ask'): bigint => prices.reduce((a, b) => (side === 'bid' ? (b > a ? b : a) : b < a ? b : a));

async function health(port: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('akira-mm ctl against the daemon on the embedded exchange', () => {
  it('pause pulls every quote within a second and /health answers 503 paused; resume quotes again; both are audited', { timeout: 120_000 }, async () => {
    sim = await startTestSim();
    const s = sim;
    await makeMarket(s);
    const metricsPort = await freePort();
    const stateDir = join(writeDevPairFile(s, 3).replace(/pair\.env$/, ''), 'state');
    const path = writeDevPairFile(s, 0, [`METRICS_PORT=${metricsPort}`, `STATE_DIR=${stateDir}`, 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=5', 'LADDER_ASK_SPREAD_BPS=5']);
    bot = await startFromFiles([path]);
    const account = s.accounts[0]!.address;
    await eventually(() => sides(s, account).bids.length > 0 && sides(s, account).asks.length > 0, 30_000, 'two-sided quotes');
    expect((await health(metricsPort)).status).toBe(200);

    const pausedAt = performance.now();
    const paused = await runCli(['ctl', 'pause', '--env', path]);
    expect(paused).toMatchObject({ code: 0, stderr: '' });
    expect(paused.stdout).toContain('ETH/USDC: paused by the operator; now paused (paused)');
    const unhealthy = await health(metricsPort);
    expect(unhealthy.status).toBe(503);
    expect(unhealthy.body).toMatchObject({ state: 'paused', reason: 'paused', pairs: { 'ETH/USDC': { state: 'paused', reason: 'paused' } } });
    await eventually(() => s.openOrdersOf(account).length === 0, 10_000, 'no resting order');
    const pulledMs = performance.now() - pausedAt;
    expect(pulledMs).toBeLessThan(1_000);

    // The process stays: status answers, and nothing is quoted while paused.
    const status = await runCli(['ctl', 'status', '--env', path, '--json']);
    expect(status.code).toBe(0);
    const answer = JSON.parse(status.stdout) as { pairs: { pair: string; state: string; reason: string; bids: unknown[]; asks: unknown[] }[]; rows: string[] };
    expect(answer.pairs).toMatchObject([{ pair: 'ETH/USDC', state: 'paused', reason: 'paused', bids: [], asks: [] }]);
    expect(answer.rows[0]).toContain('ETH/USDC paused (paused)');

    const resumed = await runCli(['ctl', 'resume', '--state-dir', stateDir]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('ETH/USDC: operator pause cleared; now quoting');
    await eventually(() => sides(s, account).bids.length > 0 && sides(s, account).asks.length > 0, 10_000, 'quotes again after resume');
    expect((await health(metricsPort)).status).toBe(200);

    const audit = readFileSync(controlAuditPath(stateDir, accountKey(s.httpUrl, feltToHex(account))), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.map((record) => [record['op'], record['pair']])).toEqual([
      ['pause', 'ETH/USDC'],
      ['resume', 'ETH/USDC'],
    ]);
    expect(audit[0]).toMatchObject({ by: { pid: process.pid } });
    process.stderr.write(`ctl pause → zero resting orders in ${pulledMs.toFixed(0)} ms\n`);
  });

  it('set of a spread moves the next quotes without a cancel-all; a restart-only key or a bad value is refused by name; reload takes the file\'s live keys', { timeout: 120_000 }, async () => {
    sim = await startTestSim();
    const s = sim;
    await makeMarket(s);
    const stateDir = join(writeDevPairFile(s, 3).replace(/pair\.env$/, ''), 'state');
    const lines = [`STATE_DIR=${stateDir}`, 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=5', 'LADDER_ASK_SPREAD_BPS=5'];
    const path = writeDevPairFile(s, 0, lines);
    bot = await startFromFiles([path]);
    const account = s.accounts[0]!.address;
    const before = await eventually(() => {
      const quoted = sides(s, account);
      return quoted.bids.length > 0 && quoted.asks.length > 0 ? quoted : undefined;
    }, 30_000, 'two-sided quotes');
    let cancelAlls = 0;
    const venue = bot.run.session.venues[0]!;
    const cancelAll = venue.cancelAll.bind(venue);
    venue.cancelAll = () => {
      cancelAlls++;
      return cancelAll();
    };
    const mid = 3000n * USDC;
    const bidBefore = best(before.bids, 'bid');

    const set = await runCli(['ctl', 'set', 'LADDER_BID_SPREAD_BPS=25', '--env', path]);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe('ETH/USDC: LADDER_BID_SPREAD_BPS 5 → 25\n');
    // 25 bps of 3000 is 7.5 USDC: the bid moves about 6 USDC further from the mid, the ask stays.
    const after = await eventually(() => {
      const quoted = sides(s, account);
      return quoted.bids.length > 0 && mid - best(quoted.bids, 'bid') > mid - bidBefore + 5n * USDC ? quoted : undefined;
    }, 10_000, 'the bid at the new spread');
    expect(best(after.asks, 'ask')).toBe(best(before.asks, 'ask'));
    expect(cancelAlls).toBe(0);
    expect(bot.run.daemon.engine.status().state).toBe('quoting');

    const restart = await runCli(['ctl', 'set', 'FAIR_PRICE=microprice', '--env', path]);
    expect(restart.code).toBe(1);
    expect(restart.stderr).toContain('FAIR_PRICE needs a restart');
    const bad = await runCli(['ctl', 'set', 'LADDER_ASK_SPREAD_BPS=-2', '--env', path]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('LADDER_ASK_SPREAD_BPS="-2": a number ≥ 0 and ≤ 5000 bps');
    const secret = await runCli(['ctl', 'set', 'SIGNER_PRIVATE_KEY=0x1', '--env', path, '--json']);
    expect(secret.code).toBe(1);
    expect(JSON.parse(secret.stdout)).toMatchObject({ error: { code: 'CTL_REFUSED' } });
    expect(secret.stdout).not.toContain('0x1"');

    // The file now asks for a wider ask (live) and another metrics host (restart): the first is taken, the second named.
    writeFileSync(path, `${readFileSync(path, 'utf8')}\nLADDER_ASK_SPREAD_BPS=25\nMETRICS_HOST=0.0.0.0\n`.replace('LADDER_ASK_SPREAD_BPS=5\n', ''), { mode: 0o600 });
    const reload = await runCli(['ctl', 'reload', '--env', path, '--json']);
    expect(reload.code).toBe(1);
    const changed = JSON.parse(reload.stdout) as { pairs: { pair: string; applied: { key: string; old: string; new: string }[]; refused: { key: string; reason: string }[] }[] };
    // The file still says 5 for the bid: reload takes the file as it is.
    expect(changed.pairs[0]?.applied).toEqual(
      expect.arrayContaining([
        { key: 'LADDER_ASK_SPREAD_BPS', old: '5', new: '25' },
        { key: 'LADDER_BID_SPREAD_BPS', old: '25', new: '5' },
      ]),
    );
    expect(changed.pairs[0]?.refused.map((refusal) => refusal.key)).toEqual(['METRICS_HOST']);
    await eventually(() => {
      const quoted = sides(s, account);
      return quoted.asks.length > 0 && best(quoted.asks, 'ask') - mid > 6n * USDC;
    }, 10_000, 'the ask at the reloaded spread');
    expect(cancelAlls).toBe(0);
  });

  it('with two pairs, --pair pauses one and the other keeps quoting; without it, every pair', { timeout: 120_000 }, async () => {
    sim = await startTestSim();
    const s = sim;
    await makeMarket(s);
    const stateDir = join(writeDevPairFile(s, 3).replace(/pair\.env$/, ''), 'state');
    const eth = writeDevPairFile(s, 0, [`STATE_DIR=${stateDir}`, 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=5', 'LADDER_ASK_SPREAD_BPS=5']);
    // STRK/USDC has no book here, so it quotes nothing: what matters is that the operator's pause is not its.
    const strk = writeDevPairFile(s, 0, [`STATE_DIR=${stateDir}`, 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=150', 'LADDER_BID_SPREAD_BPS=5', 'LADDER_ASK_SPREAD_BPS=5']);
    writeFileSync(strk, readFileSync(strk, 'utf8').replace('BASE=ETH', 'BASE=STRK'), { mode: 0o600 });
    bot = await startFromFiles([eth, strk]);
    const account = s.accounts[0]!.address;
    await eventually(() => sides(s, account, 'ETH').count >= 2, 30_000, 'ETH/USDC quotes');

    const one = await runCli(['ctl', 'pause', '--pair', 'ETH/USDC', '--env', eth]);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe('ETH/USDC: paused by the operator; now paused (paused)\n');
    await eventually(() => sides(s, account, 'ETH').count === 0, 10_000, 'ETH/USDC pulled');
    const status = JSON.parse((await runCli(['ctl', 'status', '--env', strk, '--json'])).stdout) as { pairs: { pair: string; reason: string | null }[] };
    const operatorPaused = (reason: string | null): boolean => (reason ?? '').split(', ').includes('paused');
    expect(status.pairs.map((pair) => [pair.pair, operatorPaused(pair.reason)])).toEqual([
      ['ETH/USDC', true],
      ['STRK/USDC', false],
    ]);
    const unknown = await runCli(['ctl', 'pause', '--pair', 'BTC/USDC', '--env', eth]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('this daemon quotes ETH/USDC, STRK/USDC');

    const every = await runCli(['ctl', 'resume', '--env', eth]);
    expect(every.code).toBe(0);
    expect(every.stdout).toContain('ETH/USDC: operator pause cleared');
    expect(every.stdout).toContain('STRK/USDC: was not paused by the operator');
    await eventually(() => sides(s, account, 'ETH').count >= 2, 10_000, 'ETH/USDC quotes again');
  });
});
