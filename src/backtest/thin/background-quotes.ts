/**
 * The thin venue's book without our orders: the background maker's one level a side. It is what
 * the venue publishes as its top of book and what the engine sees as "the market", as the recorded
 * book is on a replay of a deep venue.
 */
import type { Side } from '../../core/index.ts';
import type { MarketBook } from '../venue-exchange.ts';

/** The background maker's quotes: a price, the lots left and a time-priority rank per side. */
export class BackgroundQuotes implements MarketBook {
  /** False until its first (lagged) view of the reference mid. */
  isQuoting = false;
  bidTicks = 0;
  askTicks = 0;
  bidLots = 0;
  askLots = 0;
  /** Time priority against our orders at the same price (lower goes first). */
  bidRank = 0;
  askRank = 0;

  bestBidPrice(): number | undefined {
    return this.isQuoting && this.bidLots > 0 ? this.bidTicks : undefined;
  }

  bestAskPrice(): number | undefined {
    return this.isQuoting && this.askLots > 0 ? this.askTicks : undefined;
  }

  sizeAt(side: Side, priceTicks: number): number {
    if (!this.isQuoting) return 0;
    if (side === 'buy') return priceTicks === this.bidTicks ? this.bidLots : 0;
    return priceTicks === this.askTicks ? this.askLots : 0;
  }

  /** Lots left on a side (0 before the first quote). */
  lotsOn(side: Side): number {
    if (!this.isQuoting) return 0;
    return side === 'buy' ? this.bidLots : this.askLots;
  }

  priceOn(side: Side): number {
    return side === 'buy' ? this.bidTicks : this.askTicks;
  }

  rankOn(side: Side): number {
    return side === 'buy' ? this.bidRank : this.askRank;
  }

  /** Posts a side at a price with its lots and rank. */
  quote(side: Side, priceTicks: number, lots: number, rank: number): void {
    this.isQuoting = true;
    if (side === 'buy') {
      this.bidTicks = priceTicks;
      this.bidLots = lots;
      this.bidRank = rank;
    } else {
      this.askTicks = priceTicks;
      this.askLots = lots;
      this.askRank = rank;
    }
  }

  /** A taker took `lots` of a side. */
  take(side: Side, lots: number): void {
    if (side === 'buy') this.bidLots -= lots;
    else this.askLots -= lots;
  }
}
