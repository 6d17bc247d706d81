/**
 * Balances of every account in bigint base units, split into free and locked, plus the three
 * places money leaves the accounts: trade fees, gas, and withdrawals. Every change is a move
 * between two of these places with the source checked first, so nothing is created or lost:
 * for each token, Σ accounts + fees + gas + withdrawn = Σ deposits, at every step.
 * Holding the only writer of balances (ARCHITECTURE "one owner") makes that easy to prove.
 */
import { MmError } from '../core/index.ts';

/** One account's holding of one token. */
export interface Holding {
  free: bigint;
  locked: bigint;
}

/** Where collected money goes. */
export type Sink = 'fees' | 'gas' | 'withdrawn';

/** Per-token totals for the conservation check. */
export interface TokenTotals {
  readonly deposited: bigint;
  readonly accounts: bigint;
  readonly fees: bigint;
  readonly gas: bigint;
  readonly withdrawn: bigint;
}

function invariant(message: string): MmError {
  return new MmError('SIM_INVARIANT', message);
}

/** The balances book. Accounts are keyed by their address as a bigint. */
export class Ledger {
  private readonly holdings = new Map<bigint, Map<string, Holding>>();
  private readonly deposited = new Map<string, bigint>();
  private readonly sinks: Record<Sink, Map<string, bigint>> = { fees: new Map(), gas: new Map(), withdrawn: new Map() };

  /** Credits a starting balance (accounts file, dev accounts, flow agents). */
  deposit(account: bigint, token: string, amount: bigint): void {
    if (amount < 0n) throw invariant(`negative deposit ${amount}`);
    this.holding(account, token).free += amount;
    this.deposited.set(token, (this.deposited.get(token) ?? 0n) + amount);
  }

  hasAccount(account: bigint): boolean {
    return this.holdings.has(account);
  }

  /** Registers an account with no money yet (so it shows up in user_info). */
  open(account: bigint): void {
    if (!this.holdings.has(account)) this.holdings.set(account, new Map());
  }

  /** A copy of one holding (zero when none). */
  get(account: bigint, token: string): Holding {
    const holding = this.holdings.get(account)?.get(token);
    return { free: holding?.free ?? 0n, locked: holding?.locked ?? 0n };
  }

  /** Every token the account holds or held, with a copy of each holding. */
  holdingsOf(account: bigint): Map<string, Holding> {
    const out = new Map<string, Holding>();
    for (const [token, holding] of this.holdings.get(account) ?? []) out.set(token, { ...holding });
    return out;
  }

  /** Moves free → locked; false (nothing moved) when the free balance is short. */
  tryLock(account: bigint, token: string, amount: bigint): boolean {
    if (amount < 0n) throw invariant(`negative lock ${amount}`);
    const holding = this.holding(account, token);
    if (holding.free < amount) return false;
    holding.free -= amount;
    holding.locked += amount;
    return true;
  }

  /** Moves locked → free. */
  unlock(account: bigint, token: string, amount: bigint): void {
    if (amount < 0n) throw invariant(`negative unlock ${amount}`);
    const holding = this.holding(account, token);
    if (holding.locked < amount) throw invariant(`unlock ${amount} ${token} of ${holding.locked} locked`);
    holding.locked -= amount;
    holding.free += amount;
  }

  /** Moves `amount` from one account's free or locked balance to another account's free balance. */
  transfer(from: bigint, fromPart: keyof Holding, to: bigint, token: string, amount: bigint): void {
    this.debit(from, fromPart, token, amount);
    this.holding(to, token).free += amount;
  }

  /** Moves `amount` out of an account's free or locked balance into a sink. */
  collect(from: bigint, fromPart: keyof Holding, sink: Sink, token: string, amount: bigint): void {
    this.debit(from, fromPart, token, amount);
    const map = this.sinks[sink];
    map.set(token, (map.get(token) ?? 0n) + amount);
  }

  /** Totals of one token across accounts and sinks. */
  totals(token: string): TokenTotals {
    let accounts = 0n;
    for (const byToken of this.holdings.values()) {
      const holding = byToken.get(token);
      if (holding !== undefined) accounts += holding.free + holding.locked;
    }
    return {
      deposited: this.deposited.get(token) ?? 0n,
      accounts,
      fees: this.sinks.fees.get(token) ?? 0n,
      gas: this.sinks.gas.get(token) ?? 0n,
      withdrawn: this.sinks.withdrawn.get(token) ?? 0n,
    };
  }

  /** Every token ever deposited. */
  tokens(): string[] {
    return [...this.deposited.keys()];
  }

  private debit(account: bigint, part: keyof Holding, token: string, amount: bigint): void {
    if (amount < 0n) throw invariant(`negative amount ${amount}`);
    const holding = this.holding(account, token);
    if (holding[part] < amount) throw invariant(`debit ${amount} ${token} from ${holding[part]} ${part}`);
    holding[part] -= amount;
  }

  private holding(account: bigint, token: string): Holding {
    let byToken = this.holdings.get(account);
    if (byToken === undefined) {
      byToken = new Map();
      this.holdings.set(account, byToken);
    }
    let holding = byToken.get(token);
    if (holding === undefined) {
      holding = { free: 0n, locked: 0n };
      byToken.set(token, holding);
    }
    return holding;
  }
}
