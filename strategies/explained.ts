/**
 * Strategies here also explain themselves: the same pure computation that yields the quotes
 * returns its intermediate values (reference price, inventory in model units, σ, k and where k
 * came from, spreads), so logs and the status line can show why a quote sits where it does
 * (MM-NOTES §4 item 8: model calibration is opaque in other bots).
 */
import type { DesiredQuote, InventoryView, MarketView, Strategy } from '../src/core/index.ts';

/** What every explanation carries: the quotes and the price they were built around. */
export interface QuoteExplanation {
  /** Reference (mid or microprice) the quotes are built around, quote tokens per base token. */
  readonly reference: number;
  /** The quotes `quote()` returns for the same input. */
  readonly quotes: DesiredQuote[];
}

/** A strategy that can also return the model values behind its quotes. */
export interface ExplainedStrategy<Explanation extends QuoteExplanation> extends Strategy {
  /** Model values and quotes for this input; undefined when there is nothing to quote around (no usable book). */
  explain(view: MarketView, inventory: InventoryView): Explanation | undefined;
}
