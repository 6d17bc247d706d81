/**
 * Env keys of the engine, risk guard and gas handling (issue "daemon"). Like the connection keys,
 * their names are a contract with users' env files. Amounts are read as exact decimal text and
 * converted to base units by the CLI once the pair's token decimals are known.
 */
import type { KeySpec } from './keys.ts';
import * as v from './values.ts';

function spec<T>(entry: KeySpec<T>): KeySpec<T> {
  return entry;
}

/** Engine, risk and gas keys, in documentation order. */
export const ENGINE_KEYS = {
  FEE_TOKEN: spec({ key: 'FEE_TOKEN', default: 'STRK', unit: 'symbol', doc: 'Token gas fees are paid in; not STRK needs a conversion rate (from the <token>/STRK book mid or /info/conversion_rate)', parse: v.tokenSymbol }),
  GAS_REFRESH_S: spec({ key: 'GAS_REFRESH_S', default: '30', unit: 's', doc: 'How often the gas price (and fallback conversion rate) is refreshed', parse: v.integer(1, 3600) }),
  CONVERSION_MARGIN_BPS: spec({ key: 'CONVERSION_MARGIN_BPS', default: '50', unit: 'bps', doc: 'Conversion rate skewed against us by this much, so a moving book never makes a signed rate too low', parse: v.decimal(0, 5000) }),
  ORDER_TTL_S: spec({ key: 'ORDER_TTL_S', default: '3600', unit: 's', doc: 'duration_valid of our orders: the venue expires them after this even if we vanish', parse: v.integer(10, 31_536_000) }),
  INVENTORY_TARGET_PCT: spec({ key: 'INVENTORY_TARGET_PCT', default: '50', unit: '%', doc: 'Share of portfolio value (base + quote at mid) to hold in base; skew pushes towards it', parse: v.decimal(0, 100) }),
  REQUOTE_TOLERANCE_TICKS: spec({ key: 'REQUOTE_TOLERANCE_TICKS', default: '2', unit: 'ticks', doc: 'A live order within this many ticks of the desired price stays (keeps its queue position)', parse: v.integer(0, 10_000) }),
  REQUOTE_TOLERANCE_SIZE_PCT: spec({ key: 'REQUOTE_TOLERANCE_SIZE_PCT', default: '10', unit: '%', doc: '…and within this share of the desired size', parse: v.decimal(0, 100) }),
  MAX_ORDER_AGE_S: spec({ key: 'MAX_ORDER_AGE_S', default: '300', unit: 's', doc: 'Orders older than this are replaced even inside the band; 0 = never', parse: v.integer(0, 86_400) }),
  MIN_EDGE_BPS: spec({ key: 'MIN_EDGE_BPS', default: '0', unit: 'bps', doc: 'A quote whose distance to mid minus fees minus gas is under this is not placed', parse: v.decimal(0, 10_000) }),
  PRESIGN_TICKS: spec({ key: 'PRESIGN_TICKS', default: '2', unit: 'ticks', doc: 'Pre-sign orders this many ticks either side of each quote in idle time; 0 disables', parse: v.integer(0, 50) }),
  STARTUP_ORDERS: spec({ key: 'STARTUP_ORDERS', default: 'cancel', unit: 'adopt|cancel', doc: 'Orders found on the venue at start: cancel them, or adopt them as ours', parse: v.oneOf(['adopt', 'cancel'] as const) }),
  RECONCILE_INTERVAL_S: spec({ key: 'RECONCILE_INTERVAL_S', default: '30', unit: 's', doc: 'Heal orders and balances from REST this often even without a reason; 0 disables', parse: v.integer(0, 3600) }),
  STALE_FEED_MS: spec({ key: 'STALE_FEED_MS', default: '10000', unit: 'ms', doc: 'Dead-man switch: no market data for this long cancels everything until the feed is back', parse: v.integer(100, 600_000) }),
  SHUTDOWN_TIMEOUT_MS: spec({ key: 'SHUTDOWN_TIMEOUT_MS', default: '10000', unit: 'ms', doc: 'On SIGTERM/SIGINT, wait at most this long for the venue to confirm nothing rests', parse: v.integer(100, 600_000) }),
  RISK_MAX_INVENTORY_BASE: spec({ key: 'RISK_MAX_INVENTORY_BASE', default: '0', unit: 'base tokens', doc: 'Largest distance of base inventory from its target, each way; quotes shrink to stay inside. 0 = no limit', parse: v.decimal(0, 1e12) }),
  RISK_MAX_ORDER_NOTIONAL: spec({ key: 'RISK_MAX_ORDER_NOTIONAL', default: '0', unit: 'quote tokens', doc: 'Largest notional of one order; 0 = no limit', parse: v.decimal(0, 1e15) }),
  RISK_MAX_TOTAL_NOTIONAL: spec({ key: 'RISK_MAX_TOTAL_NOTIONAL', default: '0', unit: 'quote tokens', doc: 'Largest notional of all our quotes together; 0 = no limit', parse: v.decimal(0, 1e15) }),
  RISK_MAX_OPEN_ORDERS: spec({ key: 'RISK_MAX_OPEN_ORDERS', default: '20', unit: 'orders', doc: 'Most orders resting at once; 0 = no limit', parse: v.integer(0, 1000) }),
  RISK_PRICE_BAND_PCT: spec({ key: 'RISK_PRICE_BAND_PCT', default: '5', unit: '%', doc: 'Quotes further than this from the mid are dropped; 0 = no band', parse: v.decimal(0, 100) }),
  RISK_MAX_DRAWDOWN: spec({ key: 'RISK_MAX_DRAWDOWN', default: '0', unit: 'quote tokens', doc: 'Kill switch: PnL this far below its peak cancels everything and halts; 0 = off', parse: v.decimal(0, 1e15) }),
  RISK_ONCHAIN_KILL: spec({ key: 'RISK_ONCHAIN_KILL', default: 'false', unit: 'bool', doc: 'On a fatal condition also increase the nonce on chain (invalidates every order; costs gas)', parse: v.boolean }),
} as const;

/** The engine keys as a list, in documentation order. */
export const ENGINE_KEY_LIST: readonly KeySpec[] = Object.values(ENGINE_KEYS);

type Parsed<K extends keyof typeof ENGINE_KEYS> = (typeof ENGINE_KEYS)[K] extends KeySpec<infer T> ? T : never;

/** Validated engine keys, in the units the file uses. */
export type EngineConfig = { readonly [K in keyof typeof ENGINE_KEYS]: Parsed<K> };
