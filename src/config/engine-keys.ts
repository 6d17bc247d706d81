/**
 * Env keys of the engine, risk guard and gas handling (issue "daemon"). Like the connection keys,
 * their names are a contract with users' env files. Amounts are read as exact decimal text and
 * converted to base units by the CLI once the pair's token decimals are known.
 */
import type { KeySpec } from './keys.ts';
import { FAIR_PRICES } from './reference-keys.ts';
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
  INVENTORY_TARGET_BASE: spec({ key: 'INVENTORY_TARGET_BASE', default: 'start', unit: 'base tokens', doc: 'Base balance the bot aims to hold; position q = base held (free + locked) − this. start = the balance at start (the bot starts flat)', parse: v.keywordOrDecimal('start', 0, 1e15, 'base tokens') }),
  INVENTORY_TARGET_PCT: spec({ key: 'INVENTORY_TARGET_PCT', default: 'off', unit: '%', doc: 'Instead of INVENTORY_TARGET_BASE: hold this share of portfolio value (base + quote at the fair price) in base; the target then moves with the price. off = use INVENTORY_TARGET_BASE', parse: v.keywordOrDecimal('off', 0, 100, '%') }),
  FAIR_PRICE: spec({ key: 'FAIR_PRICE', default: 'mid', unit: 'mid|microprice|reference|blend', doc: 'The fair price every strategy quotes around, computed once per change: the venue book\'s mid or its size-weighted microprice; reference = the REFERENCE market\'s price × (1 + basis) (quotes even an empty venue book); blend = venue mid and reference fair weighted by the size each shows near its mid', parse: v.oneOf(FAIR_PRICES) }),
  FAIR_HOLD_MS: spec({ key: 'FAIR_HOLD_MS', default: '500', unit: 'ms', doc: 'When the book stops giving a fair price for a moment (a side empty while another maker re-quotes), the last one stands this long: quotes stay instead of being pulled and re-placed. 0 = pull at once', parse: v.integer(0, 60_000) }),
  REQUOTE_AGGRESSIVE_TOLERANCE_PCT: spec({ key: 'REQUOTE_AGGRESSIVE_TOLERANCE_PCT', default: '10', unit: '% of edge', doc: 'A live order that became MORE aggressive than its desired quote is replaced at once when it gave up more than this share of the edge (after fee and gas) the quote is meant to earn; 0 = at any tick', parse: v.decimal(0, 100) }),
  REQUOTE_TOLERANCE_BPS: spec({ key: 'REQUOTE_TOLERANCE_BPS', default: 'auto', unit: 'bps', doc: 'A live order LESS aggressive than the desired quote stays (keeps its queue place) until it is this far from it; auto = a quarter of the quote\'s distance from its reservation price. A MORE aggressive one is replaced at once', parse: v.keywordOrDecimal('auto', 0, 10_000, 'bps') }),
  REQUOTE_TOLERANCE_TICKS: spec({ key: 'REQUOTE_TOLERANCE_TICKS', default: '0', unit: 'ticks', doc: 'Floor on that band in ticks: a less aggressive order within this many ticks always stays', parse: v.integer(0, 10_000) }),
  REQUOTE_TOLERANCE_SIZE_PCT: spec({ key: 'REQUOTE_TOLERANCE_SIZE_PCT', default: '10', unit: '%', doc: '…and an unfilled order within this share of the desired size stays (a partly filled one always keeps its place)', parse: v.decimal(0, 100) }),
  MAX_ORDER_AGE_S: spec({ key: 'MAX_ORDER_AGE_S', default: '300', unit: 's', doc: 'Orders older than this are replaced even inside the band; 0 = never', parse: v.integer(0, 86_400) }),
  MIN_EDGE_BPS: spec({ key: 'MIN_EDGE_BPS', default: '0', unit: 'bps', doc: 'A quote whose distance from its reservation price minus fees minus gas is under this is not placed, unless it reduces inventory', parse: v.decimal(0, 10_000) }),
  ORDER_RATE_LIMIT_PER_S: spec({ key: 'ORDER_RATE_LIMIT_PER_S', default: '10', unit: 'actions/s', doc: 'Outbound budget: venue actions (placements, cancels) per second, sustained; risk-reducing cancels go first, then the quotes nearest the touch. 0 = no budget', parse: v.decimal(0, 10_000, 'actions/s') }),
  ORDER_RATE_BURST: spec({ key: 'ORDER_RATE_BURST', default: '20', unit: 'actions', doc: 'Outbound budget: actions that may go out at once (the bucket size)', parse: v.integer(1, 10_000) }),
  PRESIGN_TICKS: spec({ key: 'PRESIGN_TICKS', default: '2', unit: 'ticks', doc: 'Pre-sign orders this many ticks either side of each quote in idle time; 0 disables', parse: v.integer(0, 50) }),
  STARTUP_ORDERS: spec({ key: 'STARTUP_ORDERS', default: 'cancel', unit: 'adopt|cancel', doc: 'Orders found on the venue at start: cancel them, or adopt them as ours', parse: v.oneOf(['adopt', 'cancel'] as const) }),
  RECONCILE_INTERVAL_S: spec({ key: 'RECONCILE_INTERVAL_S', default: '30', unit: 's', doc: 'Heal orders and balances from REST this often even without a reason; 0 disables', parse: v.integer(0, 3600) }),
  STALE_FEED_MS: spec({ key: 'STALE_FEED_MS', default: '10000', unit: 'ms', doc: 'Dead-man switch: no market data for this long cancels everything until the feed is back', parse: v.integer(100, 600_000) }),
  SHUTDOWN_TIMEOUT_MS: spec({ key: 'SHUTDOWN_TIMEOUT_MS', default: '10000', unit: 'ms', doc: 'On SIGTERM/SIGINT, wait at most this long for the venue to confirm nothing rests', parse: v.integer(100, 600_000) }),
  RISK_MAX_INVENTORY_BASE: spec({ key: 'RISK_MAX_INVENTORY_BASE', default: 'auto', unit: 'base tokens', doc: 'Hard cap on |position| (base held − target): orders are sized so that if every order that could still fill (resting, unacknowledged, being cancelled) filled at once, the position stays inside. auto = 10 × the strategy\'s order size; 0 = no limit', parse: v.keywordOrDecimal('auto', 0, 1e12, 'base tokens') }),
  RISK_MAX_ORDER_NOTIONAL: spec({ key: 'RISK_MAX_ORDER_NOTIONAL', default: '0', unit: 'quote tokens', doc: 'Largest notional of one order; 0 = no limit', parse: v.decimal(0, 1e15) }),
  RISK_MAX_TOTAL_NOTIONAL: spec({ key: 'RISK_MAX_TOTAL_NOTIONAL', default: 'auto', unit: 'quote tokens', doc: 'Largest notional of all our orders that could still fill, together; auto = both sides at the full inventory cap at the first fair price; 0 = no limit', parse: v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens') }),
  RISK_MAX_OPEN_ORDERS: spec({ key: 'RISK_MAX_OPEN_ORDERS', default: '20', unit: 'orders', doc: 'Most orders resting at once; 0 = no limit', parse: v.integer(0, 1000) }),
  RISK_PRICE_BAND_PCT: spec({ key: 'RISK_PRICE_BAND_PCT', default: '5', unit: '%', doc: 'Quotes further than this from the mid are dropped; 0 = no band', parse: v.decimal(0, 100) }),
  RISK_MAX_DRAWDOWN: spec({ key: 'RISK_MAX_DRAWDOWN', default: 'auto', unit: 'quote tokens', doc: 'Kill switch: PnL (marked at the fair price) this far below its peak cancels everything and halts; auto = 10 % of the inventory cap\'s notional at the first fair price; 0 = off', parse: v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens') }),
  RISK_ONCHAIN_KILL: spec({ key: 'RISK_ONCHAIN_KILL', default: 'false', unit: 'bool', doc: 'On a fatal condition also increase the nonce on chain (invalidates every order; costs gas)', parse: v.boolean }),
  BUDGET_BASE: spec({ key: 'BUDGET_BASE', default: 'auto', unit: 'base tokens', doc: 'Many pairs on one account (`run --env A --env B`): base tokens this pair may lock in resting orders and count as its own; auto = the account\'s free balance of the token split evenly across the pairs that use it (a pair run alone counts the whole balance and ignores this). Budgets that ask for more than the account holds are refused at start', parse: v.keywordOrDecimal('auto', 0, 1e15, 'base tokens') }),
  BUDGET_QUOTE: spec({ key: 'BUDGET_QUOTE', default: 'auto', unit: 'quote tokens', doc: 'Many pairs on one account: quote tokens this pair may lock (its bids) and count as its own; auto = an even share of the free balance among the pairs using the token', parse: v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens') }),
  RISK_MAX_TOTAL_NOTIONAL_ACCOUNT: spec({ key: 'RISK_MAX_TOTAL_NOTIONAL_ACCOUNT', default: 'auto', unit: 'quote tokens', doc: 'Many pairs on one account: notional of every order of every pair (quoted in the first pair\'s quote token) that could still fill, together. Account-wide: set it in one file or the same in all. auto = the account\'s balance of that token at start; 0 = no limit', parse: v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens') }),
  RISK_MAX_DRAWDOWN_ACCOUNT: spec({ key: 'RISK_MAX_DRAWDOWN_ACCOUNT', default: 'auto', unit: 'quote tokens', doc: 'Many pairs on one account: kill switch on the pairs\' PnL together (pairs quoted in the first pair\'s quote token): this far below its peak halts every pair. Account-wide: set it in one file or the same in all. auto = 5 % of the account\'s balance of that token at start; 0 = off', parse: v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens') }),
} as const;

/** The engine keys as a list, in documentation order. */
export const ENGINE_KEY_LIST: readonly KeySpec[] = Object.values(ENGINE_KEYS);

type Parsed<K extends keyof typeof ENGINE_KEYS> = (typeof ENGINE_KEYS)[K] extends KeySpec<infer T> ? T : never;

/** Validated engine keys, in the units the file uses. */
export type EngineConfig = { readonly [K in keyof typeof ENGINE_KEYS]: Parsed<K> };

/**
 * Checks across engine keys: the two inventory targets exclude each other.
 * @returns one issue per conflict, naming the key.
 */
export function checkEngineKeys(engine: Partial<EngineConfig>, raw: Readonly<Record<string, string>>): { key: string; value: string | undefined; allowed: string }[] {
  const pct = engine.INVENTORY_TARGET_PCT;
  if (pct !== undefined && pct !== 'off' && raw.INVENTORY_TARGET_BASE !== undefined && raw.INVENTORY_TARGET_BASE.trim() !== 'start') {
    return [{ key: 'INVENTORY_TARGET_PCT', value: raw.INVENTORY_TARGET_PCT, allowed: 'off while INVENTORY_TARGET_BASE is set (one inventory target, not two)' }];
  }
  return [];
}
