/**
 * What a replay pushes recorded events into, and what pushes them: the port between a recording
 * (this folder's sources) and whatever consumes it (a backtest run, an account's merged pairs).
 */
import type { Side } from '../../core/index.ts';

/**
 * Receives recorded events in order. Time is announced once per change (`advance`), not with
 * every event: most records of a venue message share a timestamp, and a fractional-ms time passed
 * to a call is a heap number allocated per call, which showed as a sixth of a replay's time in
 * garbage collection. A returned promise must be awaited before the next call.
 */
export interface RecordedEventHandler {
  /** Exchange time moves to `exchTsMs` ms (never back); the events that follow happen then. */
  advance(exchTsMs: number): Promise<void> | undefined;
  depth(side: Side, priceTicks: number, qtyLots: number): Promise<void> | undefined;
  clear(): Promise<void> | undefined;
  trade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): Promise<void> | undefined;
  gasPrice(gasPriceUnits: bigint): Promise<void> | undefined;
}

/** A recording that can push its events, in order, into a handler. Returns the event count. */
export interface RecordedEventSource {
  replay(handler: RecordedEventHandler): Promise<number>;
}
