/**
 * The quote adjustments from the signals (issue 24, items 1–3) at backtest level, on the first
 * five minutes of the Binance ETHUSDT recording: each key moves the run the way it is meant to,
 * against the same run with the key at its default (docs/strategies.md, "Quote adjustments from
 * the signals"). Directions only: which values to ship is the ablation's call.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../backtest/data/fixtures.ts';
import { runCli } from './run-cli.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = [resolve(repoRoot, '../shared/data'), resolve(repoRoot, '../../shared/data')].find((dir) => existsSync(join(dir, 'binance-spot-hftbacktest')));

type Summary = Record<string, number | string | null>;

describe.skipIf(dataDir === undefined)('quote adjustments from the signals in a backtest of the ETHUSDT recording', () => {
  const dir = tempDir('cli-quote-adjustments');
  const recording = join(dir, 'eth.data');
  const env = join(dir, 'pair.env');

  /** The summary of one backtest of the recording with `args` added. */
  async function backtest(...args: string[]): Promise<Summary> {
    const { code, stdout, stderr } = await runCli(['backtest', '--data', recording, '--env', env, '--base', 'ETH', '--quote', 'USDT', ...args, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    return JSON.parse(lines[lines.length - 1] as string) as Summary;
  }
  const number = (summary: Summary, key: string): number => summary[key] as number;

  beforeAll(async () => {
    writeFileSync(env, ['BASE=ETH', 'QUOTE=USDT', 'STRATEGY=glft'].join('\n'));
    const { code } = await runCli(['data', 'import', '--format', 'binance', join(dataDir as string, 'binance-spot-hftbacktest', 'ethusdt_20240808.gz'), '--out', recording]);
    expect(code).toBe(0);
  }, 60_000);

  it('puts GLFT at the touch on the side the book imbalance favours with QUEUE_JOIN_THRESHOLD_BPS, where the prediction pays for the fill', async () => {
    // The fitted weight predicts the move; ALPHA_MAX_BPS=0 leaves the fair price the mid; no maker fee to pay.
    const predicting = ['--maker-pbips', '0', '--set', 'ALPHA_OBI_BPS=0.7', '--set', 'ALPHA_MAX_BPS=0'];
    const behind = await backtest(...predicting);
    const joining = await backtest(...predicting, '--set', 'QUEUE_JOIN_THRESHOLD_BPS=0.1');
    expect(number(behind, 'time_at_touch')).toBeLessThan(0.2);
    expect(number(joining, 'time_at_touch')).toBeGreaterThan(0.5);
  }, 60_000);

  it('gives GLFT fewer fills further out with VOL_REGIME_WIDEN, and the ladder fewer with LADDER_VOL_SPREAD_MULTIPLE', async () => {
    const [glft, widened, ladder, ladderWide] = [
      await backtest(),
      await backtest('--set', 'VOL_REGIME_WIDEN=2'),
      await backtest('--strategy', 'ladder'),
      await backtest('--strategy', 'ladder', '--set', 'LADDER_VOL_SPREAD_MULTIPLE=1'),
    ];
    expect(number(widened, 'fills')).toBeLessThan(number(glft, 'fills'));
    expect(number(widened, 'orders_per_fill')).toBeGreaterThan(number(glft, 'orders_per_fill'));
    expect(number(ladderWide, 'fills')).toBeLessThan(number(ladder, 'fills') / 2);
  }, 60_000);

  it('leaves arbitrageurs fewer stale quotes on a thin venue with REFERENCE_PULL_BPS, the engine reading the reference and pricing off the venue', async () => {
    // Eager arbitrageurs (no fee on either leg) against a background maker 5 s late and no competing
    // maker: the venue's book lags the reference.
    const thin = ['--strategy', 'ladder', '--venue', 'thin', '--taker-pbips', '0', '--thin-arb-edge-bps', '0', '--thin-arb-reference-fee-bps', '0', '--thin-competitor-depth-share', '0', '--thin-background-lag-ms', '5000', '--reference', recording];
    const plain = await backtest(...thin);
    const pulled = await backtest(...thin, '--set', 'REFERENCE_PULL_BPS=1', '--set', 'REFERENCE_PULL_HOLD_MS=5000');
    expect(number(plain, 'arb_fills')).toBeGreaterThan(50);
    expect(number(pulled, 'arb_fills')).toBeLessThan(number(plain, 'arb_fills') / 2);
    expect(number(pulled, 'pickoff_cost_quote')).toBeLessThan(number(plain, 'pickoff_cost_quote'));
  }, 60_000);
});
