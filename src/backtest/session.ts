/**
 * One backtest run: the unchanged engine and strategy against a `ReplayVenue`, all on one
 * `ManualClock`. The caller pushes recorded events in order; the session moves time to each
 * event (firing what fell due on the way: order arrivals and answers, feed deliveries, engine
 * timers), applies it at the exchange, and lets the engine's promise callbacks run only when the
 * engine actually called the venue, so millions of quiet book updates cost no `await`.
 */
import { ManualClock, createSilentLogger, type Logger, type Side, type Strategy } from '../core/index.ts';
import { Hedger, MarketMaker, MemoryHedgeJournal, combineObservers, type EngineObserver, type EngineSettings, type EngineStatus, type HedgerSettings, type Journal } from '../engine/index.ts';
import type { HedgeRecording } from './hedge/hedge-recording.ts';
import { ReplayHedgeVenue } from './hedge/replay-hedge-venue.ts';
import { ReplayReferenceFeed } from './reference/replay-reference-feed.ts';
export { pnlComponents } from './path-sampler.ts';
import { PathSampler } from './path-sampler.ts';
import { ReplayClock } from './replay-clock.ts';
import { ReplayVenue, type ReplayVenueOptions, type VenueFill } from './replay-venue.ts';
import { driveUntilSettled } from './scheduler.ts';
import type { PathSample } from './stats.ts';

const SETTLED = Promise.resolve();

/** Settings of a session. */
export interface SessionOptions {
  readonly venue: Omit<ReplayVenueOptions, 'clock'>;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  /** Simulated start time (ms since epoch): the first event's exchange time. */
  readonly startMs: number;
  /** Path sampling period for the report, ms of simulated time. Default 1000. */
  readonly sampleMs?: number;
  readonly logger?: Logger;
  readonly observer?: EngineObserver;
  /** Crash journal (tests of the engine's journal handling); default none. */
  readonly journal?: Journal;
  /** Hedge every fill on a recorded deep market (`backtest --hedge FILE`). */
  readonly hedge?: SessionHedge;
  /** Read a recorded deep market as the reference (`backtest --reference FILE`). */
  readonly reference?: SessionReference;
}

/** The reference market of a session. */
export interface SessionReference {
  readonly recording: HedgeRecording;
  /** From the reference's exchange time to the engine, ms. */
  readonly latencyMs: number;
  /** REFERENCE_STALE_MS. */
  readonly staleAfterMs: number;
}

/** The hedge venue of a session. */
export interface SessionHedge {
  readonly recording: HedgeRecording;
  readonly settings: HedgerSettings;
  /** Order latency to the hedge venue, each way, ms. */
  readonly latencyMs: number;
  /** Starting balances on the hedge venue, in its units. */
  readonly initialBaseUnits: bigint;
  readonly initialQuoteUnits: bigint;
  /** NOTIONAL minimum of the hedge venue, quote units. */
  readonly minNotionalUnits: bigint;
}

/** A fill of ours, for the report: as the exchange made it (time, price, fee, the mid then). */
export type FillRecord = VenueFill;

/** A running backtest. */
export class BacktestSession {
  readonly clock: ManualClock;
  readonly venue: ReplayVenue;
  readonly engine: MarketMaker;
  /** The replayed hedge venue and its hedger, when the session hedges. */
  readonly hedgeVenue: ReplayHedgeVenue | undefined;
  readonly hedger: Hedger | undefined;
  /** The replayed reference market, when the session reads one. */
  readonly referenceFeed: ReplayReferenceFeed | undefined;
  /** Times quoting paused with a reference reason (stale, resyncing, divergent, jump) as the first. */
  referencePauses = 0;
  private readonly sampler: PathSampler;
  private seenActivity = 0;

  constructor(private readonly options: SessionOptions) {
    this.clock = new ReplayClock(options.startMs);
    this.venue = new ReplayVenue({ ...options.venue, clock: this.clock });
    const hedge = options.hedge;
    this.hedgeVenue =
      hedge === undefined
        ? undefined
        : new ReplayHedgeVenue({
            recording: hedge.recording,
            clock: this.clock,
            scheduler: this.venue.scheduler,
            latencyMs: hedge.latencyMs,
            takerFeeE8: BigInt(Math.round(hedge.settings.feeBps * 10_000)),
            initialBaseUnits: hedge.initialBaseUnits,
            initialQuoteUnits: hedge.initialQuoteUnits,
            minNotionalUnits: hedge.minNotionalUnits,
            onActivity: () => {
              this.venue.activity++;
            },
          });
    this.hedger =
      hedge === undefined || this.hedgeVenue === undefined
        ? undefined
        : new Hedger({
            venue: this.hedgeVenue,
            book: this.hedgeVenue.book,
            clock: this.clock,
            logger: options.logger ?? createSilentLogger(),
            journal: new MemoryHedgeJournal(),
            settings: hedge.settings,
            pairBaseDecimals: options.venue.rules.baseDecimals,
            idPrefix: 'bt',
          });
    this.referenceFeed =
      options.reference === undefined
        ? undefined
        : new ReplayReferenceFeed({ recording: options.reference.recording, clock: this.clock, scheduler: this.venue.scheduler, latencyMs: options.reference.latencyMs, staleAfterMs: options.reference.staleAfterMs });
    const countPauses: EngineObserver = {
      paused: (isPaused, reason) => {
        if (isPaused && reason.startsWith('reference')) this.referencePauses++;
      },
    };
    const observers = [options.observer, this.referenceFeed === undefined ? undefined : countPauses].filter((observer) => observer !== undefined);
    this.engine = new MarketMaker({
      venue: this.venue,
      strategy: options.strategy,
      clock: this.clock,
      logger: options.logger ?? createSilentLogger(),
      settings: options.settings,
      ...(observers.length === 0 ? {} : { observer: observers.length === 1 ? (observers[0] as EngineObserver) : combineObservers(observers) }),
      ...(this.hedger === undefined ? {} : { hedge: this.hedger }),
      ...(this.referenceFeed === undefined ? {} : { reference: this.referenceFeed }),
      ...(options.journal === undefined ? {} : { journal: options.journal }),
    });
    const engine = this.engine;
    this.sampler = new PathSampler(options.startMs, options.sampleMs ?? 1_000, options.venue.rules, this.venue.exchange, () => engine.pathStatus());
  }

  /** The report's path: one sample per `sampleMs` of simulated time. */
  get samples(): readonly PathSample[] {
    return this.sampler.samples;
  }

  /** Our fills at the exchange, in order. */
  get fills(): readonly FillRecord[] {
    return this.venue.fills;
  }

  /** Starts the engine (it connects to the replay venue and takes its starting balances). */
  async start(): Promise<void> {
    if (this.hedger !== undefined) {
      this.hedgeVenue?.scheduleUpTo(this.clock.nowMs());
      await this.hedger.start();
    }
    this.referenceFeed?.scheduleUpTo(this.clock.nowMs());
    const started = this.engine.start();
    await this.flush();
    await started;
    this.sampler.startBase = this.engine.status().baseBalance;
  }

  /**
   * Moves simulated time to `timeMs` (an event's exchange time), running whatever fell due. A
   * later time first closes the current venue message (the engine reacts at that message's time).
   * Returns a promise only when something has to be awaited.
   */
  advanceTo(timeMs: number): Promise<void> | undefined {
    this.hedgeVenue?.scheduleUpTo(timeMs);
    this.referenceFeed?.scheduleUpTo(timeMs);
    if (timeMs > this.clock.nowMs()) this.venue.endOfMessage();
    if (timeMs >= this.sampler.nextSampleMs) this.sampler.sampleUpTo(timeMs);
    if (!this.venue.scheduler.hasDueBy(timeMs) && !this.needsFlush()) {
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
    if (!this.venue.scheduler.hasDueNow() && !this.needsFlush()) return undefined;
    return this.advanceSlowly(this.clock.nowMs());
  }

  private advanceSlowly(timeMs: number): Promise<void> | undefined {
    if (this.needsFlush()) return this.flush().then(() => this.venue.scheduler.runUntil(timeMs, this.flushIfActive));
    return this.venue.scheduler.runUntil(timeMs, this.flushIfActive);
  }

  /** A recorded depth level update at the current time. */
  depth(side: Side, priceTicks: number, qtyLots: number): void {
    this.venue.onDepth(side, priceTicks, qtyLots);
  }

  /** A recorded trade at the current time. */
  trade(aggressor: Side | undefined, priceTicks: number, qtyLots: number): void {
    this.venue.onTrade(aggressor, priceTicks, qtyLots);
  }

  /** A snapshot begins: the book is cleared and rebuilt by the depth events that follow. */
  clear(): void {
    this.venue.onClear();
  }

  /** A recorded gas price. */
  gasPrice(gasPriceUnits: bigint): void {
    this.venue.onGasPrice(gasPriceUnits);
  }

  /** Ends the current venue message now (the source knows message boundaries; time also ends one). */
  endOfMessage(): void {
    this.venue.endOfMessage();
  }

  /** True when the engine called the venue since the last flush (its promises need a turn). */
  needsFlush(): boolean {
    return this.venue.activity !== this.seenActivity;
  }

  /** Lets the engine's promise callbacks run until it stops calling the venue. */
  async flush(): Promise<void> {
    for (let round = 0; round < 1_000; round++) {
      this.seenActivity = this.venue.activity;
      // Eight microtask turns, as many as before; one settled promise serves them all.
      for (let i = 0; i < 8; i++) await SETTLED;
      if (this.venue.activity === this.seenActivity) return;
    }
  }

  /** Ends the run: lets everything in flight land, stops the engine (cancel-all), settles. */
  async finish(): Promise<EngineStatus> {
    this.venue.endOfMessage();
    if (this.needsFlush()) await this.flush();
    const endMs = this.clock.nowMs();
    this.sampler.sampleUpTo(endMs);
    // Drive time forward until the engine's shutdown (cancels, confirmations) completes.
    await driveUntilSettled(this.engine.stop(), this.venue.scheduler, () => this.clock.nowMs(), () => this.flush(), this.flushIfActive);
    await this.hedger?.stop();
    return this.engine.status();
  }

  /** After each delivery: a promise only when the engine has callbacks to run. */
  private readonly flushIfActive = (): Promise<void> | undefined => (this.needsFlush() ? this.flush() : undefined);
}
