/**
 * Market symbols that glue base and quote together (ETHUSDT, as Binance spells them). A venue's
 * own listing (Binance's exchangeInfo) says which part is which; a recording does not carry one,
 * so its importers, its recorder and the Binance double split by the quote assets known here.
 */

/** Quote assets recognised when the venue's listing is not at hand (a recording), longest first. */
const KNOWN_QUOTES = ['FDUSD', 'USDT', 'USDC', 'TUSD', 'BUSD', 'BTC', 'ETH', 'BNB', 'EUR', 'TRY'];

/** ETHUSDT → { base: ETH, quote: USDT }; undefined when no known quote ends the symbol. */
export function splitSymbol(symbol: string): { base: string; quote: string } | undefined {
  const upper = symbol.toUpperCase();
  for (const quote of KNOWN_QUOTES) {
    if (upper.length > quote.length && upper.endsWith(quote)) return { base: upper.slice(0, -quote.length), quote };
  }
  return undefined;
}
