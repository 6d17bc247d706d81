import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountTokens } from '../../src/backtest/account/account-run.ts';
import { pairGroups } from '../../src/cli/backtest-account.ts';
import { BACKTEST_OPTIONS } from '../../src/cli/backtest.ts';
import type { TickerRules } from '../../src/core/index.ts';
import { accountFiles, dataDir, importEthBtc } from '../backtest/account/fixtures.ts';
import { runCli } from './run-cli.ts';

function lastJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] as string) as Record<string, unknown>;
}

describe('backtest --data A --env A.env --data B --env B.env: which files go with which pair', () => {
  it('each --env takes the --data files given since the previous --env, extra file arguments included', () => {
    expect(pairGroups(['--data', 'a1', '--data', 'a2', '--env', 'A.env', '--json', '--data', 'b1', 'b2', '--latency-ms', '5', '--env', 'B.env'], BACKTEST_OPTIONS)).toEqual([
      { data: ['a1', 'a2'], env: 'A.env' },
      { data: ['b1', 'b2'], env: 'B.env' },
    ]);
    expect(pairGroups(['--data=a', '--env=A.env', '--data=b', '--env=B.env', '--report', 'r.html'], BACKTEST_OPTIONS)).toEqual([
      { data: ['a'], env: 'A.env' },
      { data: ['b'], env: 'B.env' },
    ]);
  });

  it('refuses files after the last --env and an --env without files', () => {
    expect(() => pairGroups(['--data', 'a', '--env', 'A.env', '--env', 'B.env'], BACKTEST_OPTIONS)).toThrow(/--env B.env has no --data before it/);
    expect(() => pairGroups(['--data', 'a', '--env', 'A.env', '--data', 'b', '--env', 'B.env', '--data', 'c'], BACKTEST_OPTIONS)).toThrow(/--data c after the last --env/);
  });

  it('refuses pairs that do not share their quote token or give a token two precisions', () => {
    const rules = (base: string, quote: string, baseDecimals = 8, quoteDecimals = 8): TickerRules => ({ base, quote, baseDecimals, quoteDecimals, priceTick: 1n, qtyStep: 1n, minQty: 1n, isEcosystemBook: true });
    expect([...accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USDT', rules: rules('BTC', 'USDT') }])]).toEqual([['ETH', 8], ['USDT', 8], ['BTC', 8]]);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USD', rules: rules('BTC', 'USD') }])).toThrow(/BTC\/USD is quoted in USD and ETH\/USDT in USDT: the pairs of one account backtest share their quote token/);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'BTC/USDT', rules: rules('BTC', 'USDT', 8, 6) }])).toThrow(/USDT has 8 decimals in ETH\/USDT and 6 in BTC\/USDT/);
    expect(() => accountTokens([{ name: 'ETH/USDT', rules: rules('ETH', 'USDT') }, { name: 'ETH/USDT', rules: rules('ETH', 'USDT') }])).toThrow(/ETH\/USDT is given twice/);
  });

  it('refuses one-pair flags with several pairs, and --initial-quote with one pair', async () => {
    const sweep = await runCli(['backtest', '--data', 'a', '--env', 'A.env', '--data', 'b', '--env', 'B.env', '--sweep', 'seed=1,2']);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toContain('--sweep backtests one pair');
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
});
