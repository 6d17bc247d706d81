/**
 * Our orders at a simulated exchange: every order by id (the oldest finished ones forgotten past
 * a bound) and the resting ones by side, with the status changes a fill or a cancel makes. One
 * table for both exchanges a replay venue can drive, so an order's life is the same in both.
 */
import type { Side } from '../core/index.ts';
import type { ReplayOrder } from './venue-exchange.ts';

/** Orders a table remembers (finished ones beyond this are forgotten, oldest first). */
const RETAINED_ORDERS = 20_000;

/** Our orders by id, and the resting ones by side. */
export class OrderTable<Order extends ReplayOrder> {
  private readonly orders = new Map<string, Order>();
  private readonly buy: Order[] = [];
  private readonly sell: Order[] = [];

  /** Remembers a new order (not yet resting). */
  add(order: Order): void {
    if (this.orders.size >= RETAINED_ORDERS) this.forgetFinished();
    this.orders.set(order.orderId, order);
  }

  get(orderId: string): Order | undefined {
    return this.orders.get(orderId);
  }

  /** Puts an order on its side's resting list (its status is the caller's to set). */
  rest(order: Order): void {
    this.restingOn(order.side).push(order);
  }

  /**
   * One side's resting orders, for the fill checks on every market event. A branch, not
   * `lists[side]`: a lookup keyed by a string that is sometimes 'buy' and sometimes 'sell' is a
   * generic (megamorphic) property load, on every event.
   */
  restingOn(side: Side): Order[] {
    return side === 'buy' ? this.buy : this.sell;
  }

  restingOrders(): Order[] {
    return [...this.buy, ...this.sell];
  }

  /** Our best resting price on a side (highest bid, lowest ask), ticks; undefined when none rests. */
  bestRestingPrice(side: Side): number | undefined {
    let best: number | undefined;
    for (const order of this.restingOn(side)) {
      if (best === undefined || (side === 'buy' ? order.priceTicks > best : order.priceTicks < best)) best = order.priceTicks;
    }
    return best;
  }

  isResting(order: Order): boolean {
    return order.status === 'OPEN' || order.status === 'PARTIALLY_FILLED';
  }

  /** Takes a resting order off the book as cancelled; undefined when it was not resting. */
  cancel(orderId: string): Order | undefined {
    const order = this.orders.get(orderId);
    if (order === undefined || !this.isResting(order)) return undefined;
    this.removeResting(order);
    order.status = 'CANCELLED';
    return order;
  }

  /**
   * Adds a fill to an order: its totals, and its status (a complete order leaves the book, FILLED
   * as a maker or CLOSED as a taker; a partial maker fill leaves it PARTIALLY_FILLED).
   */
  recordFill(order: Order, lots: number, quoteUnits: bigint, isMaker: boolean): void {
    order.filledLots += lots;
    order.filledQuoteUnits += quoteUnits;
    if (order.filledLots >= order.qtyLots) {
      if (this.isResting(order)) this.removeResting(order);
      order.status = isMaker ? 'FILLED' : 'CLOSED';
    } else if (isMaker) {
      order.status = 'PARTIALLY_FILLED';
    }
  }

  private removeResting(order: Order): void {
    const list = this.restingOn(order.side);
    const index = list.indexOf(order);
    if (index >= 0) list.splice(index, 1);
  }

  /**
   * Drops the oldest finished orders (a venue's history is finite too): a long replay or soak
   * places hundreds of thousands of orders, and keeping each one grew memory without bound.
   */
  private forgetFinished(): void {
    for (const [orderId, order] of this.orders) {
      if (this.orders.size <= RETAINED_ORDERS / 2) return;
      if (order.status !== 'ACC' && !this.isResting(order)) this.orders.delete(orderId);
    }
  }
}
