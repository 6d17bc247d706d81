/**
 * Env keys of the engine, risk guard, gas handling and account budgets (issue "daemon"). Like the
 * connection keys, their names are a contract with users' env files. Amounts are read as exact
 * decimal text and land in base units once the pair's token decimals are known (`settingsOf`).
 */
import { bpsToFraction, percentToFraction, secondsToMs, valueOf } from './convert.ts';
import { defineKeys, key, type KeySpec, type KeyValues } from './keys.ts';
import { FAIR_PRICES } from './reference-keys.ts';
import * as v from './values.ts';

/** Engine, risk, gas and budget keys, in documentation order. */
export const ENGINE_KEYS = defineKeys({
  FEE_TOKEN: key(v.tokenSymbol, {
    default: 'STRK',
    unit: 'symbol',
    doc: 'Token gas fees are paid in; not STRK needs a conversion rate (from the <token>/STRK book mid or /info/conversion_rate)',
    readers: { 'live-venue': 'feeToken' },
  }),
  GAS_REFRESH_S: key(v.integer(1, 3600), {
    default: '30',
    unit: 's',
    doc: 'How often the gas price (and fallback conversion rate) is refreshed',
    readers: { 'live-venue': 'gasRefreshS' },
  }),
  CONVERSION_MARGIN_BPS: key(v.decimal(0, 5000), {
    default: '50',
    unit: 'bps',
    doc: 'Conversion rate skewed against us by this much, so a moving book never makes a signed rate too low',
    readers: { engine: { field: 'conversionMargin', convert: bpsToFraction }, 'live-venue': { field: 'conversionMarginBps', convert: valueOf } },
  }),
  ORDER_TTL_S: key(v.integer(10, 31_536_000), {
    default: '3600',
    unit: 's',
    doc: 'duration_valid of our orders: the venue expires them after this even if we vanish',
    readers: { 'live-venue': 'orderTtlS' },
  }),
  INVENTORY_TARGET_BASE: key(v.keywordOrDecimal('start', 0, 1e15, 'base tokens'), {
    default: 'start',
    unit: 'base tokens',
    doc: 'Base balance the bot aims to hold; position q = base held (free + locked) − this. start = the balance at start (the bot starts flat)',
    readers: { 'inventory-target': { field: 'base', convert: (target, units) => (target === 'start' ? target : units.base(target.text)) } },
  }),
  INVENTORY_TARGET_PCT: key(v.keywordOrDecimal('off', 0, 100, '%'), {
    default: 'off',
    unit: '%',
    doc: 'Instead of INVENTORY_TARGET_BASE: hold this share of portfolio value (base + quote at the fair price) in base; the target then moves with the price. off = use INVENTORY_TARGET_BASE',
    readers: { 'inventory-target': { field: 'valueFraction', convert: (target) => (target === 'off' ? undefined : target.value / 100) } },
  }),
  FAIR_PRICE: key(v.oneOf(FAIR_PRICES), {
    default: 'mid',
    unit: 'mid|microprice|reference|blend',
    doc: 'The fair price every strategy quotes around, computed once per change: the venue book\'s mid or its size-weighted microprice; reference = the REFERENCE market\'s price × (1 + basis) (quotes even an empty venue book); blend = venue mid and reference fair weighted by the size each shows near its mid',
    readers: { engine: 'fairPrice' },
  }),
  FAIR_HOLD_MS: key(v.integer(0, 60_000), {
    default: '500',
    unit: 'ms',
    doc: 'When the book stops giving a fair price for a moment (a side empty while another maker re-quotes), the last one stands this long: quotes stay instead of being pulled and re-placed. 0 = pull at once',
    readers: { engine: 'fairHoldMs' },
  }),
  REQUOTE_AGGRESSIVE_TOLERANCE_PCT: key(v.decimal(0, 100), {
    default: '10',
    unit: '% of edge',
    doc: 'A live order that became MORE aggressive than its desired quote is replaced at once when it gave up more than this share of the edge (after fee and gas) the quote is meant to earn; 0 = at any tick',
    readers: { requote: { field: 'aggressiveEdgeFraction', convert: percentToFraction } },
  }),
  REQUOTE_TOLERANCE_BPS: key(v.keywordOrDecimal('auto', 0, 10_000, 'bps'), {
    default: 'auto',
    unit: 'bps',
    doc: 'A live order LESS aggressive than the desired quote stays (keeps its queue place) until it is this far from it; auto = a quarter of the quote\'s distance from its reservation price. A MORE aggressive one is replaced at once',
    readers: { requote: { field: 'bps', convert: (bps) => (bps === 'auto' ? bps : bps.value) } },
  }),
  REQUOTE_TOLERANCE_TICKS: key(v.integer(0, 10_000), {
    default: '0',
    unit: 'ticks',
    doc: 'Floor on that band in ticks: a less aggressive order within this many ticks always stays',
    readers: { requote: 'ticks' },
  }),
  REQUOTE_TOLERANCE_SIZE_PCT: key(v.decimal(0, 100), {
    default: '10',
    unit: '%',
    doc: '…and an unfilled order within this share of the desired size stays (a partly filled one always keeps its place)',
    readers: { requote: { field: 'sizeFraction', convert: percentToFraction } },
  }),
  MAX_ORDER_AGE_S: key(v.integer(0, 86_400), {
    default: '300',
    unit: 's',
    doc: 'Orders older than this are replaced even inside the band; 0 = never',
    readers: { engine: { field: 'maxOrderAgeMs', convert: secondsToMs } },
  }),
  MIN_EDGE_BPS: key(v.decimal(0, 10_000), {
    default: '0',
    unit: 'bps',
    doc: 'A quote whose distance from its reservation price minus fees minus gas is under this is not placed, unless it reduces inventory',
    readers: { engine: { field: 'minEdgeBps', convert: valueOf } },
  }),
  ORDER_RATE_LIMIT_PER_S: key(v.decimal(0, 10_000, 'actions/s'), {
    default: '10',
    unit: 'actions/s',
    doc: 'Outbound budget: venue actions (placements, cancels) per second, sustained; risk-reducing cancels go first, then the quotes nearest the touch. 0 = no budget',
    readers: { outbound: { field: 'ratePerS', convert: valueOf } },
  }),
  ORDER_RATE_BURST: key(v.integer(1, 10_000), {
    default: '20',
    unit: 'actions',
    doc: 'Outbound budget: actions that may go out at once (the bucket size)',
    readers: { outbound: 'burst' },
  }),
  PRESIGN_TICKS: key(v.integer(0, 50), {
    default: '2',
    unit: 'ticks',
    doc: 'Pre-sign orders this many ticks either side of each quote in idle time; 0 disables',
    readers: { engine: 'presignTicks' },
  }),
  STARTUP_ORDERS: key(v.oneOf(['adopt', 'cancel'] as const), {
    default: 'cancel',
    unit: 'adopt|cancel',
    doc: 'Orders found on the venue at start: cancel them, or adopt them as ours',
    readers: { engine: 'startupOrders' },
  }),
  RECONCILE_INTERVAL_S: key(v.integer(0, 3600), {
    default: '30',
    unit: 's',
    doc: 'Heal orders and balances from REST this often even without a reason; 0 disables',
    readers: { engine: { field: 'reconcileIntervalMs', convert: secondsToMs } },
  }),
  STALE_FEED_MS: key(v.integer(100, 600_000), {
    default: '10000',
    unit: 'ms',
    doc: 'Dead-man switch: no market data for this long cancels everything until the feed is back',
    readers: { engine: 'staleFeedMs' },
  }),
  SHUTDOWN_TIMEOUT_MS: key(v.integer(100, 600_000), {
    default: '10000',
    unit: 'ms',
    doc: 'On SIGTERM/SIGINT, wait at most this long for the venue to confirm nothing rests',
    readers: { engine: 'shutdownTimeoutMs' },
  }),
  RISK_MAX_INVENTORY_BASE: key(v.keywordOrDecimal('auto', 0, 1e12, 'base tokens'), {
    default: 'auto',
    unit: 'base tokens',
    doc: 'Hard cap on |position| (base held − target): orders are sized so that if every order that could still fill (resting, unacknowledged, being cancelled) filled at once, the position stays inside. auto = 10 × the strategy\'s order size; 0 = no limit',
    readers: { risk: { field: 'maxInventoryDeviationUnits', convert: (cap, units) => (cap === 'auto' ? cap : units.base(cap.text)) } },
  }),
  RISK_MAX_ORDER_NOTIONAL: key(v.decimal(0, 1e15), {
    default: '0',
    unit: 'quote tokens',
    doc: 'Largest notional of one order; 0 = no limit',
    readers: { risk: { field: 'maxOrderNotionalUnits', convert: (cap, units) => units.quote(cap.text) } },
  }),
  RISK_MAX_TOTAL_NOTIONAL: key(v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens'), {
    default: 'auto',
    unit: 'quote tokens',
    doc: 'Largest notional of all our orders that could still fill, together; auto = both sides at the full inventory cap at the first fair price; 0 = no limit',
    readers: { risk: { field: 'maxTotalNotionalUnits', convert: (cap, units) => (cap === 'auto' ? cap : units.quote(cap.text)) } },
  }),
  RISK_MAX_OPEN_ORDERS: key(v.integer(0, 1000), {
    default: '20',
    unit: 'orders',
    doc: 'Most orders resting at once; 0 = no limit',
    readers: { risk: 'maxOpenOrders' },
  }),
  RISK_PRICE_BAND_PCT: key(v.decimal(0, 100), {
    default: '5',
    unit: '%',
    doc: 'Quotes further than this from the mid are dropped; 0 = no band',
    readers: { risk: { field: 'priceBandFraction', convert: percentToFraction } },
  }),
  RISK_MAX_DRAWDOWN: key(v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens'), {
    default: 'auto',
    unit: 'quote tokens',
    doc: 'Kill switch: PnL (marked at the fair price) this far below its peak cancels everything and halts; auto = 10 % of the inventory cap\'s notional at the first fair price; 0 = off',
    readers: { risk: { field: 'maxDrawdownQuote', convert: (drawdown) => (drawdown === 'auto' ? drawdown : drawdown.value) } },
  }),
  RISK_ONCHAIN_KILL: key(v.boolean, {
    default: 'false',
    unit: 'bool',
    doc: 'On a fatal condition also increase the nonce on chain (invalidates every order; costs gas)',
    readers: { engine: 'onchainKill' },
  }),
  BUDGET_BASE: key(v.keywordOrDecimal('auto', 0, 1e15, 'base tokens'), {
    default: 'auto',
    unit: 'base tokens',
    doc: 'Many pairs on one account (`run --env A --env B`): base tokens this pair may lock in resting orders and count as its own; auto = the account\'s free balance of the token split evenly across the pairs that use it (a pair run alone counts the whole balance and ignores this). Budgets that ask for more than the account holds are refused at start',
    readers: { 'account-pair': { field: 'budgetBaseUnits', convert: (budget, units) => (budget === 'auto' ? undefined : units.base(budget.text)) } },
  }),
  BUDGET_QUOTE: key(v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens'), {
    default: 'auto',
    unit: 'quote tokens',
    doc: 'Many pairs on one account: quote tokens this pair may lock (its bids) and count as its own; auto = an even share of the free balance among the pairs using the token',
    readers: { 'account-pair': { field: 'budgetQuoteUnits', convert: (budget, units) => (budget === 'auto' ? undefined : units.quote(budget.text)) } },
  }),
  RISK_MAX_TOTAL_NOTIONAL_ACCOUNT: key(v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens'), {
    default: 'auto',
    unit: 'quote tokens',
    doc: 'Many pairs on one account: notional of every order of every pair (quoted in the first pair\'s quote token) that could still fill, together. Account-wide: set it in one file or the same in all. auto = the account\'s balance of that token at start; 0 = no limit',
    readers: { 'account-limits': { field: 'maxTotalNotionalUnits', convert: (cap, units) => (cap === 'auto' ? cap : units.quote(cap.text)) } },
  }),
  RISK_MAX_DRAWDOWN_ACCOUNT: key(v.keywordOrDecimal('auto', 0, 1e15, 'quote tokens'), {
    default: 'auto',
    unit: 'quote tokens',
    doc: 'Many pairs on one account: kill switch on the pairs\' PnL together (pairs quoted in the first pair\'s quote token): this far below its peak halts every pair. Account-wide: set it in one file or the same in all. auto = 5 % of the account\'s balance of that token at start; 0 = off',
    readers: { 'account-limits': { field: 'maxDrawdownQuote', convert: (drawdown) => (drawdown === 'auto' ? drawdown : drawdown.value) } },
  }),
});

/** The engine keys as a list, in documentation order. */
export const ENGINE_KEY_LIST: readonly KeySpec[] = Object.values(ENGINE_KEYS);

/** Validated engine keys, in the units the file uses. */
export type EngineConfig = KeyValues<typeof ENGINE_KEYS>;

