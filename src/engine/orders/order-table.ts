/**
 * The live-order table: the one owner of what the engine believes is resting on the venue
 * (ARCHITECTURE "one owner for each piece of state"). Fills are applied from cumulative amounts,
 * so duplicated or reordered execution reports cannot double-count.
 */
import { isTerminalStatus, type OrderReport, type OrderStatus, type Side } from '../../core/index.ts';
import type { LiveQuote } from '../pipeline/diff.ts';

/** Where an order is in its life from the engine's point of view. */
export type OrderPhase = 'pending-new' | 'open' | 'pending-cancel' | 'done';

/** One of our orders. */
export interface TrackedOrder {
  readonly orderId: string;
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  /** Changed by the table only (it indexes orders by phase). */
  phase: OrderPhase;
  status: OrderStatus | undefined;
  filledQtyUnits: bigint;
  filledQuoteUnits: bigint;
  readonly createdAtMs: number;
  /** When the last cancel was sent, to retry cancels that never took. */
  cancelSentAtMs: number | undefined;
}

/** A fill increment derived from a report: what changed since the last known cumulative amounts. */
export interface FillIncrement {
  readonly orderId: string;
  readonly side: Side;
  readonly qtyUnits: bigint;
  readonly quoteUnits: bigint;
  readonly priceUnits: bigint;
  readonly isMaker: boolean;
  readonly timeMs: number;
}

/** What applying a report did. */
export interface ReportEffect {
  readonly fill: FillIncrement | undefined;
  readonly known: boolean;
  readonly becameDone: boolean;
}

/** Our orders, by id. */
export class OrderTable {
  /** Every order still remembered, done ones included until `prune`. */
  private readonly orders = new Map<string, TrackedOrder>();
  /**
   * The orders not done, in insertion order: a handful, while `orders` keeps thousands of done
   * ones for ten minutes. The engine asks for working orders on every requote, so those scans
   * must not grow with the history. Every move to 'done' goes through `setDone` to keep it right.
   */
  private readonly notDone = new Set<TrackedOrder>();
  private changes = 0;

  /** Changes with every change to any order (phase, fill, added, forgotten): cheap "did anything move?". */
  get version(): number {
    return this.changes;
  }

  /** Records an order about to be sent (its id is the locally computed hash). */
  addPending(orderId: string, side: Side, priceUnits: bigint, qtyUnits: bigint, nowMs: number): TrackedOrder {
    const order: TrackedOrder = {
      orderId,
      side,
      priceUnits,
      qtyUnits,
      phase: 'pending-new',
      status: undefined,
      filledQtyUnits: 0n,
      filledQuoteUnits: 0n,
      createdAtMs: nowMs,
      cancelSentAtMs: undefined,
    };
    const replaced = this.orders.get(orderId);
    if (replaced !== undefined) {
      this.notDone.delete(replaced);
      // Re-inserted at the end, so the map stays in creation order (prune relies on it).
      this.orders.delete(orderId);
    }
    this.orders.set(orderId, order);
    this.notDone.add(order);
    this.changes++;
    return order;
  }

  /** Adopts an order found on the venue (startup or heal). */
  adopt(report: OrderReport, nowMs: number): TrackedOrder {
    const order = this.addPending(report.orderId, report.side, report.priceUnits, report.qtyUnits, nowMs);
    order.phase = 'open';
    order.status = report.status;
    order.filledQtyUnits = report.filledQtyUnits;
    order.filledQuoteUnits = report.filledQuoteUnits;
    this.changes++;
    return order;
  }

  get(orderId: string): TrackedOrder | undefined {
    return this.orders.get(orderId);
  }

  /** Orders that are resting or about to rest (not done, not being cancelled). */
  working(side?: Side): TrackedOrder[] {
    const result: TrackedOrder[] = [];
    for (const order of this.notDone) {
      if ((order.phase === 'open' || order.phase === 'pending-new') && (side === undefined || order.side === side)) result.push(order);
    }
    return result;
  }

  /** How many orders {@link working} would return, without building the list. */
  workingCount(side: Side): number {
    let count = 0;
    for (const order of this.notDone) {
      if ((order.phase === 'open' || order.phase === 'pending-new') && order.side === side) count++;
    }
    return count;
  }

  /** Every order not yet done (including those being cancelled). */
  live(): TrackedOrder[] {
    return [...this.notDone];
  }

  /** The orders that could still fill, without copying: resting, unacknowledged and being cancelled. */
  notDoneOrders(): ReadonlySet<TrackedOrder> {
    return this.notDone;
  }

  /** The best price among this side's working orders (highest bid, lowest ask), or undefined. */
  bestWorkingPrice(side: Side): bigint | undefined {
    let best: bigint | undefined;
    for (const order of this.notDone) {
      if (order.side !== side || (order.phase !== 'open' && order.phase !== 'pending-new')) continue;
      if (best === undefined || (side === 'buy' ? order.priceUnits > best : order.priceUnits < best)) best = order.priceUnits;
    }
    return best;
  }

  markOpen(orderId: string): void {
    const order = this.orders.get(orderId);
    if (order !== undefined && order.phase === 'pending-new') {
      order.phase = 'open';
      this.changes++;
    }
  }

  markCancelling(orderId: string, nowMs: number): void {
    const order = this.orders.get(orderId);
    if (order === undefined || order.phase === 'done') return;
    order.phase = 'pending-cancel';
    order.cancelSentAtMs = nowMs;
    this.changes++;
  }

  /** The venue refused or lost the order: it never rested. */
  markDone(orderId: string, status: OrderStatus): void {
    const order = this.orders.get(orderId);
    if (order === undefined) return;
    this.setDone(order);
    order.status = status;
    this.changes++;
  }

  /**
   * Applies a report: keeps the maximum cumulative fill, returns the increment (if any) and
   * whether the order just ended. Reports for unknown orders are returned as `known: false`.
   */
  applyReport(report: OrderReport): ReportEffect {
    const order = this.orders.get(report.orderId);
    if (order === undefined) return { fill: undefined, known: false, becameDone: false };
    let fill: FillIncrement | undefined;
    if (report.filledQtyUnits > order.filledQtyUnits) {
      const qtyUnits = report.filledQtyUnits - order.filledQtyUnits;
      const quoteUnits = report.filledQuoteUnits - order.filledQuoteUnits;
      fill = {
        orderId: order.orderId,
        side: order.side,
        qtyUnits,
        quoteUnits: quoteUnits > 0n ? quoteUnits : 0n,
        priceUnits: report.lastFillPriceUnits ?? order.priceUnits,
        isMaker: report.lastFillIsMaker ?? true,
        timeMs: report.timeMs,
      };
      order.filledQtyUnits = report.filledQtyUnits;
      order.filledQuoteUnits = report.filledQuoteUnits > order.filledQuoteUnits ? report.filledQuoteUnits : order.filledQuoteUnits;
    }
    const wasDone = order.phase === 'done';
    order.status = report.status;
    this.changes++;
    if (isTerminalStatus(report.status) || order.filledQtyUnits >= order.qtyUnits) {
      this.setDone(order);
    } else if (order.phase === 'pending-new') {
      order.phase = 'open';
    }
    return { fill, known: true, becameDone: !wasDone && order.phase === 'done' };
  }

  /**
   * Forgets done orders older than `keepMs` so the table does not grow forever. The map is in
   * creation order, so the scan stops at the first order young enough to keep: a heal runs this
   * every reconcile period, and the table holds `keepMs` worth of orders.
   */
  prune(nowMs: number, keepMs: number): void {
    for (const [orderId, order] of this.orders) {
      if (nowMs - order.createdAtMs <= keepMs) return;
      if (order.phase === 'done') {
        this.orders.delete(orderId);
        this.changes++;
      }
    }
  }

  /** Count of orders not done. */
  liveCount(): number {
    return this.notDone.size;
  }

  private setDone(order: TrackedOrder): void {
    order.phase = 'done';
    this.notDone.delete(order);
  }
}

/** A tracked order in the shape the diff reads. */
export function toLiveQuote(order: TrackedOrder): LiveQuote {
  return {
    orderId: order.orderId,
    side: order.side,
    priceUnits: order.priceUnits,
    remainingUnits: order.qtyUnits - order.filledQtyUnits,
    filledUnits: order.filledQtyUnits,
    createdAtMs: order.createdAtMs,
  };
}
