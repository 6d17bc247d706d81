/**
 * Reconciliation with the venue's own records: the heal (fills we missed applied from cumulative
 * amounts, orders we do not know cancelled, orders the venue no longer lists settled; then the
 * account compares its balances with what every pair's fills imply), the start-up policy for
 * leftovers, and recovery from the crash journal. Fills reach the books only through the
 * engine's report handler.
 */
import { isTerminalStatus, type Clock, type Logger, type OrderReport, type Timer, type Venue } from '../core/index.ts';
import type { Journal } from './orders/journal.ts';
import type { OrderManager } from './orders/order-manager.ts';
import type { EngineSettings } from './settings.ts';

const DONE_ORDER_RETENTION_MS = 600_000;
/** How long an order the venue has not listed yet may still appear (late-applied POSTs). */
const UNKNOWN_ORDER_GRACE_MS = 30_000;
/** A cancel the venue still shows as resting this long after we sent it did not take: send it again. */
const CANCEL_RETRY_MS = 1_000;

/** What the reconciler needs from the engine. */
export interface ReconcilerOptions {
  readonly venue: Venue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly journal: Journal;
  readonly orders: OrderManager;
  readonly settings: EngineSettings;
  /** The engine's report handler: the one way fills reach the books. */
  applyReport(report: OrderReport): void;
  /** True before start-up took the starting balances (a heal then would see the whole balance as drift). */
  isStarting(): boolean;
  /** A heal finished: requote. */
  afterHeal(): void;
  /**
   * The pair's account checks balances: it heals every pair's orders first (this one's through
   * `healOrders`), then compares the account's balances with start + every pair's fills.
   */
  readonly account: { checkBalances(): Promise<void> };
}

/** Heals the engine's view from the venue's records. */
export class Reconciler {
  private healing: Promise<void> | undefined;
  private healAgain = false;
  private laterTimer: Timer | undefined;

  constructor(private readonly options: ReconcilerOptions) {}

  /** Heals once more after `delayMs` (one pending at a time); stopped by `stop()`. */
  private healLater(delayMs: number): void {
    if (this.laterTimer !== undefined) return;
    this.laterTimer = this.options.clock.setTimeout(() => {
      this.laterTimer = undefined;
      void this.heal();
    }, delayMs + 1);
  }

  /** Cancels a pending later heal; idempotent. */
  stop(): void {
    this.laterTimer?.cancel();
    this.laterTimer = undefined;
  }

  /** True while a heal runs. */
  isHealing(): boolean {
    return this.healing !== undefined;
  }

  /** Heals now, or once more after the heal in progress. */
  heal(): Promise<void> {
    if (this.options.isStarting()) return Promise.resolve();
    if (this.healing !== undefined) {
      this.healAgain = true;
      return this.healing;
    }
    this.healing = this.runHeal()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'heal failed; will retry on the next timer'))
      .finally(() => {
        this.healing = undefined;
        if (this.healAgain) {
          this.healAgain = false;
          void this.heal();
        } else {
          this.options.afterHeal();
        }
      });
    return this.healing;
  }

  private runHeal(): Promise<void> {
    return this.options.account.checkBalances();
  }

  /**
   * Brings the pair's orders in line with the venue's records: fills we missed applied from
   * cumulative amounts, orders we do not know cancelled, orders the venue no longer lists settled.
   */
  async healOrders(): Promise<void> {
    const { venue, orders, clock, logger, settings } = this.options;
    const open = await venue.fetchOpenOrders();
    const openIds = new Set(open.map((report) => report.orderId));
    for (const report of open) {
      if (orders.table.get(report.orderId) === undefined) {
        logger.warn({ orderId: report.orderId }, 'venue lists an order the engine does not know; cancelling it');
        orders.table.adopt(report, clock.nowMs());
        orders.cancelNow(report.orderId);
      } else {
        this.options.applyReport(report);
        // A cancel that never took (lost, reset before the venue applied it, failed after its 200)
        // would leave the order resting while a fresh quote joins it at the same price: retry it.
        const tracked = orders.table.get(report.orderId);
        if (tracked?.phase === 'pending-cancel' && tracked.cancelSentAtMs !== undefined) {
          const ageMs = clock.nowMs() - tracked.cancelSentAtMs;
          if (ageMs >= CANCEL_RETRY_MS) {
            logger.warn({ orderId: report.orderId, sentMsAgo: ageMs }, 'a cancel did not take; sending it again');
            orders.cancelNow(report.orderId);
          } else {
            // It may still be on its way: look again once it is overdue.
            this.healLater(CANCEL_RETRY_MS - ageMs);
          }
        }
      }
    }
    for (const order of orders.table.live()) {
      if (openIds.has(order.orderId)) continue;
      const final = await venue.fetchOrder(order.orderId);
      if (final !== undefined) this.options.applyReport(final);
      // An order the venue does not know yet may still be applied late (a timed-out POST sits
      // in its queue): while it is young it stays working, so no second order takes its place.
      else if (clock.nowMs() - order.createdAtMs > Math.max(settings.staleFeedMs, UNKNOWN_ORDER_GRACE_MS)) orders.table.markDone(order.orderId, 'NOT_PROCESSED');
    }
    orders.table.prune(clock.nowMs(), DONE_ORDER_RETENTION_MS);
  }

  /**
   * After a crash the journal lists orders we sent and never saw finish. Each is looked up on
   * the venue: finished ones are settled, live ones are adopted (or cancelled by the startup
   * policy, which sees them in the venue's open orders).
   */
  async recoverFromJournal(): Promise<void> {
    const { journal, venue, clock, logger } = this.options;
    const unresolved = journal.unresolvedOrders();
    if (unresolved.length === 0) return;
    logger.warn({ count: unresolved.length }, 'journal lists orders from a previous run that never finished; resolving');
    for (const order of unresolved) {
      const report = await venue.fetchOrder(order.orderId);
      if (report === undefined || isTerminalStatus(report.status)) {
        journal.append({ t: 'done', orderId: order.orderId, status: report?.status ?? 'NOT_PROCESSED', timeMs: clock.nowMs() });
      }
    }
  }

  /** Orders found on the venue at start: adopt them (they keep their queue place) or cancel them and wait. */
  async applyStartupPolicy(): Promise<void> {
    const { venue, orders, clock, logger, settings } = this.options;
    const open = await venue.fetchOpenOrders();
    if (open.length === 0) return;
    if (settings.startupOrders === 'adopt') {
      for (const report of open) orders.table.adopt(report, clock.nowMs());
      logger.info({ count: open.length }, 'adopted orders found at start');
      return;
    }
    logger.info({ count: open.length }, 'cancelling orders found at start');
    await venue.cancelAll();
    await orders.waitUntilNoOpenOrders(settings.shutdownTimeoutMs, (report) => this.options.applyReport(report));
  }
}
