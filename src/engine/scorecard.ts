/**
 * The scorecard a venue's market-maker programme and a desk judge quoting by: time with both
 * sides quoted, time at the touch, cap breaches, and PnL split by where it came from:
 * - spread: at each fill, what we received minus what we gave, both valued at the fair price of
 *   that moment, before fees (the edge the quote captured);
 * - inventory: the position carried between fills, marked to market as the fair price moves;
 * - fees and gas: what the fills and actions cost.
 * spread + inventory − fees − gas is the total PnL marked at the fair price; a test holds the sum
 * against the ledger's independent average-cost accounting. Order counts come from the order
 * manager, fill counts and volume from the ledger; the engine assembles the snapshot.
 */
import type { FillEffect } from './ledger.ts';

/** The time-weighted part of the scorecard at one moment. */
export interface QuotingSample {
  readonly quoting: boolean;
  readonly hasBid: boolean;
  readonly hasAsk: boolean;
  /** Our best bid is at or above the market's best bid (or the market has none). */
  readonly bidAtTouch: boolean;
  readonly askAtTouch: boolean;
}

/** PnL by component, quote tokens. fees and gas are costs (positive = paid). */
export interface PnlSplit {
  readonly spread: number;
  readonly inventory: number;
  readonly fees: number;
  readonly gas: number;
  /** spread + inventory − fees − gas. */
  readonly total: number;
}

/** The time-weighted shares and the cap breach count. */
export interface QuotingScores {
  /** Share of quoting time with both a bid and an ask resting. */
  readonly twoSidedUptime: number;
  /** Share of quoting time with our bid or our ask at the best price. */
  readonly timeAtTouch: number;
  /** Moments the position went past the inventory cap (entries into breach; must be 0). */
  readonly capBreaches: number;
  readonly quotingMs: number;
}

/** Collects the time-weighted scores and the PnL split. */
export class Scorecard {
  private quotingMs = 0;
  private twoSidedMs = 0;
  private atTouchMs = 0;
  private sinceMs: number | undefined;
  private last: QuotingSample | undefined;
  private capBreaches = 0;
  private inBreach = false;
  private positionBase = 0;
  private mark: number | undefined;
  private spread = 0;
  private inventory = 0;
  private fees = 0;
  private gas = 0;

  /**
   * Closes the interval since the last sample (crediting it with the last sample's state) and
   * opens one with this state.
   */
  sample(nowMs: number, state: QuotingSample): void {
    const last = this.last;
    if (last !== undefined && this.sinceMs !== undefined && nowMs > this.sinceMs && last.quoting) {
      const elapsed = nowMs - this.sinceMs;
      this.quotingMs += elapsed;
      if (last.hasBid && last.hasAsk) this.twoSidedMs += elapsed;
      if (last.bidAtTouch || last.askAtTouch) this.atTouchMs += elapsed;
    }
    if (this.sinceMs === undefined || nowMs >= this.sinceMs) this.sinceMs = nowMs;
    this.last = state;
  }

  /** The fair price moved: the position carried earns or loses the move. */
  markTo(fair: number | undefined): void {
    if (fair === undefined || !Number.isFinite(fair)) return;
    if (this.mark !== undefined) this.inventory += this.positionBase * (fair - this.mark);
    this.mark = fair;
  }

  /**
   * A fill's balance effect, valued at the current fair price (the fill's own average price when
   * no fair price is known yet). `baseDelta` and `quoteDelta` are in tokens.
   */
  addFill(effect: FillEffect, baseDelta: number, quoteDelta: number, fillPrice: number): void {
    if (this.mark === undefined) this.mark = fillPrice;
    // Value received minus value given at fair, before the fee: what the quote's edge earned.
    this.spread += quoteDelta + baseDelta * this.mark + effect.feeQuote;
    this.fees += effect.feeQuote;
    this.positionBase += baseDelta;
  }

  addGas(quoteAmount: number): void {
    this.gas += quoteAmount;
  }

  /** Records whether the position is past the cap now; a new breach is counted once. */
  checkCap(isOver: boolean): void {
    if (isOver && !this.inBreach) this.capBreaches++;
    this.inBreach = isOver;
  }

  scores(): QuotingScores {
    return {
      twoSidedUptime: this.quotingMs === 0 ? 0 : this.twoSidedMs / this.quotingMs,
      timeAtTouch: this.quotingMs === 0 ? 0 : this.atTouchMs / this.quotingMs,
      capBreaches: this.capBreaches,
      quotingMs: this.quotingMs,
    };
  }

  pnl(): PnlSplit {
    return {
      spread: this.spread,
      inventory: this.inventory,
      fees: this.fees,
      gas: this.gas,
      total: this.spread + this.inventory - this.fees - this.gas,
    };
  }
}
