/**
 * Strategies here also explain themselves: the same pure computation that yields the quotes
 * returns its intermediate values (reference price, inventory in model units, σ, k and where k
 * came from, spreads), so logs and the status line can show why a quote sits where it does
 * (MM-NOTES §4 item 8: model calibration is opaque in other bots).
 */
import type { DesiredQuote, InventoryView, MarketView, ModelInternals, Strategy } from '../src/core/index.ts';

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

/** `value` (a price distance) in bps of `reference`; 0 for an unusable reference. */
export function bpsOf(value: number, reference: number): number {
  return reference > 0 && Number.isFinite(reference) ? (value / reference) * 10_000 : 0;
}

/**
 * What every model's internals share: σ from the view, half the level-0 spread and the centre's
 * offset from the reference (bps of it), plus the model's own fields.
 */
export function modelInternals(view: MarketView, reference: number, levelZero: { readonly bid: number; readonly ask: number }, own: ModelInternals): ModelInternals {
  const sigma = Number.isFinite(view.volatility) && view.volatility > 0 ? view.volatility : 0;
  return {
    sigmaBps: bpsOf(sigma, reference),
    halfSpreadBps: bpsOf((levelZero.ask - levelZero.bid) / 2, reference),
    skewBps: bpsOf((levelZero.ask + levelZero.bid) / 2 - reference, reference),
    ...own,
  };
}
