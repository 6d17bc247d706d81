/**
 * Several pair files served by one process (`run --env A --env B`, `--env-dir DIR`): one account,
 * so the files must agree on everything that belongs to the account — the venue, the chain, the
 * account, the signer, the contracts hashed into every signature, the state directory, the
 * metrics endpoint and the outbound request budget (the venue's rate limit is per trader). The
 * account-wide risk keys may be set in one file only, or alike in all. Each file keeps its own
 * pair, strategy, parameters, caps and budget.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PairConfig } from '../config/index.ts';
import { ENGINE_KEYS, getChain, getToken, settingsOf, type Secret, type TokenBalance } from '../core/index.ts';
import type { AccountLimits, AccountPair } from '../engine/index.ts';
import { UsageError } from './io.ts';

/**
 * The keys every file of one account must agree on, with the value each file ends up with; a
 * secret's value is compared by its hash and a difference shown as `differs`.
 */
const ACCOUNT_KEYS: readonly { readonly keys: string; readonly of: (config: PairConfig) => string; readonly differs?: string }[] = [
  { keys: 'EXCHANGE_HTTP_URL', of: (config) => config.exchangeHttpUrl },
  { keys: 'EXCHANGE_WS_URL', of: (config) => config.exchangeWsUrl },
  { keys: 'CHAIN', of: (config) => config.chain },
  { keys: 'TRADING_ACCOUNT', of: (config) => `0x${BigInt(config.tradingAccount).toString(16)}` },
  { keys: 'SIGNER_PRIVATE_KEY / SIGNER_PRIVATE_KEY_FILE / SIGNER_KEYSTORE / SIGNER_REMOTE', of: signerIdentity, differs: 'different signers' },
  { keys: 'EXCHANGE_ADDRESS', of: (config) => config.contracts.executorAddress ?? '' },
  { keys: 'CORE_ADDRESS', of: (config) => config.contracts.coreAddress ?? '' },
  { keys: 'ROUTER_ADDRESS', of: (config) => config.contracts.routerAddress ?? '' },
  { keys: 'FEE_RECIPIENT', of: (config) => config.contracts.feeRecipient ?? '' },
  { keys: 'WITHDRAW_HASH', of: (config) => config.withdrawHash },
  { keys: 'WITHDRAW_ALLOWED_RECEIVERS', of: (config) => config.withdrawAllowedReceivers.map((receiver) => BigInt(receiver).toString(16)).join(',') },
  { keys: 'STARKNET_RPC_URL', of: (config) => config.starknetRpcUrl ?? '' },
  { keys: 'STATE_DIR', of: (config) => config.stateDir },
  { keys: 'METRICS_PORT', of: (config) => String(config.metricsPort) },
  { keys: 'METRICS_HOST', of: (config) => config.metricsHost },
  { keys: 'SIGNING_WORKERS', of: (config) => String(config.signingWorkers) },
  { keys: 'ORDER_RATE_LIMIT_PER_S', of: (config) => String(config.engine.ORDER_RATE_LIMIT_PER_S.value) },
  { keys: 'ORDER_RATE_BURST', of: (config) => String(config.engine.ORDER_RATE_BURST) },
  // One notifier per process: where alerts go and what alerts belong to the account.
  { keys: 'ALERT_WEBHOOK_URL / ALERT_WEBHOOK_URL_FILE', of: (config) => secretIdentity(config.alerts.channels.webhook?.url), differs: 'different values' },
  { keys: 'ALERT_TELEGRAM_BOT_TOKEN / ALERT_TELEGRAM_BOT_TOKEN_FILE', of: (config) => secretIdentity(config.alerts.channels.telegram?.botToken), differs: 'different values' },
  { keys: 'ALERT_TELEGRAM_CHAT_ID', of: (config) => config.keys.ALERT_TELEGRAM_CHAT_ID },
  { keys: 'ALERT_TELEGRAM_API_URL', of: (config) => config.keys.ALERT_TELEGRAM_API_URL },
  { keys: 'ALERT_SLACK_WEBHOOK_URL / ALERT_SLACK_WEBHOOK_URL_FILE', of: (config) => secretIdentity(config.alerts.channels.slack?.url), differs: 'different values' },
  { keys: 'ALERT_DISCORD_WEBHOOK_URL / ALERT_DISCORD_WEBHOOK_URL_FILE', of: (config) => secretIdentity(config.alerts.channels.discord?.url), differs: 'different values' },
  { keys: 'ALERT_EVENTS', of: (config) => config.keys.ALERT_EVENTS.join(',') },
  { keys: 'ALERT_PAUSE_AFTER_S', of: (config) => String(config.keys.ALERT_PAUSE_AFTER_S) },
  { keys: 'ALERT_STORM_WINDOW_S', of: (config) => String(config.keys.ALERT_STORM_WINDOW_S) },
  { keys: 'ALERT_RECONNECT_STORM', of: (config) => String(config.keys.ALERT_RECONNECT_STORM) },
  { keys: 'ALERT_429_STORM', of: (config) => String(config.keys.ALERT_429_STORM) },
  { keys: 'ALERT_LOW_BALANCE', of: (config) => config.keys.ALERT_LOW_BALANCE.map((threshold) => `${threshold.token}:${threshold.amount.value}`).join(',') },
  { keys: 'ALERT_DAILY_SUMMARY_UTC', of: (config) => timeOfDay(config.keys.ALERT_DAILY_SUMMARY_UTC) },
  { keys: 'ALERT_RATE_PER_MIN', of: (config) => String(config.keys.ALERT_RATE_PER_MIN.value) },
  { keys: 'ALERT_RATE_BURST', of: (config) => String(config.keys.ALERT_RATE_BURST) },
  { keys: 'ALERT_LABEL', of: (config) => config.keys.ALERT_LABEL },
];

/** Account-wide keys that may be set in one file and left unset in the others. */
const ACCOUNT_RISK_KEYS = ['RISK_MAX_TOTAL_NOTIONAL_ACCOUNT', 'RISK_MAX_DRAWDOWN_ACCOUNT'] as const;

/** Share of the limits token's balance at start that `RISK_MAX_DRAWDOWN_ACCOUNT=auto` allows to lose. */
const AUTO_DRAWDOWN_FRACTION = 0.05;

/** Minutes after midnight as `HH:MM`, or `off`. */
function timeOfDay(minutes: number | undefined): string {
  return minutes === undefined ? 'off' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** A secret comparable without showing it (its hash), or `unset`. */
function secretIdentity(secret: Secret | undefined): string {
  return secret === undefined ? 'unset' : createHash('sha256').update(secret.reveal()).digest('hex');
}

/** Which signer a file names, comparable without showing a secret (a key is compared by its hash). */
function signerIdentity(config: PairConfig): string {
  const signer = config.signer;
  if (signer === undefined) return 'none';
  if (signer.kind === 'key') return `key ${createHash('sha256').update(BigInt(signer.privateKey.reveal()).toString(16)).digest('hex')}`;
  if (signer.kind === 'keystore') return `keystore ${signer.path}`;
  return `remote ${signer.socketPath}`;
}

/**
 * The `*.env` files of a directory, sorted by name.
 * @throws UsageError when the directory cannot be read or holds none.
 */
export function envFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new UsageError(`--env-dir ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const files = names
    .filter((name) => name.endsWith('.env') && name !== 'example.env')
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort();
  if (files.length === 0) throw new UsageError(`--env-dir ${dir} holds no pair file (*.env, example.env aside)`);
  return files;
}

/**
 * Refuses files that cannot share one process: a pair twice, or disagreement on any account key
 * (each named, with both files; a secret's value is never shown).
 * @throws UsageError
 */
export function checkAccountFiles(configs: readonly PairConfig[], paths: readonly string[]): void {
  const first = configs[0];
  const firstPath = paths[0];
  if (first === undefined || firstPath === undefined) throw new UsageError('--env FILE is required');
  const seen = new Map<string, string>();
  configs.forEach((config, index) => {
    const pair = `${config.base}/${config.quote}${config.ecosystemBook ? '' : ' (router book)'}`;
    const earlier = seen.get(pair);
    if (earlier !== undefined) throw new UsageError(`${paths[index]} and ${earlier} both quote ${pair}: one file per pair`);
    seen.set(pair, paths[index] ?? '');
    if (index === 0) return;
    const differing = ACCOUNT_KEYS.filter((key) => key.of(config) !== key.of(first)).map((key) =>
      key.differs !== undefined ? `${key.keys} (${key.differs})` : `${key.keys} (${key.of(first) || 'unset'} vs ${key.of(config) || 'unset'})`,
    );
    for (const key of ACCOUNT_RISK_KEYS) {
      const mine = config.raw[key];
      const theirs = configs.slice(0, index).find((other) => other.raw[key] !== undefined)?.raw[key];
      if (mine !== undefined && theirs !== undefined && mine.trim() !== theirs.trim()) differing.push(`${key} (${theirs} vs ${mine}: set it in one file, or the same in all)`);
    }
    if (differing.length > 0) {
      throw new UsageError(
        `${paths[index]} disagrees with ${firstPath} on the account they share: ${differing.join('; ')}. One process serves one account: every file must name the same venue, account and signer`,
      );
    }
  });
}

/** Each file's pair as the account knows it: its name and its budgets in base units (undefined = an even share). */
export function accountPairsOf(configs: readonly PairConfig[]): AccountPair[] {
  return configs.map((config) => {
    const chain = getChain(config.chain);
    const decimals = { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals };
    return { name: `${config.base}/${config.quote}`, base: config.base, quote: config.quote, ...settingsOf(ENGINE_KEYS, 'account-pair', config.keys, decimals) };
  });
}

/**
 * RISK_MAX_TOTAL_NOTIONAL_ACCOUNT and RISK_MAX_DRAWDOWN_ACCOUNT from whichever file sets them;
 * `auto` resolved from the account's balance of the limits token at start. A pair alone has none
 * (both 0): its own RISK_* keys are the account's.
 */
export function accountLimitsOf(configs: readonly PairConfig[], balances: ReadonlyMap<string, TokenBalance>, limitsToken?: { readonly symbol: string; readonly decimals: number }): AccountLimits {
  const first = configs[0];
  if (first === undefined) throw new UsageError('--env FILE is required');
  // A backtest names the token from its recordings (`limitsToken`); live, the chain's table does.
  const token = limitsToken ?? getToken(getChain(first.chain), first.quote);
  const held = balances.get(token.symbol)?.total ?? 0n;
  const setting = <Key extends (typeof ACCOUNT_RISK_KEYS)[number]>(key: Key): PairConfig['keys'][Key] =>
    configs.find((config) => config.raw[key] !== undefined)?.keys[key] ?? first.keys[key];
  const limits = settingsOf(ENGINE_KEYS, 'account-limits', { RISK_MAX_TOTAL_NOTIONAL_ACCOUNT: setting('RISK_MAX_TOTAL_NOTIONAL_ACCOUNT'), RISK_MAX_DRAWDOWN_ACCOUNT: setting('RISK_MAX_DRAWDOWN_ACCOUNT') }, { quoteDecimals: token.decimals });
  const heldTokens = Number(held) / 10 ** token.decimals;
  if (configs.length === 1) return { limitsToken: token.symbol, limitsTokenDecimals: token.decimals, maxTotalNotionalUnits: 0n, maxDrawdownQuote: 0 };
  return {
    limitsToken: token.symbol,
    limitsTokenDecimals: token.decimals,
    maxTotalNotionalUnits: limits.maxTotalNotionalUnits === 'auto' ? held : limits.maxTotalNotionalUnits,
    maxDrawdownQuote: limits.maxDrawdownQuote === 'auto' ? heldTokens * AUTO_DRAWDOWN_FRACTION : limits.maxDrawdownQuote,
  };
}
