/**
 * Quote sizes scaled down per side by the signals (issue 24 item 2, the size half). Sizes stay
 * numbers: the pipeline (src/engine/pipeline/ticks.ts) rounds each down to the lot and drops one
 * that falls under the pair's minimum, so a side shrunk far enough simply stops quoting.
 */
import type { DesiredQuote } from '../../src/core/index.ts';

/**
 * The quotes with each buy size multiplied by `buyFactor` and each sell size by `sellFactor`,
 * each factor taken at most 1 (a size never grows past the strategy's). The same array when
 * both are 1; prices, levels and references are kept.
 */
export function scaleSizes(quotes: DesiredQuote[], buyFactor: number, sellFactor: number): DesiredQuote[] {
  const buy = Math.min(1, buyFactor);
  const sell = Math.min(1, sellFactor);
  if (buy === 1 && sell === 1) return quotes;
  return quotes.map((quote) => {
    const factor = quote.side === 'buy' ? buy : sell;
    return factor === 1 ? quote : { ...quote, size: quote.size * factor };
  });
}
