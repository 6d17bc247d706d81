/**
 * The account owner's side of the chain (issue 31): reads of everything `akira-mm account` shows
 * (wallets, allowances, exchange balances, the bound signer, executor access, nonces, pending
 * on-chain withdrawals) and the transactions it sends (bind, approve, deposit, grant, the on-chain
 * withdrawal's request and apply), all through starknet.js's own `RpcProvider`, `Account` and
 * `Contract` with LayerAkira's ABIs (./abi/, sources in ./abi/SOURCES.md). The owner key signs
 * transactions here and nowhere else; it is never in a message, an error or a log.
 *
 * Entry points and arguments: kurosawa_akira @8942fe5 src/LayerAkiraCore.cairo (ILayerAkiraCore),
 * DepositComponent `deposit(receiver, token, amount)`, SignerComponent `bind_to_signer(signer)`,
 * AccessorComponent `grant_access_to_executor(executor)` / `is_approved_executor(executor, user)`,
 * WithdrawComponent `request_onchain_withdraw(withdraw)` / `apply_onchain_withdraw(token, key)` /
 * `get_pending_withdraw(maker, token)`, LayerAkiraCore `get_withdraw_delay_params()`.
 */
import type { Account as StarknetAccount, Call, Contract as StarknetContract, RpcProvider } from 'starknet';
import type { ChainInfo, Secret, TokenInfo } from '../../core/index.ts';
import { ExchangeError } from '../client/errors.ts';
import type { WithdrawRequest } from '../wire/requests.ts';
import { addressToHex } from '../wire/fields.ts';
import { loadAbi } from './abis.ts';
import { starknetJs } from './starknet-js.ts';

/** One token as the owner's account holds it. Base units. */
export interface TokenHolding {
  readonly token: TokenInfo;
  /** ERC-20 balance of the account (its wallet). */
  readonly wallet: bigint;
  /** What the core contract may still take from the wallet (`allowance(account, core)`). */
  readonly allowance: bigint;
  /** The core contract's balance of the account (`balanceOf`): free and locked together. */
  readonly exchange: bigint;
  /** A pending on-chain withdrawal (`get_pending_withdraw`), when one waits. */
  readonly pendingWithdraw?: PendingWithdraw;
}

/** A requested on-chain withdrawal and when it was requested. */
export interface PendingWithdraw {
  readonly amount: bigint;
  readonly receiver: bigint;
  readonly requestedBlock: number;
  readonly requestedTs: number;
  /** The request as the contract stored it (to compute its key). */
  readonly withdraw: WithdrawRequest;
}

/** The account as the chain sees it. */
export interface AccountChainState {
  readonly chainId: bigint;
  readonly blockNumber: number;
  readonly blockTimestampSec: number;
  /** The account contract's transaction nonce. */
  readonly accountNonce: bigint;
  /** The Stark key bound on the core contract (0: none). */
  readonly boundSigner: bigint;
  readonly executorApproved: boolean;
  /** The exchange nonce (`get_nonce`): orders with a lower nonce are void. */
  readonly exchangeNonce: bigint;
  readonly withdrawSteps: number;
  readonly withdrawDelay: { readonly blocks: number; readonly seconds: number };
  readonly holdings: readonly TokenHolding[];
}

/** The outcome of a sent transaction, once included. */
export interface SentTransaction {
  readonly hash: string;
  readonly status: 'SUCCEEDED' | 'REVERTED';
  readonly revertReason?: string;
  readonly feeFri: bigint;
  readonly blockNumber: number;
}

/** Options of {@link OwnerAccount}. */
export interface OwnerAccountOptions {
  readonly rpcUrl: string;
  readonly chain: ChainInfo;
  /** The trading account: a Starknet account contract whose owner key is `ownerKey`. */
  readonly account: bigint;
  readonly ownerKey: Secret;
  /** Between two status polls while waiting for inclusion; default 2 000 ms. */
  readonly pollMs?: number;
}

const U128 = 2n ** 128n;

function toBigint(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' || typeof value === 'string') return BigInt(value);
  if (typeof value === 'boolean') return value ? 1n : 0n;
  throw new Error(`not a number: ${String(value)}`);
}

/** The first line of what starknet.js or the node said, with the contract's revert reason when there is one. */
export function chainReason(error: unknown): string {
  const base = (error as { baseError?: { data?: unknown; message?: string } } | undefined)?.baseError;
  const data = base?.data as { execution_error?: unknown; revert_error?: unknown } | string | undefined;
  if (typeof data === 'string') return data;
  const inner = data?.execution_error ?? data?.revert_error;
  if (typeof inner === 'string') return inner;
  if (inner !== undefined) return JSON.stringify(inner);
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/** The account owner's chain client. */
export class OwnerAccount {
  readonly provider: RpcProvider;
  readonly account: StarknetAccount;
  readonly core: StarknetContract;
  readonly #chain: ChainInfo;
  readonly #address: bigint;
  readonly #rpcUrl: string;
  readonly #pollMs: number;

  constructor(options: OwnerAccountOptions) {
    const starknet = starknetJs();
    // starknet.js warns on the console when a node's recent blocks hold too few transactions to
    // estimate a tip (it then uses 0): noise in a command's output, not a problem.
    starknet.logger.setLogLevel('ERROR');
    this.#chain = options.chain;
    this.#address = options.account;
    this.#rpcUrl = options.rpcUrl;
    this.#pollMs = options.pollMs ?? 2_000;
    this.provider = new starknet.RpcProvider({ nodeUrl: options.rpcUrl });
    this.account = new starknet.Account({ provider: this.provider, address: addressToHex(options.account), signer: options.ownerKey.reveal() });
    this.core = new starknet.Contract({ abi: loadAbi('core'), address: options.chain.coreAddress, providerOrAccount: this.provider });
  }

  /** The ERC-20 contract of `token`, with kurosawa_akira's IERC20 ABI. */
  erc20(token: TokenInfo): StarknetContract {
    return new (starknetJs().Contract)({ abi: loadAbi('erc20'), address: token.address, providerOrAccount: this.provider });
  }

  /**
   * The node's chain id (`starknet_chainId`).
   * @throws ExchangeError `EXCHANGE_RPC` when the node cannot be asked.
   */
  async readChainId(): Promise<bigint> {
    try {
      return BigInt(await this.provider.getChainId());
    } catch (error) {
      throw new ExchangeError('EXCHANGE_RPC', `starknet_chainId failed: ${chainReason(error)}`, { endpoint: `RPC ${this.#rpcUrl}`, cause: error });
    }
  }

  /**
   * Reads the account's state for `tokens`.
   * @throws ExchangeError `EXCHANGE_RPC` naming the read that failed (node unreachable, contract missing).
   */
  async readState(tokens: readonly TokenInfo[]): Promise<AccountChainState> {
    const address = addressToHex(this.#address);
    const read = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        throw new ExchangeError('EXCHANGE_RPC', `${what} failed: ${chainReason(error)}`, { endpoint: `RPC ${this.#rpcUrl}`, cause: error });
      }
    };
    const chainId = BigInt(await read('starknet_chainId', () => this.provider.getChainId()));
    const block = await read('starknet_getBlockWithTxHashes', () => this.provider.getBlockWithTxHashes('latest'));
    const accountNonce = BigInt(await read(`starknet_getNonce of ${address}`, () => this.provider.getNonceForAddress(address)));
    const boundSigner = toBigint(await read('get_signer', () => this.core.call('get_signer', [address])));
    const executorApproved = toBigint(await read('is_approved_executor', () => this.core.call('is_approved_executor', [this.#chain.executorAddress, address]))) === 1n;
    const exchangeNonce = toBigint(await read('get_nonce', () => this.core.call('get_nonce', [address])));
    const withdrawSteps = Number(toBigint(await read('get_withdraw_steps', () => this.core.call('get_withdraw_steps', []))));
    const delay = (await read('get_withdraw_delay_params', () => this.core.call('get_withdraw_delay_params', []))) as { block: bigint; ts: bigint };
    const holdings: TokenHolding[] = [];
    for (const token of tokens) {
      const erc20 = this.erc20(token);
      const wallet = toBigint(await read(`balanceOf on ${token.symbol}`, () => erc20.call('balanceOf', [address])));
      const allowance = toBigint(await read(`allowance on ${token.symbol}`, () => erc20.call('allowance', [address, this.#chain.coreAddress])));
      const exchange = toBigint(await read(`core balanceOf ${token.symbol}`, () => this.core.call('balanceOf', [address, token.address])));
      const pending = await read(`get_pending_withdraw ${token.symbol}`, () => this.provider.callContract({ contractAddress: this.#chain.coreAddress, entrypoint: 'get_pending_withdraw', calldata: [address, token.address] }));
      const pendingWithdraw = this.#parsePending(pending.map((item) => BigInt(item)));
      holdings.push({ token, wallet, allowance, exchange, ...(pendingWithdraw === undefined ? {} : { pendingWithdraw }) });
    }
    const timestamp = (block as { timestamp?: number }).timestamp ?? 0;
    const number = (block as { block_number?: number }).block_number ?? 0;
    return {
      chainId,
      blockNumber: number,
      blockTimestampSec: timestamp,
      accountNonce,
      boundSigner,
      executorApproved,
      exchangeNonce,
      withdrawSteps,
      withdrawDelay: { blocks: Number(delay.block), seconds: Number(delay.ts) },
      holdings,
    };
  }

  /** `(SlowModeDelay, Withdraw)` as the core serialises it; undefined when none (amount 0). */
  #parsePending(felts: readonly bigint[]): PendingWithdraw | undefined {
    const at = (index: number): bigint => felts[index] ?? 0n;
    const amount = at(4) + at(5) * U128;
    if (amount === 0n) return undefined;
    const token = this.#tokenAt(at(3));
    const feeToken = this.#tokenAt(at(8));
    if (token === undefined || feeToken === undefined) return undefined;
    const withdraw: WithdrawRequest = {
      maker: at(2),
      token,
      amount,
      salt: at(6),
      gasFee: { gasPerAction: Number(at(7)), feeToken, maxGasPrice: at(9) + at(10) * U128, conversionRate: [at(11) + at(12) * U128, at(13) + at(14) * U128] },
      receiver: at(15),
      signScheme: '',
    };
    return { amount, receiver: withdraw.receiver, requestedBlock: Number(at(0)), requestedTs: Number(at(1)), withdraw };
  }

  #tokenAt(address: bigint): TokenInfo | undefined {
    return [...this.#chain.tokens.values()].find((token) => BigInt(token.address) === address);
  }

  /** `bind_to_signer(signer)` on the core. */
  bindCall(signer: bigint): Call {
    return this.core.populate('bind_to_signer', [addressToHex(signer)]);
  }

  /** `approve(core, amount)` on the token. */
  approveCall(token: TokenInfo, amount: bigint): Call {
    return this.erc20(token).populate('approve', [this.#chain.coreAddress, amount]);
  }

  /** `deposit(receiver, token, amount)` on the core; receiver defaults to the account. */
  depositCall(token: TokenInfo, amount: bigint, receiver: bigint = this.#address): Call {
    return this.core.populate('deposit', [addressToHex(receiver), token.address, amount]);
  }

  /** `grant_access_to_executor(executor)` on the core. */
  grantCall(): Call {
    return this.core.populate('grant_access_to_executor', [this.#chain.executorAddress]);
  }

  /** `request_onchain_withdraw(withdraw)` on the core. */
  requestWithdrawCall(withdraw: WithdrawRequest): Call {
    const starknet = starknetJs();
    return this.core.populate('request_onchain_withdraw', [
      {
        maker: addressToHex(withdraw.maker),
        token: withdraw.token.address,
        amount: starknet.cairo.uint256(withdraw.amount),
        salt: addressToHex(withdraw.salt),
        gas_fee: {
          gas_per_action: withdraw.gasFee.gasPerAction,
          fee_token: withdraw.gasFee.feeToken.address,
          max_gas_price: starknet.cairo.uint256(withdraw.gasFee.maxGasPrice),
          conversion_rate: starknet.cairo.tuple(starknet.cairo.uint256(withdraw.gasFee.conversionRate[0]), starknet.cairo.uint256(withdraw.gasFee.conversionRate[1])),
        },
        receiver: addressToHex(withdraw.receiver),
        sign_scheme: 0,
      },
    ]);
  }

  /** `apply_onchain_withdraw(token, key)` on the core. */
  applyWithdrawCall(token: TokenInfo, key: bigint): Call {
    return this.core.populate('apply_onchain_withdraw', [token.address, addressToHex(key)]);
  }

  /**
   * The fee estimate of `calls` in fri, from a simulation of them.
   * @throws ExchangeError `EXCHANGE_CHAIN_REFUSED` with the revert reason when the simulation fails
   *   (nothing is sent), `EXCHANGE_RPC` when the node cannot be asked.
   */
  async estimate(calls: readonly Call[]): Promise<bigint> {
    try {
      const estimate = await this.account.estimateInvokeFee([...calls]);
      return BigInt(estimate.overall_fee);
    } catch (error) {
      throw this.#failure('estimate', error);
    }
  }

  /**
   * Sends `calls` as one transaction and waits for its inclusion, calling `onProgress` with the
   * hash once sent.
   * @throws ExchangeError `EXCHANGE_CHAIN_REFUSED` when the node refuses it (nothing included),
   *   `EXCHANGE_RPC` when the node cannot be asked.
   */
  async send(calls: readonly Call[], onProgress: (stage: 'sent', hash: string) => void = () => undefined): Promise<SentTransaction> {
    let hash: string;
    try {
      hash = (await this.account.execute([...calls])).transaction_hash;
    } catch (error) {
      throw this.#failure('send', error);
    }
    onProgress('sent', hash);
    try {
      const receipt = await this.provider.waitForTransaction(hash, { retryInterval: this.#pollMs });
      const value = receipt.value as { execution_status?: string; revert_reason?: string; actual_fee?: { amount: string }; block_number?: number };
      const status = value.execution_status === 'REVERTED' ? 'REVERTED' : 'SUCCEEDED';
      return {
        hash,
        status,
        ...(value.revert_reason === undefined ? {} : { revertReason: value.revert_reason }),
        feeFri: BigInt(value.actual_fee?.amount ?? '0x0'),
        blockNumber: value.block_number ?? 0,
      };
    } catch (error) {
      throw new ExchangeError('EXCHANGE_RPC', `waiting for ${hash} failed: ${chainReason(error)}`, { endpoint: `RPC ${this.#rpcUrl}`, cause: error });
    }
  }

  #failure(what: 'estimate' | 'send', error: unknown): ExchangeError {
    const reason = chainReason(error);
    const unreachable = /fetch failed|ECONNREFUSED|ENOTFOUND|socket hang up|network/i.test(error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause)}` : String(error));
    if (unreachable) return new ExchangeError('EXCHANGE_RPC', `${what} failed, nothing sent: ${reason}`, { endpoint: `RPC ${this.#rpcUrl}`, cause: error });
    return new ExchangeError('EXCHANGE_CHAIN_REFUSED', `${what === 'estimate' ? 'the transaction would revert' : 'the node refused the transaction'}, nothing sent: ${reason}`, { endpoint: `RPC ${this.#rpcUrl}`, cause: error });
  }
}
