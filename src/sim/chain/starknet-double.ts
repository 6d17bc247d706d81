/**
 * The Starknet double: the chain, an ERC-20 contract per token of the venue's chain, LayerAkira's
 * core contract over the sim's ledger, and account contracts; invokes and fee estimates checked as
 * a sequencer would (./transactions.ts). Blocks close on every accepted transaction and, without
 * traffic, every `blockIntervalMs` on the venue clock, so block numbers move and the withdrawal
 * delay can pass.
 */
import type { ChainInfo, Clock, Timer } from '../../core/index.ts';
import type { MessageHasher } from '../../exchange/signer/index.ts';
import type { WithdrawRequest } from '../../exchange/wire/requests.ts';
import type { SimAccount } from '../accounts.ts';
import type { Ledger } from '../ledger.ts';
import { AccountContract } from './account-contract.ts';
import { CoreContract, type WithdrawDelay } from './core-contract.ts';
import { DoubleChain, type ChainCall, type ChainEvent, type IncludedTransaction } from './double-chain.ts';
import { Erc20Contract } from './erc20.ts';
import { hex } from './felts.ts';
import { DEFAULT_GAS_PRICES, QUERY_VERSION_3, RpcFailure, decodeMulticall, feeOf, gasOf, invokeHash, maxFeeOf, type GasPrices, type InvokeV3 } from './transactions.ts';

/** Hashes of the exchange's own transactions (rollups, payouts) count up from here. */
const OPERATOR_HASH_BASE = 0x7011_0000_0000_0000_0000_0000_0000_0000n;

/** The sequencer address fees are paid to (mainnet's). */
export const SEQUENCER_ADDRESS = 0x1176a1bd84444c89232ec27754698e5d2e7e1a7f1539f12027f28b23ec9f3d8n;

/** What the double needs from the sim. */
export interface StarknetDoubleOptions {
  readonly chain: ChainInfo;
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly accounts: Map<bigint, SimAccount>;
  readonly hasher: MessageHasher;
  nonceOf(account: bigint): number;
  withdrawSteps(): number;
  /** Default 2 blocks and 60 s. */
  readonly withdrawDelay?: WithdrawDelay;
  /** Default {@link DEFAULT_GAS_PRICES}. */
  readonly gasPrices?: GasPrices;
  /** An empty block closes after this long without one; default 6 000 ms; 0 = only with transactions. */
  readonly blockIntervalMs?: number;
}

/** A fee estimate in the RPC's units (fri). */
export interface FeeEstimate {
  readonly l1Gas: bigint;
  readonly l2Gas: bigint;
  readonly l1DataGas: bigint;
  readonly overallFee: bigint;
}

/** The double. */
export class StarknetDouble {
  readonly chain: DoubleChain;
  readonly core: CoreContract;
  readonly tokens = new Map<bigint, Erc20Contract>();
  readonly accounts = new Map<bigint, AccountContract>();
  readonly gasPrices: GasPrices;
  readonly chainInfo: ChainInfo;
  private timer: Timer | undefined;
  private operatorSequence = 0n;
  private readonly blockIntervalMs: number;

  constructor(private readonly options: StarknetDoubleOptions) {
    this.chainInfo = options.chain;
    this.chain = new DoubleChain(options.clock);
    this.gasPrices = options.gasPrices ?? DEFAULT_GAS_PRICES;
    this.blockIntervalMs = options.blockIntervalMs ?? 6_000;
    for (const token of options.chain.tokens.values()) {
      const contract = new Erc20Contract(BigInt(token.address), token.symbol, token.decimals);
      this.tokens.set(contract.address, contract);
      this.chain.deploy(contract.address, contract);
    }
    this.core = new CoreContract({
      chain: options.chain,
      ledger: options.ledger,
      accounts: options.accounts,
      tokens: this.tokens,
      hasher: options.hasher,
      nonceOf: options.nonceOf,
      withdrawSteps: options.withdrawSteps,
      withdrawDelay: options.withdrawDelay ?? { blocks: 2, seconds: 60 },
    });
    this.chain.deploy(this.core.address, this.core);
    // The core contract holds what backs every exchange balance (opening balances, the flow's
    // agents, deposits): a reserve so withdrawals can always be paid out of it.
    for (const token of this.tokens.values()) token.mint(this.core.address, 2n ** 200n);
  }

  /** Starts closing empty blocks on the clock; idempotent. */
  start(): void {
    if (this.timer !== undefined || this.blockIntervalMs <= 0) return;
    this.timer = this.options.clock.setInterval(
      () => {
        if (this.options.clock.nowMs() / 1000 - this.chain.latest().timestampSec >= this.blockIntervalMs / 1000) this.chain.mineEmpty();
      },
      this.blockIntervalMs,
      { unref: true },
    );
  }

  /** Stops the block timer; idempotent. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Deploys an account contract owned by `publicKey` (genesis: dev wallets, accounts files). */
  deployAccount(address: bigint, publicKey: bigint): AccountContract {
    const account = new AccountContract(address, publicKey);
    this.accounts.set(address, account);
    this.chain.deploy(address, account);
    return account;
  }

  token(symbol: string): Erc20Contract {
    const info = this.chainInfo.tokens.get(symbol);
    const contract = info === undefined ? undefined : this.tokens.get(BigInt(info.address));
    if (contract === undefined) throw new Error(`no ERC-20 ${symbol} on ${this.chainInfo.name}`);
    return contract;
  }

  /** Mints wallet funds at genesis. */
  fundWallet(address: bigint, symbol: string, amount: bigint): void {
    this.token(symbol).mint(address, amount);
  }

  walletOf(address: bigint, symbol: string): bigint {
    return this.token(symbol).balanceOf(address);
  }

  /** Estimates an invoke (`starknet_estimateFee`): runs its calls and throws every change away. */
  estimate(tx: InvokeV3, skipValidate: boolean): FeeEstimate {
    const account = this.account(tx.sender);
    if (tx.nonce < account.nonce) throw new RpcFailure(52, `Invalid transaction nonce: the account's nonce is ${account.nonce}, the transaction's ${tx.nonce}`);
    if (!skipValidate) this.validate(tx, account);
    const calls = decodeMulticall(tx.calldata);
    const result = this.chain.run(tx.sender, calls, false);
    if (!result.ok) throw executionError(result.callIndex, calls[result.callIndex], result.reason);
    const gas = gasOf(calls.length);
    return { ...gas, overallFee: feeOf(gas, this.gasPrices) };
  }

  /** Accepts an invoke (`starknet_addInvokeTransaction`) and includes it in a new block; its hash. */
  submit(tx: InvokeV3): bigint {
    if (tx.version === QUERY_VERSION_3) throw new RpcFailure(61, 'The transaction version is not supported: a query version cannot be sent');
    const account = this.account(tx.sender);
    if (tx.nonce !== account.nonce) throw new RpcFailure(52, `Invalid transaction nonce: the account's nonce is ${account.nonce}, the transaction's ${tx.nonce}`);
    const hash = this.validate(tx, account);
    if (this.chain.transaction(hash) !== undefined) throw new RpcFailure(59, `A transaction with the same hash already exists: ${hex(hash)}`);
    const calls = decodeMulticall(tx.calldata);
    const gas = gasOf(calls.length);
    const fee = feeOf(gas, this.gasPrices);
    const l2 = tx.bounds.l2Gas;
    if (l2.maxAmount < gas.l2Gas || l2.maxPricePerUnit < this.gasPrices.l2GasFri || tx.bounds.l1DataGas.maxAmount < gas.l1DataGas) {
      throw new RpcFailure(53, `The transaction's resources don't cover validation or the minimal transaction fee: needs ${gas.l2Gas} L2 gas at ${this.gasPrices.l2GasFri} fri and ${gas.l1DataGas} L1 data gas`);
    }
    const strk = this.token(this.chainInfo.nativeGasToken);
    const maxFee = maxFeeOf(tx);
    if (strk.balanceOf(tx.sender) < maxFee) {
      throw new RpcFailure(54, `Account balance is smaller than the transaction's maximal fee: ${strk.balanceOf(tx.sender)} of ${maxFee} fri (STRK base units)`);
    }
    const result = this.chain.run(tx.sender, calls);
    account.nonce += 1n;
    const events: ChainEvent[] = result.ok ? [...result.events] : [];
    events.push(strk.pay(tx.sender, SEQUENCER_ADDRESS, fee));
    this.chain.include([
      {
        hash,
        body: { ...tx.raw, transaction_hash: hex(hash) },
        succeeded: result.ok,
        ...(result.ok ? {} : { revertReason: revertMessage(result.callIndex, calls[result.callIndex], result.reason) }),
        actualFeeFri: fee,
        events,
        l2Gas: gas.l2Gas,
      },
    ]);
    return hash;
  }

  /**
   * A transaction of the exchange's own (a rollup, an off-chain withdrawal's payout): its calls run
   * with `sender` as caller outside the account checks, and it lands in its own block.
   */
  operatorTransaction(hash: bigint, sender: bigint, calls: readonly ChainCall[], extraEvents: readonly ChainEvent[], failed?: string): IncludedTransaction {
    const result = failed === undefined ? this.chain.run(sender, calls) : ({ ok: false, reason: failed, callIndex: 0 } as const);
    const block = this.chain.include([
      {
        hash,
        body: { type: 'INVOKE', version: '0x3', sender_address: hex(sender), calldata: [], signature: [], nonce: '0x0', transaction_hash: hex(hash) },
        succeeded: result.ok,
        ...(result.ok ? {} : { revertReason: result.reason }),
        actualFeeFri: 0n,
        events: result.ok ? [...result.events, ...extraEvents] : [],
        l2Gas: 0n,
      },
    ]);
    return block.transactions[0] as IncludedTransaction;
  }

  /**
   * The payout of an off-chain withdraw the exchange already took from its ledger: the core's
   * ERC-20 transfer to the receiver and its `Withdrawal` event (direct = false), in a transaction
   * of the executor's (`apply_withdraws` in a rollup, WithdrawComponent `apply_withdraw`).
   */
  payOffchainWithdraw(withdraw: WithdrawRequest, paid: bigint, gasPriceFri: bigint): IncludedTransaction {
    const transfer = this.tokens.get(BigInt(withdraw.token.address))?.pay(this.core.address, withdraw.receiver, paid);
    const event = this.core.withdrawalEvent(withdraw, gasPriceFri);
    this.operatorSequence += 1n;
    return this.operatorTransaction(OPERATOR_HASH_BASE + this.operatorSequence, BigInt(this.chainInfo.executorAddress), [], [
      ...(transfer === undefined ? [] : [transfer]),
      { fromAddress: this.core.address, keys: event.keys, data: event.data },
    ]);
  }

  /** The next hash of an exchange transaction (rollups, payouts). */
  nextOperatorHash(): bigint {
    this.operatorSequence += 1n;
    return OPERATOR_HASH_BASE + this.operatorSequence;
  }

  private account(address: bigint): AccountContract {
    const account = this.accounts.get(address);
    if (account === undefined) throw new RpcFailure(55, `Account validation failed: no account contract is deployed at ${hex(address)}`);
    return account;
  }

  /** The transaction hash, once the owner's signature over it checks out. */
  private validate(tx: InvokeV3, account: AccountContract): bigint {
    const hash = invokeHash(tx, this.chainInfo.chainId);
    const [r, s] = tx.signature;
    if (tx.signature.length !== 2 || r === undefined || s === undefined || !account.verifies(hash, r, s)) {
      throw new RpcFailure(55, `Account validation failed: the signature does not verify against the account's owner key for transaction hash ${hex(hash)}`);
    }
    return hash;
  }
}

function revertMessage(index: number, call: ChainCall | undefined, reason: string): string {
  return `call ${index}${call === undefined ? '' : ` to ${hex(call.to)} selector ${hex(call.selector)}`} reverted: ${reason}`;
}

function executionError(index: number, call: ChainCall | undefined, reason: string): RpcFailure {
  return new RpcFailure(41, 'Transaction execution error', { transaction_index: 0, execution_error: revertMessage(index, call, reason) });
}
