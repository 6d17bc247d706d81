/**
 * What the dashboard marks on its timelines: our fills (points on the price chart) and the moments
 * quoting paused, resumed or halted, with the reason. Each pair's engine reports them to an
 * observer beside the metrics'; recording one is a push onto a bounded ring, nothing more, so the
 * engine pays the same whether anyone watches.
 */
import { unitsToNumber } from '../../core/index.ts';
import type { EngineObserver } from '../../engine/index.ts';

/** One event, at the dashboard clock's time (ms). */
export type DashboardEvent =
  | {
      readonly kind: 'fill';
      readonly timeMs: number;
      readonly side: 'buy' | 'sell';
      /** Quote per base. */
      readonly price: number;
      /** Base tokens. */
      readonly size: number;
      readonly isMaker: boolean;
      /** The fee, valued in quote tokens. */
      readonly feeQuote: number;
    }
  | { readonly kind: 'pause' | 'resume' | 'halt'; readonly timeMs: number; readonly reason: string };

/** Token decimals of a pair, to show fills in tokens. */
export interface PairDecimals {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

/** An observer that records a pair's fills, pauses, resumes and halts through `record`. */
export function eventObserver(decimals: PairDecimals, nowMs: () => number, record: (event: DashboardEvent) => void): EngineObserver {
  return {
    fill: (fill, effect) =>
      record({
        kind: 'fill',
        timeMs: nowMs(),
        side: fill.side,
        price: unitsToNumber(fill.priceUnits, decimals.quoteDecimals),
        size: unitsToNumber(fill.qtyUnits, decimals.baseDecimals),
        isMaker: fill.isMaker,
        feeQuote: effect.feeQuote,
      }),
    paused: (isPaused, reason) => record({ kind: isPaused ? 'pause' : 'resume', timeMs: nowMs(), reason }),
    halted: (reason) => record({ kind: 'halt', timeMs: nowMs(), reason }),
  };
}
