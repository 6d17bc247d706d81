/**
 * Several pair files of one account: the account-wide limits (auto from the balance at start, or
 * set in one file), each pair's budget in base units, and the refusals (disagreeing account keys,
 * a pair twice) — the parts `run --env A --env B` decides before anything connects.
 */
import { describe, expect, it } from 'vitest';
import { accountLimitsOf, accountPairsOf, checkAccountFiles } from '../../src/cli/account-files.ts';
import { validatePairEnv } from '../../src/cli/pair-config.ts';
import type { TokenBalance } from '../../src/core/index.ts';

const ACCOUNT = '0x5e42ffb49f221eda8f547e7c7e46223112e6b6fb1511867c8aee0fe3acd5b2c';
const KEY = '0x0144e9410ea008c67331a1024ea64f9235f5454a67325cc43f347b7d9bb09697';

function pair(base: string, extra: Record<string, string> = {}) {
  return validatePairEnv({ TRADING_ACCOUNT: ACCOUNT, SIGNER_PRIVATE_KEY: KEY, BASE: base, QUOTE: 'USDC', ...extra }, `${base}.env`);
}

const USDC = (tokens: bigint): TokenBalance => ({ total: tokens * 10n ** 6n, locked: 0n });

describe('pair files of one account', () => {
  it('resolves the account limits: auto from the quote token held at start, or the one file that sets them', () => {
    const balances = new Map([['USDC', USDC(300_000n)]]);
    const auto = accountLimitsOf([pair('ETH'), pair('STRK')], balances);
    expect(auto).toEqual({ limitsToken: 'USDC', limitsTokenDecimals: 6, maxTotalNotionalUnits: 300_000n * 10n ** 6n, maxDrawdownQuote: 15_000 });
    const set = accountLimitsOf([pair('ETH'), pair('STRK', { RISK_MAX_TOTAL_NOTIONAL_ACCOUNT: '2500.5', RISK_MAX_DRAWDOWN_ACCOUNT: '0' })], balances);
    expect(set.maxTotalNotionalUnits).toBe(2_500_500_000n);
    expect(set.maxDrawdownQuote).toBe(0);
  });

  it('reads each pair\'s budget in its tokens\' base units (auto = undefined: an even share)', () => {
    const [eth, strk] = accountPairsOf([pair('ETH', { BUDGET_BASE: '1.5', BUDGET_QUOTE: '1000' }), pair('STRK')]);
    expect(eth).toEqual({ name: 'ETH/USDC', base: 'ETH', quote: 'USDC', budgetBaseUnits: 1_500_000_000_000_000_000n, budgetQuoteUnits: 1_000_000_000n });
    expect(strk).toEqual({ name: 'STRK/USDC', base: 'STRK', quote: 'USDC', budgetBaseUnits: undefined, budgetQuoteUnits: undefined });
  });

  it('accepts files that agree, and an account-wide key set in one of them only', () => {
    expect(() => checkAccountFiles([pair('ETH', { RISK_MAX_DRAWDOWN_ACCOUNT: '500' }), pair('STRK')], ['a.env', 'b.env'])).not.toThrow();
    expect(() => checkAccountFiles([pair('ETH', { RISK_MAX_DRAWDOWN_ACCOUNT: '500' }), pair('STRK', { RISK_MAX_DRAWDOWN_ACCOUNT: '500' })], ['a.env', 'b.env'])).not.toThrow();
  });

  it('refuses the request budget, the venue or the state directory differing, naming each key, its values and both files', () => {
    const refuse = (): void => checkAccountFiles([pair('ETH'), pair('STRK', { ORDER_RATE_LIMIT_PER_S: '5', EXCHANGE_HTTP_URL: 'http://127.0.0.1:9090', STATE_DIR: '/srv/other' })], ['a.env', 'b.env']);
    expect(refuse).toThrow(/^b\.env disagrees with a\.env on the account they share: /);
    expect(refuse).toThrow(/EXCHANGE_HTTP_URL \(http:\/\/127\.0\.0\.1:8080 vs http:\/\/127\.0\.0\.1:9090\)/);
    expect(refuse).toThrow(/STATE_DIR \(unset vs \/srv\/other\)/);
    expect(refuse).toThrow(/ORDER_RATE_LIMIT_PER_S \(10 vs 5\)/);
  });

  it('refuses alert settings that differ (one notifier per process), a webhook only as "different", never shown', () => {
    const slack = 'https://hooks.slack.com/services/T0/B0/slackSecretOne';
    const alike = { ALERT_SLACK_WEBHOOK_URL: slack, ALERT_PAUSE_AFTER_S: '30' };
    expect(() => checkAccountFiles([pair('ETH', alike), pair('STRK', alike)], ['a.env', 'b.env'])).not.toThrow();
    const refuse = (): void =>
      checkAccountFiles([pair('ETH', alike), pair('STRK', { ALERT_SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/slackSecretTwo', ALERT_DAILY_SUMMARY_UTC: '07:30', ALERT_LOW_BALANCE: 'USDC:500' })], ['a.env', 'b.env']);
    expect(refuse).toThrow(/ALERT_SLACK_WEBHOOK_URL \/ ALERT_SLACK_WEBHOOK_URL_FILE \(different values\)/);
    expect(refuse).toThrow(/ALERT_PAUSE_AFTER_S \(30 vs 60\)/);
    expect(refuse).toThrow(/ALERT_DAILY_SUMMARY_UTC \(00:00 vs 07:30\)/);
    expect(refuse).toThrow(/ALERT_LOW_BALANCE \(unset vs USDC:500\)/);
    expect(refuse).not.toThrow(/slackSecret/);
  });
});
