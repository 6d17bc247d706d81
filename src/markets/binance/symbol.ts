/** Binance symbols are base and quote glued together (ETHUSDT); exchangeInfo says which is which. */

/** Quote assets recognised when exchangeInfo is not at hand (a recording), longest first. */
const KNOWN_QUOTES = ['FDUSD', 'USDT', 'USDC', 'TUSD', 'BUSD', 'BTC', 'ETH', 'BNB', 'EUR', 'TRY'];

/** ETHUSDT → { base: ETH, quote: USDT }; undefined when no known quote ends the symbol. */
export function splitSymbol(symbol: string): { base: string; quote: string } | undefined {
  const upper = symbol.toUpperCase();
  for (const quote of KNOWN_QUOTES) {
    if (upper.length > quote.length && upper.endsWith(quote)) return { base: upper.slice(0, -quote.length), quote };
  }
  return undefined;
}
