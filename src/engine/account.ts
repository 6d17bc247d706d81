/**
 * The trading account an engine quotes on, for N ≥ 1 pairs from one process (issue "many
 * pairs"; one pair is an account of one). The venue limits requests per trader, balances are per
 * account and a token (USDC) may be shared by pairs, so some things belong to the account, not to
 * a pair:
 * - the outbound budget: one token bucket for every pair (its tiers give risk-reducing cancels of
 *   any pair the first tokens, then every pair's front quotes);
 * - the funds: each pair may lock what its budget allows (`BUDGET_BASE` / `BUDGET_QUOTE`;
 *   default: the free balance split evenly across the pairs using the token), so no pair can
 *   starve another or earn NOT_ENOUGH_BALANCE; a pair alone counts the whole balance;
 * - the ledger: balances = start + every pair's fills, fees and gas, checked against the venue's
 *   after every pair's orders are healed, so one pair's fill is never another's drift; a drift in
 *   a token only one pair holds heals that pair's ledger, in a shared token the account's start; a
 *   change no pair of ours made is named as such (someone else trades this account);
 * - the account's risk: the notional of every order of every pair that could fill, and a drawdown
 *   kill on the pairs' PnL together (pairs quoted in the same token).
 */
import { unitsToNumber, type AccountState, type Clock, type ENGINE_KEYS, type Logger, type SettingsOf, type TokenBalance } from '../core/index.ts';
import { TokenBucket } from './orders/budget.ts';
import { DrawdownGuard } from './safety/drawdown.ts';
import type { HaltReason } from './safety/safety.ts';
import type { OutboundBudget } from './settings.ts';

/** A drift beyond the tolerance is judged again this long later before it halts every pair. */
const DRIFT_CONFIRM_MS = 2_000;

type PairBudgetSettings = SettingsOf<typeof ENGINE_KEYS, 'account-pair'>;

/** A pair as the account knows it, with what it may lock (BUDGET_BASE/BUDGET_QUOTE in base units; undefined = its even share of the free balance). */
export interface AccountPair extends PairBudgetSettings {
  /** `BASE/QUOTE`, e.g. `ETH/USDC`. */
  readonly name: string;
  readonly base: string;
  readonly quote: string;
}

/** What each pair's engine offers the account. */
export interface AccountMember {
  readonly pair: AccountPair;
  /** The pair's fills, fees and gas since start, by token symbol, base units. */
  deltas(): ReadonlyMap<string, bigint>;
  /** Brings the pair's orders in line with the venue's records (fills applied, unknowns settled). */
  healOrders(): Promise<void>;
  /**
   * The venue holds this much more (negative: less) of the pair's own tokens than its ledger
   * (tokens no other pair holds): the ledger takes the venue's figures, and reports the drift.
   */
  healDrift(baseDriftUnits: bigint, quoteDriftUnits: bigint): void;
  /** True when the order is one of this pair's (its table or journal knows it). */
  knowsOrder(orderId: string): boolean;
  /** Notional of every order of the pair that could still fill, quote units. */
  exposedNotionalUnits(): bigint;
  /** Total PnL marked at the fair price, quote tokens; undefined before the first price. */
  pnlTotal(): number | undefined;
  halt(code: HaltReason['code'], message: string): Promise<void>;
}

/** An order on the account, as the venue's history lists it, for naming changes no pair of ours made. */
export interface AccountOrder {
  readonly orderId: string;
  readonly pair: string;
  readonly filledQtyUnits: bigint;
}

/** The account-wide reads the account needs (any pair's venue answers them). */
export interface AccountVenue {
  fetchAccount(): Promise<AccountState>;
  /** Recent orders of the account on every pair (optional: without it a foreign trade is reported as bare drift). */
  fetchAccountOrders?(): Promise<readonly AccountOrder[]>;
}

/** The account-wide limits, in the token they count in (RISK_MAX_TOTAL_NOTIONAL_ACCOUNT, RISK_MAX_DRAWDOWN_ACCOUNT). */
export interface AccountLimits {
  /** The quote token the limits count in (every pair quoted in it counts); undefined when they are off. */
  readonly limitsToken: string | undefined;
  readonly limitsTokenDecimals: number;
  /** Notional of every pair's orders that could fill, together, base units of the limits token; 0 = off. */
  readonly maxTotalNotionalUnits: bigint;
  /** Drawdown kill on the pairs' PnL together, limits-token tokens; 0 = off. */
  readonly maxDrawdownQuote: number;
}

/** No account-wide limits (before `allocate`, and for a pair alone). */
export const NO_ACCOUNT_LIMITS: AccountLimits = { limitsToken: undefined, limitsTokenDecimals: 0, maxTotalNotionalUnits: 0n, maxDrawdownQuote: 0 };

/** Settings of an account. */
export interface AccountOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly venue: AccountVenue;
  readonly pairs: readonly AccountPair[];
  readonly outbound: OutboundBudget;
  /** The account-wide limits from the balances at `allocate` (`auto` values depend on them). */
  readonly limits: (balances: ReadonlyMap<string, TokenBalance>) => AccountLimits;
  /** Balance drift tolerated silently per token (fee rounding), base units. */
  readonly driftToleranceUnits: bigint;
}

/** Funds a pair may use. */
export interface PairFunds {
  readonly baseUnits: bigint;
  readonly quoteUnits: bigint;
}

/** The account at a glance, for `/health`, metrics and the status line. */
export interface AccountSnapshot {
  /** Why every pair was halted, if the account halted them. */
  readonly haltReason: string | undefined;
  /** The limits token (the first pair's quote), and the pairs' PnL in it together (pairs with a price). */
  readonly limitsToken: string | undefined;
  readonly pnlQuote: number;
  /** Notional of every order of every pair quoted in the limits token that could still fill, base units of that token. */
  readonly exposedNotionalUnits: bigint;
  /** The limits in force (0 = off). */
  readonly maxTotalNotionalUnits: bigint;
  readonly maxDrawdownQuote: number;
  /** Each pair's budget (after `allocate`). */
  readonly budgets: ReadonlyMap<string, PairFunds>;
}

/** The error of budgets that ask for more than the account holds. */
export class BudgetError extends Error {}

/** One account, its pairs, and what they share. */
export class Account {
  readonly bucket: TokenBucket;
  /** One pair alone: it counts the whole balance (budgets are for sharing) and its drift is its own to name. */
  private readonly alone: boolean;
  /** A large drift seen once and not yet confirmed by a later check. */
  private driftSuspected = false;
  private readonly members: AccountMember[] = [];
  private readonly drawdown: DrawdownGuard;
  private allocation: Map<string, PairFunds> | undefined;
  /** Balances at allocation, plus small drifts absorbed since (fee rounding), by token. */
  private readonly expectedStart = new Map<string, bigint>();
  private checking: Promise<void> | undefined;
  private checkAgain = false;
  private halted: string | undefined;
  private limits: AccountLimits = NO_ACCOUNT_LIMITS;

  constructor(private readonly options: AccountOptions) {
    this.bucket = new TokenBucket(options.outbound, options.clock);
    this.drawdown = new DrawdownGuard(0);
    this.alone = options.pairs.length === 1;
  }

  /** Why the account halted, if it did. */
  get haltReason(): string | undefined {
    return this.halted;
  }

  /**
   * Splits the account's free balances into the pairs' budgets, takes the starting balances the
   * account ledger counts from, and resolves the account's limits. Call once, after every pair's
   * leftovers were settled.
   * @throws BudgetError naming the token when explicit budgets ask for more than is free.
   */
  allocate(balances: ReadonlyMap<string, TokenBalance>): void {
    const limits = this.options.limits(balances);
    this.limits = limits;
    this.drawdown.setLimit(limits.maxDrawdownQuote);
    const allocation = new Map<string, { baseUnits: bigint; quoteUnits: bigint }>();
    for (const pair of this.options.pairs) allocation.set(pair.name, { baseUnits: 0n, quoteUnits: 0n });
    for (const token of this.tokens()) {
      // Budgets share an account out; a pair alone has nothing to share it with (its keys are ignored).
      const users = this.options.pairs.flatMap((pair) => [
        ...(pair.base === token ? [{ pair, role: 'base' as const, budget: this.alone ? undefined : pair.budgetBaseUnits }] : []),
        ...(pair.quote === token ? [{ pair, role: 'quote' as const, budget: this.alone ? undefined : pair.budgetQuoteUnits }] : []),
      ]);
      const held = balances.get(token);
      // Alone, a pair's leftovers (adopted at start) lock its own funds: it counts the whole balance.
      const free = held === undefined ? 0n : this.alone ? held.total : held.total - held.locked;
      const asked = users.reduce((sum, user) => sum + (user.budget ?? 0n), 0n);
      if (asked > free) {
        const keys = users.filter((user) => user.budget !== undefined).map((user) => `${user.role === 'base' ? 'BUDGET_BASE' : 'BUDGET_QUOTE'} of ${user.pair.name}`);
        throw new BudgetError(`${keys.join(' and ')} ask for ${asked} ${token} base units together; the account holds ${free} free`);
      }
      const open = users.filter((user) => user.budget === undefined);
      const share = open.length === 0 ? 0n : (free - asked) / BigInt(open.length);
      for (const user of users) {
        const funds = allocation.get(user.pair.name) as { baseUnits: bigint; quoteUnits: bigint };
        const units = user.budget ?? share;
        if (user.role === 'base') funds.baseUnits = units;
        else funds.quoteUnits = units;
      }
      this.expectedStart.set(token, held?.total ?? 0n);
    }
    this.allocation = allocation;
    this.options.logger.info(
      { budgets: Object.fromEntries([...allocation].map(([name, funds]) => [name, { base: String(funds.baseUnits), quote: String(funds.quoteUnits) }])) },
      'account budgets (base units each pair may lock)',
    );
    this.options.logger.info(
      { token: limits.limitsToken, maxTotalNotional: unitsToNumber(limits.maxTotalNotionalUnits, limits.limitsTokenDecimals), maxDrawdown: limits.maxDrawdownQuote },
      'account limits in force (0 = off)',
    );
  }

  /** The account's balances and nonce as the venue holds them now. */
  balances(): Promise<AccountState> {
    return this.options.venue.fetchAccount();
  }

  /** A pair's budget (after `allocate`). */
  fundsOf(pairName: string): PairFunds {
    const funds = this.allocation?.get(pairName);
    if (funds === undefined) throw new Error(`account: no budget for ${pairName} (allocate first, with every pair)`);
    return funds;
  }

  /**
   * The account ledger's balances, by token, base units: the balances at allocation (plus small
   * drifts absorbed since) and every pair's fills, fees and gas. Empty before `allocate`.
   */
  expectedBalances(): ReadonlyMap<string, bigint> {
    const expected = new Map<string, bigint>();
    if (this.allocation === undefined) return expected;
    for (const token of this.tokens()) {
      let units = this.expectedStart.get(token) ?? 0n;
      for (const member of this.members) units += member.deltas().get(token) ?? 0n;
      expected.set(token, units);
    }
    return expected;
  }

  /** A pair's engine joins once it quotes. */
  join(member: AccountMember): void {
    this.members.push(member);
  }

  /**
   * Heals every pair's orders, then compares the account's balances with start + every pair's
   * fills; runs one at a time (a request during a check runs once more after it).
   */
  checkBalances(): Promise<void> {
    if (this.checking !== undefined) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = this.runCheck()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'account balance check failed; will retry on the next heal'))
      .finally(() => {
        this.checking = undefined;
        if (this.checkAgain) {
          this.checkAgain = false;
          void this.checkBalances();
        }
      });
    return this.checking;
  }

  /**
   * Notional room left for one pair's orders under the account cap, quote units: the cap minus
   * every OTHER pair's orders that could fill (the pair's gate counts its own). Undefined when off
   * or when the pair is not quoted in the account's limits token.
   */
  notionalRoomUnits(pairName: string): bigint | undefined {
    const { maxTotalNotionalUnits, limitsToken } = this.limits;
    if (maxTotalNotionalUnits <= 0n || limitsToken === undefined) return undefined;
    const pair = this.options.pairs.find((candidate) => candidate.name === pairName);
    if (pair === undefined || pair.quote !== limitsToken) return undefined;
    let others = 0n;
    for (const member of this.members) if (member.pair.name !== pairName && member.pair.quote === limitsToken) others += member.exposedNotionalUnits();
    return maxTotalNotionalUnits - others;
  }

  /** Feeds the pairs' PnL together to the account's kill switch; halts every pair on a breach. */
  observePnl(): void {
    if (this.halted !== undefined || this.limits.maxDrawdownQuote <= 0) return;
    let total = 0;
    let known = false;
    for (const member of this.members) {
      if (member.pair.quote !== this.limits.limitsToken) continue;
      const pnl = member.pnlTotal();
      if (pnl === undefined) continue;
      total += pnl;
      known = true;
    }
    if (!known) return;
    const breach = this.drawdown.observe(total);
    if (breach !== undefined) {
      void this.haltAll('RISK_DRAWDOWN', `account drawdown ${breach.toFixed(6)} ${this.limits.limitsToken} reached the limit ${this.limits.maxDrawdownQuote}`);
    }
  }

  /** The account at a glance (reads the pairs' engines). */
  snapshot(): AccountSnapshot {
    const token = this.limits.limitsToken;
    let pnlQuote = 0;
    let exposedNotionalUnits = 0n;
    for (const member of this.members) {
      if (member.pair.quote !== token) continue;
      pnlQuote += member.pnlTotal() ?? 0;
      exposedNotionalUnits += member.exposedNotionalUnits();
    }
    return {
      haltReason: this.halted,
      limitsToken: token,
      pnlQuote,
      exposedNotionalUnits,
      maxTotalNotionalUnits: this.limits.maxTotalNotionalUnits,
      maxDrawdownQuote: this.limits.maxDrawdownQuote,
      budgets: new Map(this.allocation ?? []),
    };
  }

  /** Halts every pair with one reason. Idempotent. */
  async haltAll(code: HaltReason['code'], message: string): Promise<void> {
    if (this.halted !== undefined) return;
    this.halted = message;
    this.options.logger.error({ code, reason: message }, 'account halted: every pair stops quoting');
    await Promise.all(this.members.map((member) => member.halt(code, message)));
  }

  private tokens(): string[] {
    return [...new Set(this.options.pairs.flatMap((pair) => [pair.base, pair.quote]))];
  }

  private async runCheck(): Promise<void> {
    if (this.allocation === undefined || this.halted !== undefined) return;
    const tokens = this.tokens();
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await this.options.venue.fetchAccount();
      for (const member of this.members) await member.healOrders();
      const after = await this.options.venue.fetchAccount();
      if (tokens.some((token) => before.balances.get(token)?.total !== after.balances.get(token)?.total)) continue;
      await this.compare(after.balances, tokens);
      return;
    }
    this.options.logger.info('account balances kept moving during the check; comparing on the next one');
  }

  private async compare(balances: ReadonlyMap<string, TokenBalance>, tokens: readonly string[]): Promise<void> {
    const drifts = new Map<string, bigint>();
    const expectedBalances = this.expectedBalances();
    for (const token of tokens) {
      const drift = (balances.get(token)?.total ?? 0n) - (expectedBalances.get(token) ?? 0n);
      if (drift !== 0n) drifts.set(token, drift);
    }
    if (drifts.size === 0) {
      if (this.driftSuspected) this.options.logger.info('the balance difference was fills on their way; no drift');
      this.driftSuspected = false;
      return;
    }
    const tolerance = this.options.driftToleranceUnits;
    const large = [...drifts].filter(([, drift]) => (drift < 0n ? -drift : drift) > tolerance);
    if (large.length > 0 && !this.driftSuspected) {
      // Seen once: a fill the balances show may still be on its way over the stream. Look again
      // later (the books untouched) and halt only if it is still there.
      this.driftSuspected = true;
      this.options.logger.warn({ drifts: large.map(([token, drift]) => `${token} ${drift}`), recheckInMs: DRIFT_CONFIRM_MS }, 'account balances differ from start + fills; checking again before halting');
      this.options.clock.setTimeout(() => void this.checkBalances(), DRIFT_CONFIRM_MS);
      return;
    }
    this.driftSuspected = false;
    this.healDrifts(drifts);
    if (large.length === 0) {
      this.options.logger.info({ drifts: [...drifts].map(([token, drift]) => `${token} ${drift}`) }, 'small balance drift healed (fee rounding)');
      return;
    }
    const moved = large.map(([token, drift]) => `${drift > 0n ? '+' : ''}${drift} ${token} base units`).join(', ');
    const foreign = await this.foreignOrders();
    const message =
      foreign.length > 0
        ? `fills on this account that none of our pairs made (someone else trades this account): ${foreign.length} order(s) we never sent, e.g. ${foreign
            .slice(0, 3)
            .map((order) => `${order.orderId} on ${order.pair}`)
            .join(', ')}; balances moved by ${moved} beyond our pairs' fills`
        : this.alone
          ? `inventory drift: venue balances differ from start + fills by ${drifts.get(this.options.pairs[0]?.base ?? '') ?? 0n} base units and ${drifts.get(this.options.pairs[0]?.quote ?? '') ?? 0n} quote units`
          : `inventory drift: account balances differ from start + every pair's fills by ${moved}`;
    await this.haltAll('ENGINE_INVARIANT', message);
  }

  /**
   * Takes the venue's balances as the books' (small drifts are fee rounding; a large one is healed
   * too before the halt names it): a token only one pair holds is that pair's, so its ledger takes
   * the venue's figure; a token pairs share is absorbed into the account's start, as no one pair's.
   */
  private healDrifts(drifts: ReadonlyMap<string, bigint>): void {
    const holders = new Map<string, number>();
    for (const pair of this.options.pairs) for (const token of new Set([pair.base, pair.quote])) holders.set(token, (holders.get(token) ?? 0) + 1);
    const ownDrift = (token: string): bigint => (holders.get(token) === 1 ? (drifts.get(token) ?? 0n) : 0n);
    for (const member of this.members) {
      const base = ownDrift(member.pair.base);
      const quote = ownDrift(member.pair.quote);
      if (base !== 0n || quote !== 0n) member.healDrift(base, quote);
    }
    for (const [token, drift] of drifts) if (holders.get(token) !== 1) this.expectedStart.set(token, (this.expectedStart.get(token) ?? 0n) + drift);
  }

  /** Orders with fills on the account that no pair of ours knows. */
  private async foreignOrders(): Promise<readonly AccountOrder[]> {
    const read = this.options.venue.fetchAccountOrders;
    if (read === undefined) return [];
    try {
      const orders = await read.call(this.options.venue);
      return orders.filter((order) => order.filledQtyUnits > 0n && !this.members.some((member) => member.knowsOrder(order.orderId)));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not list the account\'s orders to name a foreign trade');
      return [];
    }
  }
}
