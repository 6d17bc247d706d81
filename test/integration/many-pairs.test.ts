/**
 * Many pairs on one account (issue 17) against the embedded exchange over loopback, with real
 * keys and signatures: ETH/USDC and STRK/USDC from one process on one dev account. Both quote both
 * sides and neither halts while the synthetic flow fills them (the account ledger counts the other
 * pair's fills, so they are never drift); the account's balances end at start + both pairs' fills,
 * exactly; budgets keep both pairs' bids inside the free USDC; a stop leaves no order on either
 * book; a second process for the account fails at once; files that disagree on the account are
 * refused, naming the keys and both files.
 *
 * The daemon runs on the live clock (the account session's sockets and timers are real), so this
 * quotes for ~20 s of wall time with the flow sped up (a tick every 200 ms, 4 takers a second per
 * pair) rather than 60 s at the default pace: the same number of fills, in a third of the time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, createRng, createSilentLogger } from '../../src/core/index.ts';
import { createLiveVenue, orderIdOf } from '../../src/exchange/index.ts';
import { startLiveRun, type LiveRun } from '../../src/cli/live.ts';
import { loadPairFile } from '../../src/cli/pair-config.ts';
import type { EngineObserver } from '../../src/engine/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../src/sim/index.ts';
import { runCli } from '../cli/run-cli.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';
import { QUIET_LISTENER, counterparty, devVenueConfig, eventually, place, silentIo } from './support.ts';

const BIN = new URL('../../bin/akira-mm.js', import.meta.url).pathname;
let sim: SimHandle | undefined;
let running: { run: LiveRun; stop: () => Promise<number> } | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await sim?.stop();
  sim = undefined;
});

/** Two pair files (ETH/USDC, STRK/USDC) for dev account `index`, plus extra lines for each. */
function pairFiles(s: SimHandle, index: number, extra: { eth?: readonly string[]; strk?: readonly string[] } = {}): { dir: string; eth: string; strk: string } {
  const account = s.accounts[index]!;
  const dir = mkdtempSync(join(tmpdir(), 'akira-pairs-'));
  const common = [`EXCHANGE_HTTP_URL=${s.httpUrl}`, `EXCHANGE_WS_URL=${s.wsUrl}`, `TRADING_ACCOUNT=${feltToHex(account.address)}`, `SIGNER_PRIVATE_KEY=${feltToHex(account.privateKey!)}`, 'METRICS_PORT=0', 'LOG_LEVEL=silent'];
  const eth = join(dir, 'ETH-USDC.env');
  const strk = join(dir, 'STRK-USDC.env');
  writeFileSync(eth, [...common, 'BASE=ETH', 'QUOTE=USDC', 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=3', 'LADDER_ASK_SPREAD_BPS=3', ...(extra.eth ?? [])].join('\n'), { mode: 0o600 });
  writeFileSync(strk, [...common, 'BASE=STRK', 'QUOTE=USDC', 'LADDER_LEVELS=1', 'LADDER_ORDER_SIZE=150', 'LADDER_BID_SPREAD_BPS=3', 'LADDER_ASK_SPREAD_BPS=3', ...(extra.strk ?? [])].join('\n'), { mode: 0o600 });
  return { dir, eth, strk };
}

/** Every token's change from each pair's fills (and fee corrections), as the engines booked them. */
class Booked {
  readonly deltas = new Map<string, bigint>();
  readonly fills = new Map<string, number>();
  /** Quote each pair gained or spent by its own fills: its funds are its budget plus this. */
  readonly quoteOf = new Map<string, bigint>();
  readonly rejections: string[] = [];
  gas = 0;
  observerOf(pair: string): EngineObserver {
    const [base, quote] = pair.split('/') as [string, string];
    const add = (token: string, units: bigint): void => void this.deltas.set(token, (this.deltas.get(token) ?? 0n) + units);
    return {
      fill: (_fill, effect) => {
        add(base, effect.baseDeltaUnits);
        add(quote, effect.quoteDeltaUnits);
        this.quoteOf.set(pair, (this.quoteOf.get(pair) ?? 0n) + effect.quoteDeltaUnits);
        this.fills.set(pair, (this.fills.get(pair) ?? 0) + 1);
      },
      feeCorrected: (effect) => {
        add(base, effect.baseDeltaUnits);
        add(quote, effect.quoteDeltaUnits);
      },
      gasSpent: (amount) => (this.gas += amount),
      orderRejected: (_side, reason) => this.rejections.push(`${pair} ${reason}`),
    };
  }
}

async function startPairs(s: SimHandle, paths: readonly string[], stateDir: string, booked: Booked): Promise<{ run: LiveRun; stop: () => Promise<number> }> {
  const [config, ...otherConfigs] = paths.map((path) => loadPairFile(path));
  let stop: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => (stop = resolve));
  const run = await startLiveRun({ config: config!, otherConfigs, paths, io: silentIo(), logger: createSilentLogger(), stateDir, stopSignal, showStatus: false, observerOf: (pair) => booked.observerOf(pair) });
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

function sidesOn(s: SimHandle, account: bigint, base: string): { bids: number; asks: number } {
  const open = s.openOrdersOf(account).filter((order) => order.market.base.symbol === base);
  return { bids: open.filter((order) => !order.request.flags.isSellSide).length, asks: open.filter((order) => order.request.flags.isSellSide).length };
}

function totals(s: SimHandle, account: bigint): Map<string, bigint> {
  return new Map([...s.balancesOf(account)].map(([token, holding]) => [token, holding.free + holding.locked]));
}

describe('many pairs on one account, one process', () => {
  it('two pairs quote both sides without a halt, balances end at start + both pairs\' fills exactly, and a stop leaves both books empty', async () => {
    sim = await startSim({ seed: 7, flow: { tickMs: 200, takerRatePerSec: 4 }, devAccounts: 2, signatureWorkers: 0 });
    const s = sim;
    const account = s.accounts[0]!.address;
    const start = totals(s, account);
    const files = pairFiles(s, 0);
    const stateDir = join(files.dir, 'state');
    const booked = new Booked();
    running = await startPairs(s, [files.eth, files.strk], stateDir, booked);
    const { run } = running;
    // One login and one WebSocket connection for both pairs' streams and the account's fills.
    expect(run.session.streamStats.connects).toBe(1);

    // A second process for the same account (same state directory) fails at once, naming the lock.
    const second = await new Promise<{ code: number | null; output: string; ms: number }>((resolve) => {
      const began = performance.now();
      let output = '';
      const child = spawn(process.execPath, [BIN, 'run', '--env', files.eth, '--env', files.strk, '--state-dir', stateDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output, ms: performance.now() - began }));
    });
    expect(second.code).toBe(2);
    expect(second.output).toMatch(/already|lock/i);
    await eventually(() => s.openOrdersOf(account).length > 0, 30_000, 'the first process still quoting');

    const seen = { eth: { bids: false, asks: false }, strk: { bids: false, asks: false } };
    const states = new Set<string>();
    await eventually(() => {
      for (const [key, base] of [['eth', 'ETH'], ['strk', 'STRK']] as const) {
        const sides = sidesOn(s, account, base);
        seen[key].bids ||= sides.bids > 0;
        seen[key].asks ||= sides.asks > 0;
      }
      for (const engine of run.daemon.engines.values()) states.add(engine.status().state);
      return seen.eth.bids && seen.eth.asks && seen.strk.bids && seen.strk.asks && (booked.fills.get('ETH/USDC') ?? 0) >= 2 && (booked.fills.get('STRK/USDC') ?? 0) >= 2;
    }, 60_000, 'both pairs quoting both sides and filled');
    // Keep quoting a while longer: several account checks (every heal) run over both pairs' fills.
    const until = performance.now() + 8_000;
    await eventually(() => {
      for (const engine of run.daemon.engines.values()) states.add(engine.status().state);
      return performance.now() > until;
    }, 20_000, 'quoting time');
    expect(states.has('halted')).toBe(false);
    expect(run.daemon.account.haltReason).toBeUndefined();

    const code = await running.stop();
    running = undefined;
    expect(code).toBe(0);
    await s.idle();
    expect(s.openOrdersOf(account)).toEqual([]);
    // Post-only quotes pay no gas; every token moved by exactly what the two pairs booked.
    expect(booked.gas).toBe(0);
    const end = totals(s, account);
    for (const token of ['ETH', 'STRK', 'USDC']) expect({ token, units: end.get(token) }).toEqual({ token, units: (start.get(token) ?? 0n) + (booked.deltas.get(token) ?? 0n) });
    expect(booked.deltas.get('USDC')).not.toBe(0n);
  }, 120_000);

  it('budgets keep both pairs\' bids inside the free quote balance when together they would exceed it', async () => {
    sim = await startSim({ seed: 11, flow: { tickMs: 200, takerRatePerSec: 0.5 }, devAccounts: 2, signatureWorkers: 0 });
    const s = sim;
    const account = s.accounts[0]!.address;
    const usdc = s.balancesOf(account).get('USDC')!;
    // 300 000 USDC; ETH/USDC bids 2 × 40 ETH ≈ 240 000 and STRK/USDC bids 2 × 200 000 STRK ≈ 2 × 100 000 at ~0.5:
    // together ≈ 440 000, far over the balance. Budgets: 150 000 each (the even split).
    const big = ['LADDER_LEVELS=2', 'RISK_MAX_INVENTORY_BASE=0', 'RISK_MAX_TOTAL_NOTIONAL=0', 'RISK_MAX_DRAWDOWN=0', 'RISK_MAX_TOTAL_NOTIONAL_ACCOUNT=0'];
    const files = pairFiles(s, 0, { eth: [...big, 'LADDER_ORDER_SIZE=40'], strk: [...big, 'LADDER_ORDER_SIZE=200000'] });
    const booked = new Booked();
    running = await startPairs(s, [files.eth, files.strk], join(files.dir, 'state'), booked);
    const { run } = running;
    const budgets = run.daemon.account.snapshot().budgets;
    expect(budgets.get('ETH/USDC')?.quoteUnits).toBe((usdc.free + usdc.locked) / 2n);
    expect(budgets.get('STRK/USDC')?.quoteUnits).toBe((usdc.free + usdc.locked) / 2n);
    await eventually(() => sidesOn(s, account, 'ETH').bids > 0 && sidesOn(s, account, 'STRK').bids > 0, 30_000, 'bids on both pairs');
    const until = performance.now() + 5_000;
    let maxLocked = 0n;
    await eventually(() => {
      const open = s.openOrdersOf(account).filter((order) => !order.request.flags.isSellSide);
      for (const base of ['ETH', 'STRK']) {
        const pair = `${base}/USDC`;
        const notional = open.filter((order) => order.market.base.symbol === base).reduce((sum, order) => sum + (order.request.price * (order.request.baseQty - order.filledBase)) / 10n ** BigInt(order.market.base.decimals), 0n);
        // A pair's funds are its budget plus what its own fills brought (a sale adds quote to bid with).
        const funds = (budgets.get(pair)?.quoteUnits ?? 0n) + (booked.quoteOf.get(pair) ?? 0n);
        expect({ pair, notional: notional <= funds ? 'within its funds' : `${notional} > ${funds}` }).toEqual({ pair, notional: 'within its funds' });
      }
      const locked = s.balancesOf(account).get('USDC')!.locked;
      if (locked > maxLocked) maxLocked = locked;
      return performance.now() > until;
    }, 20_000, 'quoting time');
    expect(maxLocked > 0n && maxLocked <= usdc.free + usdc.locked).toBe(true);
    expect(booked.rejections.filter((reason) => reason.includes('NOT_ENOUGH_BALANCE'))).toEqual([]);
    for (const engine of run.daemon.engines.values()) expect(engine.status().state).not.toBe('halted');
  }, 90_000);

  it('refuses pair files that disagree on the account, naming the keys and both files', async () => {
    sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0 });
    const mine = pairFiles(sim, 0);
    const other = pairFiles(sim, 1, { strk: ['METRICS_PORT=9999', 'RISK_MAX_DRAWDOWN_ACCOUNT=100'] });
    writeFileSync(join(mine.dir, 'ETH-USDC.env'), '\nRISK_MAX_DRAWDOWN_ACCOUNT=50\n', { flag: 'a' });
    const refused = await runCli(['run', '--env', mine.eth, '--env', other.strk, '--state-dir', join(mine.dir, 'state')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(other.strk);
    expect(refused.stderr).toContain(mine.eth);
    expect(refused.stderr).toMatch(/TRADING_ACCOUNT \(0x[0-9a-f]+ vs 0x[0-9a-f]+\)/);
    expect(refused.stderr).toContain('SIGNER_PRIVATE_KEY / SIGNER_PRIVATE_KEY_FILE / SIGNER_KEYSTORE / SIGNER_REMOTE (different signers)');
    expect(refused.stderr).toContain('METRICS_PORT (0 vs 9999)');
    expect(refused.stderr).toContain('RISK_MAX_DRAWDOWN_ACCOUNT (50 vs 100');
    // A private key is never shown, not even to say it differs.
    expect(refused.stderr).not.toContain(feltToHex(sim.accounts[1]!.privateKey!));
    const twice = await runCli(['run', '--env', mine.eth, '--env', mine.eth]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('both quote ETH/USDC');
    const empty = await runCli(['run', '--env-dir', join(mine.dir, 'nowhere')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--env-dir');
  });

  it('paper --pairs trades two pairs on one dev account of the embedded exchange and leaves nothing open', async () => {
    const paper = await runCli(['paper', '--pairs', 'ETH/USDC,STRK/USDC', '--duration', '6', '--seed', '3', '--log-level', 'silent']);
    expect(paper.stderr).toContain('paper trading ETH/USDC, STRK/USDC (ladder) on ONE account');
    expect(paper.stderr).toMatch(/ETH\/USDC: \d+ fills/);
    expect(paper.stderr).toMatch(/STRK\/USDC: \d+ fills/);
    expect(paper.stderr).toContain('stopped: 0 open orders left on the exchange');
    expect(paper.code).toBe(0);
    const bad = await runCli(['paper', '--pairs', 'ETH-USDC']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"ETH-USDC" is not BASE/QUOTE');
  }, 60_000);

  it('names a trade none of its pairs made on the account (someone else trades it) instead of a bare drift', async () => {
    sim = await startSim({ seed: 5, flow: { tickMs: 500, takerRatePerSec: 0.01 }, devAccounts: 2, signatureWorkers: 0 });
    const s = sim;
    const account = s.accounts[0]!.address;
    const files = pairFiles(s, 0, { eth: ['RECONCILE_INTERVAL_S=1'], strk: ['RECONCILE_INTERVAL_S=1'] });
    const booked = new Booked();
    running = await startPairs(s, [files.eth, files.strk], join(files.dir, 'state'), booked);
    const { run } = running;
    await eventually(() => sidesOn(s, account, 'ETH').asks > 0 && sidesOn(s, account, 'STRK').bids > 0, 30_000, 'both pairs quoting');
    // Another client logged in to the same account takes liquidity on ETH/USDC: an order we never sent.
    const rogue = await counterparty(s, 0);
    try {
      const foreign = await place(rogue, { side: 'buy', priceUnits: 4_000n * 10n ** 6n, qtyUnits: 10n ** 16n, postOnly: false });
      const reason = await eventually(() => run.daemon.account.haltReason, 30_000, 'the account halting');
      expect(reason).toContain('none of our pairs made (someone else trades this account)');
      expect(reason).toContain(`${foreign} on ETH/USDC`);
      for (const engine of run.daemon.engines.values()) expect(engine.status().state).toBe('halted');
    } finally {
      await rogue.stop();
    }
    expect(await running.stop()).toBe(0);
    running = undefined;
    await s.idle();
    expect(s.openOrdersOf(account)).toEqual([]);
  }, 90_000);

  it('a restart settles every pair\'s leftovers first: cancelled under STARTUP_ORDERS=cancel, on both books', async () => {
    sim = await startSim({ seed: 9, flow: { tickMs: 500, takerRatePerSec: 0.01 }, devAccounts: 2, signatureWorkers: 0 });
    const s = sim;
    const account = s.accounts[0]!.address;
    // What a crashed run left: a resting bid on each book, far from the touch.
    const leftovers: string[] = [];
    for (const [base, priceUnits, qtyUnits] of [['ETH', 2_000n * 10n ** 6n, 10n ** 16n], ['STRK', 10n ** 5n, 200n * 10n ** 18n]] as const) {
      const venue = createLiveVenue({ ...devVenueConfig(s, 0, 0), base }, { clock: new ManualClock(Date.now()), rng: createRng(3), logger: createSilentLogger() });
      await venue.start(QUIET_LISTENER);
      leftovers.push(await place(venue, { side: 'buy', priceUnits, qtyUnits, postOnly: true }));
      await venue.stop();
    }
    expect(s.openOrdersOf(account)).toHaveLength(2);
    const files = pairFiles(s, 0);
    const booked = new Booked();
    running = await startPairs(s, [files.eth, files.strk], join(files.dir, 'state'), booked);
    const open = s.openOrdersOf(account).map((order) => orderIdOf(order.hash));
    for (const leftover of leftovers) expect(open).not.toContain(leftover);
    await eventually(() => sidesOn(s, account, 'ETH').bids > 0 && sidesOn(s, account, 'STRK').bids > 0, 30_000, 'both pairs quoting after the leftovers went');
    expect(await running.stop()).toBe(0);
    running = undefined;
  }, 90_000);

  it('as a process: `run --env-dir DIR` quotes both pairs, and SIGTERM leaves zero orders on both books (exit 0)', async () => {
    sim = await startSim({ seed: 2, flow: true, devAccounts: 2, signatureWorkers: 0 });
    const s = sim;
    const account = s.accounts[0]!.address;
    const files = pairFiles(s, 0);
    let output = '';
    // The directory holds the two pair files (and, once started, the state directory, which is no pair file).
    const child = spawn(process.execPath, [BIN, 'run', '--env-dir', files.dir, '--state-dir', join(files.dir, 'state')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await eventually(() => {
        const eth = sidesOn(s, account, 'ETH');
        const strk = sidesOn(s, account, 'STRK');
        return eth.bids > 0 && eth.asks > 0 && strk.bids > 0 && strk.asks > 0;
      }, 40_000, `both pairs two-sided (output: ${output.slice(-500)})`);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      await s.idle();
      expect(s.openOrdersOf(account)).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('a pair the venue does not list ends the run with the reason, alone or beside another pair (nothing left listening)', async () => {
    sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0 });
    const files = pairFiles(sim, 0);
    const unlisted = join(files.dir, 'USDT-USDC.env');
    writeFileSync(unlisted, readFileSync(files.strk, 'utf8').replace('BASE=STRK', 'BASE=USDT').replace('METRICS_PORT=0', `METRICS_PORT=${await freePort()}`), { mode: 0o600 });
    const alone = await launch(['run', '--env', unlisted, '--state-dir', join(files.dir, 'state')]);
    // Exits by itself (a process left listening would be killed after 45 s: code null).
    expect(alone.code === null ? alone.output.slice(-1500) : alone.code).toBe(1);
    expect(alone.output).toContain('USDT/USDC (ecosystem book) is not listed');
    writeFileSync(files.eth, readFileSync(files.eth, 'utf8').replace('METRICS_PORT=0', readFileSync(unlisted, 'utf8').match(/METRICS_PORT=\d+/)?.[0] ?? ''));
    const beside = await launch(['run', '--env', files.eth, '--env', unlisted, '--state-dir', join(files.dir, 'state')]);
    expect(beside.code === null ? beside.output.slice(-1500) : beside.code).toBe(alone.code);
    expect(beside.output).toContain('USDT/USDC (ecosystem book) is not listed');
    await sim.idle();
    expect(sim.openOrdersOf(sim.accounts[0]!.address)).toEqual([]);
  }, 120_000);
});

/** Runs the CLI as a process to its end. */
function launch(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Long enough for a loaded machine to start node and the run twice over; a process left
    // listening is still told apart (killed: code null).
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

