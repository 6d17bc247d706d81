/**
 * What the engine reports as it works: metrics, the live status line and backtest reports all
 * listen here, so the engine itself knows nothing of Prometheus, terminals or HTML.
 */
import type { Side } from '../core/index.ts';
import type { FillEffect } from './ledger.ts';
import type { FillIncrement } from './orders/order-table.ts';

/** Events the engine emits; every method is optional to implement. */
export interface EngineObserver {
  orderPlaced?(side: Side): void;
  orderCancelled?(side: Side): void;
  orderRejected?(side: Side, reason: string): void;
  fill?(fill: FillIncrement, effect: FillEffect): void;
  /** Time from the market event that triggered a requote to the last request it sent. */
  requoteLatency?(latencyMs: number): void;
  /** Balances healed from the venue differed from the expected ones by this much (base units). */
  drift?(baseDriftUnits: bigint, quoteDriftUnits: bigint): void;
  gasSpent?(quoteAmount: number): void;
  halted?(reason: string): void;
  /** Quoting paused (dead-man) or resumed. */
  paused?(isPaused: boolean, reason: string): void;
  feedReconnected?(): void;
  /** A late report split a stretch charged as one trade: this extra fee was charged (no fill). */
  feeCorrected?(effect: FillEffect): void;
  /** The outbound budget held back this many venue actions (they go when tokens return). */
  requestsThrottled?(count: number): void;
  /**
   * The session starts: its journal's `start` record was just written (at `timeMs`), and quoting
   * may begin. Called synchronously, so whoever starts something with the session (paper's venue
   * flow, for `akira-mm parity`) starts it at that very time.
   */
  sessionStarted?(timeMs: number): void;
}

/** Fans one event out to several observers. */
export function combineObservers(observers: readonly EngineObserver[]): EngineObserver {
  const call = <K extends keyof EngineObserver>(name: K, args: Parameters<NonNullable<EngineObserver[K]>>): void => {
    for (const observer of observers) {
      const method = observer[name] as ((...a: typeof args) => void) | undefined;
      method?.apply(observer, args);
    }
  };
  return {
    orderPlaced: (...args) => call('orderPlaced', args),
    orderCancelled: (...args) => call('orderCancelled', args),
    orderRejected: (...args) => call('orderRejected', args),
    fill: (...args) => call('fill', args),
    requoteLatency: (...args) => call('requoteLatency', args),
    drift: (...args) => call('drift', args),
    gasSpent: (...args) => call('gasSpent', args),
    halted: (...args) => call('halted', args),
    paused: (...args) => call('paused', args),
    feedReconnected: (...args) => call('feedReconnected', args),
    requestsThrottled: (...args) => call('requestsThrottled', args),
    feeCorrected: (...args) => call('feeCorrected', args),
    sessionStarted: (...args) => call('sessionStarted', args),
  };
}
