/**
 * What the core contract says of one trading account, without any key: executor access
 * (`is_approved_executor(executor, user)`, AccessorComponent.cairo) and the exchange balance of
 * each token (`balanceOf(address, token)`: free and locked together), read with starknet.js's
 * `RpcProvider` (preflight's on-chain checks).
 */
import type { ChainInfo, TokenInfo } from '../../core/index.ts';
import { ExchangeError } from '../client/errors.ts';
import { addressToHex } from '../wire/fields.ts';
import { chainReason } from './owner-account.ts';
import { starknetJs } from './starknet-js.ts';

/** The account as the core contract has it. */
export interface AccountOnChain {
  readonly executorApproved: boolean;
  /** Exchange balance by token symbol, base units. */
  readonly balances: ReadonlyMap<string, bigint>;
}

/**
 * Reads executor access and the balances of `tokens`.
 * @throws ExchangeError `EXCHANGE_RPC` naming the call that failed.
 */
export async function readAccountOnChain(rpcUrl: string, chain: ChainInfo, account: bigint, tokens: readonly TokenInfo[]): Promise<AccountOnChain> {
  const provider = new (starknetJs().RpcProvider)({ nodeUrl: rpcUrl });
  const call = async (entrypoint: string, calldata: string[]): Promise<bigint[]> => {
    try {
      return (await provider.callContract({ contractAddress: chain.coreAddress, entrypoint, calldata })).map((item) => BigInt(item));
    } catch (error) {
      throw new ExchangeError('EXCHANGE_RPC', `${entrypoint} on core ${chain.coreAddress} failed: ${chainReason(error)}`, { endpoint: `RPC ${rpcUrl}`, cause: error });
    }
  };
  const [approved] = await call('is_approved_executor', [chain.executorAddress, addressToHex(account)]);
  const balances = new Map<string, bigint>();
  for (const token of tokens) {
    const [low = 0n, high = 0n] = await call('balanceOf', [addressToHex(account), token.address]);
    balances.set(token.symbol, low + high * 2n ** 128n);
  }
  return { executorApproved: approved === 1n, balances };
}
