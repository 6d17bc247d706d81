/**
 * What Binance spot offers that the venue does not serve, and how it says so.
 *
 * Binance spot's REST paths (every `/api/v3` endpoint of rest-api.md, as `@binance/spot` 32.0.4
 * calls them, and the user data stream's listenKey path retired on 2026-02-20). A path here that
 * the venue has no route for is answered 400 -1020 "This operation is not supported." (errors.md
 * UNSUPPORTED_OPERATION): a client learns the double does not serve it, instead of a 404 that
 * reads as a wrong URL.
 */
export const BINANCE_SPOT_REST_PATHS: readonly string[] = [
  'account',
  'account/commission',
  'aggTrades',
  'allOrderList',
  'allOrders',
  'avgPrice',
  'depth',
  'exchangeInfo',
  'executionRules',
  'historicalBlockTrades',
  'historicalTrades',
  'klines',
  'myAllocations',
  'myFilters',
  'myPreventedMatches',
  'myTrades',
  'openOrderList',
  'openOrders',
  'order',
  'order/amend/keepPriority',
  'order/amendments',
  'order/cancelReplace',
  'order/oco',
  'order/test',
  'orderList',
  'orderList/oco',
  'orderList/opo',
  'orderList/opoco',
  'orderList/oto',
  'orderList/otoco',
  'ping',
  'rateLimit/order',
  'referencePrice',
  'referencePrice/calculation',
  'sor/order',
  'sor/order/test',
  'ticker',
  'ticker/24hr',
  'ticker/bookTicker',
  'ticker/price',
  'ticker/tradingDay',
  'time',
  'trades',
  'uiKlines',
  'userDataStream',
].map((path) => `/api/v3/${path}`);

/**
 * The refusal of a time unit the venue does not serve (`X-MBX-TIME-UNIT` on REST, `timeUnit` on
 * a WebSocket URL; rest-api.md "General API Information"): times are in milliseconds only, so
 * MICROSECOND answers -1020 rather than milliseconds labelled as microseconds, and any other
 * value -1194 as Binance answers it. Undefined when the request is fine.
 */
export function timeUnitRefusal(value: string | undefined): { readonly code: number; readonly msg: string } | undefined {
  if (value === undefined || value.toUpperCase() === 'MILLISECOND') return undefined;
  if (value.toUpperCase() === 'MICROSECOND') return { code: -1020, msg: 'This operation is not supported.' };
  return { code: -1194, msg: 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.' };
}
