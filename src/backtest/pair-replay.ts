/**
 * One pair of a backtest session: its replay venue (settling into the account's balances), the
 * hedge venue and hedger on a recorded deep market (`--hedge`), the reference feed on another
 * (`--reference`), and, once the session started them, its engine and the path sampler. The
 * session owns the clock, the scheduler and the account every pair shares.
 */
import type { Logger, ManualClock, Side, Strategy } from '../core/index.ts';
import { Hedger, MemoryHedgeJournal, combineObservers, type EngineObserver, type EngineSettings, type HedgerSettings, type Journal, type MarketMaker, type PairStart } from '../engine/index.ts';
import type { HedgeRecording } from './hedge/hedge-recording.ts';
import { ReplayHedgeVenue } from './hedge/replay-hedge-venue.ts';
import { FillMarkoutRecorder, type FillMarkouts } from './fill-markouts.ts';
import { PathSampler } from './path-sampler.ts';
import { ReplayReferenceFeed } from './reference/replay-reference-feed.ts';
import { ReplayVenue, type ReplayVenueOptions, type SharedReplayFunds, type VenueFill } from './replay-venue.ts';
import type { EventScheduler } from './scheduler.ts';
import type { PathSample } from './stats.ts';

/** The replay venue of a pair, with what the pair holds at the start (the account holds every pair's holdings together). */
export type PairVenueOptions = Omit<ReplayVenueOptions, 'clock' | 'scheduler' | 'account' | 'onFill'> & {
  readonly initialBase: bigint;
  readonly initialQuote: bigint;
};

/** One pair of a session. */
export interface SessionPair {
  readonly venue: PairVenueOptions;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  readonly observer?: EngineObserver;
  /** Crash journal (tests of the engine's journal handling); default none. */
  readonly journal?: Journal;
  /** False when nothing reads the engine's signals from its status (`runBacktest`: no summary or report does); default true. */
  readonly readsSignals?: boolean;
  /** Hedge every fill on a recorded deep market (`backtest --hedge FILE`). */
  readonly hedge?: SessionHedge;
  /** Read a recorded deep market as the reference (`backtest --reference FILE`). */
  readonly reference?: SessionReference;
  /** What the pair may lock (BUDGET_BASE / BUDGET_QUOTE), base units; undefined = an even share of the free balance. */
  readonly budgetBaseUnits?: bigint;
  readonly budgetQuoteUnits?: bigint;
}

/** The reference market of a pair. */
export interface SessionReference {
  readonly recording: HedgeRecording;
  /** From the reference's exchange time to the engine, ms. */
  readonly latencyMs: number;
  /** REFERENCE_STALE_MS. */
  readonly staleAfterMs: number;
}

/** The hedge venue of a pair. */
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

/** What a pair shares with the session's other pairs. */
interface SharedReplay {
  readonly clock: ManualClock;
  readonly scheduler: EventScheduler;
  readonly funds: SharedReplayFunds;
  readonly logger: Logger;
}

/** One pair replayed in a session. */
export class PairReplay {
  /** `BASE/QUOTE`. */
  readonly name: string;
  readonly venue: ReplayVenue;
  /** The replayed hedge venue and its hedger, when the pair hedges. */
  readonly hedgeVenue: ReplayHedgeVenue | undefined;
  readonly hedger: Hedger | undefined;
  /** The replayed reference market, when the pair reads one. */
  readonly referenceFeed: ReplayReferenceFeed | undefined;
  /** Times quoting paused with a reference reason (stale, resyncing, divergent, jump) as the first. */
  referencePauses = 0;
  private started: { readonly engine: MarketMaker; readonly sampler: PathSampler } | undefined;
  /** Every fill's markouts, resolved as time passes their horizons (from the engine's start). */
  private readonly markouts: FillMarkoutRecorder;
  private closedMarkouts: FillMarkouts | undefined;

  constructor(
    readonly spec: SessionPair,
    private readonly shared: SharedReplay,
  ) {
    const { clock, scheduler, funds, logger } = shared;
    const rules = spec.venue.rules;
    this.name = `${rules.base}/${rules.quote}`;
    this.venue = new ReplayVenue({ ...spec.venue, clock, scheduler, account: funds, onFill: (fill) => this.markouts.noteFill(fill.timeMs) });
    this.markouts = new FillMarkoutRecorder(this.venue.fills);
    const hedge = spec.hedge;
    this.hedgeVenue =
      hedge === undefined
        ? undefined
        : new ReplayHedgeVenue({
            recording: hedge.recording,
            clock,
            scheduler,
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
            clock,
            logger,
            journal: new MemoryHedgeJournal(),
            settings: hedge.settings,
            pairBaseDecimals: rules.baseDecimals,
            idPrefix: 'bt',
          });
    this.referenceFeed =
      spec.reference === undefined
        ? undefined
        : new ReplayReferenceFeed({ recording: spec.reference.recording, clock, scheduler, latencyMs: spec.reference.latencyMs, staleAfterMs: spec.reference.staleAfterMs });
  }

  /** The pair's engine (once the session started). */
  get engine(): MarketMaker {
    return this.afterStart().engine;
  }

  /** The report's path: one sample per `sampleMs` of simulated time (none before the start). */
  get samples(): readonly PathSample[] {
    return this.started?.sampler.samples ?? [];
  }

  /** Our fills at the exchange, in order. */
  get fills(): readonly VenueFill[] {
    return this.venue.fills;
  }

  /** The next sample's time (the session samples when an event reaches it); none before the start. */
  get nextSampleMs(): number {
    return this.started?.sampler.nextSampleMs ?? Number.POSITIVE_INFINITY;
  }

  /** Starts the hedger (it settles what it finds uncovered) and readies the reference, before the engine starts. */
  async startMarkets(): Promise<void> {
    const nowMs = this.shared.clock.nowMs();
    if (this.hedger !== undefined) {
      this.hedgeVenue?.scheduleUpTo(nowMs);
      await this.hedger.start();
    }
    this.referenceFeed?.scheduleUpTo(nowMs);
  }

  /** What the start protocol needs to build the pair's engine. */
  engineStart(): PairStart {
    const { spec } = this;
    const countPauses: EngineObserver = {
      paused: (isPaused, reason) => {
        if (isPaused && reason.startsWith('reference')) this.referencePauses++;
      },
    };
    const observers = [spec.observer, this.referenceFeed === undefined ? undefined : countPauses].filter((observer) => observer !== undefined);
    return {
      pairName: this.name,
      venue: this.venue,
      strategy: spec.strategy,
      clock: this.shared.clock,
      logger: this.shared.logger.child({ pair: this.name }),
      settings: spec.settings,
      ...(observers.length === 0 ? {} : { observer: observers.length === 1 ? (observers[0] as EngineObserver) : combineObservers(observers) }),
      ...(this.hedger === undefined ? {} : { hedge: this.hedger }),
      ...(this.referenceFeed === undefined ? {} : { reference: this.referenceFeed }),
      ...(spec.journal === undefined ? {} : { journal: spec.journal }),
      ...(spec.readsSignals === undefined ? {} : { readsSignals: spec.readsSignals }),
    };
  }

  /** The engine started: the path is sampled from here, inventory counted from its base balance now. */
  began(engine: MarketMaker, startMs: number, sampleMs: number): void {
    const sampler = new PathSampler(startMs, sampleMs, this.spec.venue.rules, this.venue.exchange, () => engine.pathStatus());
    sampler.startBase = engine.status().baseBalance;
    this.started = { engine, sampler };
  }

  /** Resolves the fills' markouts whose horizon ended before `timeMs` (one comparison while none did, ∞ while no fill waits). */
  markOutUpTo(timeMs: number): void {
    if (!this.markouts.isDue(timeMs)) return;
    const started = this.started;
    if (started !== undefined) this.markouts.observe(timeMs, () => this.markoutMid(started.engine));
  }

  /** The run's last event was at `endMs`: markouts whose horizon ended by then resolve, later ones stay out. */
  closeMarkouts(endMs: number): void {
    const started = this.started;
    if (started !== undefined && this.closedMarkouts === undefined) this.closedMarkouts = this.markouts.finish(endMs, () => this.markoutMid(started.engine));
  }

  /** The mid fills are marked out against: the exchange's own choice (a thin venue's reference mid), else the engine's. */
  private markoutMid(engine: MarketMaker): number | undefined {
    return this.venue.exchange.markoutMid?.() ?? engine.pathStatus().mid;
  }

  /** Every fill's markout on the curve's horizons (once the run closed them). */
  get fillMarkouts(): FillMarkouts | undefined {
    return this.closedMarkouts;
  }

  /** Schedules the hedge and reference markets' recorded messages up to `timeMs`. */
  scheduleMarketsUpTo(timeMs: number): void {
    this.hedgeVenue?.scheduleUpTo(timeMs);
    this.referenceFeed?.scheduleUpTo(timeMs);
  }

  /** Takes the path samples due at or before `timeMs`. */
  sampleUpTo(timeMs: number): void {
    this.started?.sampler.sampleUpTo(timeMs);
  }

  /** A recorded depth level at the current time. */
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

  private afterStart(): { readonly engine: MarketMaker; readonly sampler: PathSampler } {
    if (this.started === undefined) throw new Error(`backtest pair ${this.name}: its engine exists once the session started`);
    return this.started;
  }
}
