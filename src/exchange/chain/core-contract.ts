/**
 * What the LayerAkira core contract says, read over Starknet JSON-RPC with starknet.js's
 * `RpcProvider` (issue 11 item 1): the fee recipient every order must name (the contract pays
 * trade fees to `get_fee_recipient()`, kurosawa_akira @8942fe5 src/ExchangeBalanceComponent.cairo;
 * python_akira reads it the same way, AkiraExchangeClient.py `get_fee_recipient`), and the signer
 * key bound to our account (`get_signer(trader)`, SignerComponent.cairo), against which every
 * signature is checked. A mismatch with our constants means every order would be refused
 * (WRONG_FEE_RECIPIENT, FAILED_SIGN_CHECK) and no setting but the constant can fix it.
 */
import type { ChainInfo } from '../../core/index.ts';
import { ExchangeError } from '../client/errors.ts';
import { addressToHex } from '../wire/fields.ts';
import { starknetJs } from './starknet-js.ts';

/** The core contract's answers. */
export interface CoreContractView {
  /** `starknet_chainId` of the node. */
  readonly chainId: bigint;
  readonly feeRecipient: bigint;
  /** The Stark key bound to the account (0 when none). */
  readonly boundSigner: bigint;
  /** The account's on-chain nonce. */
  readonly nonce: bigint;
}

/** One constant that disagrees with the chain: ours, and what the chain says. */
export interface ContractMismatch {
  /** The setting to fix (an env key). */
  readonly key: 'CHAIN' | 'FEE_RECIPIENT' | 'SIGNER_PRIVATE_KEY';
  readonly what: string;
  readonly ours: string;
  readonly chain: string;
}

function firstFelt(result: readonly string[], what: string): bigint {
  const value = result[0];
  if (value === undefined) throw new Error(`${what} returned nothing`);
  return BigInt(value);
}

/**
 * Reads the core contract at `chain.coreAddress` through the node at `rpcUrl`.
 * @throws ExchangeError `EXCHANGE_RPC` naming the call that failed (unreachable node, no such
 *   contract, a view that does not exist).
 */
export async function readCoreContract(rpcUrl: string, chain: ChainInfo, account: bigint): Promise<CoreContractView> {
  const provider = new (starknetJs().RpcProvider)({ nodeUrl: rpcUrl });
  const call = async (entrypoint: string, calldata: string[]): Promise<bigint> => {
    try {
      return firstFelt(await provider.callContract({ contractAddress: chain.coreAddress, entrypoint, calldata }), entrypoint);
    } catch (error) {
      throw rpcError(`${entrypoint} on core ${chain.coreAddress}`, rpcUrl, error);
    }
  };
  let chainId: bigint;
  try {
    chainId = BigInt(await provider.getChainId());
  } catch (error) {
    throw rpcError('starknet_chainId', rpcUrl, error);
  }
  const [feeRecipient, boundSigner, nonce] = await Promise.all([
    call('get_fee_recipient', []),
    call('get_signer', [addressToHex(account)]),
    call('get_nonce', [addressToHex(account)]),
  ]);
  return { chainId, feeRecipient, boundSigner, nonce };
}

/** Every constant of ours the chain contradicts; empty when all agree. */
export function contractMismatches(chain: ChainInfo, starkKey: bigint, view: CoreContractView): ContractMismatch[] {
  const mismatches: ContractMismatch[] = [];
  if (view.chainId !== BigInt(chain.chainId)) {
    mismatches.push({ key: 'CHAIN', what: 'chain id', ours: `${chain.name} ${chain.chainId}`, chain: `0x${view.chainId.toString(16)}` });
  }
  if (view.feeRecipient !== BigInt(chain.feeRecipient)) {
    mismatches.push({ key: 'FEE_RECIPIENT', what: 'fee recipient', ours: addressToHex(BigInt(chain.feeRecipient)), chain: addressToHex(view.feeRecipient) });
  }
  if (view.boundSigner !== starkKey) {
    mismatches.push({ key: 'SIGNER_PRIVATE_KEY', what: 'signer bound to the account', ours: addressToHex(starkKey), chain: addressToHex(view.boundSigner) });
  }
  return mismatches;
}

/** One line per mismatch, naming both values and the key to fix. */
export function describeMismatch(mismatch: ContractMismatch): string {
  return `${mismatch.what}: ours ${mismatch.ours}, the core contract's ${mismatch.chain} (fix ${mismatch.key})`;
}

/**
 * Reads the core contract and refuses on any disagreement.
 * @throws ExchangeError `EXCHANGE_CONTRACT_MISMATCH` listing every mismatch, or `EXCHANGE_RPC`.
 */
export async function verifyCoreContract(rpcUrl: string, chain: ChainInfo, account: bigint, starkKey: bigint): Promise<CoreContractView> {
  const view = await readCoreContract(rpcUrl, chain, account);
  const mismatches = contractMismatches(chain, starkKey, view);
  if (mismatches.length > 0) {
    throw new ExchangeError('EXCHANGE_CONTRACT_MISMATCH', `refusing to start: ${mismatches.map(describeMismatch).join('; ')}`, { endpoint: `RPC ${rpcUrl}` });
  }
  return view;
}

function rpcError(what: string, rpcUrl: string, error: unknown): ExchangeError {
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new ExchangeError('EXCHANGE_RPC', `${what} failed: ${reason}`, { endpoint: `RPC ${rpcUrl}`, cause: error });
}
