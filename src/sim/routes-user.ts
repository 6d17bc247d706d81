/**
 * The account endpoints (REFERENCE §1.2 rows 6–7 and 12–14): user info, listen key, one order,
 * a page of orders. An account sees only its own data; a router may read its client's order.
 */
import { formatUnits } from '../core/index.ts';
import { feltToHex } from '../exchange/wire/fields.ts';
import type { VenueContext } from './context.ts';
import { isFinal } from './engine.ts';
import { SimRejection } from './errors.ts';
import { formatOrderFull, formatOrderReduced } from './format.ts';
import type { Route, RouteContext } from './http.ts';
import type { SimOrder } from './orders.ts';
import { boolParam, feltParam, intParam } from './query.ts';
import type { Session } from './auth.ts';

function sessionOf(context: RouteContext): Session {
  if (context.session === undefined) throw new Error('auth route without a session');
  return context.session;
}

/** `trading_account` must be the logged-in account. */
function ownAccount(context: RouteContext): bigint {
  const account = feltParam(context.query, 'trading_account');
  if (account !== sessionOf(context).account) {
    throw new SimRejection('NOT_THIS_CLIENT_ORDER', `trading_account ${feltToHex(account)} is not the logged-in account`);
  }
  return account;
}

/** python_akira's `/user/orders` form: `is_active` without `active`. */
function isPythonAkiraList(query: URLSearchParams): boolean {
  return query.has('is_active') && !query.has('active');
}

function formatOrder(order: SimOrder, mode: number): Record<string, unknown> {
  return mode === 2 ? formatOrderReduced(order) : formatOrderFull(order);
}

function userInfo(venue: VenueContext, context: RouteContext): Record<string, unknown> {
  const account = ownAccount(context);
  const balances = [...venue.ledger.holdingsOf(account)].map(([token, holding]) => {
    const decimals = venue.chain.tokens.get(token)?.decimals ?? 18;
    return { token, balance: formatUnits(holding.free + holding.locked, decimals), locked: formatUnits(holding.locked, decimals) };
  });
  const fees = [...venue.engine.markets.values()]
    .filter((market) => market.isEcosystemBook)
    .map((market) => ({ base: market.base.symbol, quote: market.quote.symbol, fee: [venue.settings.makerPbips, venue.settings.takerPbips] }));
  return { nonce: venue.engine.nonceOf(account), balances, fees };
}

function findOrder(venue: VenueContext, context: RouteContext, account: bigint): Record<string, unknown> {
  const hash = feltParam(context.query, 'order_hash');
  const mode = intParam(context.query, 'mode', 1, 1, 2);
  const activeOnly = boolParam(context.query, ['active'], false) === true;
  const order = venue.engine.order(hash);
  if (order === undefined || order.account !== account || (activeOnly && isFinal(order))) {
    throw new SimRejection('NOT_FOUND', `Order ${feltToHex(hash)} not found`, { httpStatus: 404 });
  }
  return formatOrder(order, mode);
}

/**
 * A page of the account's orders. The answer's shape follows the SDK that asks, told apart by the
 * filter's name (docs/venue.md §8): python_akira @d8df017 (`HttpClient.py` `get_orders`) sends
 * `is_active` and reads the result as a bare list of orders (`[self._parse_order_response(x, mode)
 * for x in resp.data]`); akira-js (`getOrders`, `o["data"]`), the swagger and our client send
 * `active` (or nothing) and read `{data, cursor}`.
 */
function listOrders(venue: VenueContext, context: RouteContext): Record<string, unknown> | Record<string, unknown>[] {
  const account = ownAccount(context);
  const { query } = context;
  const mode = intParam(query, 'mode', 1, 1, 2);
  const limit = intParam(query, 'limit', venue.settings.maxOrdersPageSize, 1, venue.settings.maxOrdersPageSize);
  const offset = intParam(query, 'offset', 0, 0, 1_000_000_000);
  const cursor = intParam(query, 'cursor', offset, 0, 1_000_000_000);
  const active = boolParam(query, ['active', 'is_active'], undefined);
  const ecosystem = boolParam(query, ['to_ecosystem_book'], undefined);
  const isTaker = boolParam(query, ['is_taker'], undefined);
  const matching = venue.engine.ordersOf(account).filter((order) => {
    if (active !== undefined && active === isFinal(order)) return false;
    if (ecosystem !== undefined && ecosystem !== order.market.isEcosystemBook) return false;
    if (isTaker !== undefined && isTaker !== !order.request.flags.postOnly) return false;
    return true;
  });
  const page = matching.slice(cursor, cursor + limit).map((order) => formatOrder(order, mode));
  if (isPythonAkiraList(query)) return page;
  const next = cursor + page.length;
  return { data: page, cursor: next < matching.length ? String(next) : null };
}

/** Routes of this file by path. */
export function userRoutes(venue: VenueContext): Array<[string, Route]> {
  const get = (handle: Route['handle']): Route => ({ method: 'GET', auth: true, handle });
  return [
    ['/user/user_info', get((context) => userInfo(venue, context))],
    ['/user/listen_key', get((context) => venue.auth.listenKey(sessionOf(context)))],
    ['/user/order', get((context) => findOrder(venue, context, ownAccount(context)))],
    ['/user/orders', get((context) => listOrders(venue, context))],
    // A router reads its client's order: trading_account is the client (REFERENCE §1.2 #14).
    ['/user/order_router', get((context) => findOrder(venue, context, feltParam(context.query, 'trading_account')))],
  ];
}
