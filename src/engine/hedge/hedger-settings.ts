/**
 * How the hedger hedges, read by the hedger and by the pieces it is built of (the hedge market's
 * view prices with the fee, profit and basis settings), so it sits below all of them.
 */

/** How the hedger hedges (the HEDGE_* keys). */
export interface HedgerSettings {
  readonly feeBps: number;
  readonly maxDelayMs: number;
  readonly maxRetries: number;
  readonly minProfitBps: number;
  readonly orderType: 'market' | 'ioc';
  readonly iocSlippageBps: number;
  readonly basisBps: number;
  /** The venue's receive window: a request older than this can no longer execute. */
  readonly recvWindowMs: number;
}
