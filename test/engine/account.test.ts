import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type AccountState, type TokenBalance } from '../../src/core/index.ts';
import { Account, BudgetError, type AccountLimits, type AccountMember, type AccountOrder, type AccountPair } from '../../src/engine/index.ts';

const ETH_USDC: AccountPair = { name: 'ETH/USDC', base: 'ETH', quote: 'USDC', budgetBaseUnits: undefined, budgetQuoteUnits: undefined };
const STRK_USDC: AccountPair = { name: 'STRK/USDC', base: 'STRK', quote: 'USDC', budgetBaseUnits: undefined, budgetQuoteUnits: undefined };

/** The account's balances as the venue holds them, and its order history. */
class Books {
  readonly balances = new Map<string, TokenBalance>();
  orders: AccountOrder[] = [];
  set(token: string, total: bigint, locked = 0n): void {
    this.balances.set(token, { total, locked });
  }
  add(token: string, delta: bigint): void {
    const held = this.balances.get(token) ?? { total: 0n, locked: 0n };
    this.balances.set(token, { total: held.total + delta, locked: held.locked });
  }
  fetchAccount(): Promise<AccountState> {
    return Promise.resolve({ balances: new Map(this.balances), nonce: 0 });
  }
  fetchAccountOrders(): Promise<readonly AccountOrder[]> {
    return Promise.resolve(this.orders);
  }
}

/** A pair's engine as the account sees it: deltas, known orders, exposure, PnL and a halt. */
class Pair implements AccountMember {
  readonly deltaUnits = new Map<string, bigint>();
  readonly known = new Set<string>();
  exposure = 0n;
  pnl: number | undefined = 0;
  halted: string | undefined;
  constructor(readonly pair: AccountPair) {}
  deltas(): ReadonlyMap<string, bigint> {
    return this.deltaUnits;
  }
  healOrders(): Promise<void> {
    return Promise.resolve();
  }
  /** Drifts healed into this pair's ledger (base, quote). */
  readonly healed: [bigint, bigint][] = [];
  healDrift(baseDriftUnits: bigint, quoteDriftUnits: bigint): void {
    this.healed.push([baseDriftUnits, quoteDriftUnits]);
    this.deltaUnits.set(this.pair.base, (this.deltaUnits.get(this.pair.base) ?? 0n) + baseDriftUnits);
    this.deltaUnits.set(this.pair.quote, (this.deltaUnits.get(this.pair.quote) ?? 0n) + quoteDriftUnits);
  }
  knowsOrder(orderId: string): boolean {
    return this.known.has(orderId);
  }
  exposedNotionalUnits(): bigint {
    return this.exposure;
  }
  pnlTotal(): number | undefined {
    return this.pnl;
  }
  halt(_code: string, message: string): Promise<void> {
    this.halted = message;
    return Promise.resolve();
  }
  /** A fill of ours: the venue's balances and our deltas move together. */
  fill(books: Books, deltas: Record<string, bigint>, orderId: string): void {
    for (const [token, delta] of Object.entries(deltas)) {
      books.add(token, delta);
      this.deltaUnits.set(token, (this.deltaUnits.get(token) ?? 0n) + delta);
    }
    this.known.add(orderId);
    books.orders.push({ orderId, pair: this.pair.name, filledQtyUnits: 1n });
  }
}

function account(books: Books, pairs: readonly AccountPair[], limits: Partial<AccountLimits> = {}): Account {
  return new Account({
    clock: new ManualClock(0),
    logger: createSilentLogger(),
    venue: books,
    pairs,
    outbound: { ratePerS: 10, burst: 20, reservedForCancels: 2 },
    limits: () => ({ maxTotalNotionalUnits: 0n, maxDrawdownQuote: 0, limitsToken: 'USDC', limitsTokenDecimals: 6, ...limits }),
    driftToleranceUnits: 10n,
  });
}

/** ETH/USDC and STRK/USDC sharing an account that holds 1,000,000 units of each token. */
function twoPairs(): { books: Books; shared: Account; eth: Pair; strk: Pair } {
  const books = new Books();
  for (const token of ['ETH', 'STRK', 'USDC']) books.set(token, 1_000_000n);
  const shared = account(books, [ETH_USDC, STRK_USDC]);
  shared.allocate(books.balances);
  const eth = new Pair(ETH_USDC);
  const strk = new Pair(STRK_USDC);
  shared.join(eth);
  shared.join(strk);
  return { books, shared, eth, strk };
}

describe('an account shared by several pairs', () => {
  it('splits the free balance of a shared token evenly, gives an unshared one whole, and honours explicit budgets', () => {
    const books = new Books();
    books.set('ETH', 10n, 2n);
    books.set('STRK', 1_000n);
    books.set('USDC', 9_001n, 1n);
    const even = account(books, [ETH_USDC, STRK_USDC]);
    even.allocate(books.balances);
    expect(even.fundsOf('ETH/USDC')).toEqual({ baseUnits: 8n, quoteUnits: 4_500n });
    expect(even.fundsOf('STRK/USDC')).toEqual({ baseUnits: 1_000n, quoteUnits: 4_500n });
    const explicit = account(books, [{ ...ETH_USDC, budgetQuoteUnits: 6_000n }, STRK_USDC]);
    explicit.allocate(books.balances);
    expect(explicit.fundsOf('ETH/USDC').quoteUnits).toBe(6_000n);
    expect(explicit.fundsOf('STRK/USDC').quoteUnits).toBe(3_000n);
  });

  it('gives a pair alone the whole balance, its leftovers\' locked part included, whatever its budget keys say', () => {
    const books = new Books();
    books.set('ETH', 10n, 2n);
    books.set('USDC', 9_001n, 1n);
    const alone = account(books, [{ ...ETH_USDC, budgetQuoteUnits: 6_000n }]);
    alone.allocate(books.balances);
    expect(alone.fundsOf('ETH/USDC')).toEqual({ baseUnits: 10n, quoteUnits: 9_001n });
  });

  it('heals a small drift of a token one pair holds into that pair\'s ledger, and of a shared token into the account\'s start', async () => {
    const { books, shared, eth, strk } = twoPairs();
    books.add('ETH', 4n);
    books.add('USDC', -5n);
    await shared.checkBalances();
    expect(eth.healed).toEqual([[4n, 0n]]);
    expect(strk.healed).toEqual([]);
    expect(shared.expectedBalances()).toEqual(new Map([['ETH', 1_000_004n], ['USDC', 999_995n], ['STRK', 1_000_000n]]));
    await shared.checkBalances();
    expect(eth.healed).toHaveLength(1);
    expect(eth.halted).toBeUndefined();
  });

  it('refuses budgets that ask for more than the account holds, naming them', () => {
    const books = new Books();
    books.set('ETH', 10n);
    books.set('STRK', 10n);
    books.set('USDC', 100n);
    const greedy = account(books, [{ ...ETH_USDC, budgetQuoteUnits: 80n }, { ...STRK_USDC, budgetQuoteUnits: 30n }]);
    expect(() => greedy.allocate(books.balances)).toThrow(BudgetError);
    expect(() => greedy.allocate(books.balances)).toThrow(/BUDGET_QUOTE of ETH\/USDC and BUDGET_QUOTE of STRK\/USDC ask for 110 USDC/);
  });

  it('never takes one pair\'s fill for drift: balances = start + every pair\'s fills', async () => {
    const { books, shared, eth, strk } = twoPairs();
    strk.fill(books, { STRK: 500n, USDC: -250n }, 's1');
    eth.fill(books, { ETH: -3n, USDC: 9_000n }, 'e1');
    await shared.checkBalances();
    expect([eth.halted, strk.halted]).toEqual([undefined, undefined]);
    // The account ledger (`akira_mm_account_balance`): start + both pairs' fills, the shared USDC included.
    expect(shared.expectedBalances()).toEqual(new Map([['ETH', 999_997n], ['USDC', 1_008_750n], ['STRK', 1_000_500n]]));
    // Fee rounding (within the tolerance) is absorbed, not accumulated.
    books.add('USDC', -7n);
    await shared.checkBalances();
    books.add('USDC', -7n);
    await shared.checkBalances();
    expect(eth.halted).toBeUndefined();
  });

  it('names a trade none of our pairs made when the balances move without our fills', async () => {
    const { books, shared, eth, strk } = twoPairs();
    eth.fill(books, { ETH: 1n, USDC: -3_000n }, 'e1');
    // Someone else, with the same account: an order we never sent.
    books.add('USDC', -23_913_260n);
    books.orders.push({ orderId: '0xforeign', pair: 'STRK/USDC', filledQtyUnits: 10n });
    await shared.checkBalances();
    // Seen once, it is checked again before halting (a fill may still be on its way).
    expect(eth.halted).toBeUndefined();
    await shared.checkBalances();
    expect(eth.halted).toMatch(/none of our pairs made \(someone else trades this account\): 1 order\(s\) we never sent, e.g. 0xforeign on STRK\/USDC/);
    expect(strk.halted).toBe(eth.halted);
    expect(shared.haltReason).toBe(eth.halted);
  });

  it('does not halt on a difference the next check no longer sees (a fill that was on its way)', async () => {
    const books = new Books();
    for (const token of ['ETH', 'USDC']) books.set(token, 1_000_000n);
    const alone = account(books, [ETH_USDC]);
    alone.allocate(books.balances);
    const eth = new Pair(ETH_USDC);
    alone.join(eth);
    // The venue's balances already show a fill the stream has not brought yet …
    books.add('ETH', 1n);
    books.add('USDC', -3_000n);
    await alone.checkBalances();
    // … then it arrives, and the re-check finds nothing.
    eth.deltaUnits.set('ETH', 1n);
    eth.deltaUnits.set('USDC', -3_000n);
    await alone.checkBalances();
    expect(eth.halted).toBeUndefined();
    expect(alone.haltReason).toBeUndefined();
  });

  it('reports a bare drift when the venue shows no foreign order', async () => {
    const books = new Books();
    for (const token of ['ETH', 'USDC']) books.set(token, 1_000n);
    const alone = account(books, [ETH_USDC]);
    alone.allocate(books.balances);
    const eth = new Pair(ETH_USDC);
    alone.join(eth);
    books.add('ETH', -500n);
    await alone.checkBalances();
    await alone.checkBalances();
    // Alone on its account, the pair's drift is named as a pair alone has always named it.
    expect(eth.halted).toMatch(/inventory drift: venue balances differ from start \+ fills by -500 base units and 0 quote units/);
    expect(alone.haltReason).toBe(eth.halted);
  });

  it('leaves each pair the account notional cap minus every other pair\'s orders, and halts every pair on the account drawdown', () => {
    const books = new Books();
    for (const token of ['ETH', 'STRK', 'USDC']) books.set(token, 1_000_000n);
    const shared = account(books, [ETH_USDC, STRK_USDC], { maxTotalNotionalUnits: 10_000n, maxDrawdownQuote: 50 });
    shared.allocate(books.balances);
    const eth = new Pair(ETH_USDC);
    const strk = new Pair(STRK_USDC);
    shared.join(eth);
    shared.join(strk);
    eth.exposure = 3_000n;
    strk.exposure = 4_000n;
    expect(shared.notionalRoomUnits('ETH/USDC')).toBe(6_000n);
    expect(shared.notionalRoomUnits('STRK/USDC')).toBe(7_000n);
    eth.pnl = 10;
    strk.pnl = 5;
    shared.observePnl();
    eth.pnl = -20;
    strk.pnl = -15;
    shared.observePnl();
    expect(eth.halted).toMatch(/account drawdown 50\.000000 USDC reached the limit 50/);
    expect(strk.halted).toBe(eth.halted);
  });
});
