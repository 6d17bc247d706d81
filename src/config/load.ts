/**
 * Loads one pair's env file. dotenv parses the text, but nothing is written to `process.env`, so
 * several pairs (or tests) in one process never see each other's keys. Every key is validated at
 * once; all problems come back together, each naming the key, the bad value and what is allowed.
 * Secret keys may also come from `_FILE`s and the process environment (`secrets.ts`).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import {
  ALERT_KEYS,
  ALERT_KEY_LIST,
  ENGINE_KEYS,
  ENGINE_KEY_LIST,
  HEDGE_KEYS,
  HEDGE_KEY_LIST,
  MmError,
  REFERENCE_KEYS,
  REFERENCE_KEY_LIST,
  Secret,
  closestName,
  formatConfigIssues,
  getChain,
  settingsOf,
  type AlertSettings,
  type ChainName,
  type ConfigIssue,
  type EngineConfig,
  type KeySpec,
  type KeyValues,
  type PublicKeyValues,
  type ValuesReadBy,
} from '../core/index.ts';
import { checkAlertKeys, toAlertSettings } from './alert-keys.ts';
import { checkHedgeKeys, toHedgeConfig, type HedgeConfig } from './hedge-keys.ts';
import { CONFIG_KEYS, CONFIG_KEY_LIST, type ContractSettings, type PairSettings, type SignerKeys } from './keys.ts';
import { checkReferenceKeys, toReferenceConfig, type ReferenceConfig } from './reference-keys.ts';
import { fileKeyOf, resolvePath, resolveSecretEntries, type ResolvedEntries, type SecretSourceOptions } from './secrets.ts';

/** Codes raised by `src/config`. */
export type ConfigErrorCode = 'CONFIG_INVALID' | 'CONFIG_FILE_UNREADABLE';

/**
 * Where the signer's key is. The keystore is only named here: decrypting it takes a password
 * (maybe typed at a prompt) and seconds of scrypt, which the command does, not the loader.
 */
export type SignerSource =
  /** SIGNER_PRIVATE_KEY, from the pair file, a `_FILE` or the environment (`origin` says which). */
  | { readonly kind: 'key'; readonly privateKey: Secret; readonly origin: string }
  /** SIGNER_KEYSTORE (absolute path) and its password when one was configured. */
  | { readonly kind: 'keystore'; readonly path: string; readonly password: Secret | undefined }
  /** SIGNER_REMOTE=unix:PATH (absolute path). */
  | { readonly kind: 'remote'; readonly socketPath: string };

/** The keys that name a signer; exactly one must be set. */
export const SIGNER_SOURCE_KEYS = ['SIGNER_PRIVATE_KEY', fileKeyOf('SIGNER_PRIVATE_KEY'), 'SIGNER_KEYSTORE', 'SIGNER_REMOTE'] as const;

/** A rejected configuration: `issues` lists every bad key; the message shows them one per line. */
export class ConfigError extends MmError<ConfigErrorCode> {
  readonly issues: readonly ConfigIssue[];

  constructor(code: ConfigErrorCode, message: string, issues: readonly ConfigIssue[] = []) {
    super(code, message);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** Every table of keys a pair file holds besides its strategy's. */
type PairKeyTables = typeof CONFIG_KEYS & typeof ENGINE_KEYS & typeof REFERENCE_KEYS & typeof HEDGE_KEYS & typeof ALERT_KEYS;

/** Every key of a pair file that is not a secret, as parsed: what each reader's settings are built from. */
export type PairKeys = PublicKeyValues<PairKeyTables>;

/** Validated settings of one pair's daemon: its own (one field per `pair` key), and its parts'. */
export interface PairConfig extends PairSettings {
  /** Where the signer's key is; undefined only when the loader was told none is needed. */
  readonly signer: SignerSource | undefined;
  /** EXCHANGE_ADDRESS, CORE_ADDRESS, ROUTER_ADDRESS, FEE_RECIPIENT when set (else the chain's). */
  readonly contracts: ContractSettings;
  /** Engine, risk, gas and budget keys as parsed; the engine's settings are built from `keys` once the pair's decimals are known. */
  readonly engine: EngineConfig;
  /** Reference market and fair-price settings (issue 10). */
  readonly reference: ReferenceConfig;
  /** Hedge venue settings (issue 15). */
  readonly hedge: HedgeConfig;
  /**
   * Where alerts go and what alerts (issue 25): the account's, so every file of one process
   * agrees on them. No channel is set when the loader reads no secrets (a backtest).
   */
  readonly alerts: AlertSettings;
  /** Every key that is not a secret, as parsed (for `settingsOf`). */
  readonly keys: PairKeys;
  /** Every non-secret entry of the file, for the strategy's own keys. */
  readonly raw: Readonly<Record<string, string>>;
}

/** What else may appear in the file besides the config layer's keys, and where secrets are. */
export interface LoadOptions extends SecretSourceOptions {
  /**
   * Require a signer (one of {@link SIGNER_SOURCE_KEYS}). Default true. False for a command that
   * signs nothing with the file (backtest; `signer serve` reads pair files for their policy): no
   * signer is required and no secret is read.
   */
  readonly requireSigner?: boolean;
  /** Strategy names that are allowed for STRATEGY. */
  readonly strategyNames?: readonly string[];
  /** Keys owned by other layers (strategy params, engine, risk); any other key is a typo. */
  readonly extraKeys?: ReadonlySet<string>;
  /** Where paths in the file are relative to (HEDGE_PRIVATE_KEY_FILE); default the working directory. */
  readonly baseDir?: string;
}

/** Every key spec the loader reads; `_FILE` forms and environment intake apply to all of them. */
const ALL_KEY_SPECS: readonly KeySpec[] = [...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST, ...REFERENCE_KEY_LIST, ...HEDGE_KEY_LIST, ...ALERT_KEY_LIST];
const SECRET_KEYS = new Set(ALL_KEY_SPECS.filter((spec) => spec.secret === true).map((spec) => spec.key));

/** Keys whose values must never be echoed. */
export function secretKeys(): ReadonlySet<string> {
  return SECRET_KEYS;
}

/**
 * Reads and validates an env file.
 * @throws ConfigError `CONFIG_FILE_UNREADABLE` when the file cannot be read,
 *   `CONFIG_INVALID` listing every bad key otherwise.
 */
export function loadPairConfigFile(path: string, options: LoadOptions = {}): PairConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError('CONFIG_FILE_UNREADABLE', `cannot read env file ${path}: ${reason}`);
  }
  return parsePairConfig(parseDotenv(text), { baseDir: dirname(path), ...options }, path);
}

/**
 * Validates already-parsed env entries (a file's, or a test's object).
 * @throws ConfigError `CONFIG_INVALID` listing every bad key.
 */
export function parsePairConfig(
  env: Readonly<Record<string, string>>,
  options: LoadOptions = {},
  source = 'env',
): PairConfig {
  const issues: ConfigIssue[] = [];
  const requireSigner = options.requireSigner !== false;
  const resolved = resolveSecretEntries(env, ALL_KEY_SPECS, { ...options, readSecrets: requireSigner }, issues);
  // Only the keys that parsed: an unset optional key is there as undefined, a bad one is absent (its issue is listed).
  const parsed: Partial<Record<string, unknown>> = {};
  for (const spec of ALL_KEY_SPECS) {
    const given = resolved.env[spec.key];
    const raw = spec.optional === true && given?.trim() === '' ? undefined : (given ?? spec.default);
    if (raw === undefined) {
      if (spec.optional === true) parsed[spec.key] = undefined;
      else issues.push({ key: spec.key, value: undefined, allowed: `required: ${spec.doc}` });
      continue;
    }
    const result = spec.parse(raw.trim());
    if (result.ok) {
      parsed[spec.key] = result.value;
      continue;
    }
    const from = resolved.origins.get(spec.key);
    issues.push({ key: spec.key, value: raw, allowed: from === undefined ? result.allowed : `${result.allowed} (${from.described})` });
  }
  const values = parsed as Partial<AllKeys>;
  // A key that did not parse reads as unset here: its own issue says what is wrong with it.
  const signerKeys = settingsOf(CONFIG_KEYS, 'signer', { ...SIGNER_UNSET, ...values });
  const signer = readSignerSource(signerKeys, resolved, options, issues);
  checkReferenceKeys(values.FAIR_PRICE, values, issues);
  const issuesBeforeHedge = issues.length;
  checkHedgeKeys(values, values.STRATEGY, issues, requireSigner);
  const hedgeKeysValid = issues.length === issuesBeforeHedge && HEDGE_KEY_LIST.every((spec) => spec.key in values);
  const hedge = hedgeKeysValid ? toHedgeConfig(values as AllKeys, options.baseDir ?? process.cwd(), issues, requireSigner) : undefined;
  checkTokens(values.CHAIN, values.BASE, values.QUOTE, issues);
  checkAlertKeys(values, values.CHAIN, issues, requireSigner);
  issues.push(...checkEngineKeys(values, env));
  checkFeeToken(values.CHAIN, values.FEE_TOKEN, issues);
  if (values.STRATEGY !== undefined && options.strategyNames !== undefined && !options.strategyNames.includes(values.STRATEGY)) {
    issues.push({ key: 'STRATEGY', value: values.STRATEGY, allowed: `one of ${options.strategyNames.join(', ')}` });
  }
  checkUnknownKeys(env, options.extraKeys ?? new Set(), issues);
  if (signer === undefined && requireSigner && !issues.some((issue) => SIGNER_ISSUE_KEYS.has(issue.key))) {
    issues.push({ key: 'SIGNER_PRIVATE_KEY', value: undefined, allowed: `required: set one of ${SIGNER_SOURCE_KEYS.join(', ')}` });
  }

  // `hedge` is undefined only when an issue says why.
  if (issues.length > 0 || hedge === undefined) {
    const listing = formatConfigIssues(issues, SECRET_KEYS);
    throw new ConfigError('CONFIG_INVALID', `invalid configuration in ${source}:\n${listing}`, issues);
  }
  const valid = values as AllKeys;
  const pick = (specs: readonly KeySpec[]): Record<string, unknown> => Object.fromEntries(specs.map((spec) => [spec.key, parsed[spec.key]]));
  return {
    ...settingsOf(CONFIG_KEYS, 'pair', valid),
    signer,
    contracts: settingsOf(CONFIG_KEYS, 'contracts', valid),
    engine: pick(ENGINE_KEY_LIST) as EngineConfig,
    reference: toReferenceConfig(valid),
    hedge,
    alerts: toAlertSettings(valid),
    keys: pick(ALL_KEY_SPECS.filter((spec) => spec.secret !== true)) as PairKeys,
    raw: Object.fromEntries(Object.entries(env).filter(([key]) => !SECRET_KEYS.has(key))),
  };
}

/** Every key's parsed value, secrets included (they never leave the loader but in a `Secret`). */
type AllKeys = KeyValues<PairKeyTables>;

/** The signer keys, all unset. */
const SIGNER_UNSET: ValuesReadBy<typeof CONFIG_KEYS, 'signer'> = { SIGNER_PRIVATE_KEY: undefined, SIGNER_KEYSTORE: undefined, SIGNER_KEYSTORE_PASSWORD: undefined, SIGNER_REMOTE: undefined };

/**
 * Checks across engine keys: the two inventory targets exclude each other.
 * @returns one issue per conflict, naming the key.
 */
function checkEngineKeys(engine: Partial<EngineConfig>, raw: Readonly<Record<string, string>>): ConfigIssue[] {
  const pct = engine.INVENTORY_TARGET_PCT;
  if (pct !== undefined && pct !== 'off' && raw.INVENTORY_TARGET_BASE !== undefined && raw.INVENTORY_TARGET_BASE.trim() !== 'start') {
    return [{ key: 'INVENTORY_TARGET_PCT', value: raw.INVENTORY_TARGET_PCT, allowed: 'off while INVENTORY_TARGET_BASE is set (one inventory target, not two)' }];
  }
  return [];
}

/** Gas is paid in a token of the chain. */
function checkFeeToken(chain: ChainName | undefined, feeToken: string | undefined, issues: ConfigIssue[]): void {
  if (feeToken === undefined || chain === undefined || getChain(chain).tokens.has(feeToken)) return;
  issues.push({ key: 'FEE_TOKEN', value: feeToken, allowed: `a token of ${chain}: ${[...getChain(chain).tokens.keys()].join(', ')}` });
}

const SIGNER_ISSUE_KEYS: ReadonlySet<string> = new Set([...SIGNER_SOURCE_KEYS, 'SIGNER_KEYSTORE_PASSWORD', fileKeyOf('SIGNER_KEYSTORE_PASSWORD')]);

/** The one signer the keys name, or undefined (with an issue when more than one is named). */
function readSignerSource(keys: SignerKeys, resolved: ResolvedEntries, options: LoadOptions, issues: ConfigIssue[]): SignerSource | undefined {
  const { privateKey, keystore, keystorePassword: password, remote } = keys;
  const named = [privateKey === undefined ? undefined : 'SIGNER_PRIVATE_KEY', keystore === undefined ? undefined : 'SIGNER_KEYSTORE', remote === undefined ? undefined : 'SIGNER_REMOTE'].filter(
    (key): key is string => key !== undefined,
  );
  if (named.length > 1) {
    issues.push({ key: named[1]!, value: undefined, allowed: `only one signer: ${named.join(' and ')} are both set` });
    return undefined;
  }
  if (password !== undefined && keystore === undefined) {
    issues.push({ key: 'SIGNER_KEYSTORE_PASSWORD', value: undefined, allowed: 'only used with SIGNER_KEYSTORE' });
  }
  // A path written in the pair file is relative to it; one from the environment, to the working directory.
  const pathOf = (key: string, path: string): string =>
    resolvePath(path, resolved.origins.get(key)?.origin === 'environment' ? (options.cwd ?? process.cwd()) : (options.baseDir ?? options.cwd ?? process.cwd()));
  if (privateKey !== undefined) {
    return { kind: 'key', privateKey: new Secret(privateKey), origin: resolved.origins.get('SIGNER_PRIVATE_KEY')?.described ?? 'SIGNER_PRIVATE_KEY in the pair file' };
  }
  if (keystore !== undefined) {
    return { kind: 'keystore', path: pathOf('SIGNER_KEYSTORE', keystore), password: password === undefined ? undefined : new Secret(password) };
  }
  if (remote !== undefined) return { kind: 'remote', socketPath: pathOf('SIGNER_REMOTE', remote) };
  return undefined;
}

function checkTokens(chain: ChainName | undefined, base: string | undefined, quote: string | undefined, issues: ConfigIssue[]): void {
  if (chain === undefined) return;
  const tokens = getChain(chain).tokens;
  const allowed = `a token of ${chain}: ${[...tokens.keys()].join(', ')}`;
  if (base !== undefined && !tokens.has(base)) issues.push({ key: 'BASE', value: base, allowed });
  if (quote !== undefined && !tokens.has(quote)) issues.push({ key: 'QUOTE', value: quote, allowed });
  if (base !== undefined && base === quote) issues.push({ key: 'QUOTE', value: quote, allowed: 'a token other than BASE' });
}

function checkUnknownKeys(env: Readonly<Record<string, string>>, extraKeys: ReadonlySet<string>, issues: ConfigIssue[]): void {
  const known = new Set([...ALL_KEY_SPECS.map((spec) => spec.key), ...[...SECRET_KEYS].map(fileKeyOf), ...extraKeys]);
  for (const key of Object.keys(env)) {
    if (known.has(key)) continue;
    // A typo of a long key may take a few edits; three or a quarter of its length, whichever is more.
    const suggestion = closestName(key, known, Math.max(3, Math.floor(key.length / 4)));
    issues.push({
      key,
      value: env[key],
      allowed: `no such key${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}; see config/example.env`,
    });
  }
}
