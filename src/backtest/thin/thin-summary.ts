/**
 * What a thin venue's takers did over a run: the exchange's own counts of the flow
 * (`ThinExchange.stats()`), and the summary keys built from our tagged fills (issue 23:
 * `uninformed_fills`, `arb_fills`, `pickoff_cost_quote`; the keys are a contract).
 */
import type { VenueFill } from '../replay-venue.ts';

/** What the takers did over a run (lots of the pair's rules). */
export interface ThinExchangeStats {
  /** Reference trades with a known side (the ones that can have a twin), and their lots. */
  readonly referenceTrades: number;
  readonly referenceLots: number;
  /** Uninformed takers that came to the venue, the lots they brought and the lots they traded (with anyone). */
  readonly uninformedTakers: number;
  readonly uninformedLots: number;
  readonly uninformedTradedLots: number;
  /** Arbitrage orders that reached the venue, and the lots they took (from anyone). */
  readonly arbitrageOrders: number;
  readonly arbitrageTakenLots: number;
  /** Maker re-quotes refused because they would have crossed a resting quote (post-only). */
  readonly makerRefusals: number;
}

/** The thin venue's keys of a backtest summary. */
export interface ThinSummary {
  /** Our fills taken by uninformed takers. */
  readonly uninformed_fills: number;
  /** Our fills taken by arbitrageurs. */
  readonly arb_fills: number;
  /** Our orders that took the background maker's level (we were the taker). */
  readonly background_maker_fills: number;
  /** What the arbitrage fills lost against the reference mid at each fill, summed, quote tokens. */
  readonly pickoff_cost_quote: number;
}

/** The thin venue's summary keys from the venue's fills (untagged fills, a replay's, count in none). */
export function summarizeThinFills(fills: readonly VenueFill[]): ThinSummary {
  let uninformed = 0;
  let arbitrage = 0;
  let background = 0;
  let pickoffQuote = 0;
  for (const fill of fills) {
    if (fill.tag?.counterparty === 'uninformed') uninformed++;
    else if (fill.tag?.counterparty === 'background-maker') background++;
    else if (fill.tag?.counterparty === 'arbitrage') {
      arbitrage++;
      pickoffQuote += fill.tag.referenceLossQuote;
    }
  }
  return { uninformed_fills: uninformed, arb_fills: arbitrage, background_maker_fills: background, pickoff_cost_quote: pickoffQuote };
}
