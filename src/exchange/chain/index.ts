/** Public surface of the chain reads (Starknet JSON-RPC). */
export { contractMismatches, describeMismatch, readCoreContract, verifyCoreContract, type ContractMismatch, type CoreContractView } from './core-contract.ts';
