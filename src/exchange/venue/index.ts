/** Public surface of the live venue adapter. */
export { LiveVenue, type LiveVenueDeps, type LiveVenueSettings } from './live-venue.ts';
export { buildOrderRequest, intentProblem, ORDER_SOURCE, SIGN_SCHEME, type OrderContext } from './order-builder.ts';
export { OrderTracker, hashOfOrderId, orderIdOf } from './order-tracker.ts';
export { PresignCache, intentKey, type PresignValidity, type SignedRequest } from './presign-cache.ts';
export type { BatchOrderSigner, VenueSigner } from './signer-port.ts';
export { MarketFeed, findFeeBook, type FeeBook, type MarketFeedHandlers, type MarketFeedOptions } from './market-feed.ts';
export { resolvePairSetup, type PairSetup } from './pair-setup.ts';
export { listOpenOrders } from './open-orders.ts';
export { AccountActions, DEFAULT_CONFIRM, type ConfirmSettings, type WithdrawOutcome } from './account-actions.ts';
export { FastSignSession, type FastSignSigner, type FastSignSessionOptions } from './fast-sign-session.ts';
export { PendingReports, confirmEffect, type ActionReport, type ConfirmTiming, type Confirmation } from './queued-actions.ts';
export { AccountSession, type AccountOrderRecord, type AccountSessionDeps } from './account-session.ts';
