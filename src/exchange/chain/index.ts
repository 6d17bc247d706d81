/** Public surface of the chain reads (Starknet JSON-RPC). */
export { contractMismatches, describeMismatch, readCoreContract, verifyCoreContract, type ContractMismatch, type CoreContractView } from './core-contract.ts';
export { OwnerAccount, chainReason, type AccountChainState, type OwnerAccountOptions, type PendingWithdraw, type SentTransaction, type TokenHolding } from './owner-account.ts';
export { loadAbi, type AbiName } from './abis.ts';
export { readAccountTrades, type ChainTrade } from './trades.ts';
export { checkSettlement, type OurFill, type SettlementFinding, type SettlementReport } from './settlement.ts';
export { readAccountOnChain, type AccountOnChain } from './account-reads.ts';
