/**
 * The market-making engine, over the `Venue` port only (it never knows whether the venue is
 * LayerAkira, the embedded exchange or a replayed recording). It wires three owners and a pure
 * pipeline, and reads like the data flow of one tick:
 *
 *   venue event → market view + fair price (MarketTracker; a reference market's price and pauses
 *   beside it, ReferenceStage) → strategy → pipeline (ticks → caps →
 *   edge → tolerances, pure, memoised) → diff against live orders (asymmetric band) → order
 *   manager (budget, priorities, caps gate, journal) → venue → reports → books (ledger,
 *   markouts, scorecard) → safety (dead-man, drawdown) may pause or halt.
 *
 * - `OrderManager` (orders/) owns our orders and every request that changes them;
 * - `Safety` (safety/) is the only one that pauses or halts;
 * - `Reconciler` heals from the venue's records; fills reach the books only through `applyReport`.
 *
 * It is built connected, from what the venue said at start and the pair's place on its account,
 * so nothing in it waits to be known; `start.ts` is the one way it starts, for N ≥ 1 pairs.
 */
import {
  notionalUnits,
  unitsToNumber,
  type BestBidOffer,
  type Clock,
  type DesiredQuote,
  type InventoryView,
  type Logger,
  type MarketView,
  type OrderIntent,
  type OrderReport,
  type ReferenceFeed,
  type ReferenceListener,
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
import { ReferenceStage } from './reference-stage.ts';
import { Reconciler } from './reconciler.ts';
import { OPERATOR_CANCEL_ALL, OPERATOR_PAUSE, Safety, type HaltReason } from './safety/safety.ts';
import { VenueAlertHandler } from './safety/venue-alerts.ts';
import { gatePlans, withoutOffSides } from './hedge/gate.ts';
import type { EngineHedge } from './hedge/link.ts';
import { Scorecard } from './scorecard.ts';
import { DEFAULT_SIGNAL_SETTINGS, type EngineSettings } from './settings.ts';
import { SidePlanner } from './side-planner.ts';
import { SignalStage } from './signal-stage.ts';
import { priceOf, scorecardSnapshot, workingQuotes, type EngineStatus, type ModelStatus, type PathStatus } from './status.ts';

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
  /** The hedger (HEDGE): told every fill; its position joins ours; it gates the sides it is hedging. */
  readonly hedge?: EngineHedge;
  /**
   * A deep market we only read (REFERENCE=…): with FAIR_PRICE=reference|blend the fair price
   * comes from it, and quoting pauses while it is unusable or diverges from the venue. The start
   * protocol starts it (before the venue); the engine stops it.
   */
  readonly reference?: ReferenceFeed;
  /**
   * False when nothing reads the signals from the status (a backtest's summary and report never
   * do): the signal stage then tracks only what the alpha term and the toxicity widening use, and
   * the status goes without `signals`. Default true (the daemon's metrics, status line and ctl).
   */
  readonly readsSignals?: boolean;
}

/**
 * What the start protocol (`start.ts`) learned before it builds the engine: the pair's rules,
 * fees and gas steps as the venue gave them at start, and the pair's place on its account (one
 * pair alone is an account of one).
 */
export interface EnginePlacement {
  readonly info: VenueInfo;
  readonly account: Account;
  /** `BASE/QUOTE`: the pair's name on the account. */
  readonly pairName: string;
}

const NO_QUOTES: RoundedQuote[] = [];

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

/**
 * The daemon's brain for one pair, built connected (`start.ts` starts it: settle, then begin),
 * `stop()` to cancel everything and leave.
 */
export class MarketMaker {
  private readonly venue: Venue;
  /** Replaced only by `reconfigure` (the operator's live change). */
  private strategy: Strategy;
  /** The view and inventory the strategy last quoted on: its internals are read from them when the status is asked for. */
  private lastQuoteInput: { readonly view: MarketView; readonly inventory: InventoryView } | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Replaced only by `reconfigure`; parts read once at construction keep their first value (their keys are not `live`). */
  private settings: EngineSettings;
  private readonly observer: EngineObserver;
  private readonly journal: GuardedJournal;
  private readonly rules: TickerRules;
  private readonly tickSize: number;
  private readonly costs: Costs;
  private readonly account: Account;
  private readonly pairName: string;
  private readonly market: MarketTracker;
  private readonly reference: ReferenceStage | undefined;
  private readonly signals: SignalStage;
  private readonly ledger: Ledger;
  private readonly position: Position;
  private readonly orders: OrderManager;
  private readonly safety: Safety;
  private readonly reconciler: Reconciler;
  private readonly markouts = new MarkoutTracker();
  private readonly scorecard = new Scorecard();
  private readonly pipeline = new QuotePipeline();
  private readonly planner: SidePlanner;
  private readonly alerts: VenueAlertHandler;
  private readonly hedge: EngineHedge | undefined;
  /** The risk limits, once `auto` could be resolved at the first fair price. */
  private limits: RiskLimits | undefined;
  /** Quoting began (`begin`): the ledger holds the pair's funds from here on. */
  private hasBegun = false;
  private timers: Timer[] = [];
  private requoteTriggerMs: number | undefined;
  private stopping: Promise<StopOutcome> | undefined;

  /** @throws Error when FAIR_PRICE=reference|blend has no reference feed and settings. */
  constructor(options: EngineOptions, placement: EnginePlacement) {
    this.venue = options.venue;
    this.strategy = options.strategy;
    this.clock = options.clock;
    this.logger = options.logger;
    this.settings = options.settings;
    this.observer = options.observer ?? {};
    this.journal = new GuardedJournal(options.journal ?? new NullJournal(), (error) => this.onJournalFailure(error));
    const { info, account, pairName } = placement;
    this.rules = info.rules;
    this.tickSize = tickSizeNumber(info.rules);
    this.costs = new Costs(info, this.venue, this.settings.conversionMargin);
    this.account = account;
    this.pairName = pairName;
    this.hedge = options.hedge;
    const applyReport = (report: OrderReport): void => this.applyReport(report);
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
    const fairPrice = this.settings.fairPrice;
    this.reference = this.referenceStage(options.reference);
    if ((fairPrice === 'reference' || fairPrice === 'blend') && this.reference === undefined) throw new Error(`FAIR_PRICE=${fairPrice} needs a reference feed and its settings`);
    this.market = new MarketTracker(info, fairPrice, this.settings.fairHoldMs, () => this.clock.nowMs(), this.reference?.externalFair(), {
      stepBps: this.settings.arrivalGridStepBps,
      points: this.settings.arrivalGridPoints,
      evidenceHalfLifeMs: this.settings.arrivalEvidenceHalfLifeMs,
    });
    this.signals = new SignalStage(this.settings.signals ?? DEFAULT_SIGNAL_SETTINGS, options.reference, info.rules.baseDecimals, options.readsSignals ?? true);
    const signals = this.signals;
    if (signals.isAlphaOn) this.market.useAlpha((nowMs) => signals.alphaBps(nowMs));
    this.ledger = new Ledger({ baseDecimals: this.rules.baseDecimals, quoteDecimals: this.rules.quoteDecimals, makerFeePbips: info.makerFeePbips, takerFeePbips: info.takerFeePbips });
    const hedge = this.hedge;
    this.position = new Position(this.ledger, this.rules, this.settings.inventoryTarget, hedge === undefined ? undefined : () => hedge.positionOffsetUnits());
    this.orders = new OrderManager({
      venue: this.venue,
      clock: this.clock,
      logger: this.logger,
      journal: this.journal,
      observer: this.observer,
      rules: this.rules,
      bucket: account.bucket,
      hooks: {
        isQuoting: () => this.safety.isQuoting(),
        onSideSettled: () => this.requote(),
        onWake: () => this.requote(),
        onUnknownOutcome: () => void this.reconciler.heal(),
        onSignerRefused: (reason) => void this.halt('SIGNER_REFUSED', `the signing policy refused an order the strategy wanted (${reason}): the pair file and the signer's policy disagree; halting rather than asking again`),
        onOrdersChanged: () => this.sampleScorecard(),
      },
    });
    this.reconciler = new Reconciler({
      venue: this.venue,
      clock: this.clock,
      logger: this.logger,
      journal: this.journal,
      orders: this.orders,
      settings: this.settings,
      applyReport,
      isStarting: () => this.safety.state === 'starting',
      afterHeal: () => this.requote(),
      account,
    });
    this.alerts = new VenueAlertHandler(this.clock, this.logger, {
      heal: () => void this.reconciler.heal(),
      sideOf: (orderId) => this.orders.table.get(orderId)?.side,
      backOff: (side, reason) => this.orders.backOff(side, reason),
      isPullingQuotes: () => this.safety.state === 'paused' || this.safety.state === 'halted' || this.safety.state === 'stopping',
      cancelEverything: (reason) => void this.orders.cancelEverything(reason, this.settings.shutdownTimeoutMs, applyReport),
      pauseFor: (reason, forMs) => this.pauseFor(reason, forMs),
      escalate: (message) => this.safety.escalate(message),
    });
    this.planner = new SidePlanner(this.orders, () => this.settings);
    hedge?.attach({ requote: () => this.requote(), halt: (message) => void this.halt('HEDGE_FAILED', message) });
    // The hedger starts before the engine is built: a halt it reached while starting halts quoting still.
    const hedgeStatus = hedge?.status();
    if (hedgeStatus?.state === 'halted') void this.halt('HEDGE_FAILED', hedgeStatus.reason ?? 'hedging halted while starting');
  }

  /**
   * The reference stage over the pair's reference feed (REFERENCE=…), asking safety for its own pauses.
   * @throws Error for a feed without its REFERENCE_* settings.
   */
  private referenceStage(feed: ReferenceFeed | undefined): ReferenceStage | undefined {
    if (feed === undefined) return undefined;
    const settings = this.settings.reference;
    if (settings === undefined) throw new Error(`the reference ${feed.market} needs its REFERENCE_* settings`);
    return new ReferenceStage({ feed, settings, fairPrice: this.settings.fairPrice, clock: this.clock, logger: this.logger, safety: this.safety, pauseFor: (reason, forMs) => this.pauseFor(reason, forMs) });
  }

  /** The venue's listener (`start.ts` hands it to the venue the engine was built from). */
  venueListener(): VenueListener {
    return {
      onTopOfBook: (top) => this.onTopOfBook(top),
      onTrade: (trade) => {
        this.safety.marketDataSeen();
        this.market.onTrade(trade);
        if (this.signals.onVenueTrade(trade)) this.market.onSignalsMoved();
      },
      onOrderReport: (report) => this.applyReport(report),
      onGasQuote: (quote) => this.costs.onGasQuote(quote),
      onResync: (reason) => this.onResync(reason),
      onFeedStatus: (isUp) => (isUp ? this.safety.clear('feed down') : this.safety.pause('feed down')),
      onVenueAlert: (alert) => this.alerts.onAlert(alert),
    };
  }

  /** The reference feed's listener, when the pair reads one. */
  referenceListener(): ReferenceListener | undefined {
    const inner = this.reference?.listener(this.market, () => this.onPriceMoved());
    if (inner === undefined) return undefined;
    // The signals see each reference event first, so the fair price the stage then asks for carries the new alpha.
    return {
      onTop: (top) => {
        this.signals.onReferenceTop(this.clock.nowMs(), top);
        this.pullStaleSide();
        inner.onTop(top);
      },
      onTrade: (trade) => {
        if (this.signals.onReferenceTrade(this.clock.nowMs(), trade)) this.market.onSignalsMoved();
        inner.onTrade(trade);
      },
      onStatus: (status) => inner.onStatus(status),
    };
  }

  /**
   * Lead–lag (REFERENCE_PULL_BPS): once the reference moved past the threshold since our quotes
   * were set, the stale side's orders are cancelled at once, outside the outbound budget and
   * before the requote this top brings, which places that side afresh at the new price: an
   * arbitrageur who reads the same move finds nothing left to take.
   */
  private pullStaleSide(): void {
    const side = this.signals.staleSide();
    if (side === undefined || !this.safety.isQuoting()) return;
    this.orders.pullSide(side);
  }

  /** Recovers from the journal and settles leftovers (adopt or cancel): everything before quoting. */
  async settle(): Promise<void> {
    await this.reconciler.recoverFromJournal();
    await this.reconciler.applyStartupPolicy();
    const rules = this.rules;
    const nowMs = this.clock.nowMs();
    this.journal.append({ t: 'start', timeMs: nowMs, tick: String(rules.priceTick), lot: String(rules.qtyStep), minQty: String(rules.minQty) });
    this.observer.sessionStarted?.(nowMs);
  }

  /**
   * Begins quoting with the funds the account gave the pair (the account's balances when the
   * pair is alone on it, its budget when it shares it).
   */
  begin(): void {
    const funds = this.account.fundsOf(this.pairName);
    this.ledger.reset(funds.baseUnits, funds.quoteUnits);
    this.journal.append({ t: 'funds', base: String(funds.baseUnits), quote: String(funds.quoteUnits), timeMs: this.clock.nowMs() });
    this.hasBegun = true;
    this.account.join(this.member());
    this.safety.begin();
    this.sampleScorecard();
    this.startTimers();
    this.logger.info({ pair: `${this.rules.base}/${this.rules.quote}`, strategy: this.strategy.name, state: this.safety.state }, 'engine started');
    this.requote();
  }

  /** What this pair offers the account it belongs to. */
  private member(): AccountMember {
    const { rules, ledger } = this;
    return {
      pair: { name: this.pairName, base: rules.base, quote: rules.quote, budgetBaseUnits: undefined, budgetQuoteUnits: undefined },
      deltas: () => {
        const now = ledger.balances();
        const start = ledger.startBalances();
        return new Map([
          [rules.base, now.baseUnits - start.baseUnits],
          [rules.quote, now.quoteUnits - start.quoteUnits],
        ]);
      },
      healOrders: () => this.reconciler.healOrders(),
      healDrift: (baseDriftUnits, quoteDriftUnits) => {
        this.observer.drift?.(baseDriftUnits, quoteDriftUnits);
        const balances = ledger.balances();
        ledger.heal(balances.baseUnits + baseDriftUnits, balances.quoteUnits + quoteDriftUnits);
      },
      knowsOrder: (orderId) => this.orders.table.get(orderId) !== undefined,
      exposedNotionalUnits: () => {
        let total = 0n;
        for (const order of this.orders.table.notDoneOrders()) total += notionalUnits(order.priceUnits, order.qtyUnits - order.filledQtyUnits, rules, 'up');
        return total;
      },
      pnlTotal: () => {
        const mark = this.market.fair() ?? this.market.mid();
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
    await withinMs(this.clock, this.reference?.stop() ?? Promise.resolve(), startedMs + budgetMs - this.clock.nowMs(), undefined);
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

  // ── the operator's doors (`akira-mm ctl`) ─────────────────────────────────────────────────

  /**
   * The operator's pause (`akira-mm ctl pause`): pulls every quote as any pause does (cancel-all,
   * then waits for the venue to confirm) and keeps the process, its books and connections.
   * Distinct from the automatic reasons (a stale feed clears itself): only
   * {@link resumeByOperator} clears it.
   * @returns false when the engine neither quotes nor is paused (starting, halted, stopping).
   */
  pauseByOperator(): boolean {
    if (this.safety.state !== 'quoting' && this.safety.state !== 'paused') return false;
    this.safety.pause(OPERATOR_PAUSE);
    return true;
  }

  /**
   * Clears the operator's pause (`akira-mm ctl resume`): quoting resumes (heal, then requote)
   * unless an automatic reason still holds, which clears on its own.
   * @returns false when the operator had not paused the engine.
   */
  resumeByOperator(): boolean {
    if (!this.safety.isPausedFor(OPERATOR_PAUSE)) return false;
    this.safety.clear(OPERATOR_PAUSE);
    return true;
  }

  /**
   * Pulls every order now (`akira-mm ctl cancel-all`): the venue's cancel-all, until it confirms
   * that nothing of ours rests (at most SHUTDOWN_TIMEOUT_MS). Quoting holds while it runs (a
   * pause named `cancel-all`) and resumes with fresh quotes after, unless paused or halted.
   * @returns true once the venue confirmed that nothing of ours rests.
   */
  async cancelAllByOperator(): Promise<boolean> {
    const state = this.safety.state;
    if (state === 'stopping' || state === 'stopped') return false;
    this.safety.pause(OPERATOR_CANCEL_ALL);
    try {
      return await this.orders.cancelEverything(OPERATOR_CANCEL_ALL, this.settings.shutdownTimeoutMs, (report) => this.applyReport(report));
    } finally {
      this.safety.clear(OPERATOR_CANCEL_ALL);
    }
  }

  /**
   * Quotes with new settings and strategy from now on (`akira-mm ctl set`, `ctl reload`): the next
   * requote uses them, and resting orders stay unless the new quotes move them out of their band
   * (no cancel-all). The risk limits are resolved again (`auto` at the current fair price). Only
   * keys declared `live` may differ from the settings the engine was built with (the caller
   * checks): the parts built from the others at construction keep their first value.
   */
  reconfigure(change: { readonly strategy: Strategy; readonly settings: EngineSettings }): void {
    this.strategy = change.strategy;
    this.settings = change.settings;
    this.limits = undefined;
    this.planner.forgetQuietSides();
    if (this.safety.isQuoting()) this.requote();
  }

  /** What the engine is doing now. */
  status(): EngineStatus {
    const { mid, baseBalance, pnl, hedge, reference, model } = this.pathStatus();
    const fair = this.market.fair();
    const rules = this.rules;
    const scorecard = scorecardSnapshot(this.scorecard, this.orders.stats(), pnl, rules);
    const signals = this.signals.isRead ? this.signals.status(this.clock.nowMs()) : undefined;
    return {
      state: this.safety.state,
      haltReason: this.safety.haltReason,
      pauseReason: this.safety.pauseReason,
      mid,
      fair,
      touch: { bid: priceOf(this.market.bestBidUnits(), rules), ask: priceOf(this.market.bestAskUnits(), rules) },
      bids: workingQuotes(this.orders.table, 'buy', rules),
      asks: workingQuotes(this.orders.table, 'sell', rules),
      baseBalance,
      quoteBalance: unitsToNumber(this.ledger.balances().quoteUnits, rules.quoteDecimals),
      position: this.hasBegun ? this.position.positionBase(fair) : 0,
      inventoryCap: this.limits === undefined ? 0 : unitsToNumber(this.limits.maxInventoryDeviationUnits, rules.baseDecimals),
      pnl,
      markouts: this.markouts.summary(),
      twoSidedUptime: scorecard.twoSidedUptime,
      scorecard,
      ...(hedge === undefined ? {} : { hedge }),
      reference,
      ...(model === undefined ? {} : { model }),
      ...(signals === undefined ? {} : { signals }),
    };
  }

  /** The strategy's internals at its last quote input (computed on demand: a status is read far less often than quotes). */
  private modelStatus(): { model?: ModelStatus } {
    const input = this.lastQuoteInput;
    if (input === undefined || this.strategy.internals === undefined) return {};
    try {
      const internals = this.strategy.internals(input.view, input.inventory);
      return internals === undefined ? {} : { model: { name: this.strategy.name, internals } };
    } catch {
      // The quote path halts on a throwing strategy; the status only goes without the internals.
      return {};
    }
  }

  /**
   * The figures a backtest samples along its path, as `status()` gives them at the same moment,
   * without its order lists and scorecard copy: a replay samples once per simulated second.
   */
  pathStatus(): PathStatus {
    const mid = this.market.mid();
    const fair = this.market.fair();
    this.sampleScorecard();
    return {
      mid,
      baseBalance: unitsToNumber(this.ledger.balances().baseUnits, this.rules.baseDecimals),
      pnl: this.ledger.pnl(fair ?? mid),
      scorecard: { pnl: this.scorecard.pnl() },
      ...(this.hedge === undefined ? {} : { hedge: { ...this.hedge.status(), pnlQuote: this.hedge.pnlQuote(fair ?? mid) } }),
      reference: this.reference?.view(mid),
      ...this.modelStatus(),
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

  private onTopOfBook(top: BestBidOffer): void {
    const market = this.market;
    // A top recomputed from our own orders proves nothing about the feed (the dead-man ignores it).
    if (top.fromOwnOrders !== true) this.safety.marketDataSeen();
    if (!market.onTopOfBook(top)) return;
    const signals = this.signals;
    if (signals.readsVenue) {
      const levels = market.topOfBook();
      signals.onVenueTop(top.timeMs, levels.bid, levels.ask);
    }
    market.onSignalsMoved();
    this.reference?.onVenueMid(market.mid());
    this.markouts.observeMid(market.mid(), top.timeMs);
    this.onPriceMoved();
  }

  /**
   * The fair price may have moved (the venue's book, or the reference): mark the scorecard,
   * resolve the limits, watch the drawdown, requote. The kill switch watches marked-to-market
   * PnL: a position loses as the price moves, not at fills.
   */
  private onPriceMoved(): void {
    this.signals.observeFair(this.market.fair(), this.clock.nowMs());
    this.scorecard.markTo(this.market.fair());
    this.resolveLimits();
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
    const { ledger, rules } = this;
    if (effect.fill === undefined && effect.trade !== undefined) {
      // An older report brought a trade we had not seen: the fee it adds, charged per trade as the venue does.
      const correction = ledger.applyLateTrade(effect.trade);
      if (correction !== undefined) {
        this.scorecard.addFill(correction, unitsToNumber(correction.baseDeltaUnits, rules.baseDecimals), unitsToNumber(correction.quoteDeltaUnits, rules.quoteDecimals), this.market.fair() ?? 0);
        this.observer.feeCorrected?.(correction);
      }
    }
    if (effect.fill !== undefined) {
      const fillEffect = ledger.applyFill(effect.fill, effect.trade);
      const price = unitsToNumber(effect.fill.priceUnits, rules.quoteDecimals);
      this.markouts.addFill(effect.fill.side, price, effect.fill.timeMs);
      this.signals.onOwnFill(effect.fill.side, price, effect.fill.timeMs);
      this.reference?.onFill(effect.fill.side, price, effect.fill.timeMs);
      this.scorecard.addFill(fillEffect, unitsToNumber(fillEffect.baseDeltaUnits, rules.baseDecimals), unitsToNumber(fillEffect.quoteDeltaUnits, rules.quoteDecimals), price);
      if (!effect.fill.isMaker) this.chargeTakerGas();
      this.observer.fill?.(effect.fill, fillEffect);
      const { orderId, side, priceUnits, qtyUnits, quoteUnits, isMaker, timeMs } = effect.fill;
      this.journal.append({
        t: 'fill',
        orderId,
        side,
        price: priceUnits.toString(),
        qty: qtyUnits.toString(),
        quote: quoteUnits.toString(),
        fee: fillEffect.feeUnits.toString(),
        feeToken: fillEffect.feeToken,
        feeQuote: fillEffect.feeQuote,
        maker: isMaker,
        timeMs,
        atMs: this.clock.nowMs(),
      });
      this.hedge?.onFill(effect.fill, fillEffect, this.orders.table.get(report.orderId)?.filledQtyUnits ?? effect.fill.qtyUnits);
      // Before quoting began the ledger holds no funds yet: there is no position to hold to the cap.
      if (this.limits !== undefined && this.hasBegun) {
        this.scorecard.checkCap(isOverInventoryCap(ledger.balances().baseUnits, this.position.targetUnits(this.market.fair()), this.limits));
      }
      this.checkDrawdown();
    }
    if (effect.becameDone) this.journal.append({ t: 'done', orderId: report.orderId, status: report.status, timeMs: this.clock.nowMs() });
    if (report.status === 'NOT_PROCESSED') this.observer.orderRejected?.(report.side, report.matcherResult ?? 'NOT_PROCESSED');
    if (effect.becameDone || effect.fill !== undefined) this.requote();
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
    if (!this.safety.isQuoting()) return;
    const market = this.market;
    const costs = this.costs;
    const desired = this.desiredQuotes();
    const nowMs = this.clock.nowMs();
    const planned = this.planner.plan(desired, nowMs, market.fair(), () => costs.edgeContext());
    const plans = this.hedge === undefined ? planned : gatePlans(planned, this.hedge);
    if (plans.length > 0 && this.limits !== undefined) {
      const triggeredAtMs = this.requoteTriggerMs ?? nowMs;
      const accountRoomUnits = this.account.notionalRoomUnits(this.pairName);
      this.orders.execute(plans, { holdings: this.position.holdings(market.fair()), limits: this.limits, touch: this.touch(), ...(accountRoomUnits === undefined ? {} : { accountRoomUnits }) });
      for (const plan of plans) if (plan.diff.place.length > 0) this.signals.onQuotesSet(plan.side);
      this.observer.requoteLatency?.(this.clock.nowMs() - triggeredAtMs);
    }
    this.requoteTriggerMs = undefined;
    this.prepareNeighbours(desired);
    this.sampleScorecard();
  }

  /** View → fair → strategy → pipeline: the quotes that should rest now. */
  private desiredQuotes(): RoundedQuote[] {
    const { market, position, costs } = this;
    const marketView = market.view(this.clock.nowMs(), costs.gasPerFill());
    const hedgeView = this.hedge?.marketView();
    const view = hedgeView === undefined ? marketView : { ...marketView, hedge: hedgeView };
    const fair = view.fair;
    const fairUnits = market.fairUnits();
    const limits = this.resolveLimits();
    if (fair === undefined || fairUnits === undefined || limits === undefined) return NO_QUOTES;
    const inventory = position.inventoryView(fair);
    this.lastQuoteInput = { view, inventory };
    let raw: DesiredQuote[];
    try {
      raw = this.signals.adjustQuotes(this.strategy.quote(view, inventory), fair, view.timeMs, view, this.settings.minEdgeBps);
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
      rules: this.rules,
      tickSize: this.tickSize,
      holdings: position.holdings(fair),
      limits,
      minEdgeBps: this.settings.minEdgeBps,
      edge: costs.edgeContext(),
      tolerance: this.settings.requoteTolerance,
    });
  }

  /** Asks the venue to pre-sign the orders a requote is likely to need next. */
  private prepareNeighbours(desired: readonly RoundedQuote[]): void {
    const rules = this.rules;
    if (this.settings.presignTicks <= 0 || desired.length === 0) return;
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
    return { bestBidUnits: this.market.bestBidUnits(), bestAskUnits: this.market.bestAskUnits() };
  }

  /** The risk limits with `auto` resolved once the first fair price is known. */
  private resolveLimits(): RiskLimits | undefined {
    if (this.limits !== undefined) return this.limits;
    const rules = this.rules;
    const fairUnits = this.market.fairUnits();
    if (fairUnits === undefined) return undefined;
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
    const mark = this.market.fair() ?? this.market.mid();
    // Hedged, a position's loss here is the hedge's gain there: the kill switch watches both.
    this.safety.observePnl(this.ledger.pnl(mark).total + (this.hedge?.pnlQuote(mark) ?? 0));
    this.account.observePnl();
  }

  private chargeTakerGas(): void {
    const cost = this.costs.takerGas();
    this.ledger.applyGas(cost);
    this.scorecard.addGas(cost);
    this.observer.gasSpent?.(cost);
  }

  /** Feeds the scorecard's time-weighted shares with what rests now. */
  private sampleScorecard(): void {
    const market = this.market;
    const table = this.orders.table;
    const ourBid = table.bestWorkingPrice('buy');
    const ourAsk = table.bestWorkingPrice('sell');
    const marketBid = market.bestBidUnits();
    const marketAsk = market.bestAskUnits();
    this.scorecard.sample(this.clock.nowMs(), {
      quoting: this.safety.isQuoting(),
      hasBid: ourBid !== undefined,
      hasAsk: ourAsk !== undefined,
      bidAtTouch: ourBid !== undefined && (marketBid === undefined || ourBid >= marketBid),
      askAtTouch: ourAsk !== undefined && (marketAsk === undefined || ourAsk <= marketAsk),
    });
  }
}
