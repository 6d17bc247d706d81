/**
 * What quoting costs, in quote tokens: the fees and gas context the edge filter and the strategies
 * read, built once per gas quote (requotes ask for it several times each).
 */
import type { GasQuote, Venue, VenueInfo } from '../core/index.ts';
import { gasCostQuote, type EdgeContext } from './pipeline/edge.ts';

/** Fees and gas of one pair. */
export class Costs {
  private gas: GasQuote | undefined;
  private cached: EdgeContext | undefined;

  /** @param conversionMargin margin on the conversion rate, against us (fraction). */
  constructor(
    private readonly info: VenueInfo,
    private readonly venue: Pick<Venue, 'gasQuote'>,
    private readonly conversionMargin: number,
  ) {}

  /** A new gas quote from the venue. */
  onGasQuote(quote: GasQuote): void {
    this.gas = quote;
  }

  /**
   * The context of the gas quote in force. The same object while the gas figures stay the same:
   * the quote pipeline's memo compares it by identity, and a new object per requote (a venue
   * that never announced gas, whose own quote is asked each time) made every requote recompute
   * the whole pipeline and every side's diff.
   */
  edgeContext(): EdgeContext {
    const gas = this.gas ?? this.venue.gasQuote();
    const cached = this.cached;
    if (cached !== undefined && (cached.gas === gas || isSameGas(cached.gas, gas))) return cached;
    const context: EdgeContext = {
      rules: this.info.rules,
      makerFeePbips: this.info.makerFeePbips,
      steps: this.info.steps,
      gas,
      conversionMargin: this.conversionMargin,
    };
    this.cached = context;
    return context;
  }

  /**
   * Gas a maker fill is expected to cost (quote tokens): the venue charges makers no trade gas;
   * where cancels pay gas, the cancel of the requote a fill causes.
   */
  gasPerFill(): number {
    return this.info.steps.cancel <= 0 ? 0 : gasCostQuote(this.info.steps.cancel, this.edgeContext());
  }

  /** Gas of one taker fill (quote tokens). */
  takerGas(): number {
    return gasCostQuote(this.info.steps.trade, this.edgeContext());
  }
}

/** Same figures for what gas costs (`gasCostQuote` reads these two; the quote's time is not a cost). */
function isSameGas(a: GasQuote | undefined, b: GasQuote | undefined): boolean {
  return a !== undefined && b !== undefined && a.gasPriceUnits === b.gasPriceUnits && a.quotePerStrk === b.quotePerStrk;
}
