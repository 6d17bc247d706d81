/**
 * `akira-mm ctl` without a venue: the protocol's parsing, which keys a running daemon takes (from
 * the declarations), how `set` and `reload` are checked (the pair file's reader and its words),
 * the answers as text, and the control socket itself (owner-only, found under the state directory).
 */
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE_KEY_LIST, ManualClock, createSilentLogger, type Reader } from '../../src/core/index.ts';
import { changedKeys, liveKeyNames, planChange, planSet, restartKeyNames } from '../../src/cli/ctl-changes.ts';
import { CtlRefusal, parseCtlRequest, type CtlRequest } from '../../src/cli/ctl-protocol.ts';
import { ControlServer } from '../../src/cli/ctl-server.ts';
import { ask, isCompleteAnswer, renderCtlAnswer } from '../../src/cli/ctl.ts';
import { DaemonControl } from '../../src/cli/daemon-control.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import { runCli } from './run-cli.ts';

const PAIR = {
  EXCHANGE_HTTP_URL: 'http://127.0.0.1:9',
  EXCHANGE_WS_URL: 'ws://127.0.0.1:9',
  TRADING_ACCOUNT: '0x033c627a3e5213790e246a917770ce23d7e562baa5b4d2917c23b1be6d91961c',
  BASE: 'ETH',
  QUOTE: 'USDC',
  LADDER_BID_SPREAD_BPS: '5',
};
const running = () => validatePairEnv(PAIR, 'test', { requireSigner: false });

function refusalOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CtlRefusal) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('the control protocol', () => {
  it('reads a request line and names the field that is wrong', () => {
    expect(parseCtlRequest('{"id":3,"op":"set","key":"LADDER_BID_SPREAD_BPS","value":"8","pair":"ETH/USDC","by":{"uid":1000,"user":"ops","pid":7}}')).toEqual({
      id: 3,
      op: 'set',
      pair: 'ETH/USDC',
      key: 'LADDER_BID_SPREAD_BPS',
      value: '8',
      by: { uid: 1000, user: 'ops', pid: 7 },
    });
    expect(() => parseCtlRequest('not json')).toThrow('the request is not JSON');
    expect(() => parseCtlRequest('{"id":1,"op":"halt","by":{"pid":1}}')).toThrow('op="halt": one of status, pause, resume, cancel-all, set, reload');
    expect(() => parseCtlRequest('{"id":1,"op":"pause","pair":"eth-usdc","by":{"pid":1}}')).toThrow('pair="eth-usdc": BASE/QUOTE');
    expect(() => parseCtlRequest('{"id":1,"op":"set","value":"1","by":{"pid":1}}')).toThrow('key=undefined: an env key in capitals');
    expect(() => parseCtlRequest('{"id":1,"op":"status"}')).toThrow('by=undefined: the caller');
  });
});

describe('which keys a running daemon takes', () => {
  it('comes from the declarations: strategy keys, the requote band, the edge floor and the pair\'s risk caps are live', () => {
    const live = liveKeyNames();
    expect(live).toEqual(expect.arrayContaining(['LADDER_BID_SPREAD_BPS', 'LADDER_ORDER_SIZE', 'AS_GAMMA', 'GLFT_GAMMA', 'XEMM_LEVELS', 'REQUOTE_TOLERANCE_BPS', 'MIN_EDGE_BPS', 'RISK_MAX_INVENTORY_BASE', 'RISK_MAX_DRAWDOWN', 'RISK_MAX_OPEN_ORDERS']));
    const restart = restartKeyNames();
    expect(restart).toEqual(expect.arrayContaining(['TRADING_ACCOUNT', 'EXCHANGE_HTTP_URL', 'BASE', 'CHAIN', 'STRATEGY', 'FAIR_PRICE', 'STALE_FEED_MS', 'ORDER_RATE_LIMIT_PER_S', 'BUDGET_BASE', 'RISK_MAX_ORDER_NOTIONAL', 'REFERENCE', 'HEDGE']));
    expect(live.filter((key) => restart.includes(key))).toEqual([]);
  });

  it('marks live only engine keys the engine reads again at each requote (never the venue\'s, the account\'s or the signer\'s)', () => {
    const readAtRequote: readonly Reader[] = ['engine', 'requote', 'risk'];
    const engineFieldsReadAtRequote = ['minEdgeBps', 'presignTicks', 'onchainKill'];
    for (const spec of ENGINE_KEY_LIST.filter((key) => key.live === true)) {
      const readers = Object.entries(spec.readers ?? {});
      for (const [reader, landing] of readers) {
        expect(readAtRequote, spec.key).toContain(reader);
        if (reader === 'engine') expect(engineFieldsReadAtRequote, spec.key).toContain(typeof landing === 'string' ? landing : landing.field);
      }
    }
  });
});

describe('ctl set', () => {
  it('takes a live key, with the old and new value as written', () => {
    const plan = planSet(running(), 'LADDER_BID_SPREAD_BPS', '8');
    expect(plan.applied).toEqual([{ key: 'LADDER_BID_SPREAD_BPS', old: '5', new: '8' }]);
    expect(plan.refused).toEqual([]);
    expect(plan.config.raw['LADDER_BID_SPREAD_BPS']).toBe('8');
    // A key the file leaves out counts as its default.
    expect(planSet(running(), 'MIN_EDGE_BPS', '2').applied).toEqual([{ key: 'MIN_EDGE_BPS', old: '0', new: '2' }]);
    expect(planSet(running(), 'LADDER_BID_SPREAD_BPS', '5').applied).toEqual([]);
  });

  it('refuses a bad value with the pair file\'s own words: key, value and what is allowed', () => {
    expect(refusalOf(() => planSet(running(), 'LADDER_BID_SPREAD_BPS', 'wide'))).toBe('invalid configuration in ctl set LADDER_BID_SPREAD_BPS:\nLADDER_BID_SPREAD_BPS="wide": a number ≥ 0 and ≤ 5000 bps');
    expect(refusalOf(() => planSet(running(), 'RISK_MAX_OPEN_ORDERS', '5000'))).toContain('RISK_MAX_OPEN_ORDERS="5000": an integer from 0 to 1000');
    // A value that conflicts with another key of the file is the reader's to name.
    const sized = validatePairEnv({ ...PAIR, LADDER_ORDER_SIZE: '0.01' }, 'test', { requireSigner: false });
    expect(refusalOf(() => planSet(sized, 'LADDER_ORDER_NOTIONAL', '100'))).toContain('LADDER_ORDER_NOTIONAL="100": LADDER_ORDER_SIZE and LADDER_ORDER_NOTIONAL both set');
  });

  it('refuses a key that needs a restart, naming it, and a secret without echoing it', () => {
    expect(refusalOf(() => planSet(running(), 'FAIR_PRICE', 'microprice'))).toMatch(/^FAIR_PRICE needs a restart: it is read once at start/);
    expect(refusalOf(() => planSet(running(), 'RISK_MAX_ORDER_NOTIONAL', '10'))).toMatch(/^RISK_MAX_ORDER_NOTIONAL needs a restart/);
    const secret = refusalOf(() => planSet(running(), 'SIGNER_PRIVATE_KEY', '0x1234'));
    expect(secret).toMatch(/^SIGNER_PRIVATE_KEY is a secret/);
    expect(secret).not.toContain('0x1234');
  });

  it('answers an unknown key with the nearest known one, as the pair file\'s reader does', () => {
    expect(refusalOf(() => planSet(running(), 'LADDER_BID_SPREAD_BP', '8'))).toContain('LADDER_BID_SPREAD_BPS');
  });

  it('notes a key of another strategy: taken, but not read by this pair\'s', () => {
    expect(planSet(running(), 'AS_GAMMA', '0.5').applied).toEqual([{ key: 'AS_GAMMA', old: expect.any(String) as string, new: '0.5', unread: 'strategy ladder does not read AS_GAMMA' }]);
  });
});

describe('ctl reload', () => {
  it('takes what changed live, and names what needs a restart without taking it', () => {
    const plan = planChange(running(), { ...PAIR, LADDER_BID_SPREAD_BPS: '9', LADDER_LEVELS: '2', METRICS_PORT: '9200' }, 'reload');
    expect(plan.applied).toEqual(expect.arrayContaining([{ key: 'LADDER_BID_SPREAD_BPS', old: '5', new: '9' }, { key: 'LADDER_LEVELS', old: '1', new: '2' }]));
    expect(plan.refused.map((refusal) => refusal.key)).toEqual(['METRICS_PORT']);
    expect(plan.config.metricsPort).toBe(running().metricsPort);
    expect(plan.config.raw['LADDER_LEVELS']).toBe('2');
  });

  it('puts a live key the file no longer sets back to its default', () => {
    const changes = changedKeys(PAIR, { ...PAIR, LADDER_BID_SPREAD_BPS: undefined });
    expect(changes).toEqual([{ key: 'LADDER_BID_SPREAD_BPS', old: '5', new: '0.5' }]);
    const plan = planChange(running(), { ...PAIR, LADDER_BID_SPREAD_BPS: undefined }, 'reload');
    expect(plan.config.raw['LADDER_BID_SPREAD_BPS']).toBeUndefined();
  });
});

describe('ctl answers as text', () => {
  it('says per pair what changed, what was refused, and whether a pause took', () => {
    const changed = { pairs: [{ pair: 'ETH/USDC', applied: [{ key: 'LADDER_BID_SPREAD_BPS', old: '5', new: '8' }], refused: [{ key: 'METRICS_PORT', reason: 'METRICS_PORT needs a restart' }] }] };
    expect(renderCtlAnswer('reload', changed)).toBe('ETH/USDC: LADDER_BID_SPREAD_BPS 5 → 8\nETH/USDC: not taken: METRICS_PORT needs a restart\n');
    expect(isCompleteAnswer('reload', changed)).toBe(false);
    const halted = { pairs: [{ pair: 'ETH/USDC', state: 'halted', reason: 'drawdown', done: false }] };
    expect(renderCtlAnswer('pause', halted)).toBe('ETH/USDC: not paused; now halted (drawdown)\n');
    expect(isCompleteAnswer('pause', halted)).toBe(false);
  });
});

describe('the control socket', () => {
  let server: ControlServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  const request: CtlRequest = { id: 1, op: 'status', by: { uid: null, user: null, pid: 1 } };

  it('is owner-only, refuses while the engines start, and is gone once stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akira-ctl-'));
    const socketPath = join(dir, 'v', 'ctl-0123456789abcdef.sock');
    const control = new DaemonControl({ account: { snapshot: () => ({}) as never }, clock: new ManualClock(0), logger: createSilentLogger(), auditPath: join(dir, 'audit'), isStopping: () => false });
    mkdirSync(join(dir, 'v'));
    server = await ControlServer.start({ socketPath, control, logger: createSilentLogger() });
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(await ask(socketPath, request, 5_000)).toEqual({ id: 1, error: { code: 'CTL_REFUSED', message: 'the daemon is still starting: try again once it quotes' } });
    // `ctl` finds the one daemon listening under the state directory.
    const found = await runCli(['ctl', 'status', '--state-dir', dir]);
    expect(found).toMatchObject({ code: 1, stderr: 'akira-mm ctl status: the daemon is still starting: try again once it quotes\n' });
    await server.stop();
    expect(() => statSync(socketPath)).toThrow();
    const none = await runCli(['ctl', 'status', '--state-dir', dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`no daemon listens under ${dir}`);
  });

  it('refuses a path longer than a Unix socket holds, saying so', async () => {
    const control = new DaemonControl({ account: { snapshot: () => ({}) as never }, clock: new ManualClock(0), logger: createSilentLogger(), auditPath: '/dev/null', isStopping: () => false });
    const long = join(tmpdir(), 'x'.repeat(120), 'ctl.sock');
    await expect(ControlServer.start({ socketPath: long, control, logger: createSilentLogger() })).rejects.toThrow(/Unix sockets take at most 107/);
  });

  it('takes usage errors before asking anything', async () => {
    expect((await runCli(['ctl'])).code).toBe(2);
    expect((await runCli(['ctl', 'pasue'])).stderr).toContain('did you mean pause?');
    expect((await runCli(['ctl', 'set', 'LADDER_BID_SPREAD_BPS'])).stderr).toContain('KEY=VALUE');
    expect((await runCli(['ctl', 'status', '--pair', 'eth'])).stderr).toContain('--pair=eth: BASE/QUOTE');
  });
});
