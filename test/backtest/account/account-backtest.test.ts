/**
 * A backtest of two pairs on one account (ETHUSDT + BTCUSDT, the 2024-08-08 files: about six
 * minutes each): one clock, one set of balances, budgets, the account's drift check.
 */
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBacktest, type BacktestOptions, type BacktestResult, type PairBacktest } from '../../../src/backtest/run.ts';
import type { BacktestSession } from '../../../src/backtest/session.ts';
import { accountLimitsOf } from '../../../src/cli/account-files.ts';
import { BACKTEST_DEFAULTS, prepareRun, type BacktestPlan } from '../../../src/cli/backtest-plan.ts';
import type { EngineObserver } from '../../../src/engine/index.ts';
import { accountFiles, dataDir, importEthBtc } from './fixtures.ts';

function plan(data: string, envPath: string, overrides: Record<string, string> = {}): BacktestPlan {
  const d = BACKTEST_DEFAULTS;
  return {
    data: [data],
    envPath,
    overrides,
    base: undefined,
    quote: undefined,
    baseDecimals: undefined,
    quoteDecimals: undefined,
    tick: undefined,
    lot: undefined,
    queue: d.queue,
    latencyMs: d.latencyMs,
    latencyJitterMs: d.latencyJitterMs,
    feedLatencyMs: d.feedLatencyMs,
    seed: d.seed,
    initialBase: d.initialBase,
    makerPbips: d.makerPbips,
    takerPbips: d.takerPbips,
    gasPriceFri: d.gasPriceFri,
    strkPrice: d.strkPrice,
    hedge: [],
    hedgeLatencyMs: d.hedgeLatencyMs,
    hedgeMinNotional: undefined,
  };
}

/** Per pair and token: the fills' (and fee corrections') exact changes, as the engines saw them. */
type Moves = Map<string, Map<string, bigint>>;

describe.skipIf(dataDir === undefined)('backtest of ETH/USDT and BTC/USDT on one account', () => {
  const files = accountFiles('account-backtest');
  const { eth, btc, ethEnv, btcEnv } = files;

  beforeAll(async () => {
    const common = ['STRATEGY=ladder', 'LADDER_LEVELS=1', 'METRICS_PORT=0', 'RECONCILE_INTERVAL_S=1'];
    writeFileSync(ethEnv, [...common, 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=1', 'LADDER_ASK_SPREAD_BPS=1'].join('\n'));
    writeFileSync(btcEnv, [...common, 'LADDER_ORDER_SIZE=0.002', 'LADDER_BID_SPREAD_BPS=0.5', 'LADDER_ASK_SPREAD_BPS=0.5'].join('\n'));
    await importEthBtc(files);
  }, 60_000);

  const run = async (extra: Partial<BacktestOptions> = {}, overrides: Record<string, string> = {}): Promise<{ result: BacktestResult; moves: Moves; rejections: string[] }> => {
    const moves: Moves = new Map();
    const rejections: string[] = [];
    const prepared = [prepareRun(plan(eth, ethEnv, overrides)), prepareRun(plan(btc, btcEnv, overrides))];
    const [first, second] = prepared.map((run): PairBacktest => {
      const { market, options } = run;
      const name = `${market.base}/${market.quote}`;
      const mine = new Map<string, bigint>([
        [market.base, 0n],
        [market.quote, 0n],
      ]);
      moves.set(name, mine);
      const add = (effect: { baseDeltaUnits: bigint; quoteDeltaUnits: bigint }): void => {
        mine.set(market.base, (mine.get(market.base) as bigint) + effect.baseDeltaUnits);
        mine.set(market.quote, (mine.get(market.quote) as bigint) + effect.quoteDeltaUnits);
      };
      const observer: EngineObserver = { fill: (_fill, effect) => add(effect), feeCorrected: add, orderRejected: (side, reason) => rejections.push(`${name} ${side} ${reason}`) };
      return { source: options.source, strategy: options.strategy, settings: options.settings, venue: options.venue, initialBase: options.initialBase, observer };
    }) as [PairBacktest, PairBacktest];
    const result = await runBacktest({
      ...first,
      otherPairs: [second],
      limits: (balances) => accountLimitsOf(prepared.map((run) => run.config), balances, { symbol: 'USDT', decimals: 8 }),
      ...extra,
    });
    return { result, moves, rejections };
  };

  it('ends with the account balances = start + both pairs\' fills, exactly; both pairs fill and neither halts (one pair\'s fills are never drift)', async () => {
    const { result, moves, rejections } = await run();
    const eth = result.pairs.get('ETH/USDT');
    const btc = result.pairs.get('BTC/USDT');
    expect(eth?.summary.fills).toBeGreaterThan(0);
    expect(btc?.summary.fills).toBeGreaterThan(0);
    for (const token of ['USDT', 'ETH', 'BTC']) {
      let expected = result.startBalances.get(token) as bigint;
      for (const pair of moves.values()) expected += pair.get(token) ?? 0n;
      expect(result.endBalances.get(token), token).toBe(expected);
    }
    // USDT moved with both pairs' fills: each pair alone would see the other's as drift.
    expect((moves.get('ETH/USDT') as Map<string, bigint>).get('USDT')).not.toBe(0n);
    expect((moves.get('BTC/USDT') as Map<string, bigint>).get('USDT')).not.toBe(0n);
    expect(result.account.halted).toBe(false);
    expect(result.account.halted_pairs).toEqual([]);
    expect(eth?.status.state).not.toBe('halted');
    expect(rejections.filter((line) => line.includes('NOT_ENOUGH_BALANCE'))).toEqual([]);
    expect(result.account.fills).toBe((eth?.summary.fills ?? 0) + (btc?.summary.fills ?? 0));
  }, 120_000);

  it('halts on a balance change no pair made: the drift check runs on the account in a backtest', async () => {
    const { result } = await run({
      onStart: (session: BacktestSession) => session.balances.settle('BTC', 0n, 'USDT', -1_000_000_000n),
    });
    expect(result.account.halted).toBe(true);
    expect(result.account.halt_reason).toMatch(/inventory drift: account balances differ from start \+ every pair's fills by -1000000000 USDT/);
    expect(result.account.halted_pairs).toEqual(['ETH/USDT', 'BTC/USDT']);
  }, 120_000);

  it('with a small quote balance both pairs bid within their budgets: no rejection for funds', async () => {
    // 400 USDT: one ETH bid of 0.05 (~134 USDT) and one BTC bid of 0.002 (~123 USDT) fit each half;
    // three levels a side would ask for ~770 USDT, far more than the account holds.
    const { result, rejections } = await run({ initialQuote: 400 }, { LADDER_LEVELS: '3' });
    expect(result.account.budgets['ETH/USDT']?.quote).toBe('200');
    expect(result.account.budgets['BTC/USDT']?.quote).toBe('200');
    // Post-only bids that would have crossed come back FAILED_VALIDATION; none lacks the funds.
    expect(rejections.filter((line) => line.includes('NOT_ENOUGH_BALANCE'))).toEqual([]);
    for (const name of ['ETH/USDT', 'BTC/USDT']) expect(result.pairs.get(name)?.summary.orders_sent, name).toBeGreaterThan(0);
    expect(result.account.max_open_notional_quote).toBeLessThanOrEqual(400);
    expect(result.account.halted).toBe(false);
  }, 120_000);
});
