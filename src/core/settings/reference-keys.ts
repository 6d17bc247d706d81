/**
 * Env keys of the reference market (issue 10): which deep market to read
 * (`REFERENCE=binance:ETHUSDT`, off by default), where, when it counts as stale, and how the
 * engine turns it into a fair price (with `FAIR_PRICE`, an engine key) and when it pauses on it.
 * Names are a contract with users' env files: add, never rename.
 */
import { valueOf } from './convert.ts';
import { defineKeys, key, type KeySpec, type KeyValues, type SettingsOf } from './keys.ts';
import * as v from './values.ts';

/** A deep market: the venue's name and its symbol as the venue spells it. */
export interface ReferenceMarket {
  readonly venue: 'binance';
  /** Upper case, e.g. ETHUSDT. */
  readonly symbol: string;
}

/** Venues a reference (or a hedge) can be read from. */
export const REFERENCE_VENUES = ['binance'] as const;

/** `off`, or `<venue>:<SYMBOL>` (the symbol is upper-cased). */
export const referenceMarket: v.ValueParser<ReferenceMarket | undefined> = (raw) => {
  if (raw === 'off') return v.ok(undefined);
  const match = /^([a-z]+):([A-Za-z0-9]{2,20})$/.exec(raw);
  if (match === null || !(REFERENCE_VENUES as readonly string[]).includes(match[1] as string)) {
    return v.fail(`off, or ${REFERENCE_VENUES.join('|')}:SYMBOL as the venue spells it (e.g. binance:ETHUSDT)`);
  }
  return v.ok({ venue: match[1] as 'binance', symbol: (match[2] as string).toUpperCase() });
};

/**
 * Every value `FAIR_PRICE` (an engine key) takes: the venue book's `mid`/`microprice`, the
 * `reference`, or a depth-weighted `blend`.
 */
export const FAIR_PRICES = ['mid', 'microprice', 'reference', 'blend'] as const;
export type FairPriceMode = (typeof FAIR_PRICES)[number];

/** Reference and fair-price keys, in documentation order. */
export const REFERENCE_KEYS = defineKeys({
  REFERENCE: key(referenceMarket, {
    default: 'off',
    unit: 'off|binance:SYMBOL',
    doc: 'Deep market to read a reference price from (Binance spot public data: bookTicker, depth@100ms, trades); off = none',
    // The engine prices from the reference (its `reference` settings) only when one is read.
    readers: { 'reference-feed': 'market' },
  }),
  REFERENCE_WS_URL: key(v.url(['ws:', 'wss:']), {
    default: 'wss://stream.binance.com:9443',
    unit: 'URL',
    doc: 'Reference WebSocket base URL (market data only: wss://data-stream.binance.vision); a local `akira-mm feed`: ws://127.0.0.1:<port>',
    readers: { 'reference-feed': 'wsUrl' },
  }),
  REFERENCE_REST_URL: key(v.url(['http:', 'https:']), {
    default: 'https://api.binance.com',
    unit: 'URL',
    doc: 'Reference REST base URL for depth snapshots and symbol rules (market data only: https://data-api.binance.vision); a local `akira-mm feed`: http://127.0.0.1:<port>',
    readers: { 'reference-feed': 'restUrl' },
  }),
  REFERENCE_STALE_MS: key(v.integer(100, 600_000), {
    default: '5000',
    unit: 'ms',
    doc: 'No reference update for this long makes it stale: quoting from it pauses (its own reason in /health) until it is fresh again',
    readers: { 'reference-feed': 'staleMs' },
  }),
  REFERENCE_PRICE: key(v.oneOf(['mid', 'microprice'] as const), {
    default: 'mid',
    unit: 'mid|microprice',
    doc: 'Which reference price FAIR_PRICE=reference and blend start from: the reference mid, or its size-weighted microprice',
    readers: { reference: 'price' },
  }),
  REFERENCE_BASIS_BPS: key(v.keywordOr('auto', v.signedDecimal(-10_000, 10_000, 'bps'), 'auto (estimate it online), or a decimal number of bps from -10000 to 10000 (e.g. -2.5)'), {
    default: 'auto',
    unit: 'bps|auto',
    doc: 'Venue price over reference price − 1 (USDC vs USDT, venue premium): fixed, or auto = an EMA of venue mid / reference mid − 1 while the venue shows both sides',
    readers: { reference: 'basisBps' },
  }),
  REFERENCE_BASIS_HALF_LIFE_S: key(v.integer(1, 86_400), {
    default: '300',
    unit: 's',
    doc: 'Half-life of the auto basis EMA',
    readers: { reference: 'basisHalfLifeS' },
  }),
  REFERENCE_BASIS_MAX_STEP_BPS: key(v.decimal(0, 1_000), {
    default: '1',
    unit: 'bps',
    doc: 'Largest change of the auto basis per update, so one odd venue print cannot drag the fair price',
    readers: { reference: { field: 'basisMaxStepBps', convert: valueOf } },
  }),
  REFERENCE_MAX_DIVERGENCE_BPS: key(v.decimal(0, 10_000), {
    default: '100',
    unit: 'bps',
    doc: 'Venue mid further than this from the reference fair (reference × (1 + basis)) pauses quoting until they agree again; 0 = never',
    readers: { reference: { field: 'maxDivergenceBps', convert: valueOf } },
  }),
  REFERENCE_JUMP_BPS: key(v.decimal(0, 10_000), {
    default: '20',
    unit: 'bps',
    doc: 'Reference moving more than this within REFERENCE_JUMP_WINDOW_MS cancels our quotes first and requotes after; 0 = off',
    readers: { reference: { field: 'jumpBps', convert: valueOf } },
  }),
  REFERENCE_JUMP_WINDOW_MS: key(v.integer(10, 60_000), {
    default: '1000',
    unit: 'ms',
    doc: 'Window REFERENCE_JUMP_BPS is measured over',
    readers: { reference: 'jumpWindowMs' },
  }),
});

/** The reference keys as a list, in documentation order. */
export const REFERENCE_KEY_LIST: readonly KeySpec[] = Object.values(REFERENCE_KEYS);

/** Validated reference keys, as parsed. */
export type ReferenceKeys = KeyValues<typeof REFERENCE_KEYS>;

/** Where the reference feed reads (REFERENCE, REFERENCE_WS_URL, REFERENCE_REST_URL, REFERENCE_STALE_MS). */
export type ReferenceFeedSettings = SettingsOf<typeof REFERENCE_KEYS, 'reference-feed'>;

/** `binance:ETHUSDT`. */
export function referenceMarketLabel(market: ReferenceMarket): string {
  return `${market.venue}:${market.symbol}`;
}
