/**
 * What the feed reports from its two sources of the best prices, as pure functions: Binance's
 * `bookTicker` (real time) and the depth book we rebuild (every 100 ms) share the book's update
 * ids, so the newer of the two is the top. Scaled integers become the port's numbers here.
 */
import type { OrderBook, ReferenceDepth, ReferenceLevel, ReferenceTop } from '../../core/index.ts';
import { scaledToNumber, type BinanceScale } from './decimals.ts';
import type { BookTicker } from './messages.ts';

/** The two candidates and what is known of the book's last change. */
export interface TopSources {
  /** The last uncrossed ticker, if any. */
  readonly ticker: BookTicker | undefined;
  /** The synchronised depth book; undefined in ticker-only mode. */
  readonly book: OrderBook | undefined;
  readonly bookUpdateId: number;
  readonly bookExchangeMs: number | undefined;
  readonly bookReceivedMs: number;
  readonly scale: BinanceScale;
}

/** The newer top by update id (the ticker on a tie); undefined when neither has both sides. */
export function chooseTop(sources: TopSources): ReferenceTop | undefined {
  const { ticker, book, scale } = sources;
  const { priceDecimals, qtyDecimals } = scale;
  if (ticker !== undefined && (book === undefined || ticker.updateId >= sources.bookUpdateId)) {
    return {
      bidPrice: scaledToNumber(ticker.bidPrice, priceDecimals),
      bidQty: scaledToNumber(ticker.bidQty, qtyDecimals),
      askPrice: scaledToNumber(ticker.askPrice, priceDecimals),
      askQty: scaledToNumber(ticker.askQty, qtyDecimals),
      updateId: ticker.updateId,
      source: 'ticker',
      receivedMs: ticker.receivedMs,
      exchangeMs: undefined,
    };
  }
  const bid = book?.bestBid();
  const ask = book?.bestAsk();
  if (bid === undefined || ask === undefined) return undefined;
  return {
    bidPrice: scaledToNumber(bid.priceTicks, priceDecimals),
    bidQty: scaledToNumber(bid.qtyLots, qtyDecimals),
    askPrice: scaledToNumber(ask.priceTicks, priceDecimals),
    askQty: scaledToNumber(ask.qtyLots, qtyDecimals),
    updateId: sources.bookUpdateId,
    source: 'book',
    receivedMs: sources.bookReceivedMs,
    exchangeMs: sources.bookExchangeMs,
  };
}

/** Up to `maxLevels` levels per side of the book, best first, as the port's numbers. */
export function depthOf(book: OrderBook, maxLevels: number, scale: BinanceScale, updateId: number, receivedMs: number): ReferenceDepth {
  const convert = (side: 'buy' | 'sell'): ReferenceLevel[] =>
    book.levels(side, maxLevels).map((level) => ({ price: scaledToNumber(level.priceTicks, scale.priceDecimals), qty: scaledToNumber(level.qtyLots, scale.qtyDecimals) }));
  return { bids: convert('buy'), asks: convert('sell'), updateId, receivedMs };
}
