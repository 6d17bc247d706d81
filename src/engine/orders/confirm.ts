/**
 * Confirming that nothing of ours rests: after a cancel-all the bot believes nothing until the
 * venue's own records agree (its open orders list none, and every order we knew has a final
 * state). Used by shutdown, halts, pauses and the start-up policy.
 */
import { isTerminalStatus, type Clock, type Logger, type OrderReport, type Venue } from '../../core/index.ts';
import type { OrderTable } from './order-table.ts';

/** What the confirmation reads and may do. */
export interface ConfirmOptions {
  readonly venue: Venue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly table: OrderTable;
  readonly timeoutMs: number;
  /** The engine's report handler: fills found while waiting are booked. */
  readonly applyReport: (report: OrderReport) => void;
  /** Sends the cancel-all again while orders still rest. */
  readonly resendCancelAll: () => Promise<void>;
  /** False once the pull is no longer wanted (a pause's reason cleared): it ends unconfirmed, sending nothing more. */
  readonly stillWanted?: () => boolean;
  /** True while the order's placement is still on its way (sent, not answered): the venue not knowing it yet is not its end. */
  readonly isInFlight?: (orderId: string) => boolean;
}

/**
 * Polls the venue (backing off from 50 ms to 1 s) until it lists none of our orders and every
 * order the table still holds live has a final state; true when confirmed before the timeout.
 */
export async function confirmNothingRests(options: ConfirmOptions): Promise<boolean> {
  const { clock, venue, logger } = options;
  const deadline = clock.nowMs() + options.timeoutMs;
  let delayMs = 50;
  for (;;) {
    // A failed listing is not an empty one: the orders may still rest (exchange restarting).
    // Treating it as empty marked live orders cancelled, and their later fills went missing.
    let open: OrderReport[] | undefined;
    try {
      open = await venue.fetchOpenOrders();
    } catch (error) {
      logger.warn({ err: error }, 'could not list open orders');
    }
    if (open !== undefined) {
      for (const report of open) options.applyReport(report);
      if (open.length === 0 && (await settleUnlisted(options))) return true;
    }
    if (clock.nowMs() >= deadline) return false;
    if (options.stillWanted?.() === false) {
      logger.info('quoting resumed: the pull ends');
      return false;
    }
    if (open === undefined || open.length > 0) await options.resendCancelAll();
    await new Promise<void>((resolve) => clock.setTimeout(resolve, delayMs));
    delayMs = Math.min(1_000, delayMs * 2);
  }
}

/** Every order we think is live but the venue no longer lists gets its final state; false if a lookup failed. */
async function settleUnlisted(options: ConfirmOptions): Promise<boolean> {
  let settled = true;
  for (const order of options.table.live()) {
    let final: OrderReport | undefined;
    try {
      final = await options.venue.fetchOrder(order.orderId);
    } catch {
      settled = false;
      continue;
    }
    if (final === undefined && options.isInFlight?.(order.orderId) === true) {
      // Sent before the cancel-all and not yet arrived: it may rest once it does (a shutdown that
      // called it cancelled left it resting on the venue).
      settled = false;
      continue;
    }
    if (final !== undefined) options.applyReport(final);
    if (final === undefined || isTerminalStatus(final.status)) options.table.markDone(order.orderId, final?.status ?? 'CANCELLED');
  }
  return settled;
}
