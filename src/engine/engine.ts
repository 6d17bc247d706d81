/**
 * The market-making engine, over the `Venue` port only (it never knows whether the venue is
 * LayerAkira, the embedded exchange or a replayed recording). It wires three owners and a pure
 * pipeline, and reads like the data flow of one tick:
 *
 *   venue event → market view + fair price (MarketTracker) → strategy → pipeline (ticks → caps →
 *   edge → tolerances, pure, memoised) → diff against live orders (asymmetric band) → order
 *   manager (budget, priorities, caps gate, journal) → venue → reports → books (ledger,
 *   markouts, scorecard) → safety (dead-man, drawdown) may pause or halt.
 *
 * - `OrderManager` (orders/) owns our orders and every request that changes them;
 * - `Safety` (safety/) is the only one that pauses or halts;
 * - `Reconciler` heals from the venue's records; fills reach the books only through `applyReport`.
 */
import {
  notionalUnits,
  unitsToNumber,
  type BestBidOffer,
  type Clock,
  type DesiredQuote,
  type Logger,
  type OrderIntent,
  type OrderReport,
  type ReferenceFeed,
  type ReferenceListener,
  type ReferenceStatus,
  type ReferenceTop,
  type ResyncReason,
  type Strategy,
  type TickerRules,
  type Timer,
  type Venue,
  type VenueInfo,
  type VenueListener,
} from '../core/index.ts';
import type { Account, AccountMember } from './account.ts';
import { Costs } from './costs.ts';
import { Ledger } from './ledger.ts';
import { MarketTracker } from './market.ts';
import { MarkoutTracker } from './markouts.ts';
import type { EngineObserver } from './observer.ts';
import { GuardedJournal, NullJournal, type Journal } from './orders/journal.ts';
import { OrderManager } from './orders/order-manager.ts';
import { isOverInventoryCap, orderSizeUnitsOf, resolveRiskLimits, type RiskLimits } from './pipeline/caps.ts';
import type { RoundedQuote } from './pipeline/diff.ts';
import { QuotePipeline } from './pipeline/quote-pipeline.ts';
import { tickSizeNumber, type Touch } from './pipeline/ticks.ts';
import { Position } from './position.ts';
import { ReferencePricer } from './reference-pricer.ts';
import { Reconciler } from './reconciler.ts';
import { Safety, type HaltReason } from './safety/safety.ts';
import { VenueAlertHandler } from './safety/venue-alerts.ts';
import { gatePlans, withoutOffSides } from './hedge/gate.ts';
import type { EngineHedge } from './hedge/link.ts';
import { Scorecard } from './scorecard.ts';
import type { EngineSettings } from './settings.ts';
import { SidePlanner } from './side-planner.ts';
import { scorecardSnapshot, workingQuotes, type EngineStatus, type PathStatus, type ReferenceView } from './status.ts';

/** Collaborators and settings of an engine. */
export interface EngineOptions {
  readonly venue: Venue;
  readonly strategy: Strategy;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: EngineSettings;
  readonly observer?: EngineObserver;
  /** Crash journal; default none (backtests). The daemon passes its pair's view of an `AccountJournal`. */
  readonly journal?: Journal;
  /**
   * The account this pair shares with other pairs (one process per account): its outbound
   * budget, funds, ledger check and account-wide limits. Without it the pair has the account to
   * itself. With it, start the engines with `prepare()`, `Account.allocate()`, then `begin()`.
   */
  readonly account?: { readonly account: Account; readonly pairName: string };
  /** The hedger (HEDGE): told every fill; its position joins ours; it gates the sides it is hedging. */
  readonly hedge?: EngineHedge;
  /**
   * A deep market we only read (REFERENCE=…): with FAIR_PRICE=reference|blend the fair price
   * comes from it, and quoting pauses while it is unusable or diverges from the venue. The
   * engine starts it (before the venue) and stops it.
   */
  readonly reference?: ReferenceFeed;
}

const NO_QUOTES: RoundedQuote[] = [];
/** Pause reason while venue and reference disagree by more than REFERENCE_MAX_DIVERGENCE_BPS. */
const REFERENCE_DIVERGENT = 'reference divergent';
/** How long quotes stay pulled after a reference jump (cancel first, requote after). */
const REFERENCE_JUMP_PAUSE_MS = 250;

/** How `stop()` ended. */
export interface StopOutcome {
  /** The venue confirmed, within SHUTDOWN_TIMEOUT_MS, that nothing of ours rests. */
  readonly confirmed: boolean;
  /** When not confirmed: our orders that may still rest (every one not known to be finished). */
  readonly ordersThatMayRest: readonly string[];
}

/** Part of SHUTDOWN_TIMEOUT_MS kept for closing the venue and the daemon's exit (at most 500 ms, a fifth of it). */
function shutdownReserveMs(timeoutMs: number): number {
  return Math.min(500, Math.floor(timeoutMs / 5));
}

/** `work`'s result, or `fallback` once `ms` have passed on the clock (the work is left to finish or hang on its own). */
function withinMs<T>(clock: Clock, work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: Timer | undefined;
  const expired = new Promise<T>((resolve) => (timer = clock.setTimeout(() => resolve(fallback), Math.max(0, ms), { unref: true })));
  return Promise.race([work, expired]).finally(() => timer?.cancel());
}

/** The daemon's brain. `start()` once, `stop()` to cancel everything and leave. */
export class MarketMaker {
  private readonly venue: Venue;
  private readonly strategy: Strategy;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly settings: EngineSettings;
  private readonly observer: EngineObserver;
  private readonly journal: GuardedJournal;
  private readonly orders: OrderManager;
  private readonly safety: Safety;
  private readonly reconciler: Reconciler;
  private readonly markouts = new MarkoutTracker();
  private readonly scorecard = new Scorecard();
  private readonly pipeline = new QuotePipeline();
  private readonly planner: SidePlanner;
  private readonly accountLink: { readonly account: Account; readonly pairName: string } | undefined;
  private readonly alerts: VenueAlertHandler;
  private readonly hedge: EngineHedge | undefined;
  private readonly referenceFeed: ReferenceFeed | undefined;
  private readonly referencePricer: ReferencePricer | undefined;
  /** The pause reason the reference's own state holds now (one at a time). */
  private referenceStatePause: string | undefined;
  /** What start-up learns: the pair's rules and costs, the market, the books. */
  private pair: { readonly info: VenueInfo; readonly rules: TickerRules; readonly tickSize: number; readonly costs: Costs } | undefined;
  private market: MarketTracker | undefined;
  private ledger: Ledger | undefined;
  private position: Position | undefined;
  private limits: RiskLimits | undefined;
  private timers: Timer[] = [];
  private requoteTriggerMs: number | undefined;
  private stopping: Promise<StopOutcome> | undefined;

  constructor(options: EngineOptions) {
    this.venue = options.venue;
    this.strategy = options.strategy;
    this.clock = options.clock;
    this.logger = options.logger;
    this.settings = options.settings;
    this.observer = options.observer ?? {};
    this.journal = new GuardedJournal(options.journal ?? new NullJournal(), (error) => this.onJournalFailure(error));
    const applyReport = (report: OrderReport): void => this.applyReport(report);
    this.orders = new OrderManager({
      venue: this.venue,
      clock: this.clock,
      logger: this.logger,
      journal: this.journal,
      observer: this.observer,
      budget: this.settings.outbound,
      ...(options.account === undefined ? {} : { bucket: options.account.account.bucket }),
      hooks: {
        isQuoting: () => this.safety.isQuoting(),
        onSideSettled: () => this.requote(),
        onWake: () => this.requote(),
        onUnknownOutcome: () => void this.reconciler.heal(),
        onSignerRefused: (reason) => void this.halt('SIGNER_REFUSED', `the signing policy refused an order the strategy wanted (${reason}): the pair file and the signer's policy disagree; halting rather than asking again`),
        onOrdersChanged: () => this.sampleScorecard(),
      },
    });
    this.safety = new Safety({
      clock: this.clock,
      logger: this.logger,
      observer: this.observer,
      staleFeedMs: this.settings.staleFeedMs,
      maxDrawdownQuote: typeof this.settings.risk.maxDrawdownQuote === 'number' ? this.settings.risk.maxDrawdownQuote : 0,
      hooks: {
        // A pause's pull ends once quoting resumed: it would otherwise pull the fresh quotes too.
        onPause: (reason) => void this.orders.cancelEverything(reason, this.settings.shutdownTimeoutMs, applyReport, () => !this.safety.isQuoting()),
        onResume: () => void this.reconciler.heal(),
        onHalt: (reason) => this.cancelOnHalt(reason),
      },
    });
    this.reconciler = new Reconciler({
      venue: this.venue,
      clock: this.clock,
      logger: this.logger,
      journal: this.journal,
      observer: this.observer,
      orders: this.orders,
      settings: this.settings,
      rules: () => this.pair?.rules,
      ledger: () => this.ledger,
      applyReport,
      isStarting: () => this.safety.state === 'starting',
      onDrift: (message) => void this.halt('ENGINE_INVARIANT', message),
      afterHeal: () => this.requote(),
      ...(options.account === undefined ? {} : { account: { checkBalances: () => (options.account as { account: Account }).account.checkBalances() } }),
    });
    this.accountLink = options.account;
    this.alerts = new VenueAlertHandler(this.clock, this.logger, {
      heal: () => void this.reconciler.heal(),
      sideOf: (orderId) => this.orders.table.get(orderId)?.side,
      backOff: (side, reason) => this.orders.backOff(side, reason),
      isPullingQuotes: () => this.safety.state === 'paused' || this.safety.state === 'halted' || this.safety.state === 'stopping',
      cancelEverything: (reason) => void this.orders.cancelEverything(reason, this.settings.shutdownTimeoutMs, applyReport),
      pauseFor: (reason, forMs) => this.pauseFor(reason, forMs),
      escalate: (message) => this.safety.escalate(message),
    });
    this.planner = new SidePlanner(this.orders, this.settings);
    this.hedge = options.hedge;
    this.hedge?.attach({ requote: () => this.requote(), halt: (message) => void this.halt('HEDGE_FAILED', message) });
    this.referenceFeed = options.reference;
    if (options.reference !== undefined && this.settings.reference !== undefined) this.referencePricer = new ReferencePricer(this.settings.reference, options.reference);
    if (this.usesReference() && this.referencePricer === undefined) throw new Error(`FAIR_PRICE=${this.settings.fairPrice} needs a reference feed and its settings`);
  }

  /** True when the fair price comes (in part) from the reference market. */
  private usesReference(): boolean {
    return this.settings.fairPrice === 'reference' || this.settings.fairPrice === 'blend';
  }

  /** Connects, applies the startup-order policy, takes the starting balances and begins quoting. */
  async start(): Promise<void> {
    await this.prepare();
    if (this.accountLink !== undefined) throw new Error('an engine that shares its account starts with prepare(), Account.allocate(), begin()');
    const rules = (this.pair as { rules: TickerRules }).rules;
    const account = await this.venue.fetchAccount();
    this.begin({ baseUnits: account.balances.get(rules.base)?.total ?? 0n, quoteUnits: account.balances.get(rules.quote)?.total ?? 0n });
  }

  /** Connects, learns the pair, recovers from the journal and settles leftovers (adopt or cancel): everything before quoting. */
  async prepare(): Promise<void> {
    await this.referenceFeed?.start(this.referenceListener());
    const info = await this.venue.start(this.listener());
    const rules = info.rules;
    this.pair = { info, rules, tickSize: tickSizeNumber(rules), costs: new Costs(info, this.venue, this.settings.conversionMargin) };
    const pricer = this.referencePricer;
    const externalFair =
      pricer === undefined || !this.usesReference()
        ? undefined
        : this.settings.fairPrice === 'reference'
          ? () => pricer.referenceFair()
          : (venueMid: number | undefined, venueSize: number) => pricer.blend(venueMid, venueSize);
    const arrivalGrid = { stepBps: this.settings.arrivalGridStepBps, points: this.settings.arrivalGridPoints };
    this.market = new MarketTracker(info, this.settings.fairPrice, this.settings.fairHoldMs, () => this.clock.nowMs(), externalFair, arrivalGrid);
    this.ledger = new Ledger({ baseDecimals: rules.baseDecimals, quoteDecimals: rules.quoteDecimals, makerFeePbips: info.makerFeePbips, takerFeePbips: info.takerFeePbips });
    this.orders.setRules(rules);
    await this.reconciler.recoverFromJournal();
    await this.reconciler.applyStartupPolicy();
    this.journal.append({ t: 'start', timeMs: this.clock.nowMs() });
  }

  /**
   * Begins quoting with these funds (base units the pair may use: the account's balances when it
   * has the account to itself, its budget when it shares it).
   */
  begin(funds?: { readonly baseUnits: bigint; readonly quoteUnits: bigint }): void {
    const pair = this.pair;
    const ledger = this.ledger;
    if (pair === undefined || ledger === undefined) throw new Error('begin() before prepare()');
    const link = this.accountLink;
    const start = funds ?? (link === undefined ? undefined : link.account.fundsOf(link.pairName));
    if (start === undefined) throw new Error('begin() needs the funds when the engine has its account to itself (start() passes them)');
    ledger.reset(start.baseUnits, start.quoteUnits);
    const hedge = this.hedge;
    this.position = new Position(ledger, pair.rules, this.settings.inventoryTarget, start.baseUnits, hedge === undefined ? undefined : () => hedge.positionOffsetUnits());
    link?.account.join(this.member(link.pairName));
    this.safety.begin();
    this.sampleScorecard();
    this.startTimers();
    this.logger.info({ pair: `${pair.rules.base}/${pair.rules.quote}`, strategy: this.strategy.name, state: this.safety.state }, 'engine started');
    this.requote();
  }

  /** What this pair offers the account it shares. */
  private member(pairName: string): AccountMember {
    const pair = this.pair as { rules: TickerRules };
    const ledger = this.ledger as Ledger;
    const rules = pair.rules;
    return {
      pair: { name: pairName, base: rules.base, quote: rules.quote, budgetBaseUnits: undefined, budgetQuoteUnits: undefined },
      deltas: () => {
        const now = ledger.balances();
        const start = ledger.startBalances();
        return new Map([
          [rules.base, now.baseUnits - start.baseUnits],
          [rules.quote, now.quoteUnits - start.quoteUnits],
        ]);
      },
      healOrders: () => this.reconciler.healOrders(),
      knowsOrder: (orderId) => this.orders.table.get(orderId) !== undefined,
      exposedNotionalUnits: () => {
        let total = 0n;
        for (const order of this.orders.table.notDoneOrders()) total += notionalUnits(order.priceUnits, order.qtyUnits - order.filledQtyUnits, rules, 'up');
        return total;
      },
      pnlTotal: () => {
        const mark = this.market?.fair() ?? this.market?.mid();
        return mark === undefined ? undefined : ledger.pnl(mark).total;
      },
      halt: (code, message) => this.halt(code, message),
    };
  }

  /**
   * Graceful shutdown: stop quoting, cancel everything, wait until the venue confirms that nothing
   * of ours rests, then close the venue — all within SHUTDOWN_TIMEOUT_MS, whatever the venue does
   * (unreachable, hanging): the outcome names the orders that may still rest when it could not
   * confirm. Idempotent (a second call gets the first one's outcome).
   */
  stop(): Promise<StopOutcome> {
    this.stopping ??= this.runStop();
    return this.stopping;
  }

  private async runStop(): Promise<StopOutcome> {
    const startedMs = this.clock.nowMs();
    const budgetMs = this.settings.shutdownTimeoutMs - shutdownReserveMs(this.settings.shutdownTimeoutMs);
    this.safety.beginStopping();
    for (const timer of this.timers) timer.cancel();
    this.timers = [];
    this.orders.stop();
    this.reconciler.stop();
    const cancelled = this.orders.cancelEverything('shutdown', budgetMs, (report) => this.applyReport(report));
    const confirmed = await withinMs(this.clock, cancelled, budgetMs, false);
    const ordersThatMayRest = confirmed ? [] : [...this.orders.table.notDoneOrders()].map((order) => order.orderId);
    if (!confirmed) {
      this.logger.error({ orders: ordersThatMayRest, count: ordersThatMayRest.length }, 'shutdown: the venue did not confirm that nothing of ours rests; these orders may still rest');
    }
    await withinMs(this.clock, this.venue.stop(), startedMs + budgetMs - this.clock.nowMs(), undefined);
    await withinMs(this.clock, this.referenceFeed?.stop() ?? Promise.resolve(), startedMs + budgetMs - this.clock.nowMs(), undefined);
    this.journal.append({ t: 'stop', timeMs: this.clock.nowMs() });
    if (confirmed) this.journal.compact();
    this.journal.close();
    this.safety.stopped();
    this.logger.info({ confirmed }, 'engine stopped');
    return { confirmed, ordersThatMayRest };
  }

  /** Stops quoting for good (kill switch, broken invariant, operator) and cancels everything. */
  halt(code: HaltReason['code'], message: string): Promise<void> {
    return this.safety.haltWith(code, message);
  }

  /** What the engine is doing now. */
  status(): EngineStatus {
    const { mid, baseBalance, pnl, hedge, reference } = this.pathStatus();
    const fair = this.market?.fair();
    const rules = this.pair?.rules;
    const balances = this.ledger?.balances();
    const scorecard = scorecardSnapshot(this.scorecard, this.orders.stats(), pnl, rules);
    return {
      state: this.safety.state,
      haltReason: this.safety.haltReason,
      pauseReason: this.safety.pauseReason,
      mid,
      fair,
      bids: workingQuotes(this.orders.table, 'buy', rules),
      asks: workingQuotes(this.orders.table, 'sell', rules),
      baseBalance,
      quoteBalance: balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.quoteUnits, rules.quoteDecimals),
      position: this.position?.positionBase(fair) ?? 0,
      inventoryCap: this.limits === undefined || rules === undefined ? 0 : unitsToNumber(this.limits.maxInventoryDeviationUnits, rules.baseDecimals),
      pnl,
      markouts: this.markouts.summary(),
      twoSidedUptime: scorecard.twoSidedUptime,
      scorecard,
      ...(hedge === undefined ? {} : { hedge }),
      reference,
    };
  }

  /**
   * The figures a backtest samples along its path, as `status()` gives them at the same moment,
   * without its order lists and scorecard copy: a replay samples once per simulated second.
   */
  pathStatus(): PathStatus {
    const mid = this.market?.mid();
    const fair = this.market?.fair();
    const rules = this.pair?.rules;
    const balances = this.ledger?.balances();
    this.sampleScorecard();
    const baseBalance = balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.baseUnits, rules.baseDecimals);
    const pnl = this.ledger?.pnl(fair ?? mid) ?? new Ledger({ baseDecimals: 0, quoteDecimals: 0, makerFeePbips: 0, takerFeePbips: 0 }).pnl(undefined);
    return {
      mid,
      baseBalance,
      pnl,
      scorecard: { pnl: this.scorecard.pnl() },
      ...(this.hedge === undefined ? {} : { hedge: { ...this.hedge.status(), pnlQuote: this.hedge.pnlQuote(fair ?? mid) } }),
      reference: this.referenceView(mid),
    };
  }

  private referenceView(venueMid: number | undefined): ReferenceView | undefined {
    const feed = this.referenceFeed;
    const pricer = this.referencePricer;
    if (feed === undefined) return undefined;
    const status = feed.status();
    const basis = pricer?.basisFraction();
    return {
      market: status.market,
      state: status.state,
      reason: status.reason,
      mid: status.mid,
      fair: pricer?.referenceFair(),
      basisBps: basis === undefined ? undefined : basis * 10_000,
      divergenceBps: pricer?.divergenceBps(venueMid),
      ageMs: status.lastUpdateMs === undefined ? undefined : this.clock.nowMs() - status.lastUpdateMs,
    };
  }

  /** True while the engine quotes (for /health). */
  isQuoting(): boolean {
    return this.safety.isQuoting();
  }

  /** Requests not yet answered (backtests flush their event loop while this is non-zero). */
  hasWorkInFlight(): boolean {
    return this.orders.hasWorkInFlight() || this.reconciler.isHealing();
  }

  // ── venue events ──────────────────────────────────────────────────────────────────────────

  private listener(): VenueListener {
    return {
      onTopOfBook: (top) => this.onTopOfBook(top),
      onTrade: (trade) => {
        this.safety.marketDataSeen();
        this.market?.onTrade(trade);
      },
      onOrderReport: (report) => this.applyReport(report),
      onGasQuote: (quote) => this.pair?.costs.onGasQuote(quote),
      onResync: (reason) => this.onResync(reason),
      onFeedStatus: (isUp) => (isUp ? this.safety.clear('feed down') : this.safety.pause('feed down')),
      onVenueAlert: (alert) => this.alerts.onAlert(alert),
    };
  }

  private onTopOfBook(top: BestBidOffer): void {
    const market = this.market;
    if (market === undefined) return;
    // A top recomputed from our own orders proves nothing about the feed (the dead-man ignores it).
    if (top.fromOwnOrders !== true) this.safety.marketDataSeen();
    if (!market.onTopOfBook(top)) return;
    const venueMid = market.mid();
    if (venueMid !== undefined) this.referencePricer?.observeVenueMid(venueMid, this.clock.nowMs());
    this.checkDivergence();
    const fair = market.fair();
    this.markouts.observeMid(market.mid(), top.timeMs);
    this.scorecard.markTo(fair);
    this.resolveLimits();
    // The kill switch watches marked-to-market PnL: a position loses as the price moves, not at fills.
    this.checkDrawdown();
    if (this.safety.isFinished()) return;
    this.requoteTriggerMs ??= this.clock.nowMs();
    this.requote();
  }

  /** Applies a venue report: order state, and the fill (if any) to every book. The only way fills enter. */
  private applyReport(report: OrderReport): void {
    const effect = this.orders.table.applyReport(report);
    if (!effect.known) {
      // Not ours as far as the table knows: a leftover, or a report that outran a restart.
      // Healing decides (adopt or cancel) with the venue's own records.
      this.logger.warn({ orderId: report.orderId, status: report.status }, 'report for an unknown order; healing');
      this.onResync('missed-fills');
      return;
    }
    const ledger = this.ledger;
    const rules = this.pair?.rules;
    if (effect.fill === undefined && effect.trade !== undefined && ledger !== undefined && rules !== undefined) {
      // An older report brought a trade we had not seen: the fee it adds, charged per trade as the venue does.
      const correction = ledger.applyLateTrade(effect.trade);
      if (correction !== undefined) {
        this.scorecard.addFill(correction, unitsToNumber(correction.baseDeltaUnits, rules.baseDecimals), unitsToNumber(correction.quoteDeltaUnits, rules.quoteDecimals), this.market?.fair() ?? 0);
        this.observer.feeCorrected?.(correction);
      }
    }
    if (effect.fill !== undefined && ledger !== undefined && rules !== undefined) {
      const fillEffect = ledger.applyFill(effect.fill, effect.trade);
      const price = unitsToNumber(effect.fill.priceUnits, rules.quoteDecimals);
      this.markouts.addFill(effect.fill.side, price, effect.fill.timeMs);
      this.scorecard.addFill(fillEffect, unitsToNumber(fillEffect.baseDeltaUnits, rules.baseDecimals), unitsToNumber(fillEffect.quoteDeltaUnits, rules.quoteDecimals), price);
      if (!effect.fill.isMaker) this.chargeTakerGas();
      this.observer.fill?.(effect.fill, fillEffect);
      this.hedge?.onFill(effect.fill, fillEffect, this.orders.table.get(report.orderId)?.filledQtyUnits ?? effect.fill.qtyUnits);
      if (this.limits !== undefined && this.position !== undefined) {
        this.scorecard.checkCap(isOverInventoryCap(ledger.balances().baseUnits, this.position.targetUnits(this.market?.fair()), this.limits));
      }
      this.checkDrawdown();
    }
    if (effect.becameDone) this.journal.append({ t: 'done', orderId: report.orderId, status: report.status, timeMs: this.clock.nowMs() });
    if (report.status === 'NOT_PROCESSED') this.observer.orderRejected?.(report.side, report.matcherResult ?? 'NOT_PROCESSED');
    if (effect.becameDone || effect.fill !== undefined) this.requote();
  }

  private referenceListener(): ReferenceListener {
    return {
      onTop: (top) => this.onReferenceTop(top),
      onTrade: (trade) => {
        const basis = this.referencePricer?.basisFraction() ?? 0;
        this.market?.onReferenceTrade(this.clock.nowMs(), trade.price * (1 + basis), trade.aggressor);
      },
      onStatus: (status) => this.onReferenceStatus(status),
    };
  }

  private onReferenceTop(top: ReferenceTop): void {
    const pricer = this.referencePricer;
    const market = this.market;
    if (pricer === undefined || market === undefined) return;
    const jumpBps = pricer.onTop(top, this.clock.nowMs());
    market.onReferencePrice(this.clock.nowMs(), pricer.referenceFair());
    if (!this.usesReference()) return;
    // A reference jump: pull our quotes first (they may be far off the new price), requote after.
    if (jumpBps !== undefined) {
      this.logger.warn({ jumpBps: Number(jumpBps.toFixed(2)), windowMs: this.settings.reference?.jumpWindowMs }, 'reference jumped: cancelling first, requoting after');
      this.pauseFor('reference jump', REFERENCE_JUMP_PAUSE_MS);
    }
    this.checkDivergence();
    const fair = market.fair();
    this.scorecard.markTo(fair);
    this.resolveLimits();
    this.checkDrawdown();
    if (this.safety.isFinished()) return;
    this.requoteTriggerMs ??= this.clock.nowMs();
    this.requote();
  }

  /** Quoting from a reference that is not synchronised (resyncing, stale, stopped) pauses, with its state as the reason. */
  private onReferenceStatus(status: ReferenceStatus): void {
    // Stopping closes the feed too: its `stopped` is no reason to warn about then.
    if (!this.usesReference() || (status.state === 'stopped' && this.safety.isFinished())) return;
    const reason = status.state === 'synchronised' ? undefined : `reference ${status.state}`;
    if (reason === this.referenceStatePause) return;
    if (this.referenceStatePause !== undefined) this.safety.clear(this.referenceStatePause);
    this.referenceStatePause = reason;
    if (reason !== undefined) {
      this.logger.warn({ market: status.market, state: status.state, reason: status.reason }, 'reference unusable: quoting from it pauses');
      this.safety.pause(reason);
    }
  }

  /** Venue mid too far from the reference fair: pause until they agree again. */
  private checkDivergence(): void {
    const pricer = this.referencePricer;
    const limit = this.settings.reference?.maxDivergenceBps ?? 0;
    if (pricer === undefined || !this.usesReference() || limit <= 0) return;
    const divergence = pricer.divergenceBps(this.market?.mid());
    if (divergence !== undefined && divergence > limit) {
      if (this.safety.pauseReason?.includes(REFERENCE_DIVERGENT) !== true) this.logger.warn({ divergenceBps: Number(divergence.toFixed(2)), limitBps: limit }, 'venue and reference diverge');
      this.safety.pause(REFERENCE_DIVERGENT);
    } else {
      this.safety.clear(REFERENCE_DIVERGENT);
    }
  }

  /** Pause for `forMs` (cancelling everything), then resume unless another reason holds. */
  private pauseFor(reason: string, forMs: number): void {
    this.safety.pause(reason);
    this.clock.setTimeout(() => this.safety.clear(reason), forMs);
  }

  private onResync(reason: ResyncReason): void {
    this.logger.info({ reason }, 'venue asks for a resync');
    if (reason === 'reconnected') this.observer.feedReconnected?.();
    void this.reconciler.heal();
  }

  // ── the strategy loop ─────────────────────────────────────────────────────────────────────

  /** Computes desired quotes and sends the difference, side by side, within the budget. */
  private requote(): void {
    const market = this.market;
    const pair = this.pair;
    if (!this.safety.isQuoting() || pair === undefined || market === undefined) return;
    const desired = this.desiredQuotes();
    const nowMs = this.clock.nowMs();
    const planned = this.planner.plan(desired, nowMs, market.fair(), () => pair.costs.edgeContext());
    const plans = this.hedge === undefined ? planned : gatePlans(planned, this.hedge);
    if (plans.length > 0 && this.limits !== undefined && this.position !== undefined) {
      const triggeredAtMs = this.requoteTriggerMs ?? nowMs;
      const link = this.accountLink;
      const accountRoomUnits = link?.account.notionalRoomUnits(link.pairName);
      this.orders.execute(plans, { holdings: this.position.holdings(market.fair()), limits: this.limits, touch: this.touch(), ...(accountRoomUnits === undefined ? {} : { accountRoomUnits }) });
      this.observer.requoteLatency?.(this.clock.nowMs() - triggeredAtMs);
    }
    this.requoteTriggerMs = undefined;
    this.prepareNeighbours(desired);
    this.sampleScorecard();
  }

  /** View → fair → strategy → pipeline: the quotes that should rest now. */
  private desiredQuotes(): RoundedQuote[] {
    const market = this.market;
    const pair = this.pair;
    const position = this.position;
    if (pair === undefined || market === undefined || position === undefined) return NO_QUOTES;
    const marketView = market.view(this.clock.nowMs(), pair.costs.gasPerFill());
    const hedgeView = this.hedge?.marketView();
    const view = hedgeView === undefined ? marketView : { ...marketView, hedge: hedgeView };
    const fair = view.fair;
    const fairUnits = market.fairUnits();
    const limits = this.resolveLimits();
    if (fair === undefined || fairUnits === undefined || limits === undefined) return NO_QUOTES;
    const inventory = position.inventoryView(fair);
    let raw: DesiredQuote[];
    try {
      raw = this.strategy.quote(view, inventory);
      if (this.hedge !== undefined) raw = withoutOffSides(raw, this.hedge);
    } catch (error) {
      void this.halt('ENGINE_INVARIANT', `strategy ${this.strategy.name} threw: ${error instanceof Error ? error.message : String(error)}`);
      return NO_QUOTES;
    }
    for (const quote of raw) {
      if (!(quote.price > 0) || !Number.isFinite(quote.price)) {
        void this.halt('ENGINE_INVARIANT', `strategy ${this.strategy.name} returned price ${quote.price}`);
        return NO_QUOTES;
      }
    }
    return this.pipeline.run({
      quotes: raw,
      fair,
      fairUnits,
      touch: this.touch(),
      rules: pair.rules,
      tickSize: pair.tickSize,
      holdings: position.holdings(fair),
      limits,
      minEdgeBps: this.settings.minEdgeBps,
      edge: pair.costs.edgeContext(),
      tolerance: this.settings.requoteTolerance,
    });
  }

  /** Asks the venue to pre-sign the orders a requote is likely to need next. */
  private prepareNeighbours(desired: readonly RoundedQuote[]): void {
    const rules = this.pair?.rules;
    if (rules === undefined || this.settings.presignTicks <= 0 || desired.length === 0) return;
    const intents: OrderIntent[] = [];
    for (const quote of desired) {
      for (let offset = -this.settings.presignTicks; offset <= this.settings.presignTicks; offset++) {
        const priceUnits = quote.priceUnits + BigInt(offset) * rules.priceTick;
        if (priceUnits > 0n) intents.push({ side: quote.side, priceUnits, qtyUnits: quote.qtyUnits, postOnly: true });
      }
    }
    this.venue.prepareOrders(intents);
  }

  // ── inputs of the pipeline ────────────────────────────────────────────────────────────────

  private touch(): Touch {
    return { bestBidUnits: this.market?.bestBidUnits(), bestAskUnits: this.market?.bestAskUnits() };
  }

  /** The risk limits with `auto` resolved once the first fair price is known. */
  private resolveLimits(): RiskLimits | undefined {
    if (this.limits !== undefined) return this.limits;
    const rules = this.pair?.rules;
    const fairUnits = this.market?.fairUnits();
    if (rules === undefined || fairUnits === undefined) return undefined;
    this.limits = resolveRiskLimits(this.settings.risk, { orderSizeUnits: orderSizeUnitsOf(this.strategy, fairUnits, rules), fairUnits, rules });
    this.safety.drawdown.setLimit(this.limits.maxDrawdownQuote);
    this.logger.info(
      {
        maxInventoryBase: unitsToNumber(this.limits.maxInventoryDeviationUnits, rules.baseDecimals),
        maxTotalNotional: unitsToNumber(this.limits.maxTotalNotionalUnits, rules.quoteDecimals),
        maxDrawdown: this.limits.maxDrawdownQuote,
      },
      'risk limits in force (0 = off)',
    );
    return this.limits;
  }

  // ── safety ────────────────────────────────────────────────────────────────────────────────

  private startTimers(): void {
    const checkEveryMs = Math.max(50, Math.floor(this.settings.staleFeedMs / 4));
    this.timers.push(this.clock.setInterval(() => this.safety.checkFeed(), checkEveryMs));
    if (this.settings.reconcileIntervalMs > 0) this.timers.push(this.clock.setInterval(() => void this.reconciler.heal(), this.settings.reconcileIntervalMs));
    if (this.settings.maxOrderAgeMs > 0) {
      this.timers.push(this.clock.setInterval(() => this.requote(), Math.max(1_000, Math.floor(this.settings.maxOrderAgeMs / 4))));
    }
  }

  private async cancelOnHalt(reason: HaltReason): Promise<void> {
    await this.orders.cancelEverything('halt', this.settings.shutdownTimeoutMs, (report) => this.applyReport(report));
    if (this.settings.onchainKill && (reason.code === 'FATAL' || reason.code === 'ENGINE_INVARIANT')) {
      const outcome = await this.venue.increaseNonce();
      this.logger.warn({ outcome }, 'on-chain kill: nonce increase requested');
      if (outcome.kind !== 'accepted') this.safety.escalate(`on-chain kill (nonce increase) ${outcome.kind}: ${outcome.reason}; orders signed before it may still be valid`);
    }
  }

  /** The journal could not be written (disk full): no trading without it. */
  private onJournalFailure(error: unknown): void {
    const detail = error instanceof Error ? error.message : String(error);
    void this.halt('JOURNAL_FAILED', `journal write failed (${detail}): cancelling everything and halting; the bot does not trade without its journal`);
  }

  private checkDrawdown(): void {
    const market = this.market;
    const mark = market?.fair() ?? market?.mid();
    const pnl = this.ledger?.pnl(mark);
    // Hedged, a position's loss here is the hedge's gain there: the kill switch watches both.
    if (pnl !== undefined) this.safety.observePnl(pnl.total + (this.hedge?.pnlQuote(mark) ?? 0));
    this.accountLink?.account.observePnl();
  }

  private chargeTakerGas(): void {
    if (this.pair === undefined) return;
    const cost = this.pair.costs.takerGas();
    this.ledger?.applyGas(cost);
    this.scorecard.addGas(cost);
    this.observer.gasSpent?.(cost);
  }

  /** Feeds the scorecard's time-weighted shares with what rests now. */
  private sampleScorecard(): void {
    const market = this.market;
    const table = this.orders.table;
    const ourBid = table.bestWorkingPrice('buy');
    const ourAsk = table.bestWorkingPrice('sell');
    const marketBid = market?.bestBidUnits();
    const marketAsk = market?.bestAskUnits();
    this.scorecard.sample(this.clock.nowMs(), {
      quoting: this.safety.isQuoting(),
      hasBid: ourBid !== undefined,
      hasAsk: ourAsk !== undefined,
      bidAtTouch: ourBid !== undefined && (marketBid === undefined || ourBid >= marketBid),
      askAtTouch: ourAsk !== undefined && (marketAsk === undefined || ourAsk <= marketAsk),
    });
  }
}
