/**
 * The hard caps. Two places apply them, both pure:
 * - `clipQuotes` shapes the DESIRED quotes: if every desired bid (or ask) filled, position,
 *   notional and funds would stay inside the limits, closest levels first;
 * - `admissibleQuantity` is the gate in front of every placement: it counts every order of ours
 *   that could still fill (resting, unacknowledged, awaiting cancel) as if it filled, so the caps
 *   hold in the moments between a replacement's placement and its predecessor's cancel.
 * Limits are in exact base units where they bound money; notional limits in quote base units.
 */
import { fitQuantity, notionalUnits, numberToUnits, pow10, roundToStep, type ENGINE_KEYS, type SettingsOf, type Side, type Strategy, type TickerRules } from '../../core/index.ts';
import type { RoundedQuote } from './diff.ts';

/** Risk limits as the engine applies them; 0 disables a limit. */
export interface RiskLimits {
  /** Largest |base − target| the quotes may lead to, in base units. */
  readonly maxInventoryDeviationUnits: bigint;
  /** Largest notional of one order, quote units. */
  readonly maxOrderNotionalUnits: bigint;
  /** Largest notional of all our orders that could fill, together, quote units. */
  readonly maxTotalNotionalUnits: bigint;
  /** Most orders resting at once. */
  readonly maxOpenOrders: number;
  /** Quotes further than this fraction from the fair price are dropped (0.05 = 5 %). */
  readonly priceBandFraction: number;
  /** Kill switch: halt when total PnL falls this far (quote tokens) below its peak. */
  readonly maxDrawdownQuote: number;
}

/**
 * Risk limits as configured by the RISK_* keys: the ones that scale with the pair may be `auto`
 * (inventory cap: {@link AUTO_INVENTORY_ORDERS} × the strategy's order size; total notional: both
 * sides at the full inventory cap at the first fair price; drawdown: {@link AUTO_DRAWDOWN_FRACTION}
 * of the inventory cap's notional at the first fair price).
 */
export type ConfiguredRiskLimits = SettingsOf<typeof ENGINE_KEYS, 'risk'>;

/** Auto inventory cap: this many orders of the strategy's size, each way. */
export const AUTO_INVENTORY_ORDERS = 10n;
/** Auto drawdown kill: this share of the inventory cap's notional. */
export const AUTO_DRAWDOWN_FRACTION = 0.1;

/** What resolving `auto` limits needs: the strategy's order size and a first fair price. */
export interface LimitScale {
  /** Level-0 order size in base units; undefined when the strategy has none. */
  readonly orderSizeUnits: bigint | undefined;
  /** Fair price in quote units per whole base token. */
  readonly fairUnits: bigint;
  readonly rules: TickerRules;
}

/**
 * A strategy's level-0 order size in base units at the first fair price, for the `auto` limits: its
 * base size as given, or its notional at `fairUnits` rounded down to the lot (the size it sends
 * then); undefined when it has neither.
 */
export function orderSizeUnitsOf(strategy: Pick<Strategy, 'orderSize' | 'orderNotional'>, fairUnits: bigint, rules: TickerRules): bigint | undefined {
  const { orderSize, orderNotional } = strategy;
  if (orderSize !== undefined) return orderSize > 0 && Number.isFinite(orderSize) ? numberToUnits(orderSize, rules.baseDecimals, 'down') : undefined;
  if (orderNotional === undefined || !(orderNotional > 0) || !Number.isFinite(orderNotional) || fairUnits <= 0n) return undefined;
  const notional = numberToUnits(orderNotional, rules.quoteDecimals, 'down');
  return roundToStep((notional * pow10(rules.baseDecimals)) / fairUnits, rules.qtyStep, 'down');
}

/**
 * Turns configured limits into the ones the engine applies. An `auto` inventory cap needs the
 * strategy's order size (without one it is off, and the notional autos scale from nothing: off).
 */
export function resolveRiskLimits(configured: ConfiguredRiskLimits, scale: LimitScale): RiskLimits {
  const inventoryCap =
    configured.maxInventoryDeviationUnits === 'auto'
      ? scale.orderSizeUnits === undefined
        ? 0n
        : AUTO_INVENTORY_ORDERS * scale.orderSizeUnits
      : configured.maxInventoryDeviationUnits;
  // The notional autos are sized from the cap, or from ten orders when the cap is switched off.
  const scaleUnits = inventoryCap > 0n ? inventoryCap : AUTO_INVENTORY_ORDERS * (scale.orderSizeUnits ?? 0n);
  const capNotional = notionalUnits(scale.fairUnits, scaleUnits, scale.rules, 'up');
  return {
    maxInventoryDeviationUnits: inventoryCap,
    maxOrderNotionalUnits: configured.maxOrderNotionalUnits,
    maxTotalNotionalUnits: configured.maxTotalNotionalUnits === 'auto' ? 2n * capNotional : configured.maxTotalNotionalUnits,
    maxOpenOrders: configured.maxOpenOrders,
    priceBandFraction: configured.priceBandFraction,
    maxDrawdownQuote:
      configured.maxDrawdownQuote === 'auto'
        ? (Number(capNotional) / Number(pow10(scale.rules.quoteDecimals))) * AUTO_DRAWDOWN_FRACTION
        : configured.maxDrawdownQuote,
  };
}

/** Where inventory stands, for clipping. */
export interface InventoryPosition {
  readonly baseUnits: bigint;
  /** The inventory target: position = base − target. */
  readonly targetUnits: bigint;
  /** Quote held, in quote units: bids together may not spend more (the venue would refuse them). */
  readonly quoteUnits?: bigint;
}

/**
 * Clips desired quotes to the limits: drops quotes outside the price band, shrinks sizes to the
 * per-order notional and to what inventory may still absorb on each side (all levels count),
 * then keeps the total notional and the order count within bounds, closest levels first.
 */
export function clipQuotes(
  quotes: readonly RoundedQuote[],
  limits: RiskLimits,
  inventory: InventoryPosition,
  fairUnits: bigint | undefined,
  rules: TickerRules,
): RoundedQuote[] {
  const ordered = [...quotes].sort((a, b) => a.level - b.level || (a.side === 'buy' ? -1 : 1));
  const deviation = inventory.baseUnits - inventory.targetUnits;
  let bidRoom = limits.maxInventoryDeviationUnits > 0n ? limits.maxInventoryDeviationUnits - deviation : undefined;
  let askRoom = limits.maxInventoryDeviationUnits > 0n ? limits.maxInventoryDeviationUnits + deviation : undefined;
  let totalRoom = limits.maxTotalNotionalUnits > 0n ? limits.maxTotalNotionalUnits : undefined;
  // What the account can fund: asks by the base held, bids by the quote held. Quoting more only
  // earns NOT_ENOUGH_BALANCE rejections (and order spam, MM-NOTES §4.4).
  let baseFunds = inventory.baseUnits > 0n ? inventory.baseUnits : 0n;
  let quoteFunds = inventory.quoteUnits;
  const kept: RoundedQuote[] = [];
  for (const quote of ordered) {
    if (limits.maxOpenOrders > 0 && kept.length >= limits.maxOpenOrders) break;
    if (!isInsideBand(quote.priceUnits, fairUnits, limits.priceBandFraction)) continue;
    let qty = quote.qtyUnits;
    const room = quote.side === 'buy' ? bidRoom : askRoom;
    if (room !== undefined) qty = minBigint(qty, room);
    if (limits.maxOrderNotionalUnits > 0n) qty = minBigint(qty, maxQtyForNotional(limits.maxOrderNotionalUnits, quote.priceUnits, rules));
    if (totalRoom !== undefined) qty = minBigint(qty, maxQtyForNotional(totalRoom, quote.priceUnits, rules));
    if (quote.side === 'sell') qty = minBigint(qty, baseFunds);
    else if (quoteFunds !== undefined) qty = minBigint(qty, maxQtyForNotional(quoteFunds, quote.priceUnits, rules));
    const fit = fitQuantity(qty, rules);
    if (fit.kind !== 'ok') continue;
    // One exact product for both uses (bid funds and the total).
    const notional = (quote.side === 'buy' && quoteFunds !== undefined) || totalRoom !== undefined ? notionalUnits(quote.priceUnits, fit.qty, rules, 'up') : 0n;
    if (quote.side === 'sell') baseFunds -= fit.qty;
    else if (quoteFunds !== undefined) quoteFunds -= notional;
    kept.push(fit.qty === quote.qtyUnits ? quote : { ...quote, qtyUnits: fit.qty });
    if (quote.side === 'buy' && bidRoom !== undefined) bidRoom -= fit.qty;
    if (quote.side === 'sell' && askRoom !== undefined) askRoom -= fit.qty;
    if (totalRoom !== undefined) totalRoom -= notional;
  }
  return kept;
}

/** An order of ours that could still fill: resting, unacknowledged or awaiting its cancel. */
export interface ExposedOrder {
  readonly side: Side;
  readonly priceUnits: bigint;
  /** Unfilled size, base units. */
  readonly remainingUnits: bigint;
}

/** What we hold, for the placement gate. */
export interface Holdings {
  /** Base held (free + locked), base units. */
  readonly baseUnits: bigint;
  /** The inventory target: position = base − target. */
  readonly targetUnits: bigint;
  /** Quote held (free + locked), quote units. */
  readonly quoteUnits: bigint;
}

/**
 * The placement gate: the largest part of `order.qtyUnits` (a valid lot, at least the pair's
 * minimum; 0 when none) such that, if this order and every order that could still fill filled at
 * once, the position stays inside the inventory cap, all orders together inside the total
 * notional cap (and, with `accountRoomUnits`, inside what the account's cap leaves this pair),
 * each order inside the per-order cap, and the pair could fund them all (asks by its base, bids
 * by its quote: the account's balances, or the pair's budget when it shares the account).
 */
export function admissibleQuantity(
  order: { readonly side: Side; readonly priceUnits: bigint; readonly qtyUnits: bigint },
  exposed: Iterable<ExposedOrder>,
  holdings: Holdings,
  limits: RiskLimits,
  rules: TickerRules,
  accountRoomUnits?: bigint,
): bigint {
  let sameSideUnits = 0n;
  let totalNotional = 0n;
  let bidNotional = 0n;
  for (const other of exposed) {
    if (other.remainingUnits <= 0n) continue;
    const notional = notionalUnits(other.priceUnits, other.remainingUnits, rules, 'up');
    totalNotional += notional;
    if (other.side === order.side) sameSideUnits += other.remainingUnits;
    if (other.side === 'buy') bidNotional += notional;
  }
  let qty = order.qtyUnits;
  const position = holdings.baseUnits - holdings.targetUnits;
  if (limits.maxInventoryDeviationUnits > 0n) {
    const room = order.side === 'buy' ? limits.maxInventoryDeviationUnits - position : limits.maxInventoryDeviationUnits + position;
    qty = minBigint(qty, room - sameSideUnits);
  }
  if (limits.maxOrderNotionalUnits > 0n) qty = minBigint(qty, maxQtyForNotional(limits.maxOrderNotionalUnits, order.priceUnits, rules));
  if (limits.maxTotalNotionalUnits > 0n) qty = minBigint(qty, maxQtyForNotional(limits.maxTotalNotionalUnits - totalNotional, order.priceUnits, rules));
  // The account's cap: every other pair's orders are already out of the room; this pair's count here.
  if (accountRoomUnits !== undefined) qty = minBigint(qty, maxQtyForNotional(accountRoomUnits - totalNotional, order.priceUnits, rules));
  if (order.side === 'sell') qty = minBigint(qty, holdings.baseUnits - sameSideUnits);
  else qty = minBigint(qty, maxQtyForNotional(holdings.quoteUnits - bidNotional, order.priceUnits, rules));
  const fit = fitQuantity(qty, rules);
  return fit.kind === 'ok' ? fit.qty : 0n;
}

/** True when |position| is past the inventory cap (the scorecard counts such moments: must be 0). */
export function isOverInventoryCap(baseUnits: bigint, targetUnits: bigint, limits: RiskLimits): boolean {
  if (limits.maxInventoryDeviationUnits <= 0n) return false;
  const position = baseUnits - targetUnits;
  return (position < 0n ? -position : position) > limits.maxInventoryDeviationUnits;
}

function isInsideBand(priceUnits: bigint, fairUnits: bigint | undefined, bandFraction: number): boolean {
  if (bandFraction <= 0 || fairUnits === undefined || fairUnits <= 0n) return true;
  const distance = Number(priceUnits > fairUnits ? priceUnits - fairUnits : fairUnits - priceUnits);
  return distance <= bandFraction * Number(fairUnits);
}

/** Largest base quantity whose notional at `priceUnits` stays within `notional` (quote units). */
function maxQtyForNotional(notional: bigint, priceUnits: bigint, rules: TickerRules): bigint {
  if (notional <= 0n || priceUnits <= 0n) return 0n;
  return (notional * pow10(rules.baseDecimals)) / priceUnits;
}

function minBigint(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
