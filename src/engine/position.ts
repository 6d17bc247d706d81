/**
 * Our position as the strategy, the caps and the gate see it: base held (free + locked, from the
 * ledger) minus the inventory target. The target is the base balance at start unless configured
 * (`InventoryTarget`): a wallet that is not value-balanced is not "short", and a price move does
 * not change the position without a fill. Balances as numbers are cached: they change on fills
 * only, and converting 18-decimal amounts is the slow, exact kind.
 */
import { numberToUnits, unitsToNumber, type InventoryView, type TickerRules } from '../core/index.ts';
import type { Ledger } from './ledger.ts';
import type { Holdings } from './pipeline/caps.ts';
import type { InventoryTarget } from './settings.ts';

/** The position of one pair, over its ledger. */
export class Position {
  private readonly numbers = { baseUnits: -1n, base: 0, quoteUnits: -1n, quote: 0, targetUnits: -1n, target: 0 };

  /**
   * The `start` target is the ledger's base balance at start (its `reset`, when quoting begins).
   * @param offsetUnits base held elsewhere that counts in the position (a hedger's position on the
   *   hedge venue): the target moves by it, so skew and caps see the net position across venues
   *   while funds stay this venue's own.
   */
  constructor(
    private readonly ledger: Ledger,
    private readonly rules: TickerRules,
    private readonly target: InventoryTarget,
    private readonly offsetUnits?: () => bigint,
  ) {}

  /** The inventory target in base units at this fair price, less base held elsewhere: position = base held − this. */
  targetUnits(fair: number | undefined): bigint {
    const offset = this.offsetUnits?.() ?? 0n;
    return offset === 0n ? this.ownTargetUnits(fair) : this.ownTargetUnits(fair) - offset;
  }

  private ownTargetUnits(fair: number | undefined): bigint {
    const target = this.target;
    if (target.kind === 'start') return this.ledger.startBaseUnits();
    if (target.kind === 'base') return target.units;
    if (fair === undefined || !(fair > 0)) return this.ledger.startBaseUnits();
    const { base, quote } = this.asNumbers();
    const targetBase = ((base * fair + quote) * target.fraction) / fair;
    return targetBase > 0 && Number.isFinite(targetBase) ? numberToUnits(targetBase, this.rules.baseDecimals, 'down') : 0n;
  }

  /** What we hold and aim for, exact, for the caps. */
  holdings(fair: number | undefined): Holdings {
    const balances = this.ledger.balances();
    return { baseUnits: balances.baseUnits, quoteUnits: balances.quoteUnits, targetUnits: this.targetUnits(fair) };
  }

  /** The strategy's view of our inventory. */
  inventoryView(fair: number): InventoryView {
    const { base, quote } = this.asNumbers();
    const cached = this.numbers;
    const targetUnits = this.targetUnits(fair);
    if (cached.targetUnits !== targetUnits) {
      cached.targetUnits = targetUnits;
      cached.target = unitsToNumber(targetUnits, this.rules.baseDecimals);
    }
    return { base, quote, targetBase: cached.target, lastFill: this.ledger.lastFill() };
  }

  /** Base held minus the target, base tokens. */
  positionBase(fair: number | undefined): number {
    return this.asNumbers().base - unitsToNumber(this.targetUnits(fair), this.rules.baseDecimals);
  }

  private asNumbers(): { base: number; quote: number } {
    const cached = this.numbers;
    const balances = this.ledger.balances();
    if (cached.baseUnits !== balances.baseUnits) {
      cached.baseUnits = balances.baseUnits;
      cached.base = unitsToNumber(balances.baseUnits, this.rules.baseDecimals);
    }
    if (cached.quoteUnits !== balances.quoteUnits) {
      cached.quoteUnits = balances.quoteUnits;
      cached.quote = unitsToNumber(balances.quoteUnits, this.rules.quoteDecimals);
    }
    return cached;
  }
}
