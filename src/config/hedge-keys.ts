/**
 * Env keys of the hedge venue (issue 15): where the bot hedges (`HEDGE=binance:ETHUSDT`, off by
 * default), its endpoints and API key, and how it hedges (fee, delay, retries, order type, the
 * profit `xemm` keeps). The API key and its secret are secrets: never echoed in an error, a log
 * or a report; an Ed25519 key comes from a file that must be readable by its owner only. Names
 * are a contract with users' env files: add, never rename.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Secret, type ConfigIssue } from '../core/index.ts';
import type { KeySpec } from './keys.ts';
import { REFERENCE_VENUES, referenceMarket, type ReferenceMarket } from './reference-keys.ts';
import * as v from './values.ts';

function spec<T>(entry: KeySpec<T>): KeySpec<T> {
  return entry;
}

/** Hedge keys, in documentation order. */
export const HEDGE_KEYS = {
  HEDGE: spec({
    key: 'HEDGE',
    default: 'off',
    unit: 'off|binance:SYMBOL',
    doc: `Deep market to hedge every fill on at once (${REFERENCE_VENUES.join(', ')} spot): the bot keeps the net position across both venues flat; off = no hedging`,
    parse: referenceMarket,
  }),
  HEDGE_REST_URL: spec({
    key: 'HEDGE_REST_URL',
    default: 'https://api.binance.com',
    unit: 'URL',
    doc: 'Hedge venue REST base URL (orders, account, exchangeInfo, depth snapshots); a local `akira-mm feed --accounts`: http://127.0.0.1:<port>',
    parse: v.url(['http:', 'https:']),
  }),
  HEDGE_WS_URL: spec({
    key: 'HEDGE_WS_URL',
    default: 'wss://ws-api.binance.com:443/ws-api/v3',
    unit: 'URL',
    doc: "Hedge venue WebSocket API (own fills: userDataStream.subscribe); a local `akira-mm feed`: ws://127.0.0.1:<port>/ws-api/v3",
    parse: v.url(['ws:', 'wss:']),
  }),
  HEDGE_STREAM_URL: spec({
    key: 'HEDGE_STREAM_URL',
    default: 'wss://stream.binance.com:9443',
    unit: 'URL',
    doc: 'Hedge venue market-data streams (the hedge book: depth and bookTicker); a local `akira-mm feed`: ws://127.0.0.1:<port>',
    parse: v.url(['ws:', 'wss:']),
  }),
  HEDGE_API_KEY: spec({
    key: 'HEDGE_API_KEY',
    default: '',
    unit: 'text',
    doc: 'Hedge venue API key (needs TRADE and USER_DATA); required with HEDGE. Never logged; errors print <redacted>',
    secret: true,
    parse: (raw) => (raw === '' || /^[A-Za-z0-9]{8,128}$/.test(raw) ? { ok: true, value: raw } : { ok: false, allowed: 'an API key of 8–128 letters and digits' }),
  }),
  HEDGE_API_SECRET: spec({
    key: 'HEDGE_API_SECRET',
    default: '',
    unit: 'text',
    doc: 'HMAC secret of HEDGE_API_KEY; or leave empty and give HEDGE_PRIVATE_KEY_FILE (Ed25519, Binance\'s recommended key type). Never logged; errors print <redacted>',
    secret: true,
    parse: (raw) => (raw === '' || /^[ -~]{8,256}$/.test(raw) ? { ok: true, value: raw } : { ok: false, allowed: 'a secret of 8–256 printable characters' }),
  }),
  HEDGE_PRIVATE_KEY_FILE: spec({
    key: 'HEDGE_PRIVATE_KEY_FILE',
    default: '',
    unit: 'path',
    doc: 'Ed25519 private key (PKCS#8 PEM) of HEDGE_API_KEY, relative to this file; must be readable by its owner only (chmod 600). Its content is never logged',
    parse: (raw) => ({ ok: true, value: raw }),
  }),
  HEDGE_FEE_BPS: spec({
    key: 'HEDGE_FEE_BPS',
    default: '10',
    unit: 'bps',
    doc: 'Taker fee on the hedge venue (Binance spot: 10 bps, less with BNB or VIP tiers): xemm prices it into every quote',
    parse: v.decimal(0, 1_000),
  }),
  HEDGE_MAX_DELAY_MS: spec({
    key: 'HEDGE_MAX_DELAY_MS',
    default: '1000',
    unit: 'ms',
    doc: 'A fill must be hedged within this: an uncovered position older than it counts as a failed hedge (the side that adds to it stops quoting at once)',
    parse: v.integer(10, 600_000),
  }),
  HEDGE_MAX_RETRIES: spec({
    key: 'HEDGE_MAX_RETRIES',
    default: '5',
    unit: 'retries',
    doc: 'Failed hedges (rejected, expired, balance short, venue unreachable) retried with backoff this many times in a row; then quoting halts with the reason in the log and /health',
    parse: v.integer(0, 100),
  }),
  HEDGE_MIN_PROFIT_BPS: spec({
    key: 'HEDGE_MIN_PROFIT_BPS',
    default: '5',
    unit: 'bps',
    doc: 'STRATEGY=xemm: profit a quote keeps after both venues\' fees and the gas per fill, at the hedge book walked for its size',
    parse: v.decimal(0, 10_000),
  }),
  HEDGE_ORDER_TYPE: spec({
    key: 'HEDGE_ORDER_TYPE',
    default: 'market',
    unit: 'market|ioc',
    doc: 'How a hedge takes liquidity: a market order, or a limit IOC no worse than the hedge book walked for its size plus HEDGE_IOC_SLIPPAGE_BPS. Never a resting order',
    parse: v.oneOf(['market', 'ioc'] as const),
  }),
  HEDGE_IOC_SLIPPAGE_BPS: spec({
    key: 'HEDGE_IOC_SLIPPAGE_BPS',
    default: '20',
    unit: 'bps',
    doc: 'HEDGE_ORDER_TYPE=ioc: how far past the walked price the IOC limit sits (what it unfilled is hedged again)',
    parse: v.decimal(0, 5_000),
  }),
  HEDGE_BASIS_BPS: spec({
    key: 'HEDGE_BASIS_BPS',
    default: '0',
    unit: 'bps',
    doc: 'This pair\'s price over the hedge symbol\'s, − 1 (USDC vs USDT): hedge prices are multiplied by 1 + this before they price a quote',
    parse: (raw) => (/^-?\d+(\.\d+)?$/.test(raw) && Math.abs(Number(raw)) <= 10_000 ? { ok: true, value: Number(raw) } : { ok: false, allowed: 'a signed decimal number of bps from -10000 to 10000' }),
  }),
  HEDGE_RECV_WINDOW_MS: spec({
    key: 'HEDGE_RECV_WINDOW_MS',
    default: '5000',
    unit: 'ms',
    doc: 'How long a signed hedge request stays valid at the venue (Binance recvWindow, ≤ 60000): a request older than this is refused, never executed late',
    parse: v.integer(100, 60_000),
  }),
} as const;

/** The hedge keys as a list, in documentation order. */
export const HEDGE_KEY_LIST: readonly KeySpec[] = Object.values(HEDGE_KEYS);

type Parsed<K extends keyof typeof HEDGE_KEYS> = (typeof HEDGE_KEYS)[K] extends KeySpec<infer T> ? T : never;

/** Validated hedge keys, as parsed. */
export type HedgeKeys = { readonly [K in keyof typeof HEDGE_KEYS]: Parsed<K> };

/** How the hedge venue's requests are signed. */
export type HedgeCredentials =
  | { readonly kind: 'hmac'; readonly apiKey: Secret; readonly secretKey: Secret }
  | { readonly kind: 'ed25519'; readonly apiKey: Secret; readonly privateKeyPem: Secret; readonly path: string };

/** The hedge settings of one pair. */
export interface HedgeConfig {
  /** Undefined when HEDGE=off. */
  readonly market: ReferenceMarket | undefined;
  readonly restUrl: string;
  readonly wsUrl: string;
  readonly streamUrl: string;
  /** Undefined when HEDGE=off. */
  readonly credentials: HedgeCredentials | undefined;
  readonly feeBps: number;
  readonly maxDelayMs: number;
  readonly maxRetries: number;
  readonly minProfitBps: number;
  readonly orderType: 'market' | 'ioc';
  readonly iocSlippageBps: number;
  readonly basisBps: number;
  readonly recvWindowMs: number;
}

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
  let credentials: HedgeCredentials | undefined;
  if (keys.HEDGE !== undefined && requireCredentials) {
    const apiKey = new Secret(keys.HEDGE_API_KEY);
    if (keys.HEDGE_PRIVATE_KEY_FILE !== '') {
      const path = isAbsolute(keys.HEDGE_PRIVATE_KEY_FILE) ? keys.HEDGE_PRIVATE_KEY_FILE : resolve(baseDir, keys.HEDGE_PRIVATE_KEY_FILE);
      const pem = readKeyFile(path, issues);
      if (pem !== undefined) credentials = { kind: 'ed25519', apiKey, privateKeyPem: pem, path };
    } else {
      credentials = { kind: 'hmac', apiKey, secretKey: new Secret(keys.HEDGE_API_SECRET) };
    }
  }
  return {
    market: keys.HEDGE,
    restUrl: keys.HEDGE_REST_URL,
    wsUrl: keys.HEDGE_WS_URL,
    streamUrl: keys.HEDGE_STREAM_URL,
    credentials,
    feeBps: keys.HEDGE_FEE_BPS.value,
    maxDelayMs: keys.HEDGE_MAX_DELAY_MS,
    maxRetries: keys.HEDGE_MAX_RETRIES,
    minProfitBps: keys.HEDGE_MIN_PROFIT_BPS.value,
    orderType: keys.HEDGE_ORDER_TYPE,
    iocSlippageBps: keys.HEDGE_IOC_SLIPPAGE_BPS.value,
    basisBps: keys.HEDGE_BASIS_BPS,
    recvWindowMs: keys.HEDGE_RECV_WINDOW_MS,
  };
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
