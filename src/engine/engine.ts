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
  numberToUnits,
  unitsToNumber,
  type BestBidOffer,
  type Clock,
  type DesiredQuote,
  type GasQuote,
  type InventoryView,
  type Logger,
  type OrderIntent,
  type OrderReport,
  type ResyncReason,
  type Side,
  type Strategy,
  type TickerRules,
  type Timer,
  type Venue,
  type VenueInfo,
  type VenueListener,
} from '../core/index.ts';
import { Ledger, type PnlSnapshot } from './ledger.ts';
import { MarketTracker } from './market.ts';
import { MarkoutTracker, type MarkoutSummary } from './markouts.ts';
import type { EngineObserver } from './observer.ts';
import { NullJournal, type Journal } from './orders/journal.ts';
import { OrderManager, toLiveQuote, type ExecutionContext, type OrderStats, type SidePlan } from './orders/order-manager.ts';
import { isOverInventoryCap, resolveRiskLimits, type Holdings, type RiskLimits } from './pipeline/caps.ts';
import { diffQuotes, type RoundedQuote } from './pipeline/diff.ts';
import { gasCostQuote, keepReplacementsThatPay, type EdgeContext } from './pipeline/edge.ts';
import { QuotePipeline } from './pipeline/quote-pipeline.ts';
import { tickSizeNumber, type Touch } from './pipeline/ticks.ts';
import { Reconciler } from './reconciler.ts';
import { Safety, type EngineState, type HaltReason } from './safety/safety.ts';
import { Scorecard, type PnlSplit, type QuotingScores } from './scorecard.ts';
import type { EngineSettings } from './settings.ts';

/** Collaborators and settings of an engine. */
export interface EngineOptions {
  readonly venue: Venue;
  readonly strategy: Strategy;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: EngineSettings;
  readonly observer?: EngineObserver;
  /** Crash journal; default none (backtests). The daemon passes a `FileJournal`. */
  readonly journal?: Journal;
}

/** The scorecard: what a venue's market-maker programme and a desk judge quoting by. */
export interface ScorecardSnapshot extends QuotingScores, OrderStats {
  readonly fills: number;
  /** Orders sent per fill (orders sent while nothing filled). */
  readonly ordersPerFill: number;
  /** Base volume filled / base volume of the orders sent (0 before any order). */
  readonly fillRatio: number;
  readonly pnl: PnlSplit;
}

/** A snapshot of what the engine is doing, for the status line, /health and reports. */
export interface EngineStatus {
  readonly state: EngineState;
  readonly haltReason: HaltReason | undefined;
  readonly pauseReason: string | undefined;
  readonly mid: number | undefined;
  /** The fair price the strategy quotes around (quote per base). */
  readonly fair: number | undefined;
  readonly bids: readonly { price: number; size: number }[];
  readonly asks: readonly { price: number; size: number }[];
  readonly baseBalance: number;
  readonly quoteBalance: number;
  /** Base held minus the inventory target, base tokens (what skew and caps measure). */
  readonly position: number;
  /** The inventory cap (base tokens, 0 = none) once the limits are resolved. */
  readonly inventoryCap: number;
  readonly pnl: PnlSnapshot;
  readonly markouts: MarkoutSummary;
  /** Fraction of quoting time with both a bid and an ask resting. */
  readonly twoSidedUptime: number;
  readonly scorecard: ScorecardSnapshot;
}

const SIDES: readonly Side[] = ['buy', 'sell'];
const NO_QUOTES: RoundedQuote[] = [];

/** The daemon's brain. `start()` once, `stop()` to cancel everything and leave. */
export class MarketMaker {
  private readonly venue: Venue;
  private readonly strategy: Strategy;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly settings: EngineSettings;
  private readonly observer: EngineObserver;
  private readonly journal: Journal;
  private readonly orders: OrderManager;
  private readonly safety: Safety;
  private readonly reconciler: Reconciler;
  private readonly markouts = new MarkoutTracker();
  private readonly scorecard = new Scorecard();
  private readonly pipeline = new QuotePipeline();
  private info: VenueInfo | undefined;
  private rules: TickerRules | undefined;
  private tickSize = 0;
  private market: MarketTracker | undefined;
  private ledger: Ledger | undefined;
  private gas: GasQuote | undefined;
  private limits: RiskLimits | undefined;
  private startBaseUnits = 0n;
  private timers: Timer[] = [];
  private requoteTriggerMs: number | undefined;
  private balanceNumbers = { baseUnits: 0n, base: 0, quoteUnits: 0n, quote: 0, targetUnits: 0n, target: 0 };
  private edgeContextCache: EdgeContext | undefined;
  /** Per side, what its last empty diff read; see `requote`. */
  private readonly quietSides: Record<Side, { desired: readonly RoundedQuote[]; ordersVersion: number; untilMs: number } | undefined> = {
    buy: undefined,
    sell: undefined,
  };

  constructor(options: EngineOptions) {
    this.venue = options.venue;
    this.strategy = options.strategy;
    this.clock = options.clock;
    this.logger = options.logger;
    this.settings = options.settings;
    this.observer = options.observer ?? {};
    this.journal = options.journal ?? new NullJournal();
    const applyReport = (report: OrderReport): void => this.applyReport(report);
    this.orders = new OrderManager({
      venue: this.venue,
      clock: this.clock,
      logger: this.logger,
      journal: this.journal,
      observer: this.observer,
      budget: this.settings.outbound,
      hooks: {
        isQuoting: () => this.safety.isQuoting(),
        onSideSettled: () => this.requote(),
        onWake: () => this.requote(),
        onUnknownOutcome: () => void this.reconciler.heal(),
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
        onPause: (reason) => void this.orders.cancelEverything(reason, this.settings.shutdownTimeoutMs, applyReport),
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
      rules: () => this.rules,
      ledger: () => this.ledger,
      applyReport,
      isStarting: () => this.safety.state === 'starting',
      onDrift: (message) => void this.halt('ENGINE_INVARIANT', message),
      afterHeal: () => this.requote(),
    });
  }

  /** Connects, applies the startup-order policy, takes the starting balances and begins quoting. */
  async start(): Promise<void> {
    const info = await this.venue.start(this.listener());
    this.info = info;
    this.rules = info.rules;
    this.tickSize = tickSizeNumber(info.rules);
    this.market = new MarketTracker(info, this.settings.fairPrice, this.settings.fairHoldMs, () => this.clock.nowMs());
    this.ledger = new Ledger({
      baseDecimals: info.rules.baseDecimals,
      quoteDecimals: info.rules.quoteDecimals,
      makerFeePbips: info.makerFeePbips,
      takerFeePbips: info.takerFeePbips,
    });
    this.orders.setRules(info.rules);
    await this.reconciler.recoverFromJournal();
    await this.reconciler.applyStartupPolicy();
    this.journal.append({ t: 'start', timeMs: this.clock.nowMs() });
    const account = await this.venue.fetchAccount();
    this.startBaseUnits = account.balances.get(info.rules.base)?.total ?? 0n;
    this.ledger.reset(this.startBaseUnits, account.balances.get(info.rules.quote)?.total ?? 0n);
    this.safety.begin();
    this.sampleScorecard();
    this.startTimers();
    this.logger.info({ pair: `${info.rules.base}/${info.rules.quote}`, strategy: this.strategy.name, state: this.safety.state }, 'engine started');
    this.requote();
  }

  /**
   * Graceful shutdown: stop quoting, cancel everything, wait (bounded) until the venue confirms
   * that nothing of ours rests, then close the venue. Idempotent.
   */
  async stop(): Promise<void> {
    if (!this.safety.beginStopping()) return;
    for (const timer of this.timers) timer.cancel();
    this.timers = [];
    this.orders.stop();
    const confirmed = await this.orders.cancelEverything('shutdown', this.settings.shutdownTimeoutMs, (report) => this.applyReport(report));
    if (!confirmed) this.logger.error('shutdown: the venue still lists open orders after the timeout');
    await this.venue.stop();
    this.journal.append({ t: 'stop', timeMs: this.clock.nowMs() });
    if (confirmed) this.journal.compact();
    this.journal.close();
    this.safety.stopped();
    this.logger.info({ confirmed }, 'engine stopped');
  }

  /** Stops quoting for good (kill switch, broken invariant, operator) and cancels everything. */
  halt(code: HaltReason['code'], message: string): Promise<void> {
    return this.safety.haltWith(code, message);
  }

  /** What the engine is doing now. */
  status(): EngineStatus {
    const mid = this.market?.mid();
    const fair = this.market?.fair();
    const rules = this.rules;
    const balances = this.ledger?.balances();
    this.sampleScorecard();
    const baseBalance = balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.baseUnits, rules.baseDecimals);
    const target = rules === undefined || balances === undefined ? 0 : unitsToNumber(this.targetUnits(fair), rules.baseDecimals);
    const pnl = this.ledger?.pnl(fair ?? mid) ?? new Ledger({ baseDecimals: 0, quoteDecimals: 0, makerFeePbips: 0, takerFeePbips: 0 }).pnl(undefined);
    const scorecard = this.scorecardSnapshot(pnl);
    return {
      state: this.safety.state,
      haltReason: this.safety.haltReason,
      pauseReason: this.safety.pauseReason,
      mid,
      fair,
      bids: this.workingQuotes('buy'),
      asks: this.workingQuotes('sell'),
      baseBalance,
      quoteBalance: balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.quoteUnits, rules.quoteDecimals),
      position: baseBalance - target,
      inventoryCap: this.limits === undefined || rules === undefined ? 0 : unitsToNumber(this.limits.maxInventoryDeviationUnits, rules.baseDecimals),
      pnl,
      markouts: this.markouts.summary(),
      twoSidedUptime: scorecard.twoSidedUptime,
      scorecard,
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

  private scorecardSnapshot(pnl: PnlSnapshot): ScorecardSnapshot {
    const stats = this.orders.stats();
    const rules = this.rules;
    const placed = rules === undefined ? 0 : unitsToNumber(stats.placedQtyUnits, rules.baseDecimals);
    return {
      ...this.scorecard.scores(),
      ...stats,
      fills: pnl.fills,
      ordersPerFill: pnl.fills === 0 ? stats.ordersSent : stats.ordersSent / pnl.fills,
      fillRatio: placed > 0 ? pnl.volumeBase / placed : 0,
      pnl: this.scorecard.pnl(),
    };
  }

  /** This side's working orders as numbers, best first. */
  private workingQuotes(side: Side): { price: number; size: number }[] {
    const rules = this.rules;
    if (rules === undefined) return [];
    return this.orders.table
      .working(side)
      .map((order) => ({
        price: unitsToNumber(order.priceUnits, rules.quoteDecimals),
        size: unitsToNumber(order.qtyUnits - order.filledQtyUnits, rules.baseDecimals),
      }))
      .sort((a, b) => (side === 'buy' ? b.price - a.price : a.price - b.price));
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
      onGasQuote: (quote) => {
        this.gas = quote;
      },
      onResync: (reason) => this.onResync(reason),
      onFeedStatus: (isUp) => (isUp ? this.safety.clear('feed down') : this.safety.pause('feed down')),
    };
  }

  private onTopOfBook(top: BestBidOffer): void {
    const market = this.market;
    if (market === undefined) return;
    // A top recomputed from our own orders proves nothing about the feed (the dead-man ignores it).
    if (top.fromOwnOrders !== true) this.safety.marketDataSeen();
    if (!market.onTopOfBook(top)) return;
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
    const rules = this.rules;
    if (effect.fill !== undefined && ledger !== undefined && rules !== undefined) {
      const fillEffect = ledger.applyFill(effect.fill);
      const price = unitsToNumber(effect.fill.priceUnits, rules.quoteDecimals);
      this.markouts.addFill(effect.fill.side, price, effect.fill.timeMs);
      this.scorecard.addFill(fillEffect, unitsToNumber(fillEffect.baseDeltaUnits, rules.baseDecimals), unitsToNumber(fillEffect.quoteDeltaUnits, rules.quoteDecimals), price);
      if (!effect.fill.isMaker) this.chargeTakerGas();
      this.observer.fill?.(effect.fill, fillEffect);
      if (this.limits !== undefined) this.scorecard.checkCap(isOverInventoryCap(ledger.balances().baseUnits, this.targetUnits(this.market?.fair()), this.limits));
      this.checkDrawdown();
    }
    if (effect.becameDone) this.journal.append({ t: 'done', orderId: report.orderId, status: report.status, timeMs: this.clock.nowMs() });
    if (report.status === 'NOT_PROCESSED') this.observer.orderRejected?.(report.side, report.matcherResult ?? 'NOT_PROCESSED');
    if (effect.becameDone || effect.fill !== undefined) this.requote();
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
    if (!this.safety.isQuoting() || this.info === undefined || market === undefined || this.ledger === undefined) return;
    const desired = this.desiredQuotes();
    const nowMs = this.clock.nowMs();
    const plans: SidePlan[] = [];
    for (const side of SIDES) {
      if (this.orders.isBusy(side)) {
        this.orders.markDirty(side);
        continue;
      }
      // The diff reads the desired quotes, this side's orders and the time (order age, reject
      // backoff): with the same quotes (the pipeline's memo hands back the same array), no order
      // change and no deadline passed, it is as empty as last time.
      const quiet = this.quietSides[side];
      if (quiet !== undefined && quiet.desired === desired && quiet.ordersVersion === this.orders.table.version && nowMs < quiet.untilMs) continue;
      this.quietSides[side] = undefined;
      const wanted = desired.filter((quote) => quote.side === side);
      const bandDiff = diffQuotes(
        wanted,
        this.orders.table.working(side).map(toLiveQuote),
        { toleranceSizeFraction: this.settings.requoteTolerance.sizeFraction, maxOrderAgeMs: this.settings.maxOrderAgeMs, nowMs },
      );
      const fair = market.fair();
      const paying = fair === undefined ? bandDiff : keepReplacementsThatPay(bandDiff, fair, this.settings.minEdgeBps, this.edgeContext());
      const diff = nowMs < this.orders.backoffUntilMs(side) ? { ...paying, place: [] } : paying;
      if (diff.cancel.length === 0 && diff.place.length === 0) {
        this.quietSides[side] = { desired, ordersVersion: this.orders.table.version, untilMs: this.quietUntilMs(side, nowMs) };
        continue;
      }
      plans.push({ side, diff, wanted });
    }
    if (plans.length > 0) {
      const triggeredAtMs = this.requoteTriggerMs ?? nowMs;
      this.orders.execute(plans, this.executionContext());
      this.observer.requoteLatency?.(this.clock.nowMs() - triggeredAtMs);
    }
    this.requoteTriggerMs = undefined;
    this.prepareNeighbours(desired);
    this.sampleScorecard();
  }

  /** When the time alone could change this side's diff: an order reaching its maximum age, or the reject backoff ending. */
  private quietUntilMs(side: Side, nowMs: number): number {
    let untilMs = Number.POSITIVE_INFINITY;
    const backoffUntilMs = this.orders.backoffUntilMs(side);
    if (nowMs < backoffUntilMs) untilMs = backoffUntilMs;
    if (this.settings.maxOrderAgeMs > 0) {
      for (const order of this.orders.table.working(side)) untilMs = Math.min(untilMs, order.createdAtMs + this.settings.maxOrderAgeMs);
    }
    return untilMs;
  }

  /** View → fair → strategy → pipeline: the quotes that should rest now. */
  private desiredQuotes(): RoundedQuote[] {
    const market = this.market;
    const rules = this.rules;
    if (rules === undefined || market === undefined || this.ledger === undefined) return NO_QUOTES;
    const view = market.view(this.clock.nowMs(), this.gasPerFill());
    const fair = view.fair;
    const fairUnits = market.fairUnits();
    const limits = this.resolveLimits();
    if (fair === undefined || fairUnits === undefined || limits === undefined) return NO_QUOTES;
    const inventory = this.inventoryView(fair);
    let raw: DesiredQuote[];
    try {
      raw = this.strategy.quote(view, inventory);
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
      rules,
      tickSize: this.tickSize,
      holdings: this.holdings(fair),
      limits,
      minEdgeBps: this.settings.minEdgeBps,
      edge: this.edgeContext(),
      tolerance: this.settings.requoteTolerance,
    });
  }

  /** Asks the venue to pre-sign the orders a requote is likely to need next. */
  private prepareNeighbours(desired: readonly RoundedQuote[]): void {
    const rules = this.rules;
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

  private holdings(fair: number | undefined): Holdings {
    const balances = this.ledger?.balances() ?? { baseUnits: 0n, quoteUnits: 0n };
    return { baseUnits: balances.baseUnits, quoteUnits: balances.quoteUnits, targetUnits: this.targetUnits(fair) };
  }

  private executionContext(): ExecutionContext {
    const limits = this.limits;
    return { holdings: this.holdings(this.market?.fair()), limits: limits as RiskLimits, touch: this.touch() };
  }

  /** The inventory target in base units: position = base held − this. */
  private targetUnits(fair: number | undefined): bigint {
    const target = this.settings.inventoryTarget;
    if (target.kind === 'start') return this.startBaseUnits;
    if (target.kind === 'base') return target.units;
    const rules = this.rules;
    const ledger = this.ledger;
    if (rules === undefined || ledger === undefined || fair === undefined || !(fair > 0)) return this.startBaseUnits;
    const { base, quote } = this.balanceAsNumbers();
    const targetBase = ((base * fair + quote) * target.fraction) / fair;
    return targetBase > 0 && Number.isFinite(targetBase) ? numberToUnits(targetBase, rules.baseDecimals, 'down') : 0n;
  }

  private inventoryView(fair: number): InventoryView {
    const ledger = this.ledger;
    const rules = this.rules;
    if (ledger === undefined || rules === undefined) return { base: 0, quote: 0, targetBase: 0, lastFill: undefined };
    const { base, quote } = this.balanceAsNumbers();
    const cached = this.balanceNumbers;
    const targetUnits = this.targetUnits(fair);
    if (cached.targetUnits !== targetUnits) {
      cached.targetUnits = targetUnits;
      cached.target = unitsToNumber(targetUnits, rules.baseDecimals);
    }
    return { base, quote, targetBase: cached.target, lastFill: ledger.lastFill() };
  }

  /** Balances as numbers; they change on fills only, and converting 18-decimal amounts is the slow, exact kind. */
  private balanceAsNumbers(): { base: number; quote: number } {
    const cached = this.balanceNumbers;
    const rules = this.rules;
    const balances = this.ledger?.balances();
    if (rules === undefined || balances === undefined) return cached;
    if (cached.baseUnits !== balances.baseUnits) {
      cached.baseUnits = balances.baseUnits;
      cached.base = unitsToNumber(balances.baseUnits, rules.baseDecimals);
    }
    if (cached.quoteUnits !== balances.quoteUnits) {
      cached.quoteUnits = balances.quoteUnits;
      cached.quote = unitsToNumber(balances.quoteUnits, rules.quoteDecimals);
    }
    return cached;
  }

  /** The risk limits with `auto` resolved once the first fair price is known. */
  private resolveLimits(): RiskLimits | undefined {
    if (this.limits !== undefined) return this.limits;
    const rules = this.rules;
    const fairUnits = this.market?.fairUnits();
    if (rules === undefined || fairUnits === undefined) return undefined;
    const size = this.strategy.orderSize;
    const orderSizeUnits = size !== undefined && size > 0 && Number.isFinite(size) ? numberToUnits(size, rules.baseDecimals, 'down') : undefined;
    this.limits = resolveRiskLimits(this.settings.risk, { orderSizeUnits, fairUnits, rules });
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

  private edgeContext(): EdgeContext {
    const info = this.info as VenueInfo;
    // Built once per gas quote: requotes ask for it several times each.
    const gas = this.gas;
    if (gas !== undefined && this.edgeContextCache?.gas === gas) return this.edgeContextCache;
    const context: EdgeContext = {
      rules: info.rules,
      makerFeePbips: info.makerFeePbips,
      steps: info.steps,
      gas: gas ?? this.venue.gasQuote(),
      conversionMargin: this.settings.conversionMargin,
    };
    if (gas !== undefined) this.edgeContextCache = context;
    return context;
  }

  /**
   * Gas a maker fill is expected to cost (quote tokens): the venue charges makers no trade gas;
   * where cancels pay gas, the cancel of the requote a fill causes.
   */
  private gasPerFill(): number {
    const info = this.info;
    return info === undefined || info.steps.cancel <= 0 ? 0 : gasCostQuote(info.steps.cancel, this.edgeContext());
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
    }
  }

  private checkDrawdown(): void {
    const market = this.market;
    const pnl = this.ledger?.pnl(market?.fair() ?? market?.mid());
    if (pnl !== undefined) this.safety.observePnl(pnl.total);
  }

  private chargeTakerGas(): void {
    if (this.info === undefined) return;
    const cost = gasCostQuote(this.info.steps.trade, this.edgeContext());
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
