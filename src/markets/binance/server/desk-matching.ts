/**
 * How a taker order walks the replayed book (pure functions, 8-decimal units): by base quantity,
 * within a limit price when it has one, or by quote amount (`quoteOrderQty`: as much base as the
 * amount buys, or as little as it takes to receive it), always in whole lot steps. A level's
 * quantity that is not a whole number of steps is taken down to the step, as a real order could
 * not take the remainder either.
 */
import { BINANCE_DECIMALS } from '../trading/rules.ts';

const UNIT = 10n ** BigInt(BINANCE_DECIMALS);

/** One level of the book, 8-decimal units. */
export interface DeskLevel {
  readonly price: bigint;
  readonly qty: bigint;
}

/** What a taker order takes at one level. */
export interface Take {
  readonly price: bigint;
  readonly qty: bigint;
}

/** Quote value of `qty` at `price`, 8-decimal units, rounded down (Binance prints 8 places). */
export function quoteOf(qty: bigint, price: bigint): bigint {
  return (qty * price) / UNIT;
}

const floorToStep = (value: bigint, step: bigint): bigint => value - (value % step);

/**
 * The levels an order for `quantity` takes, best first: the opposite side's levels (`levels`),
 * no worse than `limitPrice` when there is one. `buys`: the order buys (takes asks).
 */
export function takesForQuantity(levels: readonly DeskLevel[], buys: boolean, quantity: bigint, limitPrice: bigint | undefined, step: bigint): Take[] {
  const takes: Take[] = [];
  let remaining = quantity;
  for (const level of levels) {
    if (remaining <= 0n) break;
    if (limitPrice !== undefined && (buys ? level.price > limitPrice : level.price < limitPrice)) break;
    const qty = level.qty < remaining ? floorToStep(level.qty, step) : remaining;
    if (qty <= 0n) continue;
    takes.push({ price: level.price, qty });
    remaining -= qty;
  }
  return takes;
}

/**
 * The levels a `quoteOrderQty` order takes, best first: whole steps whose quote value stays
 * within `quote` (rest-api.md: such orders "will not break LOT_SIZE filter rules; the order will
 * execute a quantity that will have the notional value as close as possible to quoteOrderQty").
 * Rounding down, never over: a buy never spends more than it named, a sell never receives more.
 */
export function takesForQuote(levels: readonly DeskLevel[], quote: bigint, step: bigint): Take[] {
  const takes: Take[] = [];
  let remaining = quote;
  for (const level of levels) {
    const affordable = floorToStep((remaining * UNIT) / level.price, step);
    const qty = affordable < level.qty ? affordable : floorToStep(level.qty, step);
    // A level that cannot take one step leaves nothing for worse prices either.
    if (affordable <= 0n) break;
    if (qty <= 0n) continue;
    takes.push({ price: level.price, qty });
    remaining -= quoteOf(qty, level.price);
  }
  return takes;
}

/** True when a resting order at `price` would trade at once against `best` of the other side. */
export function wouldCross(buys: boolean, price: bigint, best: DeskLevel | undefined): boolean {
  if (best === undefined) return false;
  return buys ? price >= best.price : price <= best.price;
}
