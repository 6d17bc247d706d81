/**
 * Settling a hedge whose outcome is not known (its answer was lost, or the journal of a previous
 * process has no outcome for it): ask the venue by its client id, with backoff, until it reports
 * it final (the user stream may do so first), or until it is certainly not there: not found once
 * the venue's receive window has passed, when the request can no longer execute. Never sent again.
 */
import { isFinalHedgeStatus, sleep, type Clock, type HedgeOrderState, type HedgeVenue, type Logger } from '../../core/index.ts';
import type { HedgeExposure } from './exposure.ts';

/** Margin past the receive window after which a lost request cannot have executed. */
const LOST_REQUEST_MARGIN_MS = 2_000;
const QUERY_MAX_WAIT_MS = 5_000;

/** What settling needs. */
export interface SettleDeps {
  readonly venue: HedgeVenue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly exposure: HedgeExposure;
  readonly recvWindowMs: number;
  isStopped(): boolean;
  /** Applies what the venue says of the order. */
  apply(order: HedgeOrderState): void;
  /** Records that it never executed. */
  abort(id: string, reason: string): void;
}

/** Settles hedge `id`; resolves once its outcome is known (or the hedger stops). */
export async function settleHedge(id: string, deps: SettleDeps): Promise<void> {
  for (let attempt = 0; !deps.isStopped(); attempt++) {
    const record = deps.exposure.hedge(id);
    if (record === undefined || record.phase === 'done') return;
    try {
      const answer = await deps.venue.queryOrder(id);
      if (answer.kind === 'found') {
        deps.apply(answer.order);
        if (isFinalHedgeStatus(answer.order.status)) return;
      } else if (deps.clock.nowMs() - record.sentAtMs > deps.recvWindowMs + LOST_REQUEST_MARGIN_MS) {
        deps.logger.info({ id }, 'lost hedge not on the venue after its receive window: it never executed');
        deps.abort(id, 'not on the venue');
        return;
      }
    } catch (error) {
      deps.logger.warn({ id, err: error instanceof Error ? error.message : String(error) }, 'hedge query failed; asking again');
    }
    await sleep(deps.clock, Math.min(QUERY_MAX_WAIT_MS, 100 * 2 ** Math.min(attempt, 6)));
  }
}
