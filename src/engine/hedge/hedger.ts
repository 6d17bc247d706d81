/**
 * The hedger (issue 15): keeps the net position across the quoted venue and the hedge venue flat.
 * Every fill of ours is counted once (by its order and cumulative size, journalled), and what is
 * uncovered is hedged at once with a market or IOC order of exactly what is uncovered (sizing in
 * `hedge-sizing.ts`), one hedge at a time, so a hedge never moves more than the fills did:
 * - a refused or expired hedge, a balance short, an unreachable venue, or an uncovered position
 *   older than `maxDelayMs`: the side that adds to the uncovered position stops quoting at once
 *   (its orders are cancelled), the hedge is retried with backoff, and after `maxRetries`
 *   failures in a row quoting halts with the reason;
 * - while a hedge is pending, that side places nothing new (what rests stays);
 * - a hedge whose answer was lost is queried by its client id until its outcome is known (it
 *   cannot execute once the venue's receive window has passed), never sent again;
 * - amounts below the venue's minimum lot or notional stay uncovered as dust, shown, and are
 *   hedged once more joins them.
 * At start the journal is replayed, open hedges are resolved, the account is read, and what is
 * uncovered is hedged (or reported) before the engine quotes.
 */
import {
  MmError,
  isFinalHedgeStatus,
  sleep,
  unitsToNumber,
  type Clock,
  type HEDGE_KEYS,
  type HedgeMarketView,
  type HedgeOrderState,
  type HedgeRules,
  type HedgeVenue,
  type Logger,
  type ReferenceDepth,
  type ReferenceFeed,
  type SettingsOf,
  type Side,
  type Timer,
} from '../../core/index.ts';
import type { FillEffect } from '../ledger.ts';
import type { FillIncrement } from '../orders/order-table.ts';
import { HedgeExposure, pairToVenue } from './exposure.ts';
import { HedgeBooks } from './hedge-books.ts';
import type { HedgeJournal } from './hedge-journal.ts';
import { replayJournal } from './hedge-journal.ts';
import { planHedge, type HedgePlan } from './hedge-sizing.ts';
import { HedgeStats } from './hedge-stats.ts';
import type { EngineHedge, HedgeEngineHooks, HedgeStatus, SideState } from './link.ts';
import { HedgeFailures } from './hedge-failures.ts';
import { settleHedge } from './settle-hedge.ts';
import { UncoveredWatch } from './uncovered-watch.ts';
import { hedgeMarketView } from './view.ts';
import { HedgeWallet } from './wallet.ts';

/** How the hedger hedges: one field per HEDGE_* key read by `hedger` (recvWindowMs: a request older than this can no longer execute). */
export type HedgerSettings = SettingsOf<typeof HEDGE_KEYS, 'hedger'>;

/** Counters for metrics. */
export interface HedgeObserver {
  hedgeSent?(side: Side): void;
  hedgeFailed?(reason: string): void;
  hedgeLatency?(ms: number): void;
  hedgeSlippage?(bps: number): void;
}

/** Everything a hedger needs. */
export interface HedgerOptions {
  readonly venue: HedgeVenue;
  /** The hedge market's book (a reference feed of the same symbol). */
  readonly book: ReferenceFeed;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly journal: HedgeJournal;
  readonly settings: HedgerSettings;
  /** Decimals of the quoted pair's base token (the engine's amounts). */
  readonly pairBaseDecimals: number;
  /** Prefix of this process's client order ids (unique per start, ≤ 20 characters). */
  readonly idPrefix: string;
  readonly observer?: HedgeObserver;
}

const BALANCE_REFRESH_MS = 60_000;
const BOOK_REQUOTE_MIN_MS = 20;
const START_WAIT_MS = 10_000;
/** How old the last hedge book may be to size a hedge while the book resyncs. */
const LAST_BOOK_MAX_AGE_MS = 30_000;

/** The hedger of one pair. */
export class Hedger implements EngineHedge {
  readonly market: string;
  private readonly options: HedgerOptions;
  private readonly stats = new HedgeStats();
  private readonly wallet: HedgeWallet;
  private hooks: HedgeEngineHooks = { requote: () => undefined, halt: () => undefined };
  private rulesValue: HedgeRules | undefined;
  private booksValue: HedgeBooks | undefined;
  private readonly failures: HedgeFailures;
  private started = false;
  private stopped = false;
  private busy = false;
  private watchValue: UncoveredWatch | undefined;
  private seq = 0;
  private lastMark: number | undefined;
  private lastDepth: ReferenceDepth | undefined;
  private bookTimer: Timer | undefined;
  private timers: Timer[] = [];

  constructor(options: HedgerOptions) {
    this.options = options;
    this.market = options.venue.market;
    this.wallet = new HedgeWallet(() => this.rules);
    this.failures = new HedgeFailures(options.clock, options.settings.maxRetries);
    this.stats.onLatency = (ms) => options.observer?.hedgeLatency?.(ms);
    this.stats.onSlippage = (bps) => options.observer?.hedgeSlippage?.(bps);
  }

  private get rules(): HedgeRules {
    if (this.rulesValue === undefined) throw new Error('hedger used before start()');
    return this.rulesValue;
  }

  private get books(): HedgeBooks {
    if (this.booksValue === undefined) throw new Error('hedger used before start()');
    return this.booksValue;
  }

  private get exposure(): HedgeExposure {
    return this.books.exposure;
  }

  private get exposureValue(): HedgeExposure | undefined {
    return this.booksValue?.exposure;
  }

  private get watch(): UncoveredWatch {
    if (this.watchValue === undefined) throw new Error('hedger used before start()');
    return this.watchValue;
  }

  attach(hooks: HedgeEngineHooks): void {
    this.hooks = hooks;
  }

  /**
   * Connects the venue and the hedge book, rebuilds the books from the journal, settles hedges
   * whose outcome it does not know, reads the account, and hedges what is uncovered (waiting a
   * bounded time for it) before the engine quotes.
   * @throws MmError when the venue refuses the symbol or the keys.
   */
  async start(): Promise<void> {
    const { venue, book, clock, logger, journal } = this.options;
    this.rulesValue = await venue.start({ onOrder: (order) => this.applyOrder(order), onStreamStatus: (isUp, why) => this.onStreamStatus(isUp, why) });
    await book.start({ onTop: () => this.onBookChange(), onTrade: () => undefined, onStatus: () => this.onBookChange() });
    const exposure = new HedgeExposure({ venueDecimals: this.rules.baseDecimals, pairDecimals: this.options.pairBaseDecimals });
    this.booksValue = new HedgeBooks(exposure, this.wallet, this.stats, journal, clock, this.rules);
    this.watchValue = new UncoveredWatch(exposure, this.rules, this.stats);
    const open = replayJournal(journal.records(), exposure);
    for (const id of open) await this.resolve(id);
    await this.refreshBalances();
    this.started = true;
    const uncovered = this.exposure.uncoveredUnits();
    logger.info({ market: this.market, uncoveredBase: this.tokens(uncovered), hedgePositionBase: this.tokens(this.exposure.hedgedUnits), resolved: open.length }, 'hedger started');
    this.timers.push(clock.setInterval(() => this.checkLateness(), Math.max(10, Math.min(250, Math.floor(this.options.settings.maxDelayMs / 4)))));
    this.timers.push(clock.setInterval(() => void this.refreshBalances(), BALANCE_REFRESH_MS));
    this.wallet.reconcile(journal, pairToVenue(this.exposure.hedgedUnits, this.exposure.scale), logger, clock.nowMs());
    this.schedule();
    await this.settle(START_WAIT_MS);
    if (this.exposure.uncoveredUnits() !== 0n) logger.warn({ uncoveredBase: this.tokens(this.exposure.uncoveredUnits()), dustBase: this.tokens(this.watch.dust) }, 'uncovered at start (dust, or hedging still under way)');
  }

  /**
   * Waits (on the clock, at most `timeoutMs`) until no hedge is in flight or waiting for a retry,
   * or hedging halted. True when it settled.
   */
  async settle(timeoutMs: number): Promise<boolean> {
    const clock = this.options.clock;
    const deadline = clock.nowMs() + timeoutMs;
    while ((this.busy || this.failures.isWaiting()) && clock.nowMs() < deadline && !this.isHalted()) await sleep(clock, 10);
    return !this.busy && !this.failures.isWaiting();
  }

  /** Stops timers, the book and the venue; idempotent. Hedges in flight keep their journal records. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.failures.cancel();
    for (const timer of [...this.timers, this.bookTimer]) timer?.cancel();
    this.timers = [];
    await this.options.book.stop();
    await this.options.venue.stop();
    this.options.journal.close();
  }

  onFill(fill: FillIncrement, effect: FillEffect, cumulativeQtyUnits: bigint): void {
    if (this.booksValue === undefined || this.stopped) return;
    if (this.booksValue.countFill(fill, effect, cumulativeQtyUnits) !== 0n) this.schedule();
  }

  positionOffsetUnits(): bigint {
    return this.exposureValue?.hedgedUnits ?? 0n;
  }

  sideState(side: Side): SideState {
    const watch = this.watchValue;
    if (watch === undefined) return 'open';
    const uncovered = watch.openUnits();
    const adding: Side | undefined = uncovered > 0n ? 'buy' : uncovered < 0n ? 'sell' : undefined;
    if (side !== adding) return 'open';
    if (this.failures.health !== 'ok' || watch.late) return 'off';
    return 'hold';
  }

  marketView(): HedgeMarketView | undefined {
    const exposure = this.exposureValue;
    const rules = this.rulesValue;
    if (exposure === undefined || rules === undefined) return undefined;
    return hedgeMarketView({ book: this.options.book.depth(25), rules, settings: this.options.settings, balances: this.wallet.balances, uncoveredUnits: exposure.toHedgeUnits(), pairBaseDecimals: this.options.pairBaseDecimals });
  }

  pnlQuote(mark: number | undefined): number {
    if (mark !== undefined) this.lastMark = mark;
    const exposure = this.exposureValue;
    if (exposure === undefined) return 0;
    const factor = 1 + this.options.settings.basisBps / 10_000;
    return this.wallet.quoteMovedTokens() * factor + this.tokens(exposure.hedgedUnits) * (this.lastMark ?? 0);
  }

  status(): HedgeStatus {
    const exposure = this.exposureValue;
    const now = this.options.clock.nowMs();
    const figures = this.stats.figures(now);
    const venue = this.options.venue.status();
    return {
      market: this.market,
      state: this.stopped ? 'stopped' : !this.started ? 'starting' : this.failures.health,
      reason: this.failures.reason,
      hedgesSent: figures.hedgesSent,
      hedgesFailed: figures.hedgesFailed,
      uncoveredBase: exposure === undefined ? 0 : this.tokens(exposure.uncoveredUnits()),
      dustBase: this.tokens(this.watchValue?.dust ?? 0n),
      hedgePositionBase: exposure === undefined ? 0 : this.tokens(exposure.hedgedUnits),
      filledVolumeBase: exposure === undefined ? 0 : this.tokens(exposure.volumes.filled),
      hedgedVolumeBase: exposure === undefined ? 0 : this.tokens(exposure.volumes.hedged),
      latencyMsP50: figures.latencyMsP50,
      slippageBps: figures.slippageBps,
      unhedgedTimeShare: figures.unhedgedTimeShare,
      pnlQuote: this.pnlQuote(undefined),
      feesQuote: this.rulesValue === undefined ? 0 : this.wallet.feesQuoteTokens() * (1 + this.options.settings.basisBps / 10_000),
      venue: { streamUp: venue.streamUp, weightUsed: venue.weightUsed, weightLimit: venue.weightLimit, ordersUsed: venue.ordersUsed, ordersLimit: venue.ordersLimit },
    };
  }

  /** The books (tests and the flatten command). */
  exposureBooks(): HedgeExposure | undefined {
    return this.exposureValue;
  }

  /** True once hedging halted (quoting stopped for good). */
  isHalted(): boolean {
    return this.failures.health === 'halted';
  }

  /** Whether a hedge is being sent or settled now. */
  isBusy(): boolean {
    return this.busy;
  }

  // ── hedging ───────────────────────────────────────────────────────────────────────────────

  /** Sends the next hedge when nothing is in flight and nothing waits for a retry. */
  private schedule(): void {
    if (!this.started || this.stopped || this.isHalted() || this.busy || this.failures.isWaiting()) return;
    const plan = this.plan();
    this.observeUncovered();
    switch (plan.kind) {
      case 'none':
        this.watch.dust = 0n;
        this.succeeded();
        return;
      case 'dust': {
        const changed = this.watch.dust !== plan.units;
        this.watch.dust = plan.units;
        this.succeeded();
        // What was held for a hedge is free again: the rest is dust, never a reason to hold a side.
        if (changed) this.hooks.requote();
        return;
      }
      case 'blocked':
        // The account may have been topped up since it was last read: read it again before the retry.
        if (plan.reason === 'balance-short') void this.refreshBalances();
        this.failed(plan.reason, plan.detail);
        return;
      case 'order':
        this.watch.dust = 0n;
        void this.send(plan);
    }
  }

  private plan(): HedgePlan {
    const fresh = this.options.book.depth(50);
    if (fresh !== undefined) this.lastDepth = fresh;
    // While the book resyncs (a second, usually) the last one prices a market order's minimums.
    const depth = fresh ?? (this.lastDepth !== undefined && this.options.clock.nowMs() - this.lastDepth.receivedMs <= LAST_BOOK_MAX_AGE_MS ? this.lastDepth : undefined);
    const venueFee = this.rules.takerFeeE8;
    const configured = BigInt(Math.round(this.options.settings.feeBps * 10_000));
    return planHedge({
      toHedgeUnits: this.exposure.toHedgeUnits(),
      scale: this.exposure.scale,
      rules: this.rules,
      book: depth,
      // The lower rate sizes buys: a hedge then never receives more than is uncovered.
      feeE8: venueFee < configured ? venueFee : configured,
      orderType: this.options.settings.orderType,
      iocSlippageBps: this.options.settings.iocSlippageBps,
      balances: this.wallet.balances,
    });
  }

  private async send(plan: HedgePlan & { kind: 'order' }): Promise<void> {
    const { venue, logger } = this.options;
    this.busy = true;
    const id = `${this.options.idPrefix}${(++this.seq).toString(36)}`;
    this.books.begin({ id, side: plan.side, qtyVenueUnits: plan.qtyVenueUnits, expectedUnits: plan.expectedUnits, referencePriceUnits: plan.referencePriceUnits });
    this.options.observer?.hedgeSent?.(plan.side);
    this.hooks.requote();
    try {
      const request = { clientOrderId: id, side: plan.side, qtyUnits: plan.qtyVenueUnits, type: plan.type, ...(plan.limitPriceUnits === undefined ? {} : { limitPriceUnits: plan.limitPriceUnits }) };
      let outcome;
      try {
        outcome = await venue.placeOrder(request);
      } catch (error) {
        // Nothing was sent: the order broke a filter the sizing should have kept (a bug).
        this.abort(id, 'invalid order');
        if (error instanceof MmError && error.code === 'HEDGE_INVALID_ORDER') this.halt(`hedge sizing produced an invalid order: ${error.message}`);
        else this.failed('error', error instanceof Error ? error.message : String(error));
        return;
      }
      switch (outcome.kind) {
        case 'accepted':
          this.applyOrder(outcome.order);
          if (!isFinalHedgeStatus(outcome.order.status)) await this.resolve(id);
          this.afterFinal(id);
          return;
        case 'rejected':
          this.abort(id, outcome.reason);
          if (outcome.reason === 'auth') {
            this.halt(`the hedge venue refused the API key: ${outcome.message}`);
            return;
          }
          if (outcome.reason === 'insufficient-balance') await this.refreshBalances();
          this.failed(outcome.reason === 'insufficient-balance' ? 'balance-short' : outcome.reason, outcome.message, outcome.retryAfterMs ?? (outcome.reason === 'timestamp' ? 0 : undefined));
          return;
        case 'unknown':
          logger.warn({ id, reason: outcome.message }, 'hedge outcome unknown; querying it by its client id');
          this.exposure.markUnknown(id);
          await this.resolve(id);
          this.afterFinal(id);
          return;
      }
    } finally {
      this.busy = false;
      // Decide the next hedge (or that the rest is dust) first: the side states the requote reads follow from it.
      this.schedule();
      this.hooks.requote();
    }
  }

  /** A hedge reached its final state: an expiry with nothing executed is a failure, anything executed progress. */
  private afterFinal(id: string): void {
    const record = this.exposure.hedge(id);
    if (record === undefined || record.phase !== 'done') return;
    if (record.executedVenueUnits === 0n) this.failed('expired', `hedge ${id} executed nothing (no liquidity at its price)`);
    else this.succeeded();
  }

  /** Settles a hedge whose outcome is not known, by query (`settle-hedge.ts`). */
  private resolve(id: string): Promise<void> {
    return settleHedge(id, {
      venue: this.options.venue,
      clock: this.options.clock,
      logger: this.options.logger,
      exposure: this.exposure,
      recvWindowMs: this.options.settings.recvWindowMs,
      isStopped: () => this.stopped,
      apply: (order) => this.applyOrder(order),
      abort: (hedgeId, reason) => this.abort(hedgeId, reason),
    });
  }

  /** Applies what the venue says of one of our hedges. */
  private applyOrder(order: HedgeOrderState): void {
    if (this.booksValue === undefined) return;
    this.booksValue.apply(order);
    this.observeUncovered();
  }

  private abort(id: string, reason: string): void {
    this.books.abort(id, reason);
  }

  // ── failures ──────────────────────────────────────────────────────────────────────────────

  private failed(reason: string, detail: string, retryAfterMs?: number): void {
    this.stats.failed(reason);
    this.options.observer?.hedgeFailed?.(reason);
    const uncovered = this.tokens(this.exposure.uncoveredUnits());
    const wasFailing = this.failures.health === 'failing';
    const outcome = this.failures.failed(reason, detail, retryAfterMs, () => this.schedule());
    if (outcome.kind === 'halt') {
      this.halt(`hedging failed ${outcome.attempts} times in a row (last: ${reason}: ${detail}); ${uncovered} ${this.rules.base} uncovered; run akira-mm hedge flatten once the cause is fixed`);
      return;
    }
    this.options.logger.warn({ reason, detail, attempt: outcome.attempt, maxRetries: this.options.settings.maxRetries, retryInMs: outcome.delayMs, uncoveredBase: uncovered }, 'hedge failed; the side adding to the uncovered position stops quoting');
    if (!wasFailing) this.hooks.requote();
  }

  private succeeded(): void {
    if (!this.failures.succeeded()) return;
    this.options.logger.info('hedging works again');
    this.hooks.requote();
  }

  private halt(message: string): void {
    if (this.isHalted() || this.stopped) return;
    this.failures.halted(message);
    this.options.logger.error({ reason: message }, 'hedging halted');
    this.hooks.halt(message);
  }

  // ── time, the book, the stream ────────────────────────────────────────────────────────────

  /** An uncovered, hedgeable position older than the maximum delay stops the side adding to it. */
  private checkLateness(): void {
    const { clock, book, settings, logger } = this.options;
    if (!this.watch.checkLate(clock.nowMs(), book.top(), settings.maxDelayMs)) return;
    if (this.watch.late) logger.warn({ uncoveredBase: this.tokens(this.exposure.uncoveredUnits()), maxDelayMs: settings.maxDelayMs }, 'hedge late: the side adding to the uncovered position stops quoting');
    this.hooks.requote();
    if (!this.watch.late) this.schedule();
  }

  private observeUncovered(): void {
    this.watchValue?.observe(this.options.clock.nowMs(), this.options.book.top());
  }

  private onBookChange(): void {
    if (this.bookTimer !== undefined || this.stopped) return;
    this.bookTimer = this.options.clock.setTimeout(() => {
      this.bookTimer = undefined;
      this.hooks.requote();
    }, BOOK_REQUOTE_MIN_MS);
  }

  private onStreamStatus(isUp: boolean, why: string): void {
    this.options.logger.info({ isUp, why }, isUp ? 'hedge venue user stream up' : 'hedge venue user stream down; fills are settled by query meanwhile');
    if (isUp && this.exposureValue !== undefined) void this.refreshBalances();
  }

  private async refreshBalances(): Promise<void> {
    try {
      this.wallet.set(await this.options.venue.balances());
    } catch (error) {
      this.options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'hedge balances not read; using the last known');
    }
  }

  private tokens(units: bigint): number {
    return unitsToNumber(units, this.options.pairBaseDecimals);
  }
}
