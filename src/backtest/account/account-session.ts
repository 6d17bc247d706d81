/**
 * A backtest of one trading account quoting several pairs (`backtest --env A --env B`): every
 * pair's replay venue and engine on ONE clock and one scheduler, the engines sharing one
 * `Account` (the live daemon's: outbound budget, per-pair budgets, the ledger's drift check,
 * the account notional cap and drawdown kill), the venues settling into one set of balances
 * (`ReplayAccount`). Started like the account daemon: every engine prepares, the account splits
 * its free balances into budgets, every engine begins.
 */
import { createSilentLogger, type Logger, type Strategy, type TokenBalance } from '../../core/index.ts';
import { Account, MarketMaker, type AccountPair, type EngineObserver, type EngineSettings, type EngineStatus } from '../../engine/index.ts';
import { PathSampler } from '../path-sampler.ts';
import { ReplayClock } from '../replay-clock.ts';
import { ReplayVenue, type ReplayVenueOptions } from '../replay-venue.ts';
import { EventScheduler, driveUntilSettled } from '../scheduler.ts';
import { ReplayAccount } from './replay-account.ts';

const SETTLED = Promise.resolve();

/** One pair of the account. */
export interface AccountSessionPair {
  /** The account's pair: name (`BASE/QUOTE`), tokens, budgets (undefined = an even share). */
  readonly pair: AccountPair;
  readonly venue: Omit<ReplayVenueOptions, 'clock' | 'scheduler' | 'account' | 'initialBase' | 'initialQuote'>;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  readonly observer?: EngineObserver;
}

/** The account-wide limits (RISK_MAX_TOTAL_NOTIONAL_ACCOUNT, RISK_MAX_DRAWDOWN_ACCOUNT), resolved. */
export interface AccountSessionLimits {
  readonly limitsToken: string;
  readonly limitsTokenDecimals: number;
  readonly maxTotalNotionalUnits: bigint;
  readonly maxDrawdownQuote: number;
}

/** Settings of an account session. */
export interface AccountSessionOptions {
  readonly pairs: readonly AccountSessionPair[];
  /** Simulated start time (ms since epoch). */
  readonly startMs: number;
  /** The account's balances at the start, by token, base units. */
  readonly startBalances: ReadonlyMap<string, bigint>;
  readonly limits: AccountSessionLimits;
  /** Path sampling period, ms of simulated time. Default 1000. */
  readonly sampleMs?: number;
  readonly logger?: Logger;
}

/** One pair running in the session. */
export interface SessionPair {
  readonly name: string;
  readonly venue: ReplayVenue;
  readonly engine: MarketMaker;
  readonly sampler: PathSampler;
}

/** A running account backtest. */
export class AccountBacktestSession {
  readonly clock: ReplayClock;
  readonly scheduler: EventScheduler;
  readonly balances: ReplayAccount;
  readonly account: Account;
  readonly pairs: readonly SessionPair[];
  /** Most notional every pair's orders that could fill had together, at a sample, limits-token base units. */
  maxOpenNotionalUnits = 0n;
  private seenActivity = 0;
  private readonly sampleMs: number;

  constructor(options: AccountSessionOptions) {
    const first = options.pairs[0];
    if (first === undefined) throw new Error('an account session needs a pair');
    // Market data of every pair shares the scheduler's time-ordered queue: one feed latency for all.
    if (options.pairs.some((pair) => pair.venue.feedLatencyMs !== first.venue.feedLatencyMs)) throw new Error('the pairs of an account backtest share one feed latency');
    this.clock = new ReplayClock(options.startMs);
    this.scheduler = new EventScheduler(this.clock);
    this.balances = new ReplayAccount(options.startBalances);
    this.sampleMs = options.sampleMs ?? 1_000;
    const logger = options.logger ?? createSilentLogger();
    const pairs: SessionPair[] = [];
    const accountVenue = { fetchAccount: () => (pairs[0] as SessionPair).venue.fetchAccount() };
    this.account = new Account({
      clock: this.clock,
      logger: logger.child({ component: 'account' }),
      venue: accountVenue,
      pairs: options.pairs.map((pair) => pair.pair),
      outbound: first.settings.outbound,
      maxTotalNotionalUnits: options.limits.maxTotalNotionalUnits,
      maxDrawdownQuote: options.limits.maxDrawdownQuote,
      limitsToken: options.limits.limitsToken,
      limitsTokenDecimals: options.limits.limitsTokenDecimals,
      driftToleranceUnits: first.settings.driftToleranceUnits,
    });
    for (const spec of options.pairs) {
      const venue = new ReplayVenue({ ...spec.venue, clock: this.clock, scheduler: this.scheduler, account: this.balances, initialBase: 0n, initialQuote: 0n });
      this.balances.join({ base: spec.venue.rules.base, quote: spec.venue.rules.quote, lockedUnits: () => venue.lockedUnits() });
      const engine = new MarketMaker({
        venue,
        strategy: spec.strategy,
        clock: this.clock,
        logger: logger.child({ pair: spec.pair.name }),
        settings: spec.settings,
        account: { account: this.account, pairName: spec.pair.name },
        ...(spec.observer === undefined ? {} : { observer: spec.observer }),
      });
      const sampler = new PathSampler(options.startMs, this.sampleMs, spec.venue.rules, venue.exchange, () => engine.pathStatus());
      pairs.push({ name: spec.pair.name, venue, engine, sampler });
    }
    this.pairs = pairs;
  }

  /** The account's balances now, by token, base units. */
  balancesNow(): Map<string, TokenBalance> {
    return this.balances.balances();
  }

  /** Starts every engine as the account daemon does: prepare all, split the budgets, begin all. */
  async start(): Promise<void> {
    const prepared = Promise.all(this.pairs.map((pair) => pair.engine.prepare()));
    await this.flush();
    await prepared;
    this.account.allocate(this.balances.balances());
    for (const pair of this.pairs) pair.engine.begin();
    for (const pair of this.pairs) pair.sampler.startBase = pair.engine.status().baseBalance;
    await this.flush();
  }

  /** Moves simulated time to `timeMs`, running whatever fell due; a promise only when something has to be awaited. */
  advanceTo(timeMs: number): Promise<void> | undefined {
    if (timeMs > this.clock.nowMs()) for (const pair of this.pairs) pair.venue.endOfMessage();
    const firstSampler = (this.pairs[0] as SessionPair).sampler;
    if (timeMs >= firstSampler.nextSampleMs) this.sampleUpTo(timeMs);
    if (!this.scheduler.hasDueBy(timeMs) && !this.needsFlush()) {
      this.clock.advanceTo(timeMs);
      return undefined;
    }
    return this.advanceSlowly(timeMs);
  }

  /** Runs what fell due at the current time since the last event; undefined when nothing is due. */
  runDueNow(): Promise<void> | undefined {
    if (!this.scheduler.hasDueNow() && !this.needsFlush()) return undefined;
    return this.advanceSlowly(this.clock.nowMs());
  }

  /** True when an engine called a venue since the last flush (its promises need a turn). */
  needsFlush(): boolean {
    return this.activity() !== this.seenActivity;
  }

  /** Lets the engines' promise callbacks run until none calls a venue any more. */
  async flush(): Promise<void> {
    for (let round = 0; round < 1_000; round++) {
      this.seenActivity = this.activity();
      for (let i = 0; i < 8; i++) await SETTLED;
      if (this.activity() === this.seenActivity) return;
    }
  }

  /** Ends the run: lets everything in flight land, stops every engine (cancel-all), settles. */
  async finish(): Promise<EngineStatus[]> {
    for (const pair of this.pairs) pair.venue.endOfMessage();
    if (this.needsFlush()) await this.flush();
    this.sampleUpTo(this.clock.nowMs());
    const stopping = Promise.all(this.pairs.map((pair) => pair.engine.stop()));
    await driveUntilSettled(stopping, this.scheduler, () => this.clock.nowMs(), () => this.flush(), this.flushIfActive);
    return this.pairs.map((pair) => pair.engine.status());
  }

  private activity(): number {
    let total = 0;
    for (const pair of this.pairs) total += pair.venue.activity;
    return total;
  }

  private advanceSlowly(timeMs: number): Promise<void> | undefined {
    if (this.needsFlush()) return this.flush().then(() => this.scheduler.runUntil(timeMs, this.flushIfActive));
    return this.scheduler.runUntil(timeMs, this.flushIfActive);
  }

  private readonly flushIfActive = (): Promise<void> | undefined => (this.needsFlush() ? this.flush() : undefined);

  private sampleUpTo(timeMs: number): void {
    for (const pair of this.pairs) pair.sampler.sampleUpTo(timeMs);
    const open = this.account.snapshot().exposedNotionalUnits;
    if (open > this.maxOpenNotionalUnits) this.maxOpenNotionalUnits = open;
  }
}
