/**
 * What the engine reports about itself, for the status line, `/health`, metrics and reports: the
 * snapshot types and the pure pieces that assemble them.
 */
import { unitsToNumber, type ModelInternals, type Side, type TickerRules } from '../core/index.ts';
import type { PnlSnapshot } from './ledger.ts';
import type { MarkoutSummary } from './markouts.ts';
import type { OrderStats } from './orders/order-manager.ts';
import type { OrderTable } from './orders/order-table.ts';
import type { HedgeStatus } from './hedge/link.ts';
import type { EngineState, HaltReason } from './safety/safety.ts';
import type { PnlSplit, QuotingScores, Scorecard } from './scorecard.ts';
import type { SignalStatus } from './signal-stage.ts';

/** The scorecard: what a venue's market-maker programme and a desk judge quoting by. */
export interface ScorecardSnapshot extends QuotingScores, OrderStats {
  readonly fills: number;
  /** Orders sent per fill (orders sent while nothing filled). */
  readonly ordersPerFill: number;
  /** Base volume filled / base volume of the orders sent (0 before any order). */
  readonly fillRatio: number;
  readonly pnl: PnlSplit;
}

/** A snapshot of what the engine is doing, for the status line, /health and reports. */
export interface EngineStatus {
  readonly state: EngineState;
  readonly haltReason: HaltReason | undefined;
  readonly pauseReason: string | undefined;
  readonly mid: number | undefined;
  /** The fair price the strategy quotes around (quote per base). */
  readonly fair: number | undefined;
  /** The venue's best bid and ask (quote per base; our own orders among them), when the book shows a side. */
  readonly touch: { readonly bid: number | undefined; readonly ask: number | undefined };
  readonly bids: readonly { price: number; size: number }[];
  readonly asks: readonly { price: number; size: number }[];
  readonly baseBalance: number;
  readonly quoteBalance: number;
  /** Base held minus the inventory target, base tokens (what skew and caps measure). */
  readonly position: number;
  /** The inventory cap (base tokens, 0 = none) once the limits are resolved. */
  readonly inventoryCap: number;
  readonly pnl: PnlSnapshot;
  readonly markouts: MarkoutSummary;
  /** Fraction of quoting time with both a bid and an ask resting. */
  readonly twoSidedUptime: number;
  readonly scorecard: ScorecardSnapshot;
  /** The hedger's report, when the pair hedges (HEDGE). */
  readonly hedge?: HedgeStatus;
  /** The reference market, when one is read (REFERENCE=…). */
  readonly reference: ReferenceView | undefined;
  /** The strategy's internal values at its last quote, when it reports them (`Strategy.internals`). */
  readonly model?: ModelStatus;
  /** The signals against adverse selection and the alpha term now (issue 24). */
  readonly signals?: SignalStatus;
}

/** The strategy's name and its internal values at the view and inventory it last quoted on. */
export interface ModelStatus {
  readonly name: string;
  readonly internals: ModelInternals;
}

/** What a backtest samples along its path: these fields of `EngineStatus`, same values. */
export type PathStatus = Pick<EngineStatus, 'mid' | 'baseBalance' | 'pnl' | 'hedge' | 'reference' | 'model'> & { readonly scorecard: Pick<ScorecardSnapshot, 'pnl'> };

/** The reference market as the status shows it. */
export interface ReferenceView {
  /** `binance:ETHUSDT`. */
  readonly market: string;
  readonly state: string;
  /** Why it is not synchronised, if it is not. */
  readonly reason: string | undefined;
  /** Reference mid in its own units, and its fair price in the venue's (× (1 + basis)). */
  readonly mid: number | undefined;
  readonly fair: number | undefined;
  readonly basisBps: number | undefined;
  /** |venue mid / reference fair − 1|, bps. */
  readonly divergenceBps: number | undefined;
  /** Since its last update, ms. */
  readonly ageMs: number | undefined;
  /**
   * Our fills' markouts against the reference mid (in the venue's terms, × (1 + basis)) at the
   * same horizons as `markouts`, which are against the venue's mid that our own quotes set.
   */
  readonly markouts: MarkoutSummary;
}

/** The scorecard now: time-weighted scores, order counts and the PnL split. */
export function scorecardSnapshot(scorecard: Scorecard, stats: OrderStats, pnl: PnlSnapshot, rules: TickerRules | undefined): ScorecardSnapshot {
  const placed = rules === undefined ? 0 : unitsToNumber(stats.placedQtyUnits, rules.baseDecimals);
  return {
    ...scorecard.scores(),
    ...stats,
    fills: pnl.fills,
    ordersPerFill: pnl.fills === 0 ? stats.ordersSent : stats.ordersSent / pnl.fills,
    fillRatio: placed > 0 ? pnl.volumeBase / placed : 0,
    pnl: scorecard.pnl(),
  };
}

/** One side's working orders as numbers (price, unfilled size), best first. */
export function workingQuotes(table: OrderTable, side: Side, rules: TickerRules | undefined): { price: number; size: number }[] {
  if (rules === undefined) return [];
  return table
    .working(side)
    .map((order) => ({
      price: unitsToNumber(order.priceUnits, rules.quoteDecimals),
      size: unitsToNumber(order.qtyUnits - order.filledQtyUnits, rules.baseDecimals),
    }))
    .sort((a, b) => (side === 'buy' ? b.price - a.price : a.price - b.price));
}

/** A book price in base units as a number (quote per base); undefined while the book shows no such side. */
export function priceOf(priceUnits: bigint | undefined, rules: TickerRules): number | undefined {
  return priceUnits === undefined ? undefined : unitsToNumber(priceUnits, rules.quoteDecimals);
}
