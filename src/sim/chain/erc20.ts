/**
 * An ERC-20 token on the Starknet double (OpenZeppelin's Cairo ERC20 entry points, both the
 * camelCase and snake_case names; events `Transfer` and `Approval` with `from`/`to` and
 * `owner`/`spender` as keys). Wallet balances and allowances live here, in base units.
 */
import { Revert, type CallScope, type ChainEvent, type DoubleContract, type EntryPoint } from './double-chain.ts';
import { entries, feltAt, selectorOf, shortString, u256, u256At } from './felts.ts';

/** The class hash the double reports for every ERC-20 (any fixed felt; not a real class). */
export const ERC20_CLASS_HASH = 0xe20c1a55n;

/** An ERC-20 token's state and entry points. */
export class Erc20Contract implements DoubleContract {
  readonly classHash = ERC20_CLASS_HASH;
  private balances = new Map<bigint, bigint>();
  private allowances = new Map<string, bigint>();
  private supply = 0n;
  private readonly table: Map<bigint, EntryPoint>;

  constructor(
    readonly address: bigint,
    readonly symbol: string,
    readonly decimals: number,
  ) {
    const balanceOf: EntryPoint = (_scope, data) => u256(this.balanceOf(feltAt(data, 0, 'account')));
    const transferFrom: EntryPoint = (scope, data) => {
      const owner = feltAt(data, 0, 'sender');
      const allowed = this.allowance(owner, scope.caller);
      const amount = u256At(data, 2, 'amount');
      if (allowed < amount) throw new Revert('ERC20: insufficient allowance');
      this.allowances.set(`${owner}:${scope.caller}`, allowed - amount);
      this.move(scope, owner, feltAt(data, 1, 'recipient'), amount);
      return [1n];
    };
    this.table = entries<EntryPoint>({
      name: () => [shortString(symbol)],
      symbol: () => [shortString(symbol)],
      decimals: () => [BigInt(decimals)],
      totalSupply: () => u256(this.supply),
      total_supply: () => u256(this.supply),
      balanceOf,
      balance_of: balanceOf,
      allowance: (_scope, data) => u256(this.allowance(feltAt(data, 0, 'owner'), feltAt(data, 1, 'spender'))),
      approve: (scope, data) => {
        const spender = feltAt(data, 0, 'spender');
        const amount = u256At(data, 1, 'amount');
        this.allowances.set(`${scope.caller}:${spender}`, amount);
        scope.emit({ fromAddress: address, keys: [selectorOf('Approval'), scope.caller, spender], data: u256(amount) });
        return [1n];
      },
      transfer: (scope, data) => {
        this.move(scope, scope.caller, feltAt(data, 0, 'recipient'), u256At(data, 1, 'amount'));
        return [1n];
      },
      transferFrom,
      transfer_from: transferFrom,
    });
  }

  entry(selector: bigint): EntryPoint | undefined {
    return this.table.get(selector);
  }

  snapshot(): () => void {
    const balances = new Map(this.balances);
    const allowances = new Map(this.allowances);
    const supply = this.supply;
    return () => {
      this.balances = balances;
      this.allowances = allowances;
      this.supply = supply;
    };
  }

  balanceOf(account: bigint): bigint {
    return this.balances.get(account) ?? 0n;
  }

  allowance(owner: bigint, spender: bigint): bigint {
    return this.allowances.get(`${owner}:${spender}`) ?? 0n;
  }

  /** Creates tokens in a wallet (the double's genesis: dev wallets, the core contract's reserve). */
  mint(account: bigint, amount: bigint): void {
    this.balances.set(account, this.balanceOf(account) + amount);
    this.supply += amount;
  }

  /** A transfer outside any call (the fee a transaction pays its sequencer); its `Transfer` event. */
  pay(from: bigint, to: bigint, amount: bigint): ChainEvent {
    const balance = this.balanceOf(from);
    if (balance < amount) throw new Revert('ERC20: transfer amount exceeds balance');
    this.balances.set(from, balance - amount);
    this.balances.set(to, this.balanceOf(to) + amount);
    return { fromAddress: this.address, keys: [selectorOf('Transfer'), from, to], data: u256(amount) };
  }

  private move(scope: CallScope, from: bigint, to: bigint, amount: bigint): void {
    const balance = this.balanceOf(from);
    if (balance < amount) throw new Revert('ERC20: transfer amount exceeds balance');
    this.balances.set(from, balance - amount);
    this.balances.set(to, this.balanceOf(to) + amount);
    scope.emit({ fromAddress: this.address, keys: [selectorOf('Transfer'), from, to], data: u256(amount) });
  }
}
