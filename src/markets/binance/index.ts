/** Public surface of `src/markets/binance`: the spot market-data client and its replay server. */
export { BinanceReferenceFeed, BINANCE_REST_URL, BINANCE_WS_URL, DEFAULT_FEED_TIMING, type BinanceFeedOptions, type FeedTiming } from './reference-feed.ts';
export { BinanceMarketState, type BinanceMarketObserver, type FrameAction, type MarketStateOptions } from './market-state.ts';
export { DepthSync, type DepthSyncState, type DiffOutcome, type SnapshotOutcome } from './depth-sync.ts';
export { BinanceRestClient, type BinanceRestOptions } from './rest-client.ts';
export { BinanceError, type BinanceErrorCode } from './errors.ts';
export { FULL_SCALE, formatScaled, parseScaled, scaledToNumber, stepDecimals, type BinanceScale } from './decimals.ts';
export {
  parseDepthSnapshot,
  parseStreamFrame,
  parseSymbolInfo,
  type BinanceTrade,
  type BookTicker,
  type DepthDiff,
  type DepthSnapshot,
  type ScaledLevel,
  type StreamFrame,
  type SymbolInfo,
} from './messages.ts';
