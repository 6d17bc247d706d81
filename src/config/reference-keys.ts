/**
 * Env keys of the reference market (issue 10): which deep market to read
 * (`REFERENCE=binance:ETHUSDT`, off by default), where, when it counts as stale, and how the
 * engine turns it into a fair price (with `FAIR_PRICE`, an engine key) and when it pauses on it. Names are a contract with users'
 * env files: add, never rename.
 */
import type { ConfigIssue } from '../core/index.ts';
import type { KeySpec } from './keys.ts';
import * as v from './values.ts';

function spec<T>(entry: KeySpec<T>): KeySpec<T> {
  return entry;
}

/** A reference market: the venue's name and its symbol as the venue spells it. */
export interface ReferenceMarket {
  readonly venue: 'binance';
  /** Upper case, e.g. ETHUSDT. */
  readonly symbol: string;
}

/** Venues a reference can be read from. */
export const REFERENCE_VENUES = ['binance'] as const;

/** `off`, or `<venue>:<SYMBOL>` (the symbol is upper-cased). */
export const referenceMarket: v.ValueParser<ReferenceMarket | undefined> = (raw) => {
  if (raw === 'off') return { ok: true, value: undefined };
  const match = /^([a-z]+):([A-Za-z0-9]{2,20})$/.exec(raw);
  if (match === null || !(REFERENCE_VENUES as readonly string[]).includes(match[1] as string)) {
    return { ok: false, allowed: `off, or ${REFERENCE_VENUES.join('|')}:SYMBOL as the venue spells it (e.g. binance:ETHUSDT)` };
  }
  return { ok: true, value: { venue: match[1] as 'binance', symbol: (match[2] as string).toUpperCase() } };
};

/** `auto`, or a signed decimal number of basis points in [min, max]. */
function basisBps(min: number, max: number): v.ValueParser<number | 'auto'> {
  const allowed = `auto (estimate it online), or a decimal number of bps from ${min} to ${max} (e.g. -2.5)`;
  return (raw) => {
    if (raw === 'auto') return { ok: true, value: 'auto' };
    if (!/^-?\d+(\.\d+)?$/.test(raw)) return { ok: false, allowed };
    const value = Number(raw);
    return value >= min && value <= max ? { ok: true, value } : { ok: false, allowed };
  };
}

/**
 * Every value `FAIR_PRICE` (an engine key, `engine-keys.ts`) takes once the engine prices from a
 * reference: the venue book's `mid`/`microprice`, the `reference`, or a depth-weighted `blend`.
 * The engine key accepts `mid|microprice` until its fair stage handles the other two.
 */
export const FAIR_PRICES = ['mid', 'microprice', 'reference', 'blend'] as const;
export type FairPriceMode = (typeof FAIR_PRICES)[number];

/** Reference and fair-price keys, in documentation order. */
export const REFERENCE_KEYS = {
  REFERENCE: spec({
    key: 'REFERENCE',
    default: 'off',
    unit: 'off|binance:SYMBOL',
    doc: 'Deep market to read a reference price from (Binance spot public data: bookTicker, depth@100ms, trades); off = none',
    parse: referenceMarket,
  }),
  REFERENCE_WS_URL: spec({
    key: 'REFERENCE_WS_URL',
    default: 'wss://stream.binance.com:9443',
    unit: 'URL',
    doc: 'Reference WebSocket base URL (market data only: wss://data-stream.binance.vision); a local `akira-mm feed`: ws://127.0.0.1:<port>',
    parse: v.url(['ws:', 'wss:']),
  }),
  REFERENCE_REST_URL: spec({
    key: 'REFERENCE_REST_URL',
    default: 'https://api.binance.com',
    unit: 'URL',
    doc: 'Reference REST base URL for depth snapshots and symbol rules (market data only: https://data-api.binance.vision); a local `akira-mm feed`: http://127.0.0.1:<port>',
    parse: v.url(['http:', 'https:']),
  }),
  REFERENCE_STALE_MS: spec({
    key: 'REFERENCE_STALE_MS',
    default: '5000',
    unit: 'ms',
    doc: 'No reference update for this long makes it stale: quoting from it pauses (its own reason in /health) until it is fresh again',
    parse: v.integer(100, 600_000),
  }),
  REFERENCE_PRICE: spec({
    key: 'REFERENCE_PRICE',
    default: 'mid',
    unit: 'mid|microprice',
    doc: 'Which reference price FAIR_PRICE=reference and blend start from: the reference mid, or its size-weighted microprice',
    parse: v.oneOf(['mid', 'microprice'] as const),
  }),
  REFERENCE_BASIS_BPS: spec({
    key: 'REFERENCE_BASIS_BPS',
    default: 'auto',
    unit: 'bps|auto',
    doc: 'Venue price over reference price − 1 (USDC vs USDT, venue premium): fixed, or auto = an EMA of venue mid / reference mid − 1 while the venue shows both sides',
    parse: basisBps(-10_000, 10_000),
  }),
  REFERENCE_BASIS_HALF_LIFE_S: spec({
    key: 'REFERENCE_BASIS_HALF_LIFE_S',
    default: '300',
    unit: 's',
    doc: 'Half-life of the auto basis EMA',
    parse: v.integer(1, 86_400),
  }),
  REFERENCE_BASIS_MAX_STEP_BPS: spec({
    key: 'REFERENCE_BASIS_MAX_STEP_BPS',
    default: '1',
    unit: 'bps',
    doc: 'Largest change of the auto basis per update, so one odd venue print cannot drag the fair price',
    parse: v.decimal(0, 1_000),
  }),
  REFERENCE_MAX_DIVERGENCE_BPS: spec({
    key: 'REFERENCE_MAX_DIVERGENCE_BPS',
    default: '100',
    unit: 'bps',
    doc: 'Venue mid further than this from the reference fair (reference × (1 + basis)) pauses quoting until they agree again; 0 = never',
    parse: v.decimal(0, 10_000),
  }),
  REFERENCE_JUMP_BPS: spec({
    key: 'REFERENCE_JUMP_BPS',
    default: '20',
    unit: 'bps',
    doc: 'Reference moving more than this within REFERENCE_JUMP_WINDOW_MS cancels our quotes first and requotes after; 0 = off',
    parse: v.decimal(0, 10_000),
  }),
  REFERENCE_JUMP_WINDOW_MS: spec({
    key: 'REFERENCE_JUMP_WINDOW_MS',
    default: '1000',
    unit: 'ms',
    doc: 'Window REFERENCE_JUMP_BPS is measured over',
    parse: v.integer(10, 60_000),
  }),
} as const;

/** The reference keys as a list, in documentation order. */
export const REFERENCE_KEY_LIST: readonly KeySpec[] = Object.values(REFERENCE_KEYS);

type Parsed<K extends keyof typeof REFERENCE_KEYS> = (typeof REFERENCE_KEYS)[K] extends KeySpec<infer T> ? T : never;

/** Validated reference keys, as parsed. */
export type ReferenceKeys = { readonly [K in keyof typeof REFERENCE_KEYS]: Parsed<K> };

/** The reference settings of one pair, in the units the code uses. */
export interface ReferenceConfig {
  /** Undefined when REFERENCE=off. */
  readonly market: ReferenceMarket | undefined;
  readonly wsUrl: string;
  readonly restUrl: string;
  readonly staleMs: number;
  readonly price: 'mid' | 'microprice';
  /** Fixed basis in bps, or `auto` (estimated online). */
  readonly basisBps: number | 'auto';
  readonly basisHalfLifeS: number;
  readonly basisMaxStepBps: number;
  /** 0 = never pause on divergence. */
  readonly maxDivergenceBps: number;
  /** 0 = no jump rule. */
  readonly jumpBps: number;
  readonly jumpWindowMs: number;
}

/**
 * Cross-key rule: a fair price from the reference needs a reference.
 * @param fairPrice the parsed `FAIR_PRICE` (undefined when it did not parse).
 * @param keys the parsed reference keys (`REFERENCE` undefined when off, absent when it did not parse).
 */
export function checkReferenceKeys(fairPrice: string | undefined, keys: Partial<ReferenceKeys>, issues: ConfigIssue[]): void {
  if ((fairPrice === 'reference' || fairPrice === 'blend') && 'REFERENCE' in keys && keys.REFERENCE === undefined) {
    issues.push({ key: 'FAIR_PRICE', value: fairPrice, allowed: 'reference and blend need REFERENCE=binance:SYMBOL (REFERENCE is off)' });
  }
}

/** The validated keys as a {@link ReferenceConfig}. */
export function toReferenceConfig(keys: ReferenceKeys): ReferenceConfig {
  return {
    market: keys.REFERENCE,
    wsUrl: keys.REFERENCE_WS_URL,
    restUrl: keys.REFERENCE_REST_URL,
    staleMs: keys.REFERENCE_STALE_MS,
    price: keys.REFERENCE_PRICE,
    basisBps: keys.REFERENCE_BASIS_BPS,
    basisHalfLifeS: keys.REFERENCE_BASIS_HALF_LIFE_S,
    basisMaxStepBps: keys.REFERENCE_BASIS_MAX_STEP_BPS.value,
    maxDivergenceBps: keys.REFERENCE_MAX_DIVERGENCE_BPS.value,
    jumpBps: keys.REFERENCE_JUMP_BPS.value,
    jumpWindowMs: keys.REFERENCE_JUMP_WINDOW_MS,
  };
}

/** `binance:ETHUSDT`. */
export function referenceMarketLabel(market: ReferenceMarket): string {
  return `${market.venue}:${market.symbol}`;
}
