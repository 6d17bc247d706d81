/**
 * All our live orders on one book, over `/user/orders` pages (at most 20 each, REFERENCE §1.2
 * #13): by cursor when the venue gives one, else by offset. Reduced mode, because it always
 * carries the order `hash` (REFERENCE §1.3) and the hash is the order's identity for us.
 */
import { isTerminalStatus, type Pair } from '../../core/index.ts';
import type { RestClient, VenueOrder } from '../client/index.ts';

const PAGE_SIZE = 20;
/** 50 pages of 20: far more orders than a bot rests; a guard against a venue that loops. */
const MAX_PAGES = 50;

/** Our live (non-final) orders on `pair` and book, newest first. */
export async function listOpenOrders(rest: RestClient, pair: Pair, ecosystemBook: boolean): Promise<VenueOrder[]> {
  const orders: VenueOrder[] = [];
  let cursor: string | undefined;
  let offset = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await rest.orders({
      active: true,
      mode: 'reduced',
      limit: PAGE_SIZE,
      offset,
      toEcosystemBook: ecosystemBook,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const order of result.orders) {
      const isOurBook = order.base.symbol === pair.base && order.quote.symbol === pair.quote && order.isEcosystemBook === ecosystemBook;
      if (isOurBook && !isTerminalStatus(order.status)) orders.push(order);
    }
    if (result.orders.length + result.skipped < PAGE_SIZE) break;
    if (result.cursor !== undefined) cursor = result.cursor;
    else offset += PAGE_SIZE;
  }
  return orders;
}
