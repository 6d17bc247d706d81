/**
 * Public surface of the Binance loopback server behind `akira-mm feed`: the replayed market-data
 * protocol, and with `--accounts` Binance's trading endpoints (REST routes and the WebSocket API)
 * on the same {@link BinanceHttpServer}. What it serves and refuses: docs/hedge.md.
 */
export { startFeedServer, type FeedFaults, type FeedServer, type FeedServerOptions } from './feed-server.ts';
export { BinanceHttpServer, binanceError, WEIGHT_LIMIT_PER_MINUTE, type BinanceRoute, type RouteRequest, type RouteResponse, type UpgradeHandler } from './http-server.ts';
export { StreamHub, DEFAULT_HUB_LIMITS, type HubLimits, type HubStats } from './stream-hub.ts';
export { answerRequest, servedStreams, STREAM_NAME, type RequestContext } from './stream-requests.ts';
export { marketRoutes } from './market-routes.ts';
export { MarketService, depthWeight, type MarketSource, type SnapshotGate } from './market-service.ts';
export { Replayer, type ReplaySpeed, type ReplayStats } from './replayer.ts';
export { RecordingSource, type RecordingInfo, type ReplayEvent, type TextLevel, type TextSnapshot } from './recording.ts';
export { parseAccounts, readAccountsFile, type AccountSpec } from './accounts.ts';
export { TradingDesk, type DeskFaults, type DeskRules } from './trading-desk.ts';
export type { DeskOrder } from './desk-order.ts';
export { formatUnits8 } from './trading-format.ts';
export { DEFAULT_ORDER_LIMITS, OrderCounter, WeightMeter, type OrderLimits, type RateLimitStatus } from './rate-counters.ts';
export { tradingRoutes, type RouteFaults } from './trading-routes.ts';
export { TradingService } from './trading-service.ts';
export { WS_API_PATH, WebSocketApi } from './ws-api.ts';
export type { TradingSide } from './feed-server.ts';
