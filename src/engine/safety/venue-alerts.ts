/**
 * What the engine does when the venue says a request failed after it accepted it (a `fail`
 * report), or that an accepted cancel-all / nonce increase did not take effect in time. Queued
 * means not done (SPEC §5): every alert gets an answer here, none is only logged.
 *
 * - a placement failed: it never rested; its side backs off like after a rejection, and repeated
 *   failures pause quoting for a while (the venue is refusing us for a reason we do not see);
 * - a cancel failed: the order may still rest; heal at once (the heal retries cancels that did
 *   not take, so the order is never left behind a fresh one at the same price);
 * - a cancel-all failed or is unconfirmed: orders may still rest; heal, and while the engine is
 *   pulling its quotes (paused, halted, stopping) send it again until the venue lists nothing;
 * - the on-chain kill (nonce increase) failed or is unconfirmed: stay halted and say so in the
 *   halt reason (`/health`), loudly: the orders it was meant to invalidate may still be signed.
 */
import type { Clock, Logger, Side, VenueAlert } from '../../core/index.ts';

/** What the alert handler may ask of the engine. */
export interface VenueAlertActions {
  /** Heal orders and balances from the venue's records now. */
  heal(): void;
  /** The side of one of our orders, if we know it. */
  sideOf(orderId: string): Side | undefined;
  /** Back this side off as after a rejection. */
  backOff(side: Side, reason: string): void;
  /** True while the engine is pulling its quotes (paused, halted, stopping). */
  isPullingQuotes(): boolean;
  /** Send a cancel-all again and wait until the venue lists nothing. */
  cancelEverything(reason: string): void;
  /** Pause quoting for `forMs`, then resume (unless another reason holds). */
  pauseFor(reason: string, forMs: number): void;
  /** Add a line to the halt reason (or halt with it when not halted yet). */
  escalate(message: string): void;
}

/** Failures of placements within this window… */
const PLACE_FAILURE_WINDOW_MS = 60_000;
/** …at least this many of them pause quoting… */
const PLACE_FAILURES_TO_PAUSE = 5;
/** …for this long. */
const PLACE_FAILURE_PAUSE_MS = 30_000;
/** The pause reason (a contract with `/health` and the log). */
export const VENUE_FAILING_ORDERS = 'venue failing orders';

/** Answers venue alerts. */
export class VenueAlertHandler {
  private placeFailuresMs: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly actions: VenueAlertActions,
  ) {}

  onAlert(alert: VenueAlert): void {
    const detail = { kind: alert.kind, action: alert.action, requestHash: alert.requestHash, reason: alert.reason };
    switch (alert.action) {
      case 'place':
        this.logger.warn(detail, 'an accepted order failed at the venue; it never rested');
        this.placementFailed(alert.kind === 'request-failed' ? alert.orderId : undefined, alert.reason);
        return;
      case 'cancel':
      case 'unknown':
        this.logger.warn(detail, 'a request failed after the venue accepted it; healing');
        this.actions.heal();
        return;
      case 'cancel-all':
        this.logger.error(detail, 'a cancel-all did not take effect; orders may still rest');
        this.actions.heal();
        if (this.actions.isPullingQuotes()) this.actions.cancelEverything('cancel-all not confirmed');
        return;
      case 'increase-nonce':
        this.logger.error(detail, 'the on-chain kill switch (nonce increase) did not take effect');
        this.actions.escalate(`on-chain kill (nonce increase ${alert.requestHash}) ${alert.kind === 'request-failed' ? 'failed' : 'not confirmed'}: ${alert.reason}; orders signed before it may still be valid`);
        return;
      case 'withdraw':
        this.logger.error(detail, 'a withdrawal did not take effect');
        this.actions.heal();
        return;
    }
  }

  private placementFailed(orderId: string | undefined, reason: string): void {
    const side = orderId === undefined ? undefined : this.actions.sideOf(orderId);
    if (side !== undefined) this.actions.backOff(side, reason);
    this.actions.heal();
    const now = this.clock.nowMs();
    this.placeFailuresMs = this.placeFailuresMs.filter((atMs) => now - atMs < PLACE_FAILURE_WINDOW_MS);
    this.placeFailuresMs.push(now);
    if (this.placeFailuresMs.length >= PLACE_FAILURES_TO_PAUSE) {
      this.placeFailuresMs = [];
      this.actions.pauseFor(VENUE_FAILING_ORDERS, PLACE_FAILURE_PAUSE_MS);
    }
  }
}
