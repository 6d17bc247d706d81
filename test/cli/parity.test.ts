/**
 * `akira-mm parity` (issue 32 item 1): a session's journal beside the backtest of its recording.
 * The session here is the backtest itself, its journal written by the engine exactly as a paper
 * session's is (the same records): run with the latency parity measures from it, the backtest
 * must agree with it fill for fill — anything else is parity's own error. Bad input (a journal
 * that does not overlap the recording, another pair, a truncated journal) is refused naming what
 * does not fit. The paper-against-backtest run is test/integration/parity-paper.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TextJournal } from '../../src/backtest/parity/index.ts';
import { BACKTEST_FLAGS, planFromFlags, type BacktestValues } from '../../src/cli/backtest.ts';
import { executeAccount, prepareAccount } from '../../src/cli/backtest-plan.ts';
import { thinPlanFromFlags } from '../../src/cli/backtest-thin.ts';
import { parseFlags } from '../../src/cli/args.ts';
import { LAYERAKIRA_FEES } from '../../src/backtest/thin/index.ts';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));
/** 2024-08-08 23:55:00 UTC: a minute into the ETH recording. */
const FROM_MS = Date.UTC(2024, 7, 8, 23, 55, 0);
const TO_MS = FROM_MS + 180_000;

/** The engine's journal of a backtest run on the thin venue, as a session's file (an owner line first). */
async function backtestJournal(recording: string, env: string, latencyMs: number): Promise<string> {
  const { values } = parseFlags(['--data', recording, '--env', env, '--venue', 'thin', '--latency-ms', String(latencyMs), '--base-decimals', '18', '--quote-decimals', '6'], BACKTEST_FLAGS, 'test');
  const { venue, thin } = thinPlanFromFlags(values);
  const plan = planFromFlags(values as BacktestValues, { data: [recording], hedge: [], reference: [], env }, [], { venue, thin, defaultFees: LAYERAKIRA_FEES }, { fromMs: FROM_MS, toMs: TO_MS });
  const prepared = prepareAccount({ pairs: [plan], initialQuote: undefined });
  const journal = new TextJournal('ETH/USDC');
  await executeAccount({ ...prepared, options: { ...prepared.options, journal } });
  return `${JSON.stringify({ t: 'owner', venue: 'http://127.0.0.1:1', account: '0x1', version: 2 })}\n${journal.text()}`;
}

describe.skipIf(dataDir === undefined)('akira-mm parity', () => {
  const dir = tempDir('parity');
  const recording = join(dir, 'eth.data');
  const env = join(dir, 'ladder.env');
  const session = join(dir, 'session.journal');

  beforeAll(async () => {
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDC', 'STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.05', 'LADDER_LEVELS=2'].join('\n'));
    const { code } = await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'ethusdt_20240808.gz'), '--out', recording]);
    expect(code).toBe(0);
    writeFileSync(session, await backtestJournal(recording, env, 40));
  }, 120_000);

  it('a session that is the backtest itself matches it fill for fill, with the latency measured from its journal', async () => {
    const journal = readFileSync(session, 'utf8');
    expect(journal).toContain('"t":"fill"');
    const { code, stdout, stderr } = await runCli(['parity', '--journal', session, '--recording', recording, '--env', env, '--clock', 'exchange', '--clock-offset-ms', '0', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/backtest latency 40 ms each way \(the session's median ack \/ 2\)/);
    expect(stdout).toMatch(/orders buy \/ sell +\d+ \/ \d+ +\d+ \/ \d+/);
    expect(stdout).toContain('markout 60 s (bps)');
    expect(stdout).toContain('every fill matched');
    const result = JSON.parse(stdout.trimEnd().split('\n').pop() as string) as Record<string, unknown> & { live: Record<string, number>; backtest: Record<string, number> };
    expect(result['matched_share_live']).toBe(1);
    expect(result['matched_share_backtest']).toBe(1);
    expect((result.live['fills_buy'] ?? 0) + (result.live['fills_sell'] ?? 0)).toBeGreaterThan(0);
    for (const key of ['orders_buy', 'orders_sell', 'fills_buy', 'fills_sell', 'pnl_quote', 'pnl_spread_quote', 'pnl_inventory_quote', 'fees_quote']) expect(result.backtest[key], key).toBeCloseTo(result.live[key] as number, 9);
    expect(result['unmatched']).toEqual([]);
    expect(result['live_pnl_inside_ci95']).toBe(true);
  }, 120_000);

  it('names the cause of fills one side has and the other has not (a slower backtest is late to its quotes)', async () => {
    const { code, stdout } = await runCli(['parity', '--journal', session, '--recording', recording, '--env', env, '--clock', 'exchange', '--clock-offset-ms', '0', '--latency-ms', '400', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout.trimEnd().split('\n').pop() as string) as { unmatched: { cause: string; side: string }[]; latency_source: string };
    expect(result.latency_source).toBe('flag');
    expect(result.unmatched.length).toBeGreaterThan(0);
    for (const entry of result.unmatched) expect(['latency', 'queue-position', 'fees', 'unseen']).toContain(entry.cause);
    expect(stdout).toMatch(/unmatched fills by cause/);
  }, 120_000);

  it('refuses a journal and a recording that do not overlap, another pair, and a truncated journal, naming what does not fit', async () => {
    const text = readFileSync(session, 'utf8');
    const dayEarlier = join(dir, 'earlier.journal');
    writeFileSync(dayEarlier, text.replace(/"(timeMs|atMs)":(\d+)/g, (_, key: string, ms: string) => `"${key}":${Number(ms) - 86_400_000}`));
    let out = await runCli(['parity', '--journal', dayEarlier, '--recording', recording, '--env', env]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--journal and --recording do not overlap: the session ran 2024-08-07T23:55:00\.\d+Z → .*, the recording spans 2024-08-08T23:54:1/);

    const strk = join(dir, 'strk.env');
    writeFileSync(strk, ['BASE=STRK', 'QUOTE=USDC', 'STRATEGY=ladder'].join('\n'));
    out = await runCli(['parity', '--journal', session, '--recording', recording, '--env', strk]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('holds no records of STRK/USDC (the pair file\'s BASE/QUOTE): it is a journal of ETH/USDC');

    const torn = join(dir, 'torn.journal');
    writeFileSync(torn, `${text}{"t":"fill","orderId":"0x`);
    out = await runCli(['parity', '--journal', torn, '--recording', recording, '--env', env]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/is truncated: its last line \(line \d+\) is torn/);

    const unstopped = join(dir, 'unstopped.journal');
    writeFileSync(unstopped, text.split('\n').filter((line) => !line.includes('"t":"stop"')).join('\n'));
    out = await runCli(['parity', '--journal', unstopped, '--recording', recording, '--env', env]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/is truncated: no stop record after its last start/);

    const btc = join(dir, 'btc.data');
    expect((await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'btcusdt_20240808.gz'), '--out', btc])).code).toBe(0);
    out = await runCli(['parity', '--journal', session, '--recording', btc, '--env', env]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--recording .*btc\.data is of binance:BTCUSDT \(base BTC\); the session and --env .* trade ETH\/USDC/);
  }, 120_000);
});
