/**
 * Env keys of the hedge venue (issue 15): where the bot hedges (`HEDGE=binance:ETHUSDT`, off by
 * default), its endpoints and API key, and how it hedges (fee, delay, retries, order type, the
 * profit `xemm` keeps). The API key and its secret are secrets: never echoed in an error, a log
 * or a report; an Ed25519 key comes from a file that must be readable by its owner only. Names
 * are a contract with users' env files: add, never rename.
 */
import { valueOf } from './convert.ts';
import { defineKeys, key, type KeySpec, type KeyValues, type SettingsOf } from './keys.ts';
import { REFERENCE_VENUES, referenceMarket } from './reference-keys.ts';
import * as v from './values.ts';

/** Hedge keys, in documentation order. */
export const HEDGE_KEYS = defineKeys({
  HEDGE: key(referenceMarket, {
    default: 'off',
    unit: 'off|binance:SYMBOL',
    doc: `Deep market to hedge every fill on at once (${REFERENCE_VENUES.join(', ')} spot): the bot keeps the net position across both venues flat; off = no hedging`,
    readers: { 'hedge-venue': 'market' },
  }),
  HEDGE_REST_URL: key(v.url(['http:', 'https:']), {
    default: 'https://api.binance.com',
    unit: 'URL',
    doc: 'Hedge venue REST base URL (orders, account, exchangeInfo, depth snapshots); a local `akira-mm feed --accounts`: http://127.0.0.1:<port>',
    readers: { 'hedge-venue': 'restUrl' },
  }),
  HEDGE_WS_URL: key(v.url(['ws:', 'wss:']), {
    default: 'wss://ws-api.binance.com:443/ws-api/v3',
    unit: 'URL',
    doc: "Hedge venue WebSocket API (own fills: userDataStream.subscribe); a local `akira-mm feed`: ws://127.0.0.1:<port>/ws-api/v3",
    readers: { 'hedge-venue': 'wsUrl' },
  }),
  HEDGE_STREAM_URL: key(v.url(['ws:', 'wss:']), {
    default: 'wss://stream.binance.com:9443',
    unit: 'URL',
    doc: 'Hedge venue market-data streams (the hedge book: depth and bookTicker); a local `akira-mm feed`: ws://127.0.0.1:<port>',
    readers: { 'hedge-venue': 'streamUrl' },
  }),
  HEDGE_API_KEY: key(v.emptyOrMatching(/^[A-Za-z0-9]{8,128}$/, 'an API key of 8–128 letters and digits'), {
    default: '',
    unit: 'text',
    doc: 'Hedge venue API key (needs TRADE and USER_DATA); required with HEDGE. Never logged; errors print <redacted>',
    secret: true,
    readers: { 'hedge-credentials': 'apiKey' },
  }),
  HEDGE_API_SECRET: key(v.emptyOrMatching(/^[ -~]{8,256}$/, 'a secret of 8–256 printable characters'), {
    default: '',
    unit: 'text',
    doc: 'HMAC secret of HEDGE_API_KEY; or leave empty and give HEDGE_PRIVATE_KEY_FILE (Ed25519, Binance\'s recommended key type). Never logged; errors print <redacted>',
    secret: true,
    readers: { 'hedge-credentials': 'apiSecret' },
  }),
  HEDGE_PRIVATE_KEY_FILE: key(v.anyString, {
    default: '',
    unit: 'path',
    doc: 'Ed25519 private key (PKCS#8 PEM) of HEDGE_API_KEY, relative to this file; must be readable by its owner only (chmod 600). Its content is never logged',
    readers: { 'hedge-credentials': 'privateKeyFile' },
  }),
  HEDGE_FEE_BPS: key(v.decimal(0, 1_000), {
    default: '10',
    unit: 'bps',
    doc: 'Taker fee on the hedge venue (Binance spot: 10 bps, less with BNB or VIP tiers): xemm prices it into every quote',
    readers: { hedger: { field: 'feeBps', convert: valueOf } },
  }),
  HEDGE_MAX_DELAY_MS: key(v.integer(10, 600_000), {
    default: '1000',
    unit: 'ms',
    doc: 'A fill must be hedged within this: an uncovered position older than it counts as a failed hedge (the side that adds to it stops quoting at once)',
    readers: { hedger: 'maxDelayMs' },
  }),
  HEDGE_MAX_RETRIES: key(v.integer(0, 100), {
    default: '5',
    unit: 'retries',
    doc: 'Failed hedges (rejected, expired, balance short, venue unreachable) retried with backoff this many times in a row; then quoting halts with the reason in the log and /health',
    readers: { hedger: 'maxRetries' },
  }),
  HEDGE_MIN_PROFIT_BPS: key(v.decimal(0, 10_000), {
    default: '5',
    unit: 'bps',
    doc: 'STRATEGY=xemm: profit a quote keeps after both venues\' fees and the gas per fill, at the hedge book walked for its size',
    readers: { hedger: { field: 'minProfitBps', convert: valueOf } },
  }),
  HEDGE_ORDER_TYPE: key(v.oneOf(['market', 'ioc'] as const), {
    default: 'market',
    unit: 'market|ioc',
    doc: 'How a hedge takes liquidity: a market order, or a limit IOC no worse than the hedge book walked for its size plus HEDGE_IOC_SLIPPAGE_BPS. Never a resting order',
    readers: { hedger: 'orderType' },
  }),
  HEDGE_IOC_SLIPPAGE_BPS: key(v.decimal(0, 5_000), {
    default: '20',
    unit: 'bps',
    doc: 'HEDGE_ORDER_TYPE=ioc: how far past the walked price the IOC limit sits (what it unfilled is hedged again)',
    readers: { hedger: { field: 'iocSlippageBps', convert: valueOf } },
  }),
  HEDGE_BASIS_BPS: key(v.signedDecimal(-10_000, 10_000, 'bps'), {
    default: '0',
    unit: 'bps',
    doc: 'This pair\'s price over the hedge symbol\'s, − 1 (USDC vs USDT): hedge prices are multiplied by 1 + this before they price a quote',
    readers: { hedger: 'basisBps' },
  }),
  HEDGE_RECV_WINDOW_MS: key(v.integer(100, 60_000), {
    default: '5000',
    unit: 'ms',
    doc: 'How long a signed hedge request stays valid at the venue (Binance recvWindow, ≤ 60000): a request older than this is refused, never executed late',
    readers: { hedger: 'recvWindowMs', 'hedge-venue': 'recvWindowMs' },
  }),
});

/** The hedge keys as a list, in documentation order. */
export const HEDGE_KEY_LIST: readonly KeySpec[] = Object.values(HEDGE_KEYS);

/** Validated hedge keys, as parsed. */
export type HedgeKeys = KeyValues<typeof HEDGE_KEYS>;

/** Where the hedge venue is and how it is reached (HEDGE, its URLs, the receive window). */
export type HedgeVenueSettings = SettingsOf<typeof HEDGE_KEYS, 'hedge-venue'>;
