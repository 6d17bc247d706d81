/**
 * What the engine sees of a hedger (`EngineOptions.hedge`): it reports every fill, reads the
 * hedge position to add to its own (skew and caps see the net position across both venues),
 * asks which sides it may quote, hands strategies the hedge market's view, and counts the
 * hedges' PnL in the drawdown kill switch. The hedger calls back to requote and to halt.
 */
import type { HedgeMarketView, Side } from '../../core/index.ts';
import type { FillEffect } from '../ledger.ts';
import type { FillIncrement } from '../orders/order-table.ts';

/**
 * What a side may do while hedges are outstanding: `open` (quote as usual), `hold` (keep what
 * rests, place nothing new: a hedge is pending for what the side adds), `off` (quote nothing:
 * hedging is failing or late, so what rests on the side is cancelled at once).
 */
export type SideState = 'open' | 'hold' | 'off';

/** The engine's callbacks. */
export interface HedgeEngineHooks {
  /** Something the quotes depend on changed (a side's state, the hedge book): requote. */
  requote(): void;
  /** Hedging failed past its retries: halt quoting with this reason (log and /health). */
  halt(message: string): void;
}

/** The hedger's report, for the status line, /health, metrics and backtests. */
export interface HedgeStatus {
  /** `<venue>:<SYMBOL>`. */
  readonly market: string;
  readonly state: 'starting' | 'ok' | 'failing' | 'halted' | 'stopped';
  /** Why it is failing or halted. */
  readonly reason: string | undefined;
  readonly hedgesSent: number;
  readonly hedgesFailed: number;
  /** The net position across both venues, base tokens (what is not hedged, dust included). */
  readonly uncoveredBase: number;
  /** The part of it below the hedge venue's minimum (kept, hedged once more joins it). */
  readonly dustBase: number;
  /** Base the hedges moved, net (the position on the hedge venue), base tokens. */
  readonly hedgePositionBase: number;
  /** |base| the fills and the hedges moved (net of fees taken in base), base tokens: hedged never exceeds filled. */
  readonly filledVolumeBase: number;
  readonly hedgedVolumeBase: number;
  readonly latencyMsP50: number | undefined;
  readonly slippageBps: number | undefined;
  readonly unhedgedTimeShare: number;
  /** The hedges' PnL marked at the last mark, quote tokens of the quoted pair, net of their fees. */
  readonly pnlQuote: number;
  /** Hedge fees paid, quote tokens. */
  readonly feesQuote: number;
  readonly venue: { readonly streamUp: boolean; readonly weightUsed: number; readonly weightLimit: number; readonly ordersUsed: number; readonly ordersLimit: number };
}

/** The engine's view of a hedger. */
export interface EngineHedge {
  attach(hooks: HedgeEngineHooks): void;
  /** Every fill increment of ours, with the order's cumulative size after it. */
  onFill(fill: FillIncrement, effect: FillEffect, cumulativeQtyUnits: bigint): void;
  /** Base the hedges moved, net, in the pair's base units: added to the engine's position. */
  positionOffsetUnits(): bigint;
  sideState(side: Side): SideState;
  /** The hedge market as strategies see it; undefined while there is no hedge book. */
  marketView(): HedgeMarketView | undefined;
  /** The hedges' PnL at `mark` (quote per base), quote tokens, net of fees. */
  pnlQuote(mark: number | undefined): number;
  status(): HedgeStatus;
}
