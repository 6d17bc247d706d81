import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountTokens } from '../../src/backtest/account-summary.ts';
import { BACKTEST_OPTIONS, pairGroups } from '../../src/cli/backtest.ts';
import type { TickerRules } from '../../src/core/index.ts';
import { accountFiles, dataDir, importEthBtc } from '../backtest/account/fixtures.ts';
import { runCli } from './run-cli.ts';

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
}

describe('backtest --data A --env A.env --data B --env B.env: which files go with which pair', () => {
  it('each --env takes the --data, --hedge and --reference files given since the previous --env, extra file arguments included', () => {
    expect(pairGroups(['--data', 'a1', '--data', 'a2', '--env', 'A.env', '--json', '--data', 'b1', 'b2', '--latency-ms', '5', '--env', 'B.env'], BACKTEST_OPTIONS)).toEqual([
      { data: ['a1', 'a2'], hedge: [], reference: [], env: 'A.env' },
      { data: ['b1', 'b2'], hedge: [], reference: [], env: 'B.env' },
    ]);
    expect(pairGroups(['--data=a', '--hedge=ha', '--env=A.env', '--reference', 'rb', '--data=b', '--hedge', 'hb', '--env=B.env', '--report', 'r.html'], BACKTEST_OPTIONS)).toEqual([
      { data: ['a'], hedge: ['ha'], reference: [], env: 'A.env' },
      { data: ['b'], hedge: ['hb'], reference: ['rb'], env: 'B.env' },
    ]);
  });

  it('one --env takes every file wherever it stands, as a one-pair backtest always has', () => {
    expect(pairGroups(['--hedge', 'h', '--env', 'A.env', '--data', 'a', 'b', '--reference', 'r', '--data', 'c'], BACKTEST_OPTIONS)).toEqual([{ data: ['a', 'c', 'b'], hedge: ['h'], reference: ['r'], env: 'A.env' }]);
  });

  it('refuses files after the last of several --env and an --env without files', () => {
    expect(() => pairGroups(['--data', 'a', '--env', 'A.env', '--env', 'B.env'], BACKTEST_OPTIONS)).toThrow(/--env B.env has no --data before it/);
    expect(() => pairGroups(['--data', 'a', '--env', 'A.env', '--data', 'b', '--env', 'B.env', '--data', 'c'], BACKTEST_OPTIONS)).toThrow(/--data c after the last --env/);
    expect(() => pairGroups(['--data', 'a', '--env', 'A.env', '--data', 'b', '--env', 'B.env', '--hedge', 'h'], BACKTEST_OPTIONS)).toThrow(/--hedge h after the last --env/);
  });

  it('refuses pairs that do not share their quote token or give a token two precisions', () => {
    const rules = (base: string, quote: string, baseDecimals = 8, quoteDecimals = 8): TickerRules => ({ base, quote, baseDecimals, quoteDecimals, priceTick: 1n, qtyStep: 1n, minQty: 1n, isEcosystemBook: true });
    expect([...accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USDT', rules: rules('BTC', 'USDT') }])]).toEqual([['ETH', 8], ['USDT', 8], ['BTC', 8]]);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USD', rules: rules('BTC', 'USD') }])).toThrow(/BTC\/USD is quoted in USD and ETH\/USDT in USDT: the pairs of one account backtest share their quote token/);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USDT', rules: rules('BTC', 'USDT', 8, 6) }])).toThrow(/USDT has 8 decimals in ETH\/USDT and 6 in BTC\/USDT/);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'ETH/USDT', rules: rules('ETH', 'USDT') }])).toThrow(/ETH\/USDT is given twice/);
  });

  it('refuses --initial-quote with one pair', async () => {
    const quote = await runCli(['backtest', '--data', 'a', '--env', 'A.env', '--initial-quote', '100']);
    expect(quote.code).toBe(2);
    expect(quote.stderr).toContain("--initial-quote is the account's quote balance of a backtest of several pairs");
  });
});

describe.skipIf(dataDir === undefined)('akira-mm backtest of ETHUSDT and BTCUSDT on one account', () => {
  const files = accountFiles('cli-backtest-account');
  const { dir, eth, btc, ethEnv, btcEnv } = files;
  const args = ['backtest', '--data', eth, '--env', ethEnv, '--data', btc, '--env', btcEnv, '--latency-jitter-ms', '10', '--seed', '7'];

  beforeAll(async () => {
    writeFileSync(ethEnv, ['STRATEGY=ladder', 'LADDER_ORDER_SIZE=0.05', 'LADDER_BID_SPREAD_BPS=1', 'LADDER_ASK_SPREAD_BPS=1', 'METRICS_PORT=0'].join('\n'));
    writeFileSync(btcEnv, ['STRATEGY=avellaneda-stoikov', 'METRICS_PORT=0', 'BUDGET_QUOTE=20000'].join('\n'));
    await importEthBtc(files);
  }, 60_000);

  it('prints each pair\'s summary and the account\'s, and --json {account, pairs} with every pair\'s contract keys; two runs agree exactly', async () => {
    const runOnce = async (): Promise<Record<string, unknown>> => {
      const { code, stdout, stderr } = await runCli([...args, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('── ETH/USDT ──');
      expect(stdout).toContain('── BTC/USDT ──');
      expect(stdout).toMatch(/── account ──\npairs +ETH\/USDT, BTC\/USDT\n/);
      return lastJson(stdout);
    };
    const first = await runOnce();
    const account = first['account'] as Record<string, unknown>;
    const pairs = first['pairs'] as Record<string, Record<string, unknown>>;
    expect(Object.keys(pairs)).toEqual(['ETH/USDT', 'BTC/USDT']);
    for (const summary of Object.values(pairs)) for (const key of ['events', 'fills', 'pnl_quote', 'orders_sent', 'requests_throttled', 'sharpe']) expect(summary).toHaveProperty(key);
    expect(account['quote']).toBe('USDT');
    expect(account['halted']).toBe(false);
    // BTC/USDT's BUDGET_QUOTE is its own; ETH/USDT gets what is free beside it.
    expect((account['budgets'] as Record<string, { quote: string }>)['BTC/USDT']?.quote).toBe('20000');
    expect(account['fills']).toBe((pairs['ETH/USDT']?.['fills'] as number) + (pairs['BTC/USDT']?.['fills'] as number));
    expect(account['pnl_quote']).toBeCloseTo((pairs['ETH/USDT']?.['pnl_quote'] as number) + (pairs['BTC/USDT']?.['pnl_quote'] as number), 6);
    for (const key of ['max_open_notional_quote', 'max_total_notional_limit_quote', 'max_drawdown_limit_quote', 'start_balances', 'end_balances', 'halt_reason', 'events_per_sec']) expect(account).toHaveProperty(key);
    const second = await runOnce();
    const deterministic = (json: Record<string, unknown>): string => {
      const { events_per_sec: _a, wall_s: _b, ...rest } = json['account'] as Record<string, unknown>;
      const perPair = Object.entries(json['pairs'] as Record<string, Record<string, unknown>>).map(([name, { events_per_sec: _c, ...summary }]) => [name, summary]);
      return JSON.stringify({ rest, perPair });
    };
    expect(deterministic(second)).toBe(deterministic(first));
  }, 120_000);

  it('--report writes the account page and each pair\'s full report beside it', async () => {
    const report = join(dir, 'account.html');
    const { code, stdout } = await runCli([...args, '--report', report]);
    expect(code).toBe(0);
    const files = [join(dir, 'account.ETH-USDT.html'), join(dir, 'account.BTC-USDT.html')];
    expect(stdout).toContain(`report: ${report} (the account; each pair: ${files.join(', ')})`);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('href="account.ETH-USDT.html"');
    expect(page).toContain('max_open_notional_quote');
    for (const file of files) expect(readFileSync(file, 'utf8')).toContain('<div class="chart" id="price">');
  }, 120_000);

  it('hedges and reads a reference per pair: each --env takes its own --hedge and --reference, and each pair\'s summary carries their keys', async () => {
    const { code, stdout, stderr } = await runCli(['backtest', '--data', eth, '--hedge', eth, '--env', ethEnv, '--data', btc, '--reference', btc, '--env', btcEnv, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const json = lastJson(stdout);
    const pairs = json['pairs'] as Record<string, Record<string, unknown>>;
    const ethSummary = pairs['ETH/USDT'] as Record<string, unknown>;
    const btcSummary = pairs['BTC/USDT'] as Record<string, unknown>;
    // ETH/USDT hedges its fills on its own recording; BTC/USDT neither hedges nor is told of ETH's hedge market.
    expect(ethSummary['hedges']).toBeGreaterThan(0);
    expect(typeof ethSummary['hedge_latency_ms_p50']).toBe('number');
    expect(btcSummary['hedges']).toBe(0);
    // BTC/USDT reads its recording as the reference (the basis is estimated from it); ETH/USDT reads none.
    expect(typeof btcSummary['basis_bps_mean']).toBe('number');
    expect(ethSummary['basis_bps_mean']).toBeNull();
    for (const summary of [ethSummary, btcSummary]) for (const key of ['hedges', 'hedge_slippage_bps', 'pnl_hedge_quote', 'reference_pauses', 'basis_bps_mean']) expect(summary).toHaveProperty(key);
    expect(stdout).toMatch(/── ETH\/USDT ──[^]* {2}hedge: /);
    expect(stdout).toMatch(/── BTC\/USDT ──[^]* {2}reference: /);
    expect((json['account'] as Record<string, unknown>)['pnl_quote']).toBeCloseTo((ethSummary['pnl_quote'] as number) + (btcSummary['pnl_quote'] as number), 6);
  }, 180_000);

  it('sweeps a flag or key in every pair and ranks the cells by the account\'s PnL', async () => {
    const { code, stdout, stderr } = await runCli([...args, '--sweep', 'seed=3,4', '--workers', '2', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const cells = (lastJson(stdout)['sweep'] as Record<string, unknown>[]).map((cell) => ({ cell, pairs: cell['pairs'] as Record<string, Record<string, unknown>> }));
    expect(cells.map(({ cell }) => (cell['params'] as Record<string, string>)['seed']).sort()).toEqual(['3', '4']);
    for (const { cell, pairs } of cells) {
      expect(Object.keys(pairs)).toEqual(['ETH/USDT', 'BTC/USDT']);
      expect(cell['pnl_quote']).toBeCloseTo((pairs['ETH/USDT']?.['pnl_quote'] as number) + (pairs['BTC/USDT']?.['pnl_quote'] as number), 6);
      expect(cell).toHaveProperty('budgets');
    }
    expect((cells[0]?.cell['pnl_quote'] as number) >= (cells[1]?.cell['pnl_quote'] as number)).toBe(true);
    expect(stdout).toMatch(/# +seed +pnl_quote +fills/);
  }, 180_000);
});
