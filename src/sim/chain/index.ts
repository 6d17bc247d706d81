/** Public surface of the sim's Starknet double (JSON-RPC, ERC-20 and core contracts, accounts). */
export { StarknetDouble, SEQUENCER_ADDRESS, type StarknetDoubleOptions, type FeeEstimate } from './starknet-double.ts';
export { createRpcServer, SPEC_VERSION } from './rpc-server.ts';
export type { WithdrawDelay } from './core-contract.ts';
export type { ChainEvent, IncludedTransaction, PlacedEvent } from './double-chain.ts';
export { DEFAULT_GAS_PRICES, type GasPrices } from './transactions.ts';
export { Rollup, tradeEvent, type RollupBatch, type RollupDeps } from './rollup.ts';
