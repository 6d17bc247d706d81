/**
 * The hedge account as the hedger keeps it between reads: free balances (read from the venue at
 * start, after failures and every minute, moved by each hedge's executions in between), the
 * quote the hedges moved and the fees they paid, for their PnL and for what the account can
 * still absorb. Exact in the venue's units.
 */
import { unitsToNumber, type HedgeBalances, type HedgeRules, type Logger, type Side } from '../../core/index.ts';
import type { HedgeJournal } from './hedge-journal.ts';

/** One increment of a hedge's execution, venue units. */
export interface ExecutionIncrement {
  readonly side: Side;
  readonly qtyUnits: bigint;
  readonly quoteUnits: bigint;
  readonly commissionUnits: bigint;
}

/** Balances and the hedges' cash flows. */
export class HedgeWallet {
  private current: HedgeBalances | undefined;
  /** Quote the hedges moved, net, venue units (sells add, buys spend; sell fees deducted). */
  private quoteMoved = 0n;
  /** Fees paid, in quote units (a buy's base fee valued at its price). */
  private feesQuote = 0n;

  constructor(private readonly rules: () => HedgeRules) {}

  set(balances: HedgeBalances): void {
    this.current = balances;
  }

  get balances(): HedgeBalances | undefined {
    return this.current;
  }

  /** Moves the balances and cash flows by one execution increment. */
  apply(increment: ExecutionIncrement, timeMs: number): void {
    const { side, qtyUnits, quoteUnits, commissionUnits } = increment;
    if (side === 'sell') {
      this.quoteMoved += quoteUnits - commissionUnits;
      this.feesQuote += commissionUnits;
    } else {
      this.quoteMoved -= quoteUnits;
      this.feesQuote += qtyUnits > 0n ? (commissionUnits * quoteUnits) / qtyUnits : 0n;
    }
    const balances = this.current;
    if (balances === undefined) return;
    this.current =
      side === 'sell'
        ? { ...balances, baseFree: balances.baseFree - qtyUnits, quoteFree: balances.quoteFree + quoteUnits - commissionUnits, timeMs }
        : { ...balances, baseFree: balances.baseFree + qtyUnits - commissionUnits, quoteFree: balances.quoteFree - quoteUnits, timeMs };
  }

  /** Quote the hedges moved, net of fees, in quote tokens of the hedge venue. */
  quoteMovedTokens(): number {
    return unitsToNumber(this.quoteMoved, this.rules().quoteDecimals);
  }

  feesQuoteTokens(): number {
    return unitsToNumber(this.feesQuote, this.rules().quoteDecimals);
  }

  /**
   * Compares the account with the journal: what it holds now against what it held at the last
   * start plus what the hedges moved since (`hedgedVenueUnits`, base, venue units). A difference
   * (a deposit, a withdrawal, a trade outside the bot) is reported; the balances now become the
   * reference.
   */
  reconcile(journal: HedgeJournal, hedgedVenueUnits: bigint, logger: Logger, nowMs: number): void {
    const balances = this.current;
    if (balances === undefined) return;
    const rules = this.rules();
    const base = balances.baseFree + balances.baseLocked;
    const last = [...journal.records()].reverse().find((record) => record.t === 'balances');
    if (last !== undefined && last.t === 'balances') {
      const driftUnits = base - BigInt(last.base) - (hedgedVenueUnits - BigInt(last.hedged));
      if (driftUnits !== 0n) logger.warn({ driftBase: unitsToNumber(driftUnits, rules.baseDecimals), asset: rules.base }, 'the hedge account moved outside the bot since the last start (deposit, withdrawal or manual trade)');
    }
    journal.append({ t: 'balances', base: base.toString(), quote: (balances.quoteFree + balances.quoteLocked).toString(), hedged: hedgedVenueUnits.toString(), timeMs: nowMs });
  }
}
