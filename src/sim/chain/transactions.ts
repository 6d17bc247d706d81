/**
 * INVOKE v3 transactions on the double, checked the way a sequencer and an OpenZeppelin account
 * check them: the transaction hash recomputed with starknet.js's own `hash.calculateInvokeTransactionHash`
 * (so a client that hashes differently is refused), the owner's ECDSA signature over it, the
 * account nonce, the resource bounds against what the transaction consumes and the wallet's STRK
 * against its maximal fee. The calldata is the Cairo 1 account's `__execute__` multicall:
 * `[n, (to, selector, len, …calldata)×n]`.
 */
import { starknetJs } from '../../exchange/chain/starknet-js.ts';
import type { ChainCall } from './double-chain.ts';

/** A JSON-RPC error the double answers with (Starknet's codes). */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The version felt of a fee-estimate query (2^128 + 3). */
export const QUERY_VERSION_3 = 2n ** 128n + 3n;

interface Bound {
  readonly maxAmount: bigint;
  readonly maxPricePerUnit: bigint;
}

/** A parsed INVOKE v3. */
export interface InvokeV3 {
  readonly sender: bigint;
  readonly version: bigint;
  readonly calldata: readonly bigint[];
  readonly signature: readonly bigint[];
  readonly nonce: bigint;
  readonly tip: bigint;
  readonly bounds: { readonly l1Gas: Bound; readonly l2Gas: Bound; readonly l1DataGas: Bound };
  readonly paymasterData: readonly bigint[];
  readonly accountDeploymentData: readonly bigint[];
  readonly nonceDaMode: 0 | 1;
  readonly feeDaMode: 0 | 1;
  readonly proofFacts?: readonly bigint[];
  /** The transaction as received (returned by getTransactionByHash / getBlockWithTxs). */
  readonly raw: Record<string, unknown>;
}

function felt(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw new RpcFailure(-32602, `Invalid params: ${field} must be a 0x-hex felt, got ${JSON.stringify(value)}`);
  return BigInt(value);
}

/** Felts of an array field. */
export function felts(value: unknown, field: string): bigint[] {
  if (!Array.isArray(value)) throw new RpcFailure(-32602, `Invalid params: ${field} must be an array`);
  return (value as unknown[]).map((item, index) => felt(item, `${field}[${index}]`));
}

function bound(value: unknown, field: string): Bound {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { maxAmount: felt(record['max_amount'], `${field}.max_amount`), maxPricePerUnit: felt(record['max_price_per_unit'], `${field}.max_price_per_unit`) };
}

function daMode(value: unknown, field: string): 0 | 1 {
  if (value === 'L1' || value === undefined) return 0;
  if (value === 'L2') return 1;
  throw new RpcFailure(-32602, `Invalid params: ${field} must be L1 or L2`);
}

/** Parses an INVOKE v3 from the RPC's JSON. */
export function parseInvoke(value: unknown): InvokeV3 {
  if (typeof value !== 'object' || value === null) throw new RpcFailure(-32602, 'Invalid params: invoke_transaction is missing');
  const raw = value as Record<string, unknown>;
  if (raw['type'] !== undefined && raw['type'] !== 'INVOKE') throw new RpcFailure(61, `Unsupported transaction type ${JSON.stringify(raw['type'])}: the double takes INVOKE`);
  const version = felt(raw['version'], 'version');
  if (version !== 3n && version !== QUERY_VERSION_3) throw new RpcFailure(61, `The transaction version is not supported: ${raw['version'] as string} (the double takes v3)`);
  const bounds = (typeof raw['resource_bounds'] === 'object' && raw['resource_bounds'] !== null ? raw['resource_bounds'] : {}) as Record<string, unknown>;
  return {
    sender: felt(raw['sender_address'], 'sender_address'),
    version,
    calldata: felts(raw['calldata'], 'calldata'),
    signature: felts(raw['signature'] ?? [], 'signature'),
    nonce: felt(raw['nonce'], 'nonce'),
    tip: raw['tip'] === undefined ? 0n : felt(raw['tip'], 'tip'),
    bounds: { l1Gas: bound(bounds['l1_gas'], 'l1_gas'), l2Gas: bound(bounds['l2_gas'], 'l2_gas'), l1DataGas: bound(bounds['l1_data_gas'], 'l1_data_gas') },
    paymasterData: felts(raw['paymaster_data'] ?? [], 'paymaster_data'),
    accountDeploymentData: felts(raw['account_deployment_data'] ?? [], 'account_deployment_data'),
    nonceDaMode: daMode(raw['nonce_data_availability_mode'], 'nonce_data_availability_mode'),
    feeDaMode: daMode(raw['fee_data_availability_mode'], 'fee_data_availability_mode'),
    ...(Array.isArray(raw['proof_facts']) && raw['proof_facts'].length > 0 ? { proofFacts: felts(raw['proof_facts'], 'proof_facts') } : {}),
    raw,
  };
}

/** The transaction hash, computed by starknet.js's own helper. */
export function invokeHash(tx: InvokeV3, chainId: string): bigint {
  const toBn = (item: Bound) => ({ max_amount: item.maxAmount, max_price_per_unit: item.maxPricePerUnit });
  const hash = starknetJs().hash.calculateInvokeTransactionHash({
    senderAddress: tx.sender,
    version: `0x${tx.version.toString(16)}`,
    compiledCalldata: tx.calldata.map((item) => item.toString()),
    chainId: chainId as never,
    nonce: tx.nonce,
    accountDeploymentData: [...tx.accountDeploymentData],
    nonceDataAvailabilityMode: tx.nonceDaMode as never,
    feeDataAvailabilityMode: tx.feeDaMode as never,
    resourceBounds: { l1_gas: toBn(tx.bounds.l1Gas), l2_gas: toBn(tx.bounds.l2Gas), l1_data_gas: toBn(tx.bounds.l1DataGas) },
    tip: tx.tip,
    paymasterData: [...tx.paymasterData],
    ...(tx.proofFacts === undefined ? {} : { proofFacts: [...tx.proofFacts] }),
  } as never);
  return BigInt(hash);
}

/** Decodes a Cairo 1 account's `__execute__` calldata into calls. */
export function decodeMulticall(calldata: readonly bigint[]): ChainCall[] {
  const count = Number(calldata[0] ?? -1n);
  if (count < 0 || count > 1000) throw new RpcFailure(55, 'Account validation failed: calldata is not a Cairo 1 multicall ([n, (to, selector, len, …calldata)×n])');
  const calls: ChainCall[] = [];
  let at = 1;
  for (let i = 0; i < count; i++) {
    const to = calldata[at];
    const selector = calldata[at + 1];
    const length = calldata[at + 2];
    if (to === undefined || selector === undefined || length === undefined || at + 3 + Number(length) > calldata.length) {
      throw new RpcFailure(55, `Account validation failed: multicall call ${i} is cut short`);
    }
    calls.push({ to, selector, calldata: calldata.slice(at + 3, at + 3 + Number(length)) });
    at += 3 + Number(length);
  }
  if (at !== calldata.length) throw new RpcFailure(55, `Account validation failed: ${calldata.length - at} felts after the last call of the multicall`);
  return calls;
}

/** Gas the double charges: fixed parts per transaction and per call (no VM to measure it). */
export interface GasPrices {
  readonly l1GasFri: bigint;
  readonly l2GasFri: bigint;
  readonly l1DataGasFri: bigint;
}

/** The default prices (fri per unit), of mainnet's order of magnitude. */
export const DEFAULT_GAS_PRICES: GasPrices = { l1GasFri: 30_000_000_000_000n, l2GasFri: 8_000_000_000n, l1DataGasFri: 2_000_000_000n };

/** What a transaction of `calls` calls consumes. */
export function gasOf(calls: number): { readonly l1Gas: bigint; readonly l2Gas: bigint; readonly l1DataGas: bigint } {
  return { l1Gas: 0n, l2Gas: 600_000n + 900_000n * BigInt(calls), l1DataGas: 128n + 96n * BigInt(calls) };
}

/** The fee in fri of that consumption. */
export function feeOf(gas: ReturnType<typeof gasOf>, prices: GasPrices): bigint {
  return gas.l1Gas * prices.l1GasFri + gas.l2Gas * prices.l2GasFri + gas.l1DataGas * prices.l1DataGasFri;
}

/** The most the transaction may pay: every bound at its maximal price, plus the tip on L2 gas. */
export function maxFeeOf(tx: InvokeV3): bigint {
  const { l1Gas, l2Gas, l1DataGas } = tx.bounds;
  return l1Gas.maxAmount * l1Gas.maxPricePerUnit + l2Gas.maxAmount * (l2Gas.maxPricePerUnit + tx.tip) + l1DataGas.maxAmount * l1DataGas.maxPricePerUnit;
}
