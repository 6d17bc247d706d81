/**
 * Loads one pair's env file. dotenv parses the text, but nothing is written to `process.env`, so
 * several pairs (or tests) in one process never see each other's keys. Every key is validated at
 * once; all problems come back together, each naming the key, the bad value and what is allowed.
 * Secret keys may also come from `_FILE`s and the process environment (`secrets.ts`).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { MmError, Secret, closestName, formatConfigIssues, getChain, type ChainName, type ConfigIssue } from '../core/index.ts';
import { ENGINE_KEY_LIST, checkEngineKeys, type EngineConfig } from './engine-keys.ts';
import { CONFIG_KEYS, CONFIG_KEY_LIST, type KeySpec } from './keys.ts';
import { REFERENCE_KEY_LIST, checkReferenceKeys, toReferenceConfig, type ReferenceConfig, type ReferenceKeys } from './reference-keys.ts';
import { fileKeyOf, resolvePath, resolveSecretEntries, type ResolvedEntries, type SecretSourceOptions } from './secrets.ts';
import { HEDGE_KEY_LIST, checkHedgeKeys, toHedgeConfig, type HedgeConfig, type HedgeKeys } from './hedge-keys.ts';

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

/** Validated settings of one pair's daemon. */
export interface PairConfig {
  readonly exchangeHttpUrl: string;
  readonly exchangeWsUrl: string;
  readonly chain: ChainName;
  readonly tradingAccount: string;
  /** Where the signer's key is; undefined only when the loader was told none is needed. */
  readonly signer: SignerSource | undefined;
  /** WITHDRAW_ALLOWED_RECEIVERS, lowercase 0x addresses; empty = never withdraw. */
  readonly withdrawAllowedReceivers: readonly string[];
  readonly base: string;
  readonly quote: string;
  readonly ecosystemBook: boolean;
  readonly strategy: string;
  readonly metricsPort: number;
  readonly metricsHost: string;
  /** Exact decimal text (e.g. "1.25") for bigint math, and its value. */
  readonly gasPriceMultiplier: { readonly text: string; readonly value: number };
  readonly withdrawHash: 'snip12' | 'poseidon';
  readonly logLevel: string;
  /** EXCHANGE_ADDRESS, CORE_ADDRESS, ROUTER_ADDRESS, FEE_RECIPIENT when set (else the chain's). */
  readonly contracts: ContractOverrides;
  /** STARKNET_RPC_URL, when set. */
  readonly starknetRpcUrl: string | undefined;
  /** FAST_CANCEL. */
  readonly fastCancel: boolean;
  /** STATE_DIR: '' = the default state directory (`src/cli/state-dir.ts`). */
  readonly stateDir: string;
  /** SIGNING_WORKERS: pre-signing threads (0 = on the event loop). */
  readonly signingWorkers: number;
  /** Engine, risk and gas settings. */
  readonly engine: EngineConfig;
  /** Reference market and fair-price settings (issue 10). */
  readonly reference: ReferenceConfig;
  /** Hedge venue settings (issue 15). */
  readonly hedge: HedgeConfig;
  /** Every non-secret key of the file, for the strategy's own keys. */
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
const ALL_KEY_SPECS: readonly KeySpec[] = [...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST, ...REFERENCE_KEY_LIST, ...HEDGE_KEY_LIST];
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
  const resolved = resolveSecretEntries(env, ALL_KEY_SPECS, { ...options, readSecrets: options.requireSigner !== false }, issues);
  const read = <T>(spec: KeySpec<T>): T | undefined => {
    const given = resolved.env[spec.key];
    const raw = spec.optional === true && given?.trim() === '' ? undefined : (given ?? spec.default);
    if (raw === undefined) {
      if (spec.optional !== true) issues.push({ key: spec.key, value: undefined, allowed: `required: ${spec.doc}` });
      return undefined;
    }
    const result = spec.parse(raw.trim());
    if (!result.ok) {
      const from = resolved.origins.get(spec.key);
      issues.push({ key: spec.key, value: raw, allowed: from === undefined ? result.allowed : `${result.allowed} (${from.described})` });
      return undefined;
    }
    return result.value;
  };

  const values = {
    exchangeHttpUrl: read(CONFIG_KEYS.EXCHANGE_HTTP_URL),
    exchangeWsUrl: read(CONFIG_KEYS.EXCHANGE_WS_URL),
    chain: read(CONFIG_KEYS.CHAIN),
    tradingAccount: read(CONFIG_KEYS.TRADING_ACCOUNT),
    base: read(CONFIG_KEYS.BASE),
    quote: read(CONFIG_KEYS.QUOTE),
    ecosystemBook: read(CONFIG_KEYS.ECOSYSTEM_BOOK),
    strategy: read(CONFIG_KEYS.STRATEGY),
    metricsPort: read(CONFIG_KEYS.METRICS_PORT),
    metricsHost: read(CONFIG_KEYS.METRICS_HOST),
    gasPriceMultiplier: read(CONFIG_KEYS.GAS_PRICE_MULTIPLIER),
    withdrawHash: read(CONFIG_KEYS.WITHDRAW_HASH),
    logLevel: read(CONFIG_KEYS.LOG_LEVEL),
    withdrawAllowedReceivers: read(CONFIG_KEYS.WITHDRAW_ALLOWED_RECEIVERS),
    fastCancel: read(CONFIG_KEYS.FAST_CANCEL),
    stateDir: read(CONFIG_KEYS.STATE_DIR),
    signingWorkers: read(CONFIG_KEYS.SIGNING_WORKERS),
  };
  const signer = readSignerSource(read, resolved, options, issues);
  const venueChecks = readVenueChecks(read);

  const engineEntries = ENGINE_KEY_LIST.map((spec) => [spec.key, read(spec)] as const);
  const referenceKeys = Object.fromEntries(REFERENCE_KEY_LIST.map((spec) => [spec.key, read(spec)]));
  const fairPrice = engineEntries.find(([key]) => key === 'FAIR_PRICE')?.[1];
  checkReferenceKeys(typeof fairPrice === 'string' ? fairPrice : undefined, referenceKeys, issues);
  const issuesBeforeHedge = issues.length;
  // A key that failed to parse is left out (its issue is listed); HEDGE=off parses to undefined and stays.
  const hedgeEntries = HEDGE_KEY_LIST.map((spec) => {
    const before = issues.length;
    const value = read(spec);
    return issues.length === before ? ([spec.key, value] as const) : undefined;
  }).filter((entry) => entry !== undefined);
  const hedgeKeys = Object.fromEntries(hedgeEntries) as Partial<HedgeKeys>;
  checkHedgeKeys(hedgeKeys, values.strategy, issues, options.requireSigner !== false);
  const hedge = issues.length === issuesBeforeHedge ? toHedgeConfig(hedgeKeys as HedgeKeys, options.baseDir ?? process.cwd(), issues, options.requireSigner !== false) : undefined;
  checkTokens(values.chain, values.base, values.quote, issues);
  issues.push(...checkEngineKeys(Object.fromEntries(engineEntries) as Partial<EngineConfig>, env));
  const feeToken = engineEntries.find(([key]) => key === 'FEE_TOKEN')?.[1];
  if (typeof feeToken === 'string' && values.chain !== undefined && !getChain(values.chain).tokens.has(feeToken)) {
    issues.push({ key: 'FEE_TOKEN', value: feeToken, allowed: `a token of ${values.chain}: ${[...getChain(values.chain).tokens.keys()].join(', ')}` });
  }
  if (values.strategy !== undefined && options.strategyNames !== undefined && !options.strategyNames.includes(values.strategy)) {
    issues.push({ key: 'STRATEGY', value: values.strategy, allowed: `one of ${options.strategyNames.join(', ')}` });
  }
  checkUnknownKeys(env, options.extraKeys ?? new Set(), issues);
  if (signer === undefined && options.requireSigner !== false && !issues.some((issue) => SIGNER_ISSUE_KEYS.has(issue.key))) {
    issues.push({ key: 'SIGNER_PRIVATE_KEY', value: undefined, allowed: `required: set one of ${SIGNER_SOURCE_KEYS.join(', ')}` });
  }

  if (issues.length > 0) {
    const listing = formatConfigIssues(issues, SECRET_KEYS);
    throw new ConfigError('CONFIG_INVALID', `invalid configuration in ${source}:\n${listing}`, issues);
  }
  const valid = values as Required<{ [K in keyof typeof values]: NonNullable<(typeof values)[K]> }>;
  const raw = Object.fromEntries(Object.entries(env).filter(([key]) => !SECRET_KEYS.has(key)));
  const engine = Object.fromEntries(engineEntries) as unknown as EngineConfig;
  const reference = toReferenceConfig(referenceKeys as unknown as ReferenceKeys);
  return { ...valid, ...venueChecks, signer, engine, reference, hedge: hedge as HedgeConfig, raw };
}

const SIGNER_ISSUE_KEYS: ReadonlySet<string> = new Set([...SIGNER_SOURCE_KEYS, 'SIGNER_KEYSTORE_PASSWORD', fileKeyOf('SIGNER_KEYSTORE_PASSWORD')]);

/** The one signer the entries name, or undefined (with an issue when more than one is named). */
function readSignerSource(
  read: <T>(spec: KeySpec<T>) => T | undefined,
  resolved: ResolvedEntries,
  options: LoadOptions,
  issues: ConfigIssue[],
): SignerSource | undefined {
  const privateKey = read(CONFIG_KEYS.SIGNER_PRIVATE_KEY);
  const keystore = read(CONFIG_KEYS.SIGNER_KEYSTORE);
  const password = read(CONFIG_KEYS.SIGNER_KEYSTORE_PASSWORD);
  const remote = read(CONFIG_KEYS.SIGNER_REMOTE);
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

type ContractOverrides = import('../core/index.ts').ContractOverrides;

/** The optional contract and RPC keys (issue 11); undefined ones stay out of the overrides. */
function readVenueChecks(read: <T>(spec: KeySpec<T>) => T | undefined): { contracts: ContractOverrides; starknetRpcUrl: string | undefined } {
  const entries = [
    ['executorAddress', read(CONFIG_KEYS.EXCHANGE_ADDRESS)],
    ['coreAddress', read(CONFIG_KEYS.CORE_ADDRESS)],
    ['routerAddress', read(CONFIG_KEYS.ROUTER_ADDRESS)],
    ['feeRecipient', read(CONFIG_KEYS.FEE_RECIPIENT)],
  ] as const;
  const contracts = Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as ContractOverrides;
  return { contracts, starknetRpcUrl: read(CONFIG_KEYS.STARKNET_RPC_URL) };
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
