/**
 * Public surface of the Binance loopback server behind `akira-mm feed`: the replayed market-data
 * protocol today; Binance's trading endpoints (the hedge issue) join it here as more routes and
 * upgrade handlers on the same {@link BinanceHttpServer}.
 */
export { startFeedServer, type FeedFaults, type FeedServer, type FeedServerOptions } from './feed-server.ts';
export { BinanceHttpServer, binanceError, WEIGHT_LIMIT_PER_MINUTE, type BinanceRoute, type RouteRequest, type RouteResponse, type UpgradeHandler } from './http-server.ts';
export { StreamHub, DEFAULT_HUB_LIMITS, type HubLimits, type HubStats } from './stream-hub.ts';
export { answerRequest, STREAM_NAME, type RequestContext } from './stream-requests.ts';
export { marketRoutes, depthWeight, type MarketSource, type SnapshotGate } from './market-routes.ts';
export { Replayer, type ReplaySpeed, type ReplayStats, type TextSnapshot } from './replayer.ts';
export { RecordingSource, type RecordingInfo, type ReplayEvent, type TextLevel } from './recording.ts';
export { parseAccounts, readAccountsFile, type AccountSpec } from './accounts.ts';
export { TradingDesk, type DeskFaults, type DeskOrder, type DeskRules } from './trading-desk.ts';
export { formatUnits8 } from './trading-format.ts';
export { DEFAULT_ORDER_LIMITS, tradingRoutes, type OrderLimits, type RouteFaults } from './trading-routes.ts';
export { WS_API_PATH, WebSocketApi } from './ws-api.ts';
export type { TradingSide } from './feed-server.ts';
