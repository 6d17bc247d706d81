/**
 * The hedge venue's settings as a pair's wiring needs them (issue 15): where the venue is, how
 * requests are signed, and how the hedger hedges, all derived from the HEDGE_* declarations
 * (src/core/settings/hedge-keys.ts); the rules across keys; and reading the Ed25519 key file.
 * The API key and its secret are never echoed in an error, a log or a report.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { HEDGE_KEYS, Secret, settingsOf, type ConfigIssue, type HedgeKeys, type HedgeVenueSettings, type SettingsOf } from '../core/index.ts';

/** How the hedge venue's requests are signed. */
export type HedgeCredentials =
  | { readonly kind: 'hmac'; readonly apiKey: Secret; readonly secretKey: Secret }
  | { readonly kind: 'ed25519'; readonly apiKey: Secret; readonly privateKeyPem: Secret; readonly path: string };

/** The hedge settings of one pair: the venue's (`market` undefined when HEDGE=off), its credentials and the hedger's. */
export type HedgeConfig = HedgeVenueSettings &
  SettingsOf<typeof HEDGE_KEYS, 'hedger'> & {
    /** Undefined when HEDGE=off, or when the command trades nothing there (a backtest). */
    readonly credentials: HedgeCredentials | undefined;
  };

/** Strategies that only make sense with a hedge venue. */
const HEDGED_STRATEGIES = new Set(['xemm']);

/**
 * Cross-key rules: HEDGE on needs an API key and exactly one of its secret and its key file;
 * STRATEGY=xemm needs HEDGE.
 */
export function checkHedgeKeys(keys: Partial<HedgeKeys>, strategy: string | undefined, issues: ConfigIssue[], requireCredentials = true): void {
  if ('HEDGE' in keys && keys.HEDGE === undefined) {
    if (strategy !== undefined && HEDGED_STRATEGIES.has(strategy)) issues.push({ key: 'STRATEGY', value: strategy, allowed: `${strategy} quotes at the hedge's cost: it needs HEDGE=binance:SYMBOL (HEDGE is off)` });
    return;
  }
  // A run that trades nothing on the hedge venue (a backtest) needs no credentials there.
  if (keys.HEDGE === undefined || !requireCredentials) return;
  if (keys.HEDGE_API_KEY === '') issues.push({ key: 'HEDGE_API_KEY', value: undefined, allowed: 'required with HEDGE: the hedge venue API key' });
  const hasSecret = keys.HEDGE_API_SECRET !== undefined && keys.HEDGE_API_SECRET !== '';
  const hasFile = keys.HEDGE_PRIVATE_KEY_FILE !== undefined && keys.HEDGE_PRIVATE_KEY_FILE !== '';
  if (hasSecret === hasFile) issues.push({ key: 'HEDGE_API_SECRET', value: undefined, allowed: 'with HEDGE, exactly one of HEDGE_API_SECRET (HMAC) and HEDGE_PRIVATE_KEY_FILE (Ed25519)' });
}

/**
 * The validated keys as a {@link HedgeConfig}, reading the Ed25519 key file (relative to
 * `baseDir`) when one is named. A problem with the file is an issue naming the key.
 */
export function toHedgeConfig(keys: HedgeKeys, baseDir: string, issues: ConfigIssue[], requireCredentials = true): HedgeConfig {
  const credentials = keys.HEDGE !== undefined && requireCredentials ? readCredentials(settingsOf(HEDGE_KEYS, 'hedge-credentials', keys), baseDir, issues) : undefined;
  return { ...settingsOf(HEDGE_KEYS, 'hedge-venue', keys), ...settingsOf(HEDGE_KEYS, 'hedger', keys), credentials };
}

function readCredentials(keys: SettingsOf<typeof HEDGE_KEYS, 'hedge-credentials'>, baseDir: string, issues: ConfigIssue[]): HedgeCredentials | undefined {
  const apiKey = new Secret(keys.apiKey);
  if (keys.privateKeyFile === '') return { kind: 'hmac', apiKey, secretKey: new Secret(keys.apiSecret) };
  const path = isAbsolute(keys.privateKeyFile) ? keys.privateKeyFile : resolve(baseDir, keys.privateKeyFile);
  const pem = readKeyFile(path, issues);
  return pem === undefined ? undefined : { kind: 'ed25519', apiKey, privateKeyPem: pem, path };
}

/** The key file's text, refusing one that others may read (like an ssh key). */
function readKeyFile(path: string, issues: ConfigIssue[]): Secret | undefined {
  try {
    const mode = statSync(path).mode;
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      issues.push({ key: 'HEDGE_PRIVATE_KEY_FILE', value: path, allowed: `a file readable by its owner only (mode is ${(mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${path}` });
      return undefined;
    }
    return new Secret(readFileSync(path, 'utf8'));
  } catch (error) {
    issues.push({ key: 'HEDGE_PRIVATE_KEY_FILE', value: path, allowed: `a readable Ed25519 PEM file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` });
    return undefined;
  }
}

/** `binance:ETHUSDT`, or `off`. */
export function hedgeMarketLabel(config: HedgeConfig): string {
  return config.market === undefined ? 'off' : `${config.market.venue}:${config.market.symbol}`;
}
