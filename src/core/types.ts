/** Domain types shared by every layer. Amounts are `bigint` base units unless a name says otherwise. */

/** Order side from our point of view. */
export type Side = 'buy' | 'sell';

/** The other side. */
export function oppositeSide(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

/** A trading pair by token symbols, e.g. ETH/USDC. */
export interface Pair {
  readonly base: string;
  readonly quote: string;
}

/** "ETH/USDC". */
export function pairLabel(pair: Pair): string {
  return `${pair.base}/${pair.quote}`;
}

/** Order states of SPEC §6 (REFERENCE §3.4). */
export type OrderStatus =
  | 'ACC'
  | 'OPEN'
  | 'SCHEDULED_TO_CANCEL'
  | 'CANCELLED'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CLOSED'
  | 'NOT_PROCESSED'
  | 'EXPIRED'
  | 'FAILED_ROLLUP'
  | 'REIMBURSE';

export const ORDER_STATUSES: readonly OrderStatus[] = [
  'ACC',
  'OPEN',
  'SCHEDULED_TO_CANCEL',
  'CANCELLED',
  'PARTIALLY_FILLED',
  'FILLED',
  'CLOSED',
  'NOT_PROCESSED',
  'EXPIRED',
  'FAILED_ROLLUP',
  'REIMBURSE',
];

/** True for statuses after which an order can never fill again. */
export function isTerminalStatus(status: OrderStatus): boolean {
  return (
    status === 'CANCELLED' ||
    status === 'FILLED' ||
    status === 'CLOSED' ||
    status === 'NOT_PROCESSED' ||
    status === 'EXPIRED' ||
    status === 'FAILED_ROLLUP'
  );
}

/** Matching-engine results of REFERENCE §3.4. */
export type MatcherResult =
  | 'OK'
  | 'SLIPPAGE'
  | 'EXPIRED'
  | 'HIT_SWAPS_LIMIT'
  | 'MIN_RECEIVE_FAILED'
  | 'NOT_ENOUGH_LIQUIDITY'
  | 'GAS_COST'
  | 'FAILED_VALIDATION'
  | 'MAX_SPENT_FAILED';

export const MATCHER_RESULTS: readonly MatcherResult[] = [
  'OK',
  'SLIPPAGE',
  'EXPIRED',
  'HIT_SWAPS_LIMIT',
  'MIN_RECEIVE_FAILED',
  'NOT_ENOUGH_LIQUIDITY',
  'GAS_COST',
  'FAILED_VALIDATION',
  'MAX_SPENT_FAILED',
];

/** Self-trade prevention modes (REFERENCE §2.2). */
export type StpMode = 'NONE' | 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | 'EXPIRE_BOTH';

export const STP_MODES: readonly StpMode[] = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'];
