/**
 * LayerAkira's core contract on the Starknet double (kurosawa_akira @8942fe5 src/LayerAkiraCore.cairo
 * and its components): deposits from a wallet (DepositComponent `deposit`: transferFrom the caller,
 * mint to the receiver, event `Deposit`), the signer binding (SignerComponent `bind_to_signer`, once
 * per account, event `NewBinding`), executor access (AccessorComponent `grant_access_to_executor`
 * and `is_approved_executor` with the global epoch, event `ApprovalGranted`), balances
 * (`balanceOf`, `balancesOf`) and the on-chain withdrawal (WithdrawComponent
 * `request_onchain_withdraw`, `apply_onchain_withdraw` after `get_withdraw_delay_params`, events
 * `ReqOnChainWithdraw` and `Withdrawal`). The exchange balances are the sim's ledger: this contract
 * reads it and moves money in it only when the whole transaction succeeds.
 *
 * Component events are nested in the core's event enum without `#[flat]`, so their keys start with
 * the component variant's selector, then the event's (Cairo's derived `starknet::Event`).
 */
import { findTokenByAddress, type ChainInfo, type TokenInfo } from '../../core/index.ts';
import type { MessageHasher } from '../../exchange/signer/index.ts';
import type { WithdrawRequest } from '../../exchange/wire/requests.ts';
import type { SimAccount } from '../accounts.ts';
import type { Ledger } from '../ledger.ts';
import { Revert, type CallScope, type DoubleContract, type EntryPoint } from './double-chain.ts';
import type { Erc20Contract } from './erc20.ts';
import { entries, feltAt, hex, selectorOf, u256, u256At } from './felts.ts';

/** The class hash the double reports for the core contract. */
export const CORE_CLASS_HASH = 0xc02ec1a55n;

/** The slow-mode delay of on-chain withdrawals (`get_withdraw_delay_params`): blocks and seconds. */
export interface WithdrawDelay {
  readonly blocks: number;
  readonly seconds: number;
}

/** What the core contract reads and writes outside itself. */
export interface CoreDeps {
  readonly chain: ChainInfo;
  readonly ledger: Ledger;
  /** The exchange's accounts by address: a binding adds one (its signer is what orders are checked against). */
  readonly accounts: Map<bigint, SimAccount>;
  readonly tokens: ReadonlyMap<bigint, Erc20Contract>;
  readonly hasher: MessageHasher;
  nonceOf(account: bigint): number;
  withdrawSteps(): number;
  readonly withdrawDelay: WithdrawDelay;
}

interface PendingWithdraw {
  readonly block: number;
  readonly ts: number;
  readonly withdraw: WithdrawRequest;
  readonly felts: readonly bigint[];
  readonly key: bigint;
}

const WITHDRAW_FELTS = 15;

/** The core contract's state (bindings live in `deps.accounts`, balances in the ledger). */
export class CoreContract implements DoubleContract {
  readonly classHash = CORE_CLASS_HASH;
  readonly address: bigint;
  private readonly executor: bigint;
  /** Executor epoch the user granted (AccessorComponent `user_to_executor_to_epoch`). */
  private grants = new Map<bigint, number>();
  private pending = new Map<string, PendingWithdraw>();
  private completed = new Set<bigint>();
  private readonly globalEpoch = 1;
  private readonly table: Map<bigint, EntryPoint>;

  constructor(private readonly deps: CoreDeps) {
    this.address = BigInt(deps.chain.coreAddress);
    this.executor = BigInt(deps.chain.executorAddress);
    const balanceOf: EntryPoint = (scope, data) => u256(this.balance(scope, feltAt(data, 0, 'address'), this.token(feltAt(data, 1, 'token'))));
    this.table = entries<EntryPoint>({
      get_fee_recipient: () => [BigInt(deps.chain.feeRecipient)],
      get_wrapped_native_token: () => [BigInt(this.nativeToken().address)],
      get_signer: (_scope, data) => [this.signerOf(feltAt(data, 0, 'trader'))],
      get_signers: (_scope, data) => {
        const traders = spanAt(data, 0, 'traders');
        return [BigInt(traders.length), ...traders.map((trader) => this.signerOf(trader))];
      },
      get_nonce: (_scope, data) => [BigInt(deps.nonceOf(feltAt(data, 0, 'maker')))],
      balanceOf,
      balancesOf: (scope, data) => {
        const addresses = spanAt(data, 0, 'addresses');
        const tokens = spanAt(data, addresses.length + 1, 'tokens').map((address) => this.token(address));
        const out: bigint[] = [BigInt(addresses.length)];
        for (const address of addresses) {
          out.push(BigInt(tokens.length));
          for (const token of tokens) out.push(...u256(this.balance(scope, address, token)));
        }
        return out;
      },
      get_withdraw_steps: () => [BigInt(deps.withdrawSteps())],
      get_withdraw_delay_params: () => [BigInt(deps.withdrawDelay.blocks), BigInt(deps.withdrawDelay.seconds)],
      is_approved_executor: (_scope, data) => [this.isApproved(feltAt(data, 0, 'executor'), feltAt(data, 1, 'user')) ? 1n : 0n],
      get_epochs: (_scope, data) => [BigInt(this.globalEpoch), BigInt(this.grants.get(feltAt(data, 1, 'user')) ?? 0)],
      get_pending_withdraw: (_scope, data) => {
        const found = this.pending.get(`${feltAt(data, 1, 'token')}:${feltAt(data, 0, 'maker')}`);
        return found === undefined ? new Array<bigint>(2 + WITHDRAW_FELTS).fill(0n) : [BigInt(found.block), BigInt(found.ts), ...found.felts];
      },
      is_request_completed: (_scope, data) => [this.completed.has(feltAt(data, 0, 'w_hash')) ? 1n : 0n],
      deposit: (scope, data) => this.deposit(scope, feltAt(data, 0, 'receiver'), feltAt(data, 1, 'token'), u256At(data, 2, 'amount')),
      deposit_s: (scope, data) => this.deposit(scope, scope.caller, feltAt(data, 0, 'token'), u256At(data, 1, 'amount')),
      bind_to_signer: (scope, data) => this.bind(scope, feltAt(data, 0, 'signer')),
      grant_access_to_executor: (scope, data) => this.grant(scope, feltAt(data, 0, 'executor')),
      request_onchain_withdraw: (scope, data) => this.requestWithdraw(scope, data),
      apply_onchain_withdraw: (scope, data) => this.applyWithdraw(scope, feltAt(data, 0, 'token'), feltAt(data, 1, 'key')),
    });
  }

  entry(selector: bigint): EntryPoint | undefined {
    return this.table.get(selector);
  }

  snapshot(): () => void {
    const grants = new Map(this.grants);
    const pending = new Map(this.pending);
    const completed = new Set(this.completed);
    const accounts = new Map(this.deps.accounts);
    return () => {
      this.grants = grants;
      this.pending = pending;
      this.completed = completed;
      this.deps.accounts.clear();
      for (const [address, account] of accounts) this.deps.accounts.set(address, account);
    };
  }

  /** Grants executor access without a transaction (the pre-funded dev accounts of zero-config paper). */
  grantAtGenesis(account: bigint): void {
    this.grants.set(account, this.globalEpoch);
  }

  isApproved(executor: bigint, user: bigint): boolean {
    return executor === this.executor && this.grants.get(user) === this.globalEpoch;
  }

  signerOf(account: bigint): bigint {
    return this.deps.accounts.get(account)?.publicKey ?? 0n;
  }

  /** The pending on-chain withdrawal of `maker` in `token`, if any. */
  pendingWithdraw(maker: bigint, token: bigint): { readonly block: number; readonly ts: number; readonly amount: bigint; readonly key: bigint } | undefined {
    const found = this.pending.get(`${token}:${maker}`);
    if (found === undefined || this.completed.has(found.key)) return undefined;
    return { block: found.block, ts: found.ts, amount: found.withdraw.amount, key: found.key };
  }

  private nativeToken(): TokenInfo {
    const token = this.deps.chain.tokens.get(this.deps.chain.nativeGasToken);
    if (token === undefined) throw new Error(`chain ${this.deps.chain.name} lacks its gas token ${this.deps.chain.nativeGasToken}`);
    return token;
  }

  private token(address: bigint): TokenInfo {
    const token = findTokenByAddress(this.deps.chain, hex(address));
    if (token === undefined) throw new Revert(`UNKNOWN_TOKEN: ${hex(address)}`);
    return token;
  }

  /** Free + locked on the exchange, plus what this transaction has moved so far. */
  private balance(scope: CallScope, account: bigint, token: TokenInfo): bigint {
    const holding = this.deps.ledger.get(account, token.symbol);
    return holding.free + holding.locked + (scope.scratch.get(`${account}:${token.symbol}`) ?? 0n);
  }

  private freeBalance(scope: CallScope, account: bigint, token: TokenInfo): bigint {
    return this.deps.ledger.get(account, token.symbol).free + (scope.scratch.get(`${account}:${token.symbol}`) ?? 0n);
  }

  private addPending(scope: CallScope, account: bigint, token: TokenInfo, delta: bigint): void {
    const key = `${account}:${token.symbol}`;
    scope.scratch.set(key, (scope.scratch.get(key) ?? 0n) + delta);
  }

  private erc20(token: TokenInfo): Erc20Contract {
    const contract = this.deps.tokens.get(BigInt(token.address));
    if (contract === undefined) throw new Revert(`CONTRACT_NOT_DEPLOYED: ${token.address}`);
    return contract;
  }

  private deposit(scope: CallScope, receiver: bigint, tokenAddress: bigint, amount: bigint): bigint[] {
    const token = this.token(tokenAddress);
    const erc20 = this.erc20(token);
    const before = erc20.balanceOf(this.address);
    scope.call(this.address, erc20.address, selectorOf('transferFrom'), [scope.caller, this.address, ...u256(amount)]);
    const received = erc20.balanceOf(this.address) - before;
    if (received !== amount) throw new Revert(`WRONG_AMOUNT: expected ${amount}, got ${received}`);
    this.addPending(scope, receiver, token, amount);
    scope.afterSuccess(() => {
      this.deps.ledger.open(receiver);
      this.deps.ledger.deposit(receiver, token.symbol, amount);
    });
    scope.emit({ fromAddress: this.address, keys: [selectorOf('DepositEvent'), selectorOf('Deposit'), receiver], data: [tokenAddress, scope.caller, ...u256(amount)] });
    return [];
  }

  private bind(scope: CallScope, signer: bigint): bigint[] {
    const current = this.signerOf(scope.caller);
    if (current !== 0n) throw new Revert(`ALREADY BINDED: signer = ${current}`);
    if (signer === 0n) throw new Revert('SIGNER_CANT_BE_SET_TO_ZERO');
    const caller = scope.caller;
    this.deps.accounts.set(caller, { address: caller, publicKey: signer, balances: new Map() });
    scope.afterSuccess(() => this.deps.ledger.open(caller));
    scope.emit({ fromAddress: this.address, keys: [selectorOf('SignerEvent'), selectorOf('NewBinding'), caller, signer], data: [] });
    return [];
  }

  private grant(scope: CallScope, executor: bigint): bigint[] {
    if (executor !== this.executor) throw new Revert('Executor not wlsed');
    if ((this.grants.get(scope.caller) ?? 0) >= this.globalEpoch) throw new Revert('Already granted');
    this.grants.set(scope.caller, this.globalEpoch);
    scope.emit({ fromAddress: this.address, keys: [selectorOf('AccessorEvent'), selectorOf('ApprovalGranted'), executor], data: [scope.caller, BigInt(this.globalEpoch)] });
    return [];
  }

  private parseWithdraw(data: readonly bigint[]): WithdrawRequest {
    if (data.length < WITHDRAW_FELTS) throw new Revert(`Failed to deserialize param #1 (withdraw): ${data.length} of ${WITHDRAW_FELTS} felts`);
    const token = this.token(feltAt(data, 1, 'withdraw.token'));
    const feeToken = this.token(feltAt(data, 6, 'withdraw.gas_fee.fee_token'));
    return {
      maker: feltAt(data, 0, 'withdraw.maker'),
      token,
      amount: u256At(data, 2, 'withdraw.amount'),
      salt: feltAt(data, 4, 'withdraw.salt'),
      gasFee: {
        gasPerAction: Number(feltAt(data, 5, 'withdraw.gas_fee.gas_per_action')),
        feeToken,
        maxGasPrice: u256At(data, 7, 'withdraw.gas_fee.max_gas_price'),
        conversionRate: [u256At(data, 9, 'withdraw.gas_fee.conversion_rate.0'), u256At(data, 11, 'withdraw.gas_fee.conversion_rate.1')],
      },
      receiver: feltAt(data, 13, 'withdraw.receiver'),
      signScheme: feltAt(data, 14, 'withdraw.sign_scheme') === 0n ? '' : hex(feltAt(data, 14, 'withdraw.sign_scheme')),
    };
  }

  private requestWithdraw(scope: CallScope, data: readonly bigint[]): bigint[] {
    const withdraw = this.parseWithdraw(data);
    if (scope.caller !== withdraw.maker) throw new Revert(`WRONG_MAKER: withdraw maker (${withdraw.maker}) should be equal caller (${scope.caller})`);
    if (withdraw.amount <= 0n) throw new Revert('WITHDRAW_CANT_BE_ZERO');
    if (withdraw.receiver === 0n) throw new Revert('RECIPIENT_CANT_BE_ZERO');
    if (withdraw.signScheme !== '') throw new Revert('Should not be specified');
    const key = `${BigInt(withdraw.token.address)}:${withdraw.maker}`;
    const previous = this.pending.get(key);
    const hash = this.deps.hasher.withdraw(withdraw);
    if (previous !== undefined && previous.key === hash) throw new Revert('ALREADY_REQUESTED: withdraw for this token already requested');
    if (previous !== undefined && !this.completed.has(previous.key)) throw new Revert('NOT_YET_COMPLETED_PREV: previous withdraw has not been completed yet');
    if (this.completed.has(hash)) throw new Revert('ALREADY_COMPLETED: requested withdraw has already been completed');
    const steps = this.deps.withdrawSteps();
    if (withdraw.gasFee.gasPerAction !== steps) throw new Revert(`WRONG_GAS_PER_ACTION: expected ${steps} got ${withdraw.gasFee.gasPerAction}`);
    const native = this.nativeToken();
    if (withdraw.gasFee.feeToken.symbol !== native.symbol) throw new Revert(`WRONG_GAS_FEE_TOKEN: expected ${native.address} got ${withdraw.gasFee.feeToken.address}`);
    const balance = this.balance(scope, withdraw.maker, withdraw.token);
    const requiredGas = withdraw.gasFee.maxGasPrice * BigInt(steps);
    if (balance < withdraw.amount) throw new Revert(`FEW_BALANCE: need at least ${withdraw.amount}, but have only ${balance}`);
    if (withdraw.gasFee.feeToken.symbol === withdraw.token.symbol && withdraw.amount < requiredGas) {
      throw new Revert(`GAS_MORE_THAN_REQUESTED: failed amount (${withdraw.amount}) >= required_gas (${requiredGas})`);
    }
    if (withdraw.gasFee.feeToken.symbol !== withdraw.token.symbol && this.balance(scope, withdraw.maker, native) < requiredGas) {
      throw new Revert(`FEW_BALANCE_GAS: failed maker_balance (${this.balance(scope, withdraw.maker, native)}) >= required_gas (${requiredGas})`);
    }
    this.pending.set(key, { block: scope.blockNumber, ts: scope.blockTimestampSec, withdraw, felts: data.slice(0, WITHDRAW_FELTS), key: hash });
    scope.emit({ fromAddress: this.address, keys: [selectorOf('WithdrawEvent'), selectorOf('ReqOnChainWithdraw'), withdraw.maker], data: data.slice(0, WITHDRAW_FELTS) });
    return [];
  }

  private applyWithdraw(scope: CallScope, tokenAddress: bigint, key: bigint): bigint[] {
    const found = this.pending.get(`${tokenAddress}:${scope.caller}`);
    if (found === undefined) throw new Revert(`WRONG_MAKER: withdraw maker (0) should be equal caller (${scope.caller})`);
    if (key !== found.key) throw new Revert(`WRONG_WITHDRAW: wrong key (${key}) for pending withdraw (${found.key})`);
    if (this.completed.has(key)) throw new Revert('ALREADY_COMPLETED: withdraw has been completed already');
    const blockDelta = scope.blockNumber - found.block;
    const tsDelta = scope.blockTimestampSec - found.ts;
    const limit = this.deps.withdrawDelay;
    if (blockDelta < limit.blocks || tsDelta < limit.seconds) {
      throw new Revert(`FEW_TIME_PASSED: wait at least ${limit.blocks} block and ${limit.seconds} ts (for now its ${blockDelta} and ${tsDelta})`);
    }
    const { withdraw } = found;
    this.completed.add(key);
    this.payOut(scope, withdraw, withdraw.amount, 0n, true);
    return [];
  }

  /**
   * Burns `amount` of the maker's free exchange balance and pays it to the receiver's wallet, with
   * the `Withdrawal` event (WithdrawComponent `_transfer`). Also the off-chain path's payout.
   */
  payOut(scope: CallScope, withdraw: WithdrawRequest, amount: bigint, gasPrice: bigint, direct: boolean): void {
    const free = this.freeBalance(scope, withdraw.maker, withdraw.token);
    if (free < amount) throw new Revert(`FEW_BALANCE: need at least ${amount}, but have only ${free} free (the rest is locked in orders)`);
    this.addPending(scope, withdraw.maker, withdraw.token, -amount);
    scope.afterSuccess(() => this.deps.ledger.collect(withdraw.maker, 'free', 'withdrawn', withdraw.token.symbol, amount));
    scope.call(this.address, BigInt(withdraw.token.address), selectorOf('transfer'), [withdraw.receiver, ...u256(amount)]);
    scope.emit({ fromAddress: this.address, keys: [selectorOf('WithdrawEvent'), selectorOf('Withdrawal'), withdraw.maker], data: withdrawalData(withdraw, gasPrice, direct) });
  }

  /** The `Withdrawal` event of an off-chain withdraw the exchange already paid from its ledger. */
  withdrawalEvent(withdraw: WithdrawRequest, gasPrice: bigint): { readonly keys: bigint[]; readonly data: bigint[] } {
    return { keys: [selectorOf('WithdrawEvent'), selectorOf('Withdrawal'), withdraw.maker], data: withdrawalData(withdraw, gasPrice, false) };
  }
}

function withdrawalData(withdraw: WithdrawRequest, gasPrice: bigint, direct: boolean): bigint[] {
  const fee = withdraw.gasFee;
  return [
    BigInt(withdraw.token.address),
    withdraw.receiver,
    withdraw.salt,
    ...u256(withdraw.amount),
    ...u256(gasPrice),
    BigInt(fee.gasPerAction),
    BigInt(fee.feeToken.address),
    ...u256(fee.maxGasPrice),
    ...u256(fee.conversionRate[0]),
    ...u256(fee.conversionRate[1]),
    direct ? 1n : 0n,
  ];
}

function spanAt(data: readonly bigint[], index: number, name: string): bigint[] {
  const length = Number(feltAt(data, index, `${name}.len`));
  const out: bigint[] = [];
  for (let i = 0; i < length; i++) out.push(feltAt(data, index + 1 + i, `${name}[${i}]`));
  return out;
}

