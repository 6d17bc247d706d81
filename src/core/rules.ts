/**
 * A pair's ticker rules and the one rounding function set for prices and sizes (SPEC §5,
 * REFERENCE §5). Prices are quote-token base units per one whole base token; quantities are
 * base-token base units. Every rounding here has an explicit direction so that a passive quote
 * never rounds towards crossing and a size never rounds above a limit.
 */
import { MmError } from './errors.ts';
import { numberToUnits, pow10, type RoundingDirection } from './money.ts';
import type { Side } from './types.ts';

/** Trading rules of one pair and book, as `/info/ticker_specifications` serves them. */
export interface TickerRules {
  readonly base: string;
  readonly quote: string;
  readonly isEcosystemBook: boolean;
  /** Price tick in quote base units (`rawPriceIncrement`). */
  readonly priceTick: bigint;
  /** Base-quantity step in base units (`rawQuoteQtyIncrement`; the name is misleading). */
  readonly qtyStep: bigint;
  /** Minimum base quantity in base units (`rawMinQuoteQty`; likewise). */
  readonly minQty: bigint;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

/**
 * Checks that rules are usable: positive tick and step, minimum ≥ 0.
 * @throws MmError `CORE_INVALID_RULES` naming the bad field.
 */
export function assertValidRules(rules: TickerRules): TickerRules {
  if (rules.priceTick <= 0n) throw invalidRules(rules, 'priceTick', rules.priceTick);
  if (rules.qtyStep <= 0n) throw invalidRules(rules, 'qtyStep', rules.qtyStep);
  if (rules.minQty < 0n) throw invalidRules(rules, 'minQty', rules.minQty);
  return rules;
}

function invalidRules(rules: TickerRules, field: string, value: bigint): MmError {
  return new MmError('CORE_INVALID_RULES', `${rules.base}/${rules.quote}: ${field}=${value} must be positive`);
}

/** Rounds `value` to a multiple of `step` in `direction` (floor or ceiling, also for negatives). */
export function roundToStep(value: bigint, step: bigint, direction: RoundingDirection): bigint {
  if (step <= 0n) throw new MmError('CORE_INVARIANT', `step must be positive, got ${step}`);
  const remainder = ((value % step) + step) % step;
  if (remainder === 0n) return value;
  return direction === 'down' ? value - remainder : value - remainder + step;
}

/**
 * The direction that moves a resting order away from the other side of the book: bids round
 * down, asks round up. Rounding this way can widen a quote by less than a tick, never cross it.
 */
export function passiveDirection(side: Side): RoundingDirection {
  return side === 'buy' ? 'down' : 'up';
}

/** Rounds a price in quote base units to the tick, away from crossing for `side`. */
export function roundPassivePrice(priceUnits: bigint, side: Side, rules: TickerRules): bigint {
  return roundToStep(priceUnits, rules.priceTick, passiveDirection(side));
}

/**
 * Converts a strategy price (`number`, quote tokens per base token) to a valid passive price in
 * quote base units: rounded to the tick away from crossing. Never returns less than one tick.
 * @throws MmError `CORE_INVALID_AMOUNT` for a non-finite or non-positive price.
 */
export function quotePriceToUnits(price: number, side: Side, rules: TickerRules): bigint {
  if (!(price > 0) || !Number.isFinite(price)) {
    throw new MmError('CORE_INVALID_AMOUNT', `quote price ${price} must be a positive finite number`);
  }
  const direction = passiveDirection(side);
  const units = numberToUnits(price, rules.quoteDecimals, direction);
  const rounded = roundToStep(units, rules.priceTick, direction);
  return rounded > 0n ? rounded : rules.priceTick;
}

/** Result of fitting a size to the rules: rounded down to the step, and whether it meets the minimum. */
export type SizeFit =
  | { readonly kind: 'ok'; readonly qty: bigint }
  | { readonly kind: 'below-minimum'; readonly qty: bigint; readonly minQty: bigint };

/**
 * Rounds a base quantity (base units) down to the step, so a size never exceeds what was asked
 * (or a limit passed in), and reports when the result is below the pair's minimum or zero.
 */
export function fitQuantity(qtyUnits: bigint, rules: TickerRules): SizeFit {
  const qty = qtyUnits <= 0n ? 0n : roundToStep(qtyUnits, rules.qtyStep, 'down');
  if (qty === 0n || qty < rules.minQty) return { kind: 'below-minimum', qty, minQty: rules.minQty };
  return { kind: 'ok', qty };
}

/** Like {@link fitQuantity} for a strategy size in whole base tokens (`number`). */
export function fitQuantityNumber(qty: number, rules: TickerRules): SizeFit {
  if (!Number.isFinite(qty) || qty <= 0) return { kind: 'below-minimum', qty: 0n, minQty: rules.minQty };
  return fitQuantity(numberToUnits(qty, rules.baseDecimals, 'down'), rules);
}

/** True when the price is a positive multiple of the tick (what the venue accepts). */
export function isValidPrice(priceUnits: bigint, rules: TickerRules): boolean {
  return priceUnits > 0n && priceUnits % rules.priceTick === 0n;
}

/** True when the base quantity is a multiple of the step and at least the minimum. */
export function isValidQuantity(qtyUnits: bigint, rules: TickerRules): boolean {
  return qtyUnits > 0n && qtyUnits % rules.qtyStep === 0n && qtyUnits >= rules.minQty;
}

/** Quote amount of `qty` base units at `price`, rounded in `direction` (base units of quote). */
export function notionalUnits(
  priceUnits: bigint,
  qtyUnits: bigint,
  rules: Pick<TickerRules, 'baseDecimals'>,
  direction: RoundingDirection,
): bigint {
  const product = priceUnits * qtyUnits;
  const scale = pow10(rules.baseDecimals);
  const quotient = product / scale;
  return direction === 'up' && quotient * scale !== product ? quotient + 1n : quotient;
}

/**
 * Keeps a passive price strictly on its side of the book: a bid at or above the best ask becomes
 * one tick under it, an ask at or below the best bid one tick over it. Float strategy math can
 * land a hair past the touch; this is the exact, integer guard behind it.
 * Returns undefined when no valid passive price exists (a bid under a one-tick ask).
 */
export function clampPassivePrice(
  priceUnits: bigint,
  side: Side,
  bestOppositeUnits: bigint | undefined,
  rules: TickerRules,
): bigint | undefined {
  if (bestOppositeUnits === undefined) return priceUnits;
  if (side === 'buy') {
    if (priceUnits < bestOppositeUnits) return priceUnits;
    const below = roundToStep(bestOppositeUnits - 1n, rules.priceTick, 'down');
    return below > 0n ? below : undefined;
  }
  if (priceUnits > bestOppositeUnits) return priceUnits;
  return roundToStep(bestOppositeUnits + 1n, rules.priceTick, 'up');
}
