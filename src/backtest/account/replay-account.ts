/**
 * One trading account's balances in a backtest of several pairs (`backtest --env A --env B`):
 * one set of token balances that every pair's replay venue settles its fills into, so a fill on
 * ETH/USDT moves the USDT that BTC/USDT may lock, as on the venue. What is locked is read from
 * every pair's resting orders when asked (order arrivals and balance reads, never per event).
 */
import { MmError, type TokenBalance } from '../../core/index.ts';
import type { SharedReplayFunds } from '../replay-venue.ts';

/** A pair's venue as the account reads it: its tokens and what its resting orders lock. */
export interface ReplayAccountPair {
  readonly base: string;
  readonly quote: string;
  lockedUnits(): { base: bigint; quote: bigint };
}

/** The account's balances, exact in base units. */
export class ReplayAccount implements SharedReplayFunds {
  private readonly totals: Map<string, bigint>;
  private readonly pairs: ReplayAccountPair[] = [];

  /** `start`: every token's balance at the start, base units. */
  constructor(start: ReadonlyMap<string, bigint>) {
    this.totals = new Map(start);
  }

  /** A pair's venue joins (before its first order). */
  join(pair: ReplayAccountPair): void {
    this.pairs.push(pair);
  }

  /** A token's balance now, base units. */
  totalUnits(token: string): bigint {
    return this.totals.get(token) ?? 0n;
  }

  freeUnits(token: string): bigint {
    return this.totalUnits(token) - this.lockedOf(token);
  }

  settle(base: string, baseDelta: bigint, quote: string, quoteDelta: bigint): void {
    this.totals.set(base, this.totalUnits(base) + baseDelta);
    this.totals.set(quote, this.totalUnits(quote) + quoteDelta);
    const negative = [base, quote].filter((token) => this.totalUnits(token) < 0n);
    if (negative.length > 0) {
      // The replay settles what the exchange matched; a negative balance is a bug or a strategy that overspends.
      throw new MmError('BACKTEST_NEGATIVE_BALANCE', `account balance went negative: ${negative.map((token) => `${token} ${this.totalUnits(token)}`).join(', ')}`);
    }
  }

  balances(): Map<string, TokenBalance> {
    return new Map([...this.totals].map(([token, total]) => [token, { total, locked: this.lockedOf(token) }]));
  }

  private lockedOf(token: string): bigint {
    let locked = 0n;
    for (const pair of this.pairs) {
      if (pair.base !== token && pair.quote !== token) continue;
      const units = pair.lockedUnits();
      if (pair.base === token) locked += units.base;
      if (pair.quote === token) locked += units.quote;
    }
    return locked;
  }
}
