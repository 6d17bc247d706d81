/**
 * The market-making engine: the strategy loop, the order manager's diff-and-send, fill
 * reconciliation, risk checks and graceful shutdown, over the `Venue` port only (it never knows
 * whether the venue is LayerAkira, the embedded exchange or a replayed recording).
 *
 * One tick: market event → market view → strategy → round to ticks/lots and keep passive →
 * risk clip → gas-aware edge filter → diff against live orders (tolerance band) → cancel/place.
 * At most one requote is in flight per side; events that arrive meanwhile mark the side dirty
 * and it is requoted once its requests finish, so bursts coalesce instead of queueing.
 */
import {
  clampPassivePrice,
  fitQuantityNumber,
  isTerminalStatus,
  numberToUnits,
  quotePriceToUnits,
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
  type Timer,
  type Venue,
  type VenueInfo,
  type VenueListener,
  type VenueTrade,
} from '../core/index.ts';
import { diffQuotes, type LiveQuote, type QuoteDiff, type RoundedQuote } from './diff.ts';
import { filterByEdge, gasCostQuote, keepReplacementsThatPay, type EdgeContext } from './edge.ts';
import { Ledger, type PnlSnapshot } from './ledger.ts';
import { MarketTracker } from './market.ts';
import { MarkoutTracker, type MarkoutSummary } from './markouts.ts';
import { NullJournal, type Journal } from './journal.ts';
import type { EngineObserver } from './observer.ts';
import { OrderTable } from './order-table.ts';
import { clipQuotes, DrawdownGuard, type HaltReason } from './risk.ts';
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

/** A snapshot of what the engine is doing, for the status line, /health and reports. */
export interface EngineStatus {
  readonly state: 'starting' | 'quoting' | 'paused' | 'halted' | 'stopping' | 'stopped';
  readonly haltReason: HaltReason | undefined;
  readonly pauseReason: string | undefined;
  readonly mid: number | undefined;
  readonly bids: readonly { price: number; size: number }[];
  readonly asks: readonly { price: number; size: number }[];
  readonly baseBalance: number;
  readonly quoteBalance: number;
  readonly pnl: PnlSnapshot;
  readonly markouts: MarkoutSummary;
  /** Fraction of quoting time with both a bid and an ask resting. */
  readonly twoSidedUptime: number;
}

const SIDES: readonly Side[] = ['buy', 'sell'];
const DONE_ORDER_RETENTION_MS = 600_000;
/** How long an order the venue has not listed yet may still appear (late-applied POSTs). */
const UNKNOWN_ORDER_GRACE_MS = 30_000;

/** The daemon's brain. `start()` once, `stop()` to cancel everything and leave. */
export class MarketMaker {
  private readonly venue: Venue;
  private readonly strategy: Strategy;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly settings: EngineSettings;
  private readonly observer: EngineObserver;
  private readonly journal: Journal;
  private readonly orders = new OrderTable();
  private readonly markouts = new MarkoutTracker();
  private readonly drawdown: DrawdownGuard;
  private info: VenueInfo | undefined;
  private market: MarketTracker | undefined;
  private ledger: Ledger | undefined;
  private gas: GasQuote | undefined;
  private state: EngineStatus['state'] = 'starting';
  private haltReason: HaltReason | undefined;
  private pauseReason: string | undefined;
  private readonly inFlight = new Set<Side>();
  private readonly dirty = new Set<Side>();
  private healing: Promise<void> | undefined;
  private healAgain = false;
  private timers: Timer[] = [];
  private lastMarketDataMs = 0;
  private requoteTriggerMs: number | undefined;
  private uptime = { quotingMs: 0, twoSidedMs: 0, sinceMs: 0, wasTwoSided: false };
  private balanceNumbers = { baseUnits: 0n, base: 0, quoteUnits: 0n, quote: 0 };
  private edgeContextCache: EdgeContext | undefined;
  /** Per side, what its last empty diff read; see `requote`. */
  private readonly quietSides: Record<Side, { desired: readonly RoundedQuote[]; ordersVersion: number; untilMs: number } | undefined> = {
    buy: undefined,
    sell: undefined,
  };
  /** The last strategy output with everything that rounding, risk and edge read, and their answer. */
  private desiredMemo:
    | {
        readonly raw: readonly DesiredQuote[];
        readonly bestBidUnits: bigint | undefined;
        readonly bestAskUnits: bigint | undefined;
        readonly midUnits: bigint | undefined;
        readonly mid: number;
        readonly baseUnits: bigint;
        readonly quoteUnits: bigint;
        readonly targetUnits: bigint;
        readonly edge: EdgeContext;
        readonly result: RoundedQuote[];
      }
    | undefined;
  /** After rejections a side waits before placing again (1 s, doubling to 30 s): no order spam. */
  private readonly rejectBackoff = { buy: { untilMs: 0, streak: 0 }, sell: { untilMs: 0, streak: 0 } };

  constructor(options: EngineOptions) {
    this.venue = options.venue;
    this.strategy = options.strategy;
    this.clock = options.clock;
    this.logger = options.logger;
    this.settings = options.settings;
    this.observer = options.observer ?? {};
    this.journal = options.journal ?? new NullJournal();
    this.drawdown = new DrawdownGuard(options.settings.risk.maxDrawdownQuote);
  }

  /** Connects, applies the startup-order policy, takes the starting balances and begins quoting. */
  async start(): Promise<void> {
    const info = await this.venue.start(this.listener());
    this.info = info;
    this.market = new MarketTracker(info);
    this.ledger = new Ledger({
      baseDecimals: info.rules.baseDecimals,
      quoteDecimals: info.rules.quoteDecimals,
      makerFeePbips: info.makerFeePbips,
      takerFeePbips: info.takerFeePbips,
    });
    await this.recoverFromJournal();
    await this.applyStartupPolicy();
    this.journal.append({ t: 'start', timeMs: this.clock.nowMs() });
    const account = await this.venue.fetchAccount();
    this.ledger.reset(account.balances.get(info.rules.base)?.total ?? 0n, account.balances.get(info.rules.quote)?.total ?? 0n);
    this.lastMarketDataMs = this.clock.nowMs();
    this.uptime.sinceMs = this.clock.nowMs();
    this.state = 'quoting';
    this.startTimers();
    this.logger.info({ pair: `${info.rules.base}/${info.rules.quote}`, strategy: this.strategy.name }, 'engine started');
    this.requote();
  }

  /**
   * Graceful shutdown: stop quoting, cancel everything, wait (bounded) until the venue confirms
   * that nothing of ours rests, then close the venue. Idempotent.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') return;
    this.state = 'stopping';
    for (const timer of this.timers) timer.cancel();
    this.timers = [];
    const confirmed = await this.cancelEverything('shutdown', this.settings.shutdownTimeoutMs);
    if (!confirmed) this.logger.error('shutdown: the venue still lists open orders after the timeout');
    await this.venue.stop();
    this.journal.append({ t: 'stop', timeMs: this.clock.nowMs() });
    if (confirmed) this.journal.compact();
    this.journal.close();
    this.state = 'stopped';
    this.logger.info({ confirmed }, 'engine stopped');
  }

  /** Stops quoting for good (kill switch, broken invariant, operator) and cancels everything. */
  async halt(code: HaltReason['code'], message: string): Promise<void> {
    if (this.state === 'halted' || this.state === 'stopping' || this.state === 'stopped') return;
    this.haltReason = { code, message, atMs: this.clock.nowMs() };
    this.state = 'halted';
    this.logger.error({ code, reason: message }, 'quoting halted');
    this.observer.halted?.(message);
    await this.cancelEverything('halt', this.settings.shutdownTimeoutMs);
    if (this.settings.onchainKill && (code === 'FATAL' || code === 'ENGINE_INVARIANT')) {
      const outcome = await this.venue.increaseNonce();
      this.logger.warn({ outcome }, 'on-chain kill: nonce increase requested');
    }
  }

  /** What the engine is doing now. */
  status(): EngineStatus {
    const mid = this.market?.mid();
    const rules = this.info?.rules;
    const balances = this.ledger?.balances();
    this.accumulateUptime();
    return {
      state: this.state,
      haltReason: this.haltReason,
      pauseReason: this.pauseReason,
      mid,
      bids: this.workingQuotes('buy'),
      asks: this.workingQuotes('sell'),
      baseBalance: balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.baseUnits, rules.baseDecimals),
      quoteBalance: balances === undefined || rules === undefined ? 0 : unitsToNumber(balances.quoteUnits, rules.quoteDecimals),
      pnl: this.ledger?.pnl(mid) ?? new Ledger({ baseDecimals: 0, quoteDecimals: 0, makerFeePbips: 0, takerFeePbips: 0 }).pnl(undefined),
      markouts: this.markouts.summary(),
      twoSidedUptime: this.uptime.quotingMs === 0 ? 0 : this.uptime.twoSidedMs / this.uptime.quotingMs,
    };
  }

  /** This side's working orders as numbers, best first (a method, not a closure per call: status is sampled often). */
  private workingQuotes(side: Side): { price: number; size: number }[] {
    const rules = this.info?.rules;
    if (rules === undefined) return [];
    return this.orders
      .working(side)
      .map((order) => ({
        price: unitsToNumber(order.priceUnits, rules.quoteDecimals),
        size: unitsToNumber(order.qtyUnits - order.filledQtyUnits, rules.baseDecimals),
      }))
      .sort((a, b) => (side === 'buy' ? b.price - a.price : a.price - b.price));
  }

  /** True while the engine quotes (for /health). */
  isQuoting(): boolean {
    return this.state === 'quoting';
  }

  /** Requests not yet answered (backtests flush their event loop while this is non-zero). */
  hasWorkInFlight(): boolean {
    return this.inFlight.size > 0 || this.healing !== undefined;
  }

  // ── venue events ──────────────────────────────────────────────────────────────────────────

  private listener(): VenueListener {
    return {
      onTopOfBook: (top) => this.onTopOfBook(top),
      onTrade: (trade) => this.onTrade(trade),
      onOrderReport: (report) => this.onOrderReport(report),
      onGasQuote: (quote) => {
        this.gas = quote;
      },
      onResync: (reason) => this.onResync(reason),
      onFeedStatus: (isUp) => this.onFeedStatus(isUp),
    };
  }

  private onTopOfBook(top: BestBidOffer): void {
    if (this.market === undefined) return;
    const marketData = top.fromOwnOrders !== true;
    if (marketData) this.lastMarketDataMs = this.clock.nowMs();
    if (!this.market.onTopOfBook(top)) return;
    this.markouts.observeMid(this.market.mid(), top.timeMs);
    // The kill switch watches marked-to-market PnL: a position loses as the mid moves, not at fills.
    this.checkDrawdown();
    if (this.state === 'halted') return;
    if (this.state === 'paused' && this.pauseReason === 'stale feed' && marketData) this.resume();
    this.requoteTriggerMs ??= this.clock.nowMs();
    this.requote();
  }

  private onTrade(trade: VenueTrade): void {
    this.lastMarketDataMs = this.clock.nowMs();
    this.market?.onTrade(trade);
  }

  private onOrderReport(report: OrderReport): void {
    const effect = this.orders.applyReport(report);
    if (!effect.known) {
      // Not ours as far as the table knows: a leftover, or a report that outran a restart.
      // Healing decides (adopt or cancel) with the venue's own records.
      this.logger.warn({ orderId: report.orderId, status: report.status }, 'report for an unknown order; healing');
      this.onResync('missed-fills');
      return;
    }
    if (effect.fill !== undefined && this.ledger !== undefined && this.info !== undefined) {
      const fillEffect = this.ledger.applyFill(effect.fill);
      const price = unitsToNumber(effect.fill.priceUnits, this.info.rules.quoteDecimals);
      this.markouts.addFill(effect.fill.side, price, effect.fill.timeMs);
      if (!effect.fill.isMaker) this.chargeTakerGas();
      this.observer.fill?.(effect.fill, fillEffect);
      this.checkDrawdown();
    }
    if (effect.becameDone) this.journal.append({ t: 'done', orderId: report.orderId, status: report.status, timeMs: this.clock.nowMs() });
    if (report.status === 'NOT_PROCESSED') this.observer.orderRejected?.(report.side, report.matcherResult ?? 'NOT_PROCESSED');
    if (effect.becameDone || effect.fill !== undefined) this.requote();
  }

  private onResync(reason: ResyncReason): void {
    this.logger.info({ reason }, 'venue asks for a resync');
    if (reason === 'reconnected') this.observer.feedReconnected?.();
    void this.heal();
  }

  private onFeedStatus(isUp: boolean): void {
    if (!isUp) void this.pause('feed down');
    else if (this.state === 'paused' && this.pauseReason === 'feed down') this.resume();
  }

  // ── the strategy loop ─────────────────────────────────────────────────────────────────────

  /** Computes desired quotes and sends the difference, side by side. */
  private requote(): void {
    if (this.state !== 'quoting' || this.info === undefined || this.market === undefined || this.ledger === undefined) return;
    const desired = this.desiredQuotes();
    for (const side of SIDES) {
      if (this.inFlight.has(side)) {
        this.dirty.add(side);
        continue;
      }
      const nowMs = this.clock.nowMs();
      // The diff reads the desired quotes, this side's orders and the time (order age, reject
      // backoff): with the same quotes (the desired memo hands back the same array), no order
      // change and no deadline passed, it is as empty as last time.
      const quiet = this.quietSides[side];
      if (quiet !== undefined && quiet.desired === desired && quiet.ordersVersion === this.orders.version && nowMs < quiet.untilMs) continue;
      this.quietSides[side] = undefined;
      const bandDiff = diffQuotes(
        desired.filter((quote) => quote.side === side),
        this.orders.working(side).map(toLiveQuote),
        {
          priceTick: this.info.rules.priceTick,
          toleranceTicks: this.settings.requoteToleranceTicks,
          toleranceSizeFraction: this.settings.requoteToleranceSizeFraction,
          maxOrderAgeMs: this.settings.maxOrderAgeMs,
          nowMs: this.clock.nowMs(),
        },
      );
      const mid = this.market.mid();
      const paying = mid === undefined ? bandDiff : keepReplacementsThatPay(bandDiff, mid, this.settings.minEdgeBps, this.edgeContext());
      const coolingDown = this.clock.nowMs() < this.rejectBackoff[side].untilMs;
      const diff = coolingDown ? { ...paying, place: [] } : paying;
      if (diff.cancel.length === 0 && diff.place.length === 0) {
        this.quietSides[side] = { desired, ordersVersion: this.orders.version, untilMs: this.quietUntilMs(side, nowMs) };
        continue;
      }
      this.inFlight.add(side);
      const triggeredAtMs = this.requoteTriggerMs ?? this.clock.nowMs();
      void this.execute(diff).finally(() => {
        this.inFlight.delete(side);
        this.observer.requoteLatency?.(this.clock.nowMs() - triggeredAtMs);
        if (this.dirty.delete(side)) this.requote();
      });
    }
    this.requoteTriggerMs = undefined;
    this.prepareNeighbours(desired);
    this.accumulateUptime();
  }

  /** When the time alone could change this side's diff: an order reaching its maximum age, or the reject backoff ending. */
  private quietUntilMs(side: Side, nowMs: number): number {
    let untilMs = Number.POSITIVE_INFINITY;
    const backoffUntilMs = this.rejectBackoff[side].untilMs;
    if (nowMs < backoffUntilMs) untilMs = backoffUntilMs;
    if (this.settings.maxOrderAgeMs > 0) {
      for (const order of this.orders.working(side)) untilMs = Math.min(untilMs, order.createdAtMs + this.settings.maxOrderAgeMs);
    }
    return untilMs;
  }

  /** Strategy → rounding → risk → edge: the quotes that should rest now. */
  private desiredQuotes(): RoundedQuote[] {
    const info = this.info;
    const market = this.market;
    if (info === undefined || market === undefined || this.ledger === undefined) return [];
    const now = this.clock.nowMs();
    const view = market.view(now, this.gas);
    if (view.mid === undefined) return [];
    const inventory = this.inventoryView(view.mid);
    let raw: DesiredQuote[];
    try {
      raw = this.strategy.quote(view, inventory);
    } catch (error) {
      void this.halt('ENGINE_INVARIANT', `strategy ${this.strategy.name} threw: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
    const balances = this.ledger.balances();
    const targetUnits = this.targetBaseUnits(inventory);
    const midUnits = market.midUnits();
    const bestBidUnits = market.bestBidUnits();
    const bestAskUnits = market.bestAskUnits();
    const edge = this.edgeContext();
    // Rounding, clipping and the edge filter are pure in these inputs; most book changes leave
    // them all as they were (a size at the touch moved), so the last answer stands.
    const memo = this.desiredMemo;
    if (
      memo !== undefined &&
      sameDesiredQuotes(raw, memo.raw) &&
      memo.bestBidUnits === bestBidUnits &&
      memo.bestAskUnits === bestAskUnits &&
      memo.midUnits === midUnits &&
      Object.is(memo.mid, view.mid) &&
      memo.baseUnits === balances.baseUnits &&
      memo.quoteUnits === balances.quoteUnits &&
      memo.targetUnits === targetUnits &&
      memo.edge === edge
    ) {
      return memo.result;
    }
    const rounded = this.roundQuotes(raw);
    if (this.state !== 'quoting') return [];
    const clipped = clipQuotes(rounded, this.settings.risk, { baseUnits: balances.baseUnits, targetUnits, quoteUnits: balances.quoteUnits }, midUnits, info.rules);
    const result = filterByEdge(clipped, view.mid, this.settings.minEdgeBps, edge);
    this.desiredMemo = {
      raw: raw.map((quote) => ({ side: quote.side, price: quote.price, size: quote.size, level: quote.level })),
      bestBidUnits,
      bestAskUnits,
      midUnits,
      mid: view.mid,
      baseUnits: balances.baseUnits,
      quoteUnits: balances.quoteUnits,
      targetUnits,
      edge,
      result,
    };
    return result;
  }

  /** Rounds strategy quotes to ticks and lots, passive side, never crossing the book. */
  private roundQuotes(quotes: readonly DesiredQuote[]): RoundedQuote[] {
    const info = this.info;
    const market = this.market;
    if (info === undefined || market === undefined) return [];
    const result: RoundedQuote[] = [];
    for (const quote of quotes) {
      if (!(quote.price > 0) || !Number.isFinite(quote.price)) {
        void this.halt('ENGINE_INVARIANT', `strategy ${this.strategy.name} returned price ${quote.price}`);
        return [];
      }
      const size = fitQuantityNumber(quote.size, info.rules);
      if (size.kind !== 'ok') continue;
      const opposite = quote.side === 'buy' ? market.bestAskUnits() : market.bestBidUnits();
      const price = clampPassivePrice(quotePriceToUnits(quote.price, quote.side, info.rules), quote.side, opposite, info.rules);
      if (price === undefined) continue;
      result.push({ side: quote.side, priceUnits: price, qtyUnits: size.qty, level: quote.level });
    }
    return result;
  }

  /** Cancels and places one side's difference; resolves when every request has an answer. */
  private async execute(diff: QuoteDiff): Promise<void> {
    const now = this.clock.nowMs();
    const cancels = diff.cancel.map(async (order) => {
      this.orders.markCancelling(order.orderId, now);
      this.journal.append({ t: 'cancel', orderId: order.orderId, timeMs: now });
      const outcome = await this.venue.cancelOrder(order.orderId);
      if (outcome.kind === 'accepted') this.observer.orderCancelled?.(order.side);
      else this.logger.warn({ orderId: order.orderId, outcome }, 'cancel not confirmed; healing will settle it');
      if (outcome.kind !== 'accepted') void this.heal();
    });
    const places = diff.place.map((quote) => this.place({ side: quote.side, priceUnits: quote.priceUnits, qtyUnits: quote.qtyUnits, postOnly: true }));
    await Promise.all([...cancels, ...places]);
  }

  private async place(intent: OrderIntent): Promise<void> {
    const signed = await this.venue.signOrder(intent);
    if (this.state !== 'quoting') return;
    this.orders.addPending(signed.orderId, intent.side, intent.priceUnits, intent.qtyUnits, this.clock.nowMs());
    this.journal.append({
      t: 'intent',
      orderId: signed.orderId,
      side: intent.side,
      price: intent.priceUnits.toString(),
      qty: intent.qtyUnits.toString(),
      timeMs: this.clock.nowMs(),
    });
    const outcome = await this.venue.submitOrder(signed);
    this.journal.append({ t: 'ack', orderId: outcome.orderId, outcome: outcome.kind, timeMs: this.clock.nowMs() });
    switch (outcome.kind) {
      case 'accepted':
        this.orders.markOpen(outcome.orderId);
        this.rejectBackoff[intent.side].streak = 0;
        this.observer.orderPlaced?.(intent.side);
        return;
      case 'rejected': {
        const backoff = this.rejectBackoff[intent.side];
        backoff.streak++;
        backoff.untilMs = this.clock.nowMs() + Math.min(30_000, 1_000 * 2 ** (backoff.streak - 1));
        this.orders.markDone(outcome.orderId, 'NOT_PROCESSED');
        this.observer.orderRejected?.(intent.side, outcome.reason);
        this.logger.warn({ orderId: outcome.orderId, reason: outcome.reason, side: intent.side, retryInMs: backoff.untilMs - this.clock.nowMs() }, 'order rejected');
        return;
      }
      case 'unknown':
        // The venue may or may not have it: keep it as pending and let healing find out.
        this.logger.warn({ orderId: outcome.orderId, reason: outcome.reason }, 'placement outcome unknown; healing');
        void this.heal();
        return;
    }
  }

  /** Asks the venue to pre-sign the orders a requote is likely to need next. */
  private prepareNeighbours(desired: readonly RoundedQuote[]): void {
    const info = this.info;
    if (info === undefined || this.settings.presignTicks <= 0 || desired.length === 0) return;
    const intents: OrderIntent[] = [];
    for (const quote of desired) {
      for (let offset = -this.settings.presignTicks; offset <= this.settings.presignTicks; offset++) {
        const priceUnits = quote.priceUnits + BigInt(offset) * info.rules.priceTick;
        if (priceUnits > 0n) intents.push({ side: quote.side, priceUnits, qtyUnits: quote.qtyUnits, postOnly: true });
      }
    }
    this.venue.prepareOrders(intents);
  }

  // ── reconciliation ────────────────────────────────────────────────────────────────────────

  /**
   * Heals the engine's view from the venue's records: fills we missed are applied from
   * cumulative amounts, orders we do not know are cancelled, orders the venue no longer lists
   * get their final state, and balances are compared with what the fills imply.
   */
  private heal(): Promise<void> {
    // Before start() has taken the starting balances the ledger is empty: a heal then would
    // "find" the whole balance as drift and halt. Startup settles leftovers itself (adopt/cancel).
    if (this.state === 'starting') return Promise.resolve();
    if (this.healing !== undefined) {
      this.healAgain = true;
      return this.healing;
    }
    this.healing = this.runHeal()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'heal failed; will retry on the next timer'))
      .finally(() => {
        this.healing = undefined;
        if (this.healAgain) {
          this.healAgain = false;
          void this.heal();
        } else {
          this.requote();
        }
      });
    return this.healing;
  }

  private async runHeal(): Promise<void> {
    const info = this.info;
    const ledger = this.ledger;
    if (info === undefined || ledger === undefined) return;
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await this.venue.fetchAccount();
      const open = await this.venue.fetchOpenOrders();
      const openIds = new Set(open.map((report) => report.orderId));
      for (const report of open) {
        if (this.orders.get(report.orderId) === undefined) {
          this.logger.warn({ orderId: report.orderId }, 'venue lists an order the engine does not know; cancelling it');
          this.orders.adopt(report, this.clock.nowMs());
          this.orders.markCancelling(report.orderId, this.clock.nowMs());
          void this.venue.cancelOrder(report.orderId);
        } else {
          this.onOrderReport(report);
        }
      }
      for (const order of this.orders.live()) {
        if (openIds.has(order.orderId)) continue;
        const final = await this.venue.fetchOrder(order.orderId);
        if (final !== undefined) this.onOrderReport(final);
        // An order the venue does not know yet may still be applied late (a timed-out POST sits
        // in its queue): while it is young it stays working, so no second order takes its place.
        else if (this.clock.nowMs() - order.createdAtMs > Math.max(this.settings.staleFeedMs, UNKNOWN_ORDER_GRACE_MS)) this.orders.markDone(order.orderId, 'NOT_PROCESSED');
      }
      const after = await this.venue.fetchAccount();
      if (!sameBalances(before.balances, after.balances, info.rules.base, info.rules.quote)) continue;
      this.compareBalances(after.balances.get(info.rules.base)?.total ?? 0n, after.balances.get(info.rules.quote)?.total ?? 0n);
      this.orders.prune(this.clock.nowMs(), DONE_ORDER_RETENTION_MS);
      return;
    }
    this.logger.info('balances kept moving during the heal; comparing on the next one');
  }

  private compareBalances(baseUnits: bigint, quoteUnits: bigint): void {
    const ledger = this.ledger;
    if (ledger === undefined) return;
    const expected = ledger.balances();
    const baseDrift = baseUnits - expected.baseUnits;
    const quoteDrift = quoteUnits - expected.quoteUnits;
    if (baseDrift === 0n && quoteDrift === 0n) return;
    this.observer.drift?.(baseDrift, quoteDrift);
    const tolerance = this.settings.driftToleranceUnits;
    ledger.heal(baseUnits, quoteUnits);
    if (abs(baseDrift) > tolerance || abs(quoteDrift) > tolerance) {
      void this.halt(
        'ENGINE_INVARIANT',
        `inventory drift: venue balances differ from start + fills by ${baseDrift} base units and ${quoteDrift} quote units`,
      );
    } else {
      this.logger.info({ baseDrift: String(baseDrift), quoteDrift: String(quoteDrift) }, 'small balance drift healed (fee rounding)');
    }
  }

  /**
   * After a crash the journal lists orders we sent and never saw finish. Each is looked up on
   * the venue: finished ones are settled, live ones are adopted (or cancelled by the startup
   * policy below, which sees them in the venue's open orders).
   */
  private async recoverFromJournal(): Promise<void> {
    const unresolved = this.journal.unresolvedOrders();
    if (unresolved.length === 0) return;
    this.logger.warn({ count: unresolved.length }, 'journal lists orders from a previous run that never finished; resolving');
    for (const order of unresolved) {
      const report = await this.venue.fetchOrder(order.orderId);
      if (report === undefined || isTerminalStatus(report.status)) {
        this.journal.append({ t: 'done', orderId: order.orderId, status: report?.status ?? 'NOT_PROCESSED', timeMs: this.clock.nowMs() });
      }
    }
  }

  private async applyStartupPolicy(): Promise<void> {
    const open = await this.venue.fetchOpenOrders();
    if (open.length === 0) return;
    if (this.settings.startupOrders === 'adopt') {
      for (const report of open) this.orders.adopt(report, this.clock.nowMs());
      this.logger.info({ count: open.length }, 'adopted orders found at start');
      return;
    }
    this.logger.info({ count: open.length }, 'cancelling orders found at start');
    await this.venue.cancelAll();
    await this.waitUntilNoOpenOrders(this.settings.shutdownTimeoutMs);
  }

  // ── safety ────────────────────────────────────────────────────────────────────────────────

  private startTimers(): void {
    const checkEveryMs = Math.max(50, Math.floor(this.settings.staleFeedMs / 4));
    this.timers.push(this.clock.setInterval(() => this.checkFeed(), checkEveryMs));
    if (this.settings.reconcileIntervalMs > 0) this.timers.push(this.clock.setInterval(() => void this.heal(), this.settings.reconcileIntervalMs));
    if (this.settings.maxOrderAgeMs > 0) {
      this.timers.push(this.clock.setInterval(() => this.requote(), Math.max(1_000, Math.floor(this.settings.maxOrderAgeMs / 4))));
    }
  }

  /** Dead-man switch: no market data for `staleFeedMs` → cancel everything until it flows again. */
  private checkFeed(): void {
    if (this.state !== 'quoting') return;
    if (this.clock.nowMs() - this.lastMarketDataMs > this.settings.staleFeedMs) void this.pause('stale feed');
  }

  private async pause(reason: string): Promise<void> {
    if (this.state !== 'quoting') return;
    this.state = 'paused';
    this.pauseReason = reason;
    this.logger.warn({ reason }, 'quoting paused; cancelling everything');
    this.observer.paused?.(true, reason);
    await this.cancelEverything(reason, this.settings.shutdownTimeoutMs);
  }

  private resume(): void {
    if (this.state !== 'paused') return;
    this.logger.info({ reason: this.pauseReason }, 'quoting resumed');
    this.observer.paused?.(false, this.pauseReason ?? '');
    this.state = 'quoting';
    this.pauseReason = undefined;
    void this.heal();
  }

  private checkDrawdown(): void {
    const pnl = this.ledger?.pnl(this.market?.mid());
    if (pnl === undefined) return;
    const breach = this.drawdown.observe(pnl.total);
    if (breach !== undefined) void this.halt('RISK_DRAWDOWN', `drawdown ${breach.toFixed(6)} reached the limit ${this.settings.risk.maxDrawdownQuote}`);
  }

  private chargeTakerGas(): void {
    if (this.info === undefined) return;
    const cost = gasCostQuote(this.info.steps.trade, this.edgeContext());
    this.ledger?.applyGas(cost);
    this.observer.gasSpent?.(cost);
  }

  /** Cancel-all, then wait until the venue lists nothing; true when confirmed in time. */
  private async cancelEverything(reason: string, timeoutMs: number): Promise<boolean> {
    const outcome = await this.venue.cancelAll();
    this.logger.info({ reason, outcome }, 'cancel-all sent');
    for (const order of this.orders.live()) this.orders.markCancelling(order.orderId, this.clock.nowMs());
    return this.waitUntilNoOpenOrders(timeoutMs);
  }

  private async waitUntilNoOpenOrders(timeoutMs: number): Promise<boolean> {
    const deadline = this.clock.nowMs() + timeoutMs;
    let delayMs = 50;
    for (;;) {
      // A failed listing is not an empty one: the orders may still rest (exchange restarting).
      // Treating it as empty marked live orders cancelled, and their later fills went missing.
      let open: OrderReport[] | undefined;
      try {
        open = await this.venue.fetchOpenOrders();
      } catch (error) {
        this.logger.warn({ err: error }, 'could not list open orders');
      }
      if (open !== undefined) {
        for (const report of open) this.onOrderReport(report);
        if (open.length === 0) {
          let settled = true;
          for (const order of this.orders.live()) {
            let final: OrderReport | undefined;
            try {
              final = await this.venue.fetchOrder(order.orderId);
            } catch {
              settled = false;
              continue;
            }
            if (final !== undefined) this.onOrderReport(final);
            if (final === undefined || isTerminalStatus(final.status)) this.orders.markDone(order.orderId, final?.status ?? 'CANCELLED');
          }
          if (settled) return true;
        }
      }
      if (this.clock.nowMs() >= deadline) return false;
      if (open === undefined || open.length > 0) await this.venue.cancelAll().catch(() => undefined);
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, delayMs));
      delayMs = Math.min(1_000, delayMs * 2);
    }
  }

  // ── helpers ───────────────────────────────────────────────────────────────────────────────

  private inventoryView(mid: number): InventoryView {
    const info = this.info;
    const ledger = this.ledger;
    if (info === undefined || ledger === undefined) return { base: 0, quote: 0, targetBase: 0, lastFill: undefined };
    const balances = ledger.balances();
    // Balances change on fills only; converting 18-decimal amounts is the slow, exact kind.
    const cached = this.balanceNumbers;
    if (cached.baseUnits !== balances.baseUnits) {
      cached.baseUnits = balances.baseUnits;
      cached.base = unitsToNumber(balances.baseUnits, info.rules.baseDecimals);
    }
    if (cached.quoteUnits !== balances.quoteUnits) {
      cached.quoteUnits = balances.quoteUnits;
      cached.quote = unitsToNumber(balances.quoteUnits, info.rules.quoteDecimals);
    }
    const base = cached.base;
    const quote = cached.quote;
    return {
      base,
      quote,
      targetBase: ((base * mid + quote) * this.settings.inventoryTargetFraction) / mid,
      lastFill: ledger.lastFill(),
    };
  }

  /** The inventory target in base units, for the deviation limit (the only reader: 0 without it). */
  private targetBaseUnits(inventory: InventoryView): bigint {
    const info = this.info;
    if (info === undefined || this.settings.risk.maxInventoryDeviationUnits <= 0n) return 0n;
    const target = inventory.targetBase;
    return target > 0 ? numberToUnits(target, info.rules.baseDecimals, 'down') : 0n;
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

  private accumulateUptime(): void {
    const now = this.clock.nowMs();
    const elapsed = now - this.uptime.sinceMs;
    if (elapsed > 0 && this.state === 'quoting') {
      this.uptime.quotingMs += elapsed;
      if (this.uptime.wasTwoSided) this.uptime.twoSidedMs += elapsed;
    }
    this.uptime.sinceMs = now;
    this.uptime.wasTwoSided = this.orders.workingCount('buy') > 0 && this.orders.workingCount('sell') > 0;
  }
}

function toLiveQuote(order: { orderId: string; side: Side; priceUnits: bigint; qtyUnits: bigint; filledQtyUnits: bigint; createdAtMs: number }): LiveQuote {
  return {
    orderId: order.orderId,
    side: order.side,
    priceUnits: order.priceUnits,
    remainingUnits: order.qtyUnits - order.filledQtyUnits,
    createdAtMs: order.createdAtMs,
  };
}

/** Same quotes, field by field (a strategy may hand back the same values in a new array). */
function sameDesiredQuotes(a: readonly DesiredQuote[], b: readonly DesiredQuote[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as DesiredQuote;
    const y = b[i] as DesiredQuote;
    if (x.side !== y.side || !Object.is(x.price, y.price) || !Object.is(x.size, y.size) || x.level !== y.level) return false;
  }
  return true;
}

function sameBalances(
  a: ReadonlyMap<string, { total: bigint }>,
  b: ReadonlyMap<string, { total: bigint }>,
  base: string,
  quote: string,
): boolean {
  return a.get(base)?.total === b.get(base)?.total && a.get(quote)?.total === b.get(quote)?.total;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
