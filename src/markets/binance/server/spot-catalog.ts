/**
 * What Binance spot offers, so the venue can say what it does not serve.
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
