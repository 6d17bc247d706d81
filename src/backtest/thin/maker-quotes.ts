/**
 * The thin venue's book without our orders: the simulated makers' quotes, one level a side each
 * (the background maker's and the competing maker's). It is what the venue publishes as its top of
 * book and what the engine sees as "the market", as the recorded book is on a replay of a deep
 * venue. Each quote has a time-priority rank drawn from the venue's one counter, so at one price
 * whoever came first is filled first, ours or theirs.
 */
import type { Side } from '../../core/index.ts';
import type { MarketBook } from '../venue-exchange.ts';

/** The makers, by index. */
export const BACKGROUND_MAKER = 0;
export const COMPETING_MAKER = 1;
export const MAKERS = [BACKGROUND_MAKER, COMPETING_MAKER] as const;
export type MakerIndex = (typeof MAKERS)[number];

function slot(maker: MakerIndex, side: Side): number {
  return maker * 2 + (side === 'buy' ? 0 : 1);
}

/** The makers' quotes: a price, the lots left and a rank per maker and side (no lots: no quote). */
export class MakerQuotes implements MarketBook {
  private readonly prices = [0, 0, 0, 0];
  private readonly lots = [0, 0, 0, 0];
  private readonly ranks = [0, 0, 0, 0];

  bestBidPrice(): number | undefined {
    return this.best('buy');
  }

  bestAskPrice(): number | undefined {
    return this.best('sell');
  }

  sizeAt(side: Side, priceTicks: number): number {
    let size = 0;
    for (const maker of MAKERS) if (this.lotsOf(maker, side) > 0 && this.priceOf(maker, side) === priceTicks) size += this.lotsOf(maker, side);
    return size;
  }

  /** The best price any maker shows on a side (highest bid, lowest ask). */
  best(side: Side): number | undefined {
    let best: number | undefined;
    for (const maker of MAKERS) {
      if (this.lotsOf(maker, side) <= 0) continue;
      const price = this.priceOf(maker, side);
      if (best === undefined || (side === 'buy' ? price > best : price < best)) best = price;
    }
    return best;
  }

  /** Lots a maker shows on a side (0: none). */
  lotsOf(maker: MakerIndex, side: Side): number {
    return this.lots[slot(maker, side)] as number;
  }

  priceOf(maker: MakerIndex, side: Side): number {
    return this.prices[slot(maker, side)] as number;
  }

  rankOf(maker: MakerIndex, side: Side): number {
    return this.ranks[slot(maker, side)] as number;
  }

  /** Posts a maker's side at a price with its lots and rank (0 lots: withdrawn). */
  quote(maker: MakerIndex, side: Side, priceTicks: number, lots: number, rank: number): void {
    const at = slot(maker, side);
    this.prices[at] = priceTicks;
    this.lots[at] = lots;
    this.ranks[at] = rank;
  }

  /** A taker took `lots` of a maker's side. */
  take(maker: MakerIndex, side: Side, lots: number): void {
    const at = slot(maker, side);
    this.lots[at] = (this.lots[at] as number) - lots;
  }
}
