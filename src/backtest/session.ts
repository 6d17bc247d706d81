/**
 * One backtest run of N ≥ 1 pairs on one trading account (one pair is an account of one): the
 * unchanged engines and strategies against `ReplayVenue`s, all on one `ManualClock` and one
 * scheduler, the engines sharing one `Account` (the live daemon's: outbound budget, budgets, the
 * ledger's drift check, the account limits) and the venues settling into one set of balances.
 * The caller pushes recorded events in order; the session moves time to each event (firing what
 * fell due on the way: order arrivals and answers, feed deliveries, engine timers), applies it at
 * the pair's exchange, and lets the engines' promise callbacks run only when an engine actually
 * called a venue, so millions of quiet book updates cost no `await`.
 *
 * The first pair's options are the session's own, and its venue, engine, fills and events are
 * at the top: a one-pair session reads as it always has; the others are `otherPairs`.
 */
import { createSilentLogger, type Logger, type Side, type TokenBalance } from '../core/index.ts';
import { Account, NO_ACCOUNT_LIMITS, startEngines, type AccountOptions, type AccountPair, type EngineStatus, type Hedger, type MarketMaker } from '../engine/index.ts';
import { ReplayAccount } from './account/replay-account.ts';
import type { ReplayHedgeVenue } from './hedge/replay-hedge-venue.ts';
import { PairReplay, type SessionPair } from './pair-replay.ts';
import type { ReplayReferenceFeed } from './reference/replay-reference-feed.ts';
import { ReplayClock } from './replay-clock.ts';
import type { ReplayVenue, VenueFill } from './replay-venue.ts';
import { EventScheduler, driveUntilSettled } from './scheduler.ts';
import type { PathSample } from './stats.ts';
export { pnlComponents } from './path-sampler.ts';
export type { PairVenueOptions, SessionHedge, SessionPair, SessionReference } from './pair-replay.ts';

const SETTLED = Promise.resolve();

/** Settings of a session: its first pair, the account's other pairs, the time. */
export interface SessionOptions extends SessionPair {
  /** Simulated start time (ms since epoch): the first event's exchange time. */
  readonly startMs: number;
  /** Path sampling period for the report, ms of simulated time. Default 1000. */
  readonly sampleMs?: number;
  readonly logger?: Logger;
  /** The account's other pairs (`backtest --env A --env B`), on the same clock. */
  readonly otherPairs?: readonly SessionPair[];
  /** The account-wide limits from its balances at the start (`auto` values depend on them); default off. */
  readonly limits?: AccountOptions['limits'];
}

/** A fill of ours, for the report: as the exchange made it (time, price, fee, the mid then). */
export type FillRecord = VenueFill;

/** A running backtest. */
export class BacktestSession {
  readonly clock: ReplayClock;
  readonly scheduler: EventScheduler;
  /** The account's balances, which every pair's venue settles into. */
  readonly balances: ReplayAccount;
  readonly account: Account;
  /** Every pair, the first one first. */
  readonly pairs: readonly PairReplay[];
  /** Most notional every pair's orders that could fill had together, at a sample, limits-token base units. */
  maxOpenNotionalUnits = 0n;
  private readonly first: PairReplay;
  private readonly sampleMs: number;
  private seenActivity = 0;

  constructor(private readonly options: SessionOptions) {
    const specs: readonly SessionPair[] = [options, ...(options.otherPairs ?? [])];
    // Market data of every pair shares the scheduler's time-ordered queue: one feed latency for all.
    if (specs.some((spec) => spec.venue.feedLatencyMs !== options.venue.feedLatencyMs)) throw new Error('the pairs of an account backtest share one feed latency');
    this.clock = new ReplayClock(options.startMs);
    this.scheduler = new EventScheduler(this.clock);
    this.sampleMs = options.sampleMs ?? 1_000;
    const start = new Map<string, bigint>();
    for (const { venue } of specs) {
      start.set(venue.rules.quote, (start.get(venue.rules.quote) ?? 0n) + venue.initialQuote);
      start.set(venue.rules.base, (start.get(venue.rules.base) ?? 0n) + venue.initialBase);
    }
    this.balances = new ReplayAccount(start);
    const logger = options.logger ?? createSilentLogger();
    const shared = { clock: this.clock, scheduler: this.scheduler, funds: this.balances, logger };
    const pairs = specs.map((spec) => new PairReplay(spec, shared));
    for (const pair of pairs) this.balances.join({ base: pair.spec.venue.rules.base, quote: pair.spec.venue.rules.quote, lockedUnits: () => pair.venue.lockedUnits() });
    this.pairs = pairs;
    this.first = pairs[0] as PairReplay;
    this.account = new Account({
      clock: this.clock,
      logger: logger.child({ component: 'account' }),
      venue: { fetchAccount: () => this.first.venue.fetchAccount() },
      pairs: pairs.map((pair): AccountPair => ({ name: pair.name, base: pair.spec.venue.rules.base, quote: pair.spec.venue.rules.quote, budgetBaseUnits: pair.spec.budgetBaseUnits, budgetQuoteUnits: pair.spec.budgetQuoteUnits })),
      outbound: options.settings.outbound,
      limits: options.limits ?? (() => NO_ACCOUNT_LIMITS),
      driftToleranceUnits: options.settings.driftToleranceUnits,
    });
  }

  // ── the first pair, as a one-pair session has always shown it ──────────────────────────────

  get venue(): ReplayVenue {
    return this.first.venue;
  }

  get engine(): MarketMaker {
    return this.first.engine;
  }

  get fills(): readonly FillRecord[] {
    return this.first.fills;
  }

  get samples(): readonly PathSample[] {
    return this.first.samples;
  }

  get hedgeVenue(): ReplayHedgeVenue | undefined {
    return this.first.hedgeVenue;
  }

  get hedger(): Hedger | undefined {
    return this.first.hedger;
  }

  get referenceFeed(): ReplayReferenceFeed | undefined {
    return this.first.referenceFeed;
  }

  get referencePauses(): number {
    return this.first.referencePauses;
  }

  /** A recorded depth level of the first pair at the current time. */
  depth(side: Side, priceTicks: number, qtyLots: number): void {
    this.first.depth(side, priceTicks, qtyLots);
  }

  /** A recorded trade of the first pair at the current time. */
  trade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.first.trade(aggressor, priceTicks, qtyLots);
  }

  /** A snapshot of the first pair's book begins: cleared, then rebuilt by the depth events that follow. */
  clear(): void {
    this.first.clear();
  }

  /** A recorded gas price of the first pair. */
  gasPrice(gasPriceUnits: bigint): void {
    this.first.gasPrice(gasPriceUnits);
  }

  // ── the session ─────────────────────────────────────────────────────────────────────────────

  /** The account's balances now, by token, base units. */
  balancesNow(): Map<string, TokenBalance> {
    return this.balances.balances();
  }

  /** Starts every pair as the daemon does: hedgers and references first, then the engines (`startEngines`). */
  async start(): Promise<void> {
    for (const pair of this.pairs) await pair.startMarkets();
    const started = startEngines(
      this.account,
      this.pairs.map((pair) => pair.engineStart()),
    );
    await this.flush();
    const engines = await started;
    engines.forEach((engine, i) => (this.pairs[i] as PairReplay).began(engine, this.options.startMs, this.sampleMs));
  }

  /**
   * Moves simulated time to `timeMs` (an event's exchange time), running whatever fell due. A
   * later time first closes the current venue messages (the engines react at that message's
   * time). Returns a promise only when something has to be awaited.
   */
  advanceTo(timeMs: number): Promise<void> | undefined {
    const pairs = this.pairs;
    for (const pair of pairs) {
      pair.scheduleMarketsUpTo(timeMs);
      pair.markOutUpTo(timeMs);
    }
    if (timeMs > this.clock.nowMs()) for (const pair of pairs) pair.venue.endOfMessage();
    if (timeMs >= this.first.nextSampleMs) this.sampleUpTo(timeMs);
    if (!this.scheduler.hasDueBy(timeMs) && !this.needsFlush()) {
      this.clock.advanceTo(timeMs);
      return undefined;
    }
    return this.advanceSlowly(timeMs);
  }

  /**
   * Runs what fell due at the current time since the last event (answers with zero latency,
   * timers of delay 0), as moving to the same time again would. Undefined when nothing is due,
   * which is almost always.
   */
  runDueNow(): Promise<void> | undefined {
    if (!this.scheduler.hasDueNow() && !this.needsFlush()) return undefined;
    return this.advanceSlowly(this.clock.nowMs());
  }

  /** Ends the first pair's current venue message now (the source knows message boundaries; time also ends one). */
  endOfMessage(): void {
    this.first.venue.endOfMessage();
  }

  /** True when an engine called a venue since the last flush (its promises need a turn). */
  needsFlush(): boolean {
    return this.activity() !== this.seenActivity;
  }

  /** Lets the engines' promise callbacks run until none calls a venue any more. */
  async flush(): Promise<void> {
    for (let round = 0; round < 1_000; round++) {
      this.seenActivity = this.activity();
      // Eight microtask turns, as many as before; one settled promise serves them all.
      for (let i = 0; i < 8; i++) await SETTLED;
      if (this.activity() === this.seenActivity) return;
    }
  }

  /** Ends the run: lets everything in flight land, stops every engine (cancel-all), settles. Returns the first pair's status. */
  async finish(): Promise<EngineStatus> {
    for (const pair of this.pairs) pair.venue.endOfMessage();
    if (this.needsFlush()) await this.flush();
    this.sampleUpTo(this.clock.nowMs());
    for (const pair of this.pairs) pair.closeMarkouts(this.clock.nowMs());
    // Drive time forward until the engines' shutdown (cancels, confirmations) completes.
    const stopping = Promise.all(this.pairs.map((pair) => pair.engine.stop()));
    await driveUntilSettled(stopping, this.scheduler, () => this.clock.nowMs(), () => this.flush(), this.flushIfActive);
    for (const pair of this.pairs) await pair.hedger?.stop();
    return this.first.engine.status();
  }

  private activity(): number {
    const pairs = this.pairs;
    let total = 0;
    for (let i = 0; i < pairs.length; i++) total += (pairs[i] as PairReplay).venue.activity;
    return total;
  }

  private advanceSlowly(timeMs: number): Promise<void> | undefined {
    if (this.needsFlush()) return this.flush().then(() => this.scheduler.runUntil(timeMs, this.flushIfActive));
    return this.scheduler.runUntil(timeMs, this.flushIfActive);
  }

  /** After each delivery: a promise only when an engine has callbacks to run. */
  private readonly flushIfActive = (): Promise<void> | undefined => (this.needsFlush() ? this.flush() : undefined);

  private sampleUpTo(timeMs: number): void {
    for (const pair of this.pairs) pair.sampleUpTo(timeMs);
    const open = this.account.snapshot().exposedNotionalUnits;
    if (open > this.maxOpenNotionalUnits) this.maxOpenNotionalUnits = open;
  }
}
