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
  type HedgeMarketView,
  type HedgeOrderState,
  type HedgeRules,
  type HedgeVenue,
  type Logger,
  type ReferenceFeed,
  type Side,
  type Timer,
} from '../../core/index.ts';
import type { FillEffect } from '../ledger.ts';
import type { FillIncrement } from '../orders/order-table.ts';
import { HedgeExposure, pairToVenue, type HedgeRecord } from './exposure.ts';
import type { HedgeJournal } from './hedge-journal.ts';
import { replayJournal } from './hedge-journal.ts';
import { planHedge, type HedgePlan } from './hedge-sizing.ts';
import { HedgeStats } from './hedge-stats.ts';
import type { EngineHedge, HedgeEngineHooks, HedgeStatus, SideState } from './link.ts';
import { hedgeMarketView, minHedgeableUnits } from './view.ts';
import { HedgeWallet } from './wallet.ts';

/** How the hedger hedges (the HEDGE_* keys). */
export interface HedgerSettings {
  readonly feeBps: number;
  readonly maxDelayMs: number;
  readonly maxRetries: number;
  readonly minProfitBps: number;
  readonly orderType: 'market' | 'ioc';
  readonly iocSlippageBps: number;
  readonly basisBps: number;
  /** The venue's receive window: a request older than this can no longer execute. */
  readonly recvWindowMs: number;
}

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

const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 10_000;
const BALANCE_REFRESH_MS = 60_000;
/** Margin past the receive window after which a lost request cannot have executed. */
const LOST_REQUEST_MARGIN_MS = 2_000;
const BOOK_REQUOTE_MIN_MS = 20;
const START_WAIT_MS = 10_000;

/** The hedger of one pair. */
export class Hedger implements EngineHedge {
  readonly market: string;
  private readonly options: HedgerOptions;
  private readonly stats = new HedgeStats();
  private readonly wallet: HedgeWallet;
  private hooks: HedgeEngineHooks = { requote: () => undefined, halt: () => undefined };
  private rulesValue: HedgeRules | undefined;
  private exposureValue: HedgeExposure | undefined;
  private state: HedgeStatus['state'] = 'starting';
  private reason: string | undefined;
  private busy = false;
  private streak = 0;
  private dust = 0n;
  private late = false;
  private hedgeableSinceMs: number | undefined;
  private seq = 0;
  private lastMark: number | undefined;
  private retryTimer: Timer | undefined;
  private bookTimer: Timer | undefined;
  private timers: Timer[] = [];

  constructor(options: HedgerOptions) {
    this.options = options;
    this.market = options.venue.market;
    this.wallet = new HedgeWallet(() => this.rules);
    this.stats.onLatency = (ms) => options.observer?.hedgeLatency?.(ms);
    this.stats.onSlippage = (bps) => options.observer?.hedgeSlippage?.(bps);
  }

  private get rules(): HedgeRules {
    if (this.rulesValue === undefined) throw new Error('hedger used before start()');
    return this.rulesValue;
  }

  private get exposure(): HedgeExposure {
    if (this.exposureValue === undefined) throw new Error('hedger used before start()');
    return this.exposureValue;
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
    this.exposureValue = new HedgeExposure({ venueDecimals: this.rules.baseDecimals, pairDecimals: this.options.pairBaseDecimals });
    const open = replayJournal(journal.records(), this.exposure);
    for (const id of open) await this.resolve(id);
    await this.refreshBalances();
    this.state = 'ok';
    const uncovered = this.exposure.uncoveredUnits();
    logger.info({ market: this.market, uncoveredBase: this.tokens(uncovered), hedgePositionBase: this.tokens(this.exposure.hedgedUnits), resolved: open.length }, 'hedger started');
    this.timers.push(clock.setInterval(() => this.checkLateness(), Math.max(10, Math.min(250, Math.floor(this.options.settings.maxDelayMs / 4)))));
    this.timers.push(clock.setInterval(() => void this.refreshBalances(), BALANCE_REFRESH_MS));
    this.checkBalances();
    this.schedule();
    await this.settle(START_WAIT_MS);
    if (this.exposure.uncoveredUnits() !== 0n) logger.warn({ uncoveredBase: this.tokens(this.exposure.uncoveredUnits()), dustBase: this.tokens(this.dust) }, 'uncovered at start (dust, or hedging still under way)');
  }

  /**
   * Waits (on the clock, at most `timeoutMs`) until no hedge is in flight or waiting for a retry,
   * or hedging halted. True when it settled.
   */
  async settle(timeoutMs: number): Promise<boolean> {
    const clock = this.options.clock;
    const deadline = clock.nowMs() + timeoutMs;
    while ((this.busy || this.retryTimer !== undefined) && clock.nowMs() < deadline && !this.isHalted()) await sleep(clock, 10);
    return !this.busy && this.retryTimer === undefined;
  }

  /**
   * Compares the hedge account with the journal: what the account holds now against what it held
   * at the last start plus what the hedges moved since. A difference (a deposit, a withdrawal, a
   * trade outside the bot) is reported, and the new balances become the reference.
   */
  private checkBalances(): void {
    const balances = this.wallet.balances;
    if (balances === undefined) return;
    const hedgedVenueUnits = pairToVenue(this.exposure.hedgedUnits, this.exposure.scale);
    const last = [...this.options.journal.records()].reverse().find((record) => record.t === 'balances');
    if (last !== undefined && last.t === 'balances') {
      const driftUnits = balances.baseFree + balances.baseLocked - BigInt(last.base) - (hedgedVenueUnits - BigInt(last.hedged));
      if (driftUnits !== 0n) {
        this.options.logger.warn({ driftBase: unitsToNumber(driftUnits, this.rules.baseDecimals), asset: this.rules.base }, 'the hedge account moved outside the bot since the last start (deposit, withdrawal or manual trade)');
      }
    }
    this.options.journal.append({ t: 'balances', base: (balances.baseFree + balances.baseLocked).toString(), quote: (balances.quoteFree + balances.quoteLocked).toString(), hedged: hedgedVenueUnits.toString(), timeMs: this.options.clock.nowMs() });
  }

  /** Stops timers, the book and the venue; idempotent. Hedges in flight keep their journal records. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const timer of [...this.timers, this.retryTimer, this.bookTimer]) timer?.cancel();
    this.timers = [];
    await this.options.book.stop();
    await this.options.venue.stop();
    this.options.journal.close();
  }

  onFill(fill: FillIncrement, effect: FillEffect, cumulativeQtyUnits: bigint): void {
    const exposure = this.exposureValue;
    if (exposure === undefined || this.state === 'stopped') return;
    const before = exposure.uncoveredUnits();
    const input = { orderId: fill.orderId, cumulativeUnits: cumulativeQtyUnits, qtyUnits: fill.qtyUnits, baseDeltaUnits: effect.baseDeltaUnits };
    const moved = exposure.addFill(input);
    if (moved === 0n) return;
    const now = this.options.clock.nowMs();
    this.options.journal.append({ t: 'fill', orderId: fill.orderId, cum: cumulativeQtyUnits.toString(), qty: fill.qtyUnits.toString(), delta: effect.baseDeltaUnits.toString(), timeMs: now });
    this.stats.exposureChanged(now, before, exposure.uncoveredUnits(), false);
    this.schedule();
  }

  positionOffsetUnits(): bigint {
    return this.exposureValue?.hedgedUnits ?? 0n;
  }

  sideState(side: Side): SideState {
    const exposure = this.exposureValue;
    if (exposure === undefined) return 'open';
    const uncovered = exposure.uncoveredUnits() - this.dustInUncovered();
    const adding: Side | undefined = uncovered > 0n ? 'buy' : uncovered < 0n ? 'sell' : undefined;
    if (side !== adding) return 'open';
    if (this.state === 'failing' || this.state === 'halted' || this.late) return 'off';
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
      state: this.state,
      reason: this.reason,
      hedgesSent: figures.hedgesSent,
      hedgesFailed: figures.hedgesFailed,
      uncoveredBase: exposure === undefined ? 0 : this.tokens(exposure.uncoveredUnits()),
      dustBase: this.tokens(this.dust),
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
    return this.state === 'halted';
  }

  /** Whether a hedge is being sent or settled now. */
  isBusy(): boolean {
    return this.busy;
  }

  // ── hedging ───────────────────────────────────────────────────────────────────────────────

  /** Sends the next hedge when nothing is in flight and nothing waits for a retry. */
  private schedule(): void {
    if ((this.state !== 'ok' && this.state !== 'failing') || this.busy || this.retryTimer !== undefined) return;
    const plan = this.plan();
    this.observeUncovered();
    switch (plan.kind) {
      case 'none':
        this.dust = 0n;
        this.succeeded();
        return;
      case 'dust': {
        const changed = this.dust !== plan.units;
        this.dust = plan.units;
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
        this.dust = 0n;
        void this.send(plan);
    }
  }

  private plan(): HedgePlan {
    const depth = this.options.book.depth(50);
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
    const { clock, journal, venue, logger } = this.options;
    this.busy = true;
    const id = `${this.options.idPrefix}${(++this.seq).toString(36)}`;
    const now = clock.nowMs();
    this.exposure.beginHedge({ id, side: plan.side, qtyVenueUnits: plan.qtyVenueUnits, expectedUnits: plan.expectedUnits, sentAtMs: now, referencePriceUnits: plan.referencePriceUnits });
    journal.append({ t: 'hedge', id, side: plan.side, qty: plan.qtyVenueUnits.toString(), expected: plan.expectedUnits.toString(), ref: plan.referencePriceUnits.toString(), timeMs: now });
    this.stats.sent();
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

  /**
   * Settles a hedge whose outcome is not known: queries it by client id with backoff until the
   * venue reports it final (the stream may do so first), or until it is certainly not there (not
   * found after the receive window has passed: it can no longer execute).
   */
  private async resolve(id: string): Promise<void> {
    const { venue, clock, logger } = this.options;
    for (let attempt = 0; this.state !== 'stopped'; attempt++) {
      const record = this.exposure.hedge(id);
      if (record === undefined || record.phase === 'done') return;
      try {
        const answer = await venue.queryOrder(id);
        if (answer.kind === 'found') {
          this.applyOrder(answer.order);
          if (isFinalHedgeStatus(answer.order.status)) return;
        } else if (clock.nowMs() - record.sentAtMs > this.options.settings.recvWindowMs + LOST_REQUEST_MARGIN_MS) {
          logger.info({ id }, 'lost hedge not on the venue after its receive window: it never executed');
          this.abort(id, 'not on the venue');
          return;
        }
      } catch (error) {
        logger.warn({ id, err: error instanceof Error ? error.message : String(error) }, 'hedge query failed; asking again');
      }
      await sleep(clock, Math.min(RETRY_MAX_MS / 2, 100 * 2 ** Math.min(attempt, 6)));
    }
  }

  /** Applies what the venue says of one of our hedges (answers, queries, the user stream: duplicates are harmless). */
  private applyOrder(order: HedgeOrderState): void {
    const exposure = this.exposureValue;
    const record = exposure?.hedge(order.clientOrderId);
    if (exposure === undefined || record === undefined || record.phase === 'done') return;
    const now = this.options.clock.nowMs();
    const before = { executed: record.executedVenueUnits, quote: record.executedQuoteUnits, commission: record.commissionUnits, uncovered: exposure.uncoveredUnits() };
    const isFinal = isFinalHedgeStatus(order.status);
    exposure.applyOrder(order, isFinal);
    const increment = { side: record.side, qtyUnits: record.executedVenueUnits - before.executed, quoteUnits: record.executedQuoteUnits - before.quote, commissionUnits: record.commissionUnits - before.commission };
    if (increment.qtyUnits > 0n || increment.commissionUnits > 0n || isFinal) {
      this.wallet.apply(increment, now);
      this.options.journal.append({ t: 'result', id: record.id, executed: record.executedVenueUnits.toString(), quote: record.executedQuoteUnits.toString(), commission: record.commissionUnits.toString(), final: isFinal, timeMs: now });
      this.stats.exposureChanged(now, before.uncovered, exposure.uncoveredUnits(), true);
    }
    if (isFinal && record.executedVenueUnits > 0n) this.recordSlippage(record);
    this.observeUncovered();
  }

  private recordSlippage(record: HedgeRecord): void {
    const rules = this.rules;
    const qty = unitsToNumber(record.executedVenueUnits, rules.baseDecimals);
    this.stats.slippage(record.side, unitsToNumber(record.executedQuoteUnits, rules.quoteDecimals) / qty, unitsToNumber(record.referencePriceUnits, rules.quoteDecimals), qty);
  }

  private abort(id: string, reason: string): void {
    this.exposure.abort(id);
    this.options.journal.append({ t: 'abort', id, reason, timeMs: this.options.clock.nowMs() });
  }

  // ── failures ──────────────────────────────────────────────────────────────────────────────

  private failed(reason: string, detail: string, retryAfterMs?: number): void {
    this.streak++;
    this.stats.failed(reason);
    this.options.observer?.hedgeFailed?.(reason);
    const uncovered = this.tokens(this.exposure.uncoveredUnits());
    this.reason = `hedge ${reason}: ${detail}`;
    if (this.streak > this.options.settings.maxRetries) {
      this.halt(`hedging failed ${this.streak} times in a row (last: ${reason}: ${detail}); ${uncovered} ${this.rules.base} uncovered; run akira-mm hedge flatten once the cause is fixed`);
      return;
    }
    const wasFailing = this.state === 'failing';
    this.state = 'failing';
    const delayMs = Math.max(retryAfterMs ?? 0, Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (this.streak - 1)));
    this.options.logger.warn({ reason, detail, attempt: this.streak, maxRetries: this.options.settings.maxRetries, retryInMs: delayMs, uncoveredBase: uncovered }, 'hedge failed; the side adding to the uncovered position stops quoting');
    this.retryTimer?.cancel();
    this.retryTimer = this.options.clock.setTimeout(() => {
      this.retryTimer = undefined;
      this.schedule();
    }, delayMs);
    if (!wasFailing) this.hooks.requote();
  }

  private succeeded(): void {
    if (this.state !== 'failing') return;
    this.options.logger.info({ afterFailures: this.streak }, 'hedging works again');
    this.streak = 0;
    this.state = 'ok';
    this.reason = undefined;
    this.hooks.requote();
  }

  private halt(message: string): void {
    if (this.state === 'halted' || this.state === 'stopped') return;
    this.state = 'halted';
    this.reason = message;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.options.logger.error({ reason: message }, 'hedging halted');
    this.hooks.halt(message);
  }

  // ── time, the book, the stream ────────────────────────────────────────────────────────────

  /** An uncovered, hedgeable position older than the maximum delay stops the side adding to it. */
  private checkLateness(): void {
    this.observeUncovered();
    const since = this.hedgeableSinceMs;
    const isLate = since !== undefined && this.options.clock.nowMs() - since > this.options.settings.maxDelayMs;
    if (isLate === this.late) return;
    this.late = isLate;
    if (isLate) this.options.logger.warn({ uncoveredBase: this.tokens(this.exposure.uncoveredUnits()), maxDelayMs: this.options.settings.maxDelayMs }, 'hedge late: the side adding to the uncovered position stops quoting');
    this.hooks.requote();
    if (!isLate) this.schedule();
  }

  private observeUncovered(): void {
    const exposure = this.exposureValue;
    if (exposure === undefined) return;
    const now = this.options.clock.nowMs();
    const minimum = minHedgeableUnits(this.rules, exposure.scale, this.options.book.top());
    this.stats.dustUnits = minimum - 1n;
    const open = exposure.uncoveredUnits() - this.dustInUncovered();
    const hedgeable = (open < 0n ? -open : open) >= minimum;
    this.stats.observe(now, hedgeable);
    if (!hedgeable) this.hedgeableSinceMs = undefined;
    else this.hedgeableSinceMs ??= now;
  }

  /** The part of the uncovered position that is dust (same sign, at most all of it). */
  private dustInUncovered(): bigint {
    const uncovered = this.exposure.uncoveredUnits();
    if (this.dust === 0n || uncovered === 0n || this.dust > 0n !== uncovered > 0n) return 0n;
    return (this.dust < 0n ? -this.dust : this.dust) < (uncovered < 0n ? -uncovered : uncovered) ? this.dust : uncovered;
  }

  private onBookChange(): void {
    if (this.bookTimer !== undefined || this.state === 'stopped') return;
    this.bookTimer = this.options.clock.setTimeout(() => {
      this.bookTimer = undefined;
      this.hooks.requote();
      if (this.state === 'failing' && this.retryTimer === undefined) this.schedule();
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
