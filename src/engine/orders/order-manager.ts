/**
 * The order manager: the only owner of our orders' lives (ARCHITECTURE "one owner"). It turns a
 * requote's per-side diffs into venue actions within the outbound budget, by priority
 * (risk-reducing cancels first, then the quotes nearest the touch); gates every placement on the
 * hard caps counting every order that could still fill; journals intents before they leave;
 * backs off a side after rejections; and cancels everything, waiting until the venue confirms.
 * At most one batch of requests is in flight per side: events meanwhile mark the side dirty and
 * it is requoted once its requests are answered, so bursts coalesce instead of queueing.
 */
import type { Clock, Logger, OrderIntent, OrderReport, Side, SignedOrder, TickerRules, Timer, Venue } from '../../core/index.ts';
import type { EngineObserver } from '../observer.ts';
import { admissibleQuantity, type ExposedOrder } from '../pipeline/caps.ts';
import type { LiveQuote, RoundedQuote } from '../pipeline/diff.ts';
import type { ActionKind, TokenBucket } from './budget.ts';
import type { GuardedJournal } from './journal.ts';
import { OrderTable, toLiveQuote } from './order-table.ts';
import { rankActions, type Action, type ExecutionContext, type SidePlan } from './priorities.ts';
import { confirmNothingRests } from './confirm.ts';

/** Callbacks into the engine. */
export interface OrderManagerHooks {
  /** False once quoting stopped: a placement signed meanwhile is dropped. */
  isQuoting(): boolean;
  /** A side's requests are all answered and something asked for it meanwhile: requote. */
  onSideSettled(side: Side): void;
  /** Time or the budget alone may change the diff now (tokens refilled): requote. */
  onWake(): void;
  /** A request's outcome is unknown: heal from the venue's records. */
  onUnknownOutcome(): void;
  /**
   * The key holder's signing policy refused an order the engine meant to place: the pair file and
   * the policy disagree (or the engine is wrong), and every retry would be another security event.
   */
  onSignerRefused(reason: string): void;
  /** What rests changed outside a requote (placements signed and recorded, cancels sent): the scorecard samples it. */
  onOrdersChanged(): void;
}

/** Counts for the scorecard. */
export interface OrderStats {
  /** Placements sent to the venue. */
  readonly ordersSent: number;
  /** Cancel requests sent (single cancels and cancel-alls). */
  readonly cancelsSent: number;
  /** Base units of all placements sent. */
  readonly placedQtyUnits: bigint;
  /** Requests the outbound budget held back (each distinct one once per stretch of throttling). */
  readonly throttled: number;
  /** Placements the caps gate shrank to nothing (waiting for a cancel to land). */
  readonly gated: number;
  /** Placements the venue refused (post-only would cross, balance, …). */
  readonly rejected: number;
}

/** Everything the manager needs. */
export interface OrderManagerOptions {
  readonly venue: Venue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The engine's guarded journal: an intent that could not be written is never sent. */
  readonly journal: GuardedJournal;
  readonly observer: EngineObserver;
  /** The pair's rules: sizes and prices the caps gate rounds to. */
  readonly rules: TickerRules;
  /** The account's outbound budget, shared by every pair on it (the venue limits per trader). */
  readonly bucket: TokenBucket;
  readonly hooks: OrderManagerHooks;
}

/** What one side sends in one go. */
interface SideBatch {
  /** Cancels that reduce risk: they leave at once. */
  readonly urgent: LiveQuote[];
  /** Cancels of orders being replaced or no longer wanted: they leave once the replacements are signed. */
  readonly refresh: LiveQuote[];
  readonly places: RoundedQuote[];
}

const SIDES: readonly Side[] = ['buy', 'sell'];

function newBatch(): SideBatch {
  return { urgent: [], refresh: [], places: [] };
}

/** The same items in the same order. */
function isSameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
const URGENCY: Readonly<Record<ActionKind, number>> = { risk: 0, front: 1, back: 2 };
/** The matcher result of a post-only order that would have taken liquidity (SPEC §6). */
const POST_ONLY_CROSSED = 'FAILED_VALIDATION';
/** After rejections a side waits before placing again: 1 s, doubling up to this. */
const MAX_REJECT_BACKOFF_MS = 30_000;

/** Our orders and the requests that change them. */
export class OrderManager {
  readonly table = new OrderTable();
  private readonly budget: TokenBucket;
  private readonly inFlight = new Set<Side>();
  private readonly dirty = new Set<Side>();
  private readonly rejectBackoff = { buy: { untilMs: 0, streak: 0 }, sell: { untilMs: 0, streak: 0 } };
  /** Placements between the gate and the table (being signed): they count as exposure too. */
  private readonly reserved = new Set<ExposedOrder>();
  /** Placements sent and not yet answered, by order id. */
  private readonly placementsInFlight = new Set<string>();
  private wakeTimer: Timer | undefined;
  /** The cancel-everything in progress (pause, halt, shutdown, an alert): one at a time. */
  private pulling: Promise<boolean> | undefined;
  /**
   * The requests held back since the budget last let everything through: each is counted once.
   * Cancels by order id; placements by side, then price, then size (held every requote while the
   * budget is short: keyed by the numbers themselves, not by a string built from them).
   */
  private readonly heldCancels = new Set<string>();
  private readonly heldPlaces = { buy: new Map<bigint, bigint[]>(), sell: new Map<bigint, bigint[]>() };
  /** The last plans ranked, the touch they were ranked at and their actions (`rank`). */
  private lastRanking: { readonly plans: readonly SidePlan[]; readonly bestBidUnits: bigint | undefined; readonly bestAskUnits: bigint | undefined; readonly actions: Action[] } | undefined;
  private counts = { ordersSent: 0, cancelsSent: 0, placedQtyUnits: 0n, throttled: 0, gated: 0, rejected: 0 };

  constructor(private readonly options: OrderManagerOptions) {
    this.budget = options.bucket;
  }

  /** True while this side has requests without an answer. */
  isBusy(side: Side): boolean {
    return this.inFlight.has(side);
  }

  /** Asks for a requote of this side once its requests are answered. */
  markDirty(side: Side): void {
    this.dirty.add(side);
  }

  /** Until when this side places nothing after rejections (ms on the clock; 0 = not backing off). */
  backoffUntilMs(side: Side): number {
    // A branch, not rejectBackoff[side]: a lookup by a key that alternates is a generic property load (asked on every requote).
    return side === 'buy' ? this.rejectBackoff.buy.untilMs : this.rejectBackoff.sell.untilMs;
  }

  /** True while any request of ours is unanswered. */
  hasWorkInFlight(): boolean {
    return this.inFlight.size > 0;
  }

  stats(): OrderStats {
    return { ...this.counts };
  }

  /** Stops the wake-up timer; idempotent. */
  stop(): void {
    this.wakeTimer?.cancel();
    this.wakeTimer = undefined;
  }

  /**
   * Sends what the plans ask for, as far as the budget allows: cancels before placements, the
   * cancels that reduce risk first, then the placements nearest the touch. What the budget holds
   * back is counted and retried when tokens return; a side with admitted requests is busy until
   * they are answered.
   */
  execute(plans: readonly SidePlan[], context: ExecutionContext): void {
    const actions = this.rank(plans, context);
    // Made when a side has an admitted request: a budget that holds everything back (the engine
    // retries on every wake until tokens return) allocates no batch.
    let buyBatch: SideBatch | undefined;
    let sellBatch: SideBatch | undefined;
    let held = 0;
    let newlyHeld = 0;
    let heldKind: ActionKind = 'back';
    for (const action of actions) {
      const kind: ActionKind = action.group === 0 ? 'risk' : action.group === 1 && action.level === 0 ? 'front' : 'back';
      const cost = (action.cancel === undefined ? 0 : 1) + (action.place === undefined ? 0 : 1);
      if (!this.budget.tryTake(kind, cost)) {
        // Wake for the most urgent kind held (risk before front before back).
        if (held === 0 || URGENCY[kind] < URGENCY[heldKind]) heldKind = kind;
        held += cost;
        newlyHeld += this.noteHeld(action);
        continue;
      }
      const batch = action.side === 'buy' ? (buyBatch ??= newBatch()) : (sellBatch ??= newBatch());
      if (action.cancel !== undefined) (action.group === 0 ? batch.urgent : batch.refresh).push(action.cancel);
      if (action.place !== undefined) batch.places.push(action.place);
    }
    if (held > 0) {
      if (newlyHeld > 0) {
        this.counts.throttled += newlyHeld;
        this.options.observer.requestsThrottled?.(newlyHeld);
      }
      this.scheduleWake(this.budget.msUntilAvailable(heldKind));
    } else {
      this.clearHeld();
    }
    for (const side of SIDES) {
      const batch = side === 'buy' ? buyBatch : sellBatch;
      if (batch === undefined) continue;
      this.inFlight.add(side);
      void this.run(batch, context).finally(() => {
        this.inFlight.delete(side);
        if (this.dirty.delete(side)) this.options.hooks.onSideSettled(side);
      });
    }
  }

  /**
   * The plans' actions by priority. The same plans (the planner hands back a side's unchanged
   * plan) at the same touch rank the same: the last ranking is reused, as the engine retries a
   * held-back plan on every wake of the budget.
   */
  private rank(plans: readonly SidePlan[], context: ExecutionContext): Action[] {
    const last = this.lastRanking;
    const { bestBidUnits, bestAskUnits } = context.touch;
    if (last !== undefined && last.bestBidUnits === bestBidUnits && last.bestAskUnits === bestAskUnits && isSameList(last.plans, plans)) return last.actions;
    const actions = rankActions(plans, context);
    this.lastRanking = { plans: [...plans], bestBidUnits, bestAskUnits, actions };
    return actions;
  }

  /** Cancels one order outside a requote (healing found it unknown, or it must go now): no budget wait. */
  cancelNow(orderId: string): void {
    const { clock, journal, venue } = this.options;
    this.table.markCancelling(orderId, clock.nowMs());
    journal.append({ t: 'cancel', orderId, timeMs: clock.nowMs() });
    this.budget.takeAnyway();
    this.counts.cancelsSent++;
    void venue.cancelOrder(orderId).catch(() => undefined);
  }

  /**
   * Cancels every working order of `side` now, outside the budget (a stale side must go before
   * it is taken: the reference's lead–lag pull); the next requote places the side afresh. Each
   * cancel is journalled and its outcome handled as a requote's is.
   */
  pullSide(side: Side): void {
    const nowMs = this.options.clock.nowMs();
    for (const order of this.table.working(side)) {
      this.budget.takeAnyway();
      void this.cancel(toLiveQuote(order), nowMs);
    }
  }

  /**
   * Cancel-all, then wait until the venue lists nothing of ours; true when confirmed in time.
   * Safety actions go whatever the budget. `applyReport` is the engine's report handler (fills
   * found while waiting are booked). A call while one is in progress joins it.
   */
  cancelEverything(reason: string, timeoutMs: number, applyReport: (report: OrderReport) => void, stillWanted?: () => boolean): Promise<boolean> {
    // One pull at a time: its loop already sends the cancel-all again while orders rest. A second
    // one per alert (a cancel-all that failed after its 200 raises one) would answer every failed
    // cancel-all with another, a storm the venue's rate limit meets with 429s.
    const joined = this.pulling;
    if (joined === undefined) {
      const pull = this.pullEverything(reason, timeoutMs, applyReport, stillWanted).finally(() => {
        if (this.pulling === pull) this.pulling = undefined;
      });
      this.pulling = pull;
      return pull;
    }
    // The pull joined may have begun long before for another reason (a pause) and give up at its
    // own deadline a moment later: the caller's budget still counts, so a pull that gave up is
    // followed by a fresh one for what is left of it (chaos seeds 637349982, 3237478000: SIGTERM
    // joined a pause's pull 1 ms before it gave up, and the shutdown exited unconfirmed at once).
    const deadlineMs = this.options.clock.nowMs() + timeoutMs;
    return joined.then((confirmed) => {
      const leftMs = deadlineMs - this.options.clock.nowMs();
      return confirmed || leftMs <= 0 ? confirmed : this.cancelEverything(reason, leftMs, applyReport);
    });
  }

  private async pullEverything(reason: string, timeoutMs: number, applyReport: (report: OrderReport) => void, stillWanted: (() => boolean) | undefined): Promise<boolean> {
    this.budget.takeAnyway();
    this.counts.cancelsSent++;
    const outcome = await this.options.venue.cancelAll();
    this.options.logger.info({ reason, outcome }, 'cancel-all sent');
    for (const order of this.table.live()) this.table.markCancelling(order.orderId, this.options.clock.nowMs());
    return this.waitUntilNoOpenOrders(timeoutMs, applyReport, stillWanted);
  }

  /** Polls the venue until it lists none of our orders and every order we know is final (see `confirmNothingRests`). */
  waitUntilNoOpenOrders(timeoutMs: number, applyReport: (report: OrderReport) => void, stillWanted?: () => boolean): Promise<boolean> {
    return confirmNothingRests({
      ...(stillWanted === undefined ? {} : { stillWanted }),
      isInFlight: (orderId) => this.placementsInFlight.has(orderId),
      venue: this.options.venue,
      clock: this.options.clock,
      logger: this.options.logger,
      table: this.table,
      timeoutMs,
      applyReport,
      resendCancelAll: async () => {
        this.budget.takeAnyway();
        this.counts.cancelsSent++;
        await this.options.venue.cancelAll().catch(() => undefined);
      },
    });
  }

  /** Every order of ours that could still fill, with placements being signed, for the caps gate. */
  private *exposedOrders(): Generator<ExposedOrder> {
    for (const order of this.table.notDoneOrders()) {
      yield { side: order.side, priceUnits: order.priceUnits, remainingUnits: order.qtyUnits - order.filledQtyUnits };
    }
    yield* this.reserved;
  }

  /**
   * Sends one side's batch. Risk-reducing cancels leave at once; a refresh's cancel waits for its
   * replacement to be signed (usually pre-signed: no wait), so the old quote is never pulled
   * before the new one can go: the side is not left bare for a signature's time.
   */
  private async run(batch: SideBatch, context: ExecutionContext): Promise<void> {
    const clock = this.options.clock;
    const requests = batch.urgent.map((order) => this.cancel(order, clock.nowMs()));
    // Every placement signed is sent, even when another of the batch failed to sign: each is in
    // the table and counted in flight from the moment it is signed, and one never sent would keep
    // a shutdown's confirmation waiting for it until its deadline.
    const signed = await Promise.allSettled(batch.places.map((quote) => this.prepare(quote, context)));
    for (const order of batch.refresh) requests.push(this.cancel(order, clock.nowMs()));
    for (const order of signed) if (order.status === 'fulfilled' && order.value !== undefined) requests.push(this.submit(order.value));
    this.options.hooks.onOrdersChanged();
    await Promise.all(requests);
    for (const order of signed) if (order.status === 'rejected') throw order.reason;
  }

  private async cancel(order: LiveQuote, nowMs: number): Promise<void> {
    const { journal, venue, observer, logger, hooks } = this.options;
    this.table.markCancelling(order.orderId, nowMs);
    journal.append({ t: 'cancel', orderId: order.orderId, timeMs: nowMs });
    this.counts.cancelsSent++;
    const outcome = await venue.cancelOrder(order.orderId);
    if (outcome.kind === 'accepted') {
      observer.orderCancelled?.(order.side);
      return;
    }
    logger.warn({ orderId: order.orderId, outcome }, 'cancel not confirmed; healing will settle it');
    hooks.onUnknownOutcome();
  }

  /**
   * Gates and signs a placement and records it (table and journal) before anything is sent;
   * undefined when the caps leave nothing to place or quoting stopped meanwhile.
   */
  private async prepare(quote: RoundedQuote, context: ExecutionContext): Promise<SignedOrder | undefined> {
    const { clock, journal, venue, hooks, rules } = this.options;
    if (clock.nowMs() < this.rejectBackoff[quote.side].untilMs) return undefined;
    // The hard caps: if this and every order that could still fill (the cancels just sent
    // included: they may not take) filled at once, position, notional and funds stay inside.
    const qtyUnits = admissibleQuantity(quote, this.exposedOrders(), context.holdings, context.limits, rules, context.accountRoomUnits);
    if (qtyUnits === 0n) {
      this.counts.gated++;
      return undefined;
    }
    const reservation: ExposedOrder = { side: quote.side, priceUnits: quote.priceUnits, remainingUnits: qtyUnits };
    this.reserved.add(reservation);
    const intent: OrderIntent = { side: quote.side, priceUnits: quote.priceUnits, qtyUnits, postOnly: true };
    let signed;
    try {
      signed = await venue.signOrder(intent);
    } finally {
      this.reserved.delete(reservation);
    }
    if (!hooks.isQuoting()) return undefined;
    // On disk before it leaves: if the intent cannot be written (the engine halts on that), it never does.
    if (!journal.append({ t: 'intent', orderId: signed.orderId, side: intent.side, price: intent.priceUnits.toString(), qty: intent.qtyUnits.toString(), timeMs: clock.nowMs() })) return undefined;
    this.table.addPending(signed.orderId, intent.side, intent.priceUnits, intent.qtyUnits, clock.nowMs());
    // In flight from now, not from its send: it waits here for the rest of its batch to be signed,
    // and a shutdown's cancel-all confirmed meanwhile must not take it for cancelled (the venue
    // does not know it yet). Counted so, the confirmation waits, sees it arrive and cancels it; it
    // had left it resting on the venue after the engine stopped (test/integration/log-keys, CI).
    this.placementsInFlight.add(signed.orderId);
    return signed;
  }

  /** Sends a prepared placement and acts on the answer. */
  private async submit(signed: SignedOrder): Promise<void> {
    const { clock, journal, venue, observer, logger, hooks } = this.options;
    const intent = signed.intent;
    this.counts.ordersSent++;
    this.counts.placedQtyUnits += intent.qtyUnits;
    let outcome;
    try {
      outcome = await venue.submitOrder(signed);
    } finally {
      this.placementsInFlight.delete(signed.orderId);
    }
    journal.append({ t: 'ack', orderId: outcome.orderId, outcome: outcome.kind, timeMs: clock.nowMs() });
    switch (outcome.kind) {
      case 'accepted':
        this.table.markOpen(outcome.orderId);
        this.rejectBackoff[intent.side].streak = 0;
        observer.orderPlaced?.(intent.side);
        return;
      case 'rejected': {
        this.counts.rejected++;
        this.table.markDone(outcome.orderId, 'NOT_PROCESSED');
        // A post-only order that would have crossed lost a race with the book: requote at once
        // (the touch clamp places it right). Anything else may repeat (balance, rules): back off.
        if (outcome.reason === POST_ONLY_CROSSED) {
          observer.orderRejected?.(intent.side, outcome.reason);
          return;
        }
        if (outcome.signerError === 'SIGNER_REFUSED') {
          observer.orderRejected?.(intent.side, outcome.reason);
          hooks.onSignerRefused(outcome.reason);
          return;
        }
        // SIGNER_UNAVAILABLE (the remote signer is down) backs off like any refusal until it is back.
        this.backOff(intent.side, outcome.reason);
        observer.orderRejected?.(intent.side, outcome.reason);
        return;
      }
      case 'unknown':
        // The venue may or may not have it: keep it as pending and let healing find out.
        logger.warn({ orderId: outcome.orderId, reason: outcome.reason }, 'placement outcome unknown; healing');
        hooks.onUnknownOutcome();
        return;
    }
  }

  /**
   * Backs a side off after a rejection or a failed placement: it places nothing for 1 s, doubling
   * with each failure in a row up to 30 s (no order spam while the venue refuses us).
   */
  backOff(side: Side, reason: string): void {
    const { clock, logger } = this.options;
    const backoff = this.rejectBackoff[side];
    backoff.streak++;
    backoff.untilMs = clock.nowMs() + Math.min(MAX_REJECT_BACKOFF_MS, 1_000 * 2 ** (backoff.streak - 1));
    logger.warn({ side, reason, retryInMs: backoff.untilMs - clock.nowMs() }, 'placements on this side back off');
  }

  /** Remembers a held-back action; 1 when it is new in this stretch of throttling (requotes re-plan the same ones). */
  /** Counts the action's requests not held back before in this stretch (0, 1 or 2) and remembers them. */
  private noteHeld(action: Action): number {
    let count = 0;
    const { cancel, place } = action;
    if (cancel !== undefined && !this.heldCancels.has(cancel.orderId)) {
      this.heldCancels.add(cancel.orderId);
      count++;
    }
    if (place !== undefined) {
      const byPrice = action.side === 'buy' ? this.heldPlaces.buy : this.heldPlaces.sell;
      const sizes = byPrice.get(place.priceUnits);
      if (sizes === undefined) {
        byPrice.set(place.priceUnits, [place.qtyUnits]);
        count++;
      } else if (!sizes.includes(place.qtyUnits)) {
        sizes.push(place.qtyUnits);
        count++;
      }
    }
    return count;
  }

  private clearHeld(): void {
    if (this.heldCancels.size > 0) this.heldCancels.clear();
    if (this.heldPlaces.buy.size > 0) this.heldPlaces.buy.clear();
    if (this.heldPlaces.sell.size > 0) this.heldPlaces.sell.clear();
  }

  private scheduleWake(afterMs: number): void {
    if (this.wakeTimer !== undefined) return;
    this.wakeTimer = this.options.clock.setTimeout(() => {
      this.wakeTimer = undefined;
      this.options.hooks.onWake();
    }, Math.max(1, afterMs));
  }
}
