/** Public surface of `src/sim`: the embedded exchange (issue #3). */
export { startSim, type SimHandle, type SimOptions, type SimWallet } from './server.ts';
export { DEFAULT_SETTINGS, resolveSettings, type SimSettings, type StepsSettings } from './settings.ts';
export { FaultController, NO_FAULTS, type FaultSettings } from './faults.ts';
export { DEFAULT_FLOW, FLOW_MAKER, FLOW_TAKER, type FlowOptions } from './flow.ts';
export { DEFAULT_REFERENCE_FLOW, FLOW_ARBITRAGEUR, FLOW_COMPETITOR, checkReferenceFlowOptions, referenceMarkets, type ReferenceFlowOptions, type ReferenceFlowStats } from './reference-flow.ts';
export { parseAccountsFile, fundDevAccounts, describeAccounts, describeWallets, DEV_BALANCES, type SimAccount } from './accounts.ts';
export { StarknetDouble, SPEC_VERSION, type WithdrawDelay, type ChainEvent, type IncludedTransaction, type PlacedEvent } from './chain/index.ts';
export { VENUE_ERROR_NAMES, venueErrorCode, type VenueErrorName } from './errors.ts';
export { listMarkets, marketKey, type Market } from './markets.ts';
export type { Holding, TokenTotals } from './ledger.ts';
export type { SimOrder } from './orders.ts';
export { DEFAULT_RATE_LIMIT, NO_RATE_LIMIT, type RateLimitSettings } from './rate-limit.ts';
export type { PriceFollower, ReferenceMarket, ReferenceMarketListener } from './price-follower.ts';
