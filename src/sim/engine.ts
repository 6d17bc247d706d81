/**
 * The venue's state machine: accepts validated requests (locking the funds they need, so two
 * queued requests can never spend the same money), queues them, and processes them one at a time
 * in arrival order (SPEC §5: a 200 means "accepted", completion shows on the stream). Orders go
 * to the {@link Matcher}; cancels, cancel-all, withdraw and increase-nonce are handled here.
 * Increase-nonce waits `nonceDelayMs` before it joins the queue, as the real rollup does.
 */
import type { ChainInfo, Clock, Logger, Side, Timer } from '../core/index.ts';
import { addressToHex, feltToHex } from '../exchange/wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../exchange/wire/requests.ts';
import { reject } from './errors.ts';
import type { EngineListener } from './events.ts';
import { releaseOrder } from './settlement.ts';
import { failReport, lockPair, processWithdraw, chargeNonceGas, settledReport, unlockPair } from './funds.ts';
import { gasCeiling } from './gas.ts';
import type { Ledger } from './ledger.ts';
import { marketKey, type Market } from './markets.ts';
import { Matcher } from './matcher.ts';
import { OrderBook } from './order-book.ts';
import { receiveToken, requiredSpend, spendToken, type SimOrder } from './orders.ts';
import type { SimSettings } from './settings.ts';
import { tradeSteps } from './validate.ts';

/** Collaborators of the engine. */
export interface EngineDeps {
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly clock: Clock;
  readonly ledger: Ledger;
  readonly markets: readonly Market[];
  readonly listener: EngineListener;
  readonly logger: Logger;
  gasPriceFri(): bigint;
  /** Fault injection for accepted cancel-alls, nonce increases and withdraws (default: none). */
  queuedActionFault?(): 'fail' | 'drop' | undefined;
  /** Fault injection: true when an accepted placement or single cancel is to fail as it is processed. */
  queuedRequestFails?(kind: 'order' | 'cancel'): boolean;
  /** Fault injection: called as a cancel of a live order is accepted, before it is queued (a taker may race it). */
  beforeCancel?(order: SimOrder): void;
}

type QueueItem =
  | { readonly kind: 'order'; readonly order: SimOrder }
  | { readonly kind: 'cancel'; readonly hash: bigint; readonly request: CancelRequest; readonly order: SimOrder }
  | { readonly kind: 'cancel-all'; readonly hash: bigint; readonly request: CancelAllRequest; readonly market: Market }
  | { readonly kind: 'withdraw'; readonly hash: bigint; readonly request: WithdrawRequest; readonly lockedGas: bigint }
  | { readonly kind: 'nonce'; readonly hash: bigint; readonly request: IncreaseNonceRequest; readonly lockedGas: bigint };

/** The matching engine and request queue. */
export class Engine {
  readonly markets: ReadonlyMap<string, Market>;
  private readonly books = new Map<Market, OrderBook>();
  private readonly orders = new Map<bigint, SimOrder>();
  private readonly ordersByAccount = new Map<bigint, SimOrder[]>();
  private readonly nonces = new Map<bigint, number>();
  private readonly pendingNonces = new Map<bigint, number>();
  private readonly requestHashes = new Set<bigint>();
  private readonly queue: QueueItem[] = [];
  private readonly touched = new Map<Market, Map<string, { side: Side; price: bigint }>>();
  private readonly timers = new Set<Timer>();
  private readonly matcher: Matcher;
  private sequence = 0;
  private isDraining = false;
  private isStopped = false;

  constructor(private readonly deps: EngineDeps) {
    this.markets = new Map(deps.markets.map((market) => [market.key, market]));
    for (const market of deps.markets) this.books.set(market, new OrderBook());
    this.matcher = new Matcher({
      ledger: deps.ledger,
      clock: deps.clock,
      nativeGasToken: deps.chain.nativeGasToken,
      listener: deps.listener,
      book: (market) => this.book(market),
      gasPriceFri: () => deps.gasPriceFri(),
      tradeSteps: (market) => tradeSteps(deps.settings, market),
      nonceOf: (account) => this.nonceOf(account),
      touch: (market, side, price) => this.touch(market, side, price),
    });
  }

  // ------------------------------------------------------------------ queries

  book(market: Market): OrderBook {
    const book = this.books.get(market);
    if (book === undefined) throw reject('UNSUPPORTED_TRADED_PAIR', `${market.key} is not listed`);
    return book;
  }

  market(base: string, quote: string, isEcosystemBook: boolean): Market | undefined {
    return this.markets.get(marketKey(base, quote, isEcosystemBook));
  }

  nonceOf(account: bigint): number {
    return this.nonces.get(account) ?? 0;
  }

  order(hash: bigint): SimOrder | undefined {
    return this.orders.get(hash);
  }

  /** An account's orders, newest first. */
  ordersOf(account: bigint): SimOrder[] {
    return [...(this.ordersByAccount.get(account) ?? [])].reverse();
  }

  /** Requests accepted but not processed yet. */
  queueLength(): number {
    return this.queue.length;
  }

  /**
   * Forgets an account's finished orders beyond the newest `keep`, so the flow agents' history does
   * not grow without bound in a long-running sim (users' orders are kept: they may query them).
   */
  pruneFinished(account: bigint, keep: number): void {
    const list = this.ordersByAccount.get(account);
    if (list === undefined || list.length <= keep) return;
    const excess = list.length - keep;
    const kept: SimOrder[] = [];
    let dropped = 0;
    for (const order of list) {
      if (dropped < excess && isFinal(order)) {
        this.orders.delete(order.hash);
        dropped++;
      } else {
        kept.push(order);
      }
    }
    this.ordersByAccount.set(account, kept);
  }

  // ------------------------------------------------------------------ acceptance

  /**
   * Accepts a checked, verified order: nonce, duplicate and funds checks, then locks and queues it.
   * @throws SimRejection WRONG_NONCE, ORDER_ALREADY_IN_PROGRESS, NOT_ENOUGH_BALANCE.
   */
  acceptOrder(request: OrderRequest, hash: bigint, market: Market): SimOrder {
    if (this.orders.has(hash)) throw reject('ORDER_ALREADY_IN_PROGRESS', `order ${feltToHex(hash)} was already placed`);
    const nonce = this.nonceOf(request.maker);
    if (request.constraints.nonce < nonce) {
      throw reject('WRONG_NONCE', `constraints.nonce ${request.constraints.nonce} is below the account nonce ${nonce}`);
    }
    const now = this.deps.clock.nowMs();
    const order: SimOrder = {
      hash,
      request,
      account: request.maker,
      market,
      side: request.flags.isSellSide ? 'sell' : 'buy',
      acceptedAtMs: now,
      sequence: this.sequence++,
      status: 'ACC',
      matcherResult: undefined,
      cancelScheduled: false,
      filledBase: 0n,
      filledQuote: 0n,
      restingPrice: undefined,
      swaps: 0,
      paidFeeAsMaker: 0n,
      paidFeeAsTaker: 0n,
      gasPaid: 0n,
      lockedSpend: 0n,
      lockedGas: 0n,
      updatedAtMs: now,
    };
    this.lockForOrder(order);
    this.orders.set(hash, order);
    const list = this.ordersByAccount.get(order.account) ?? [];
    list.push(order);
    this.ordersByAccount.set(order.account, list);
    this.enqueue({ kind: 'order', order });
    return order;
  }

  private lockForOrder(order: SimOrder): void {
    const { ledger } = this.deps;
    const spend = requiredSpend(order);
    const gasFee = order.request.fee.gasFee;
    // Takers hold gas for every swap they may make, unless it comes out of what they receive.
    const gas =
      order.request.flags.postOnly || gasFee.feeToken.symbol === receiveToken(order)
        ? 0n
        : gasCeiling(gasFee, this.deps.chain.nativeGasToken, order.request.constraints.numberOfSwapsAllowed);
    const spendSymbol = spendToken(order);
    const gasSymbol = gasFee.feeToken.symbol;
    const needs = new Map<string, bigint>([[spendSymbol, spend]]);
    if (gas > 0n) needs.set(gasSymbol, (needs.get(gasSymbol) ?? 0n) + gas);
    for (const [token, amount] of needs) {
      const free = ledger.get(order.account, token).free;
      if (free < amount) throw reject('NOT_ENOUGH_BALANCE', `needs ${amount} base units of ${token}, ${free} available`);
    }
    for (const [token, amount] of needs) ledger.tryLock(order.account, token, amount);
    order.lockedSpend = spend;
    order.lockedGas = gas;
  }

  /**
   * Accepts a cancel of one of the account's live orders.
   * @throws SimRejection ACTION_ALREADY_IN_PROGRESS, NO_ORDERS_WITH_THIS_ID, NOT_THIS_CLIENT_ORDER.
   */
  acceptCancel(request: CancelRequest, hash: bigint): void {
    this.claimRequestHash(hash);
    const order = this.orders.get(request.orderHash);
    if (order === undefined) throw this.unclaim(hash, reject('NO_ORDERS_WITH_THIS_ID', `no order ${feltToHex(request.orderHash)}`));
    if (order.account !== request.maker) throw this.unclaim(hash, reject('NOT_THIS_CLIENT_ORDER', `order ${feltToHex(request.orderHash)} belongs to another account`));
    if (isFinal(order)) throw this.unclaim(hash, reject('NO_ORDERS_WITH_THIS_ID', `order ${feltToHex(request.orderHash)} is already ${order.status}`));
    this.deps.beforeCancel?.(order);
    order.cancelScheduled = true;
    this.enqueue({ kind: 'cancel', hash, request, order });
  }

  /**
   * Accepts a cancel of all the account's orders in one book. `isInternal` (the venue's own flow
   * agents) skips the duplicate-hash memory, which would otherwise grow every tick.
   */
  acceptCancelAll(request: CancelAllRequest, hash: bigint, options: { isInternal?: boolean } = {}): void {
    const market = this.market(request.base.symbol, request.quote.symbol, request.toEcosystemBook);
    if (market === undefined) throw reject('UNSUPPORTED_TRADED_PAIR', `${request.base.symbol}/${request.quote.symbol} is not listed`);
    if (options.isInternal !== true) this.claimRequestHash(hash);
    this.enqueue({ kind: 'cancel-all', hash, request, market });
  }

  /**
   * Accepts a withdraw: locks the amount and the gas ceiling.
   * @throws SimRejection NOT_ENOUGH_BALANCE, WRONG_INPUT, ACTION_ALREADY_IN_PROGRESS.
   */
  acceptWithdraw(request: WithdrawRequest, hash: bigint): void {
    if (request.amount === 0n) throw reject('WRONG_INPUT', 'amount must be above 0');
    const token = request.token.symbol;
    const gasToken = request.gasFee.feeToken.symbol;
    const gas = gasCeiling(request.gasFee, this.deps.chain.nativeGasToken);
    if (token === gasToken && request.amount <= gas) {
      throw reject('WRONG_INPUT', `amount does not cover the gas (${gas} base units of ${gasToken}) it pays`);
    }
    const lockedGas = token === gasToken ? 0n : gas;
    lockPair(this.deps.ledger, request.maker, token, request.amount, gasToken, lockedGas);
    this.claimRequestHash(hash, () => unlockPair(this.deps.ledger, request.maker, token, request.amount, gasToken, lockedGas));
    this.enqueue({ kind: 'withdraw', hash, request, lockedGas });
  }

  /**
   * Accepts an increase-nonce; it joins the queue after `nonceDelayMs`.
   * @throws SimRejection WRONG_NONCE, NOT_ENOUGH_BALANCE, ACTION_ALREADY_IN_PROGRESS.
   */
  acceptIncreaseNonce(request: IncreaseNonceRequest, hash: bigint): void {
    const current = Math.max(this.nonceOf(request.maker), this.pendingNonces.get(request.maker) ?? 0);
    if (request.newNonce <= current) throw reject('WRONG_NONCE', `new_nonce ${request.newNonce} must be above ${current}`);
    const gasToken = request.gasFee.feeToken.symbol;
    const gas = gasCeiling(request.gasFee, this.deps.chain.nativeGasToken);
    lockPair(this.deps.ledger, request.maker, gasToken, gas, gasToken, 0n);
    this.claimRequestHash(hash, () => unlockPair(this.deps.ledger, request.maker, gasToken, gas, gasToken, 0n));
    this.pendingNonces.set(request.maker, request.newNonce);
    const timer = this.deps.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue({ kind: 'nonce', hash, request, lockedGas: gas });
    }, this.deps.settings.nonceDelayMs);
    this.timers.add(timer);
  }

  private claimRequestHash(hash: bigint, undo?: () => void): void {
    if (this.requestHashes.has(hash)) {
      undo?.();
      throw reject('ACTION_ALREADY_IN_PROGRESS', `request ${feltToHex(hash)} was already submitted`);
    }
    this.requestHashes.add(hash);
  }

  private unclaim(hash: bigint, error: Error): Error {
    this.requestHashes.delete(hash);
    return error;
  }

  // ------------------------------------------------------------------ processing

  /** Items queued by `together` but its last: the book's changes are published after the last. */
  private readonly heldFlush = new WeakSet<QueueItem>();
  /** While `together` runs: what it queued. */
  private grouped: QueueItem[] | undefined;

  /**
   * Runs `queue` (which accepts several requests of one agent, e.g. a simulated maker's cancel and
   * re-posts) so the book's changes of all of them are published as one market-data message: a
   * client never sees the book between them, as the backtest's thin venue never shows it
   * (issue 32 item 2).
   */
  together(queue: () => void): void {
    const outer = this.grouped;
    const items: QueueItem[] = [];
    this.grouped = items;
    try {
      queue();
    } finally {
      this.grouped = outer;
    }
    for (const item of items.slice(0, -1)) this.heldFlush.add(item);
    outer?.push(...items);
  }

  private enqueue(item: QueueItem): void {
    if (this.isStopped) return;
    this.grouped?.push(item);
    this.queue.push(item);
    if (!this.isDraining) {
      this.isDraining = true;
      // A microtask, not a timer: processing runs right after the accepting handler returns,
      // under a live or a manual clock alike.
      queueMicrotask(() => this.drain());
    }
  }

  private drain(): void {
    while (this.queue.length > 0 && !this.isStopped) {
      const item = this.queue.shift() as QueueItem;
      try {
        this.processItem(item);
      } catch (error) {
        // Every ledger move is checked on its own, so a broken invariant here cannot lose money;
        // the venue keeps serving and the log says what broke.
        this.deps.logger.error({ err: error, kind: item.kind }, 'sim: request processing failed');
      }
      if (!this.heldFlush.has(item)) this.flushTouched();
    }
    this.isDraining = false;
  }

  private processItem(item: QueueItem): void {
    if (item.kind !== 'order' && item.kind !== 'cancel' && this.injectActionFault(item)) return;
    switch (item.kind) {
      case 'order':
        if (item.order.cancelScheduled) this.matcher.finish(item.order, 'CANCELLED', undefined);
        else if (this.deps.queuedRequestFails?.('order') === true) this.failOrder(item.order);
        else this.matcher.process(item.order);
        return;
      case 'cancel':
        if (isFinal(item.order)) return;
        if (this.deps.queuedRequestFails?.('cancel') === true) {
          item.order.cancelScheduled = false;
          failReport(this.deps.listener, item.request.maker, 'CANCEL_ORDER', item.hash, 'ACTION_FAILED (fault injection)');
        } else {
          this.matcher.finish(item.order, 'CANCELLED', undefined);
        }
        return;
      case 'cancel-all':
        this.processCancelAll(item.request, item.hash, item.market);
        return;
      case 'withdraw':
        processWithdraw(this.deps, item.request, item.hash, item.lockedGas);
        return;
      case 'nonce':
        this.processNonce(item.request, item.hash, item.lockedGas);
        return;
    }
  }

  /**
   * Fails or drops a queued action when fault injection says so; true when it did. Funds locked
   * at acceptance go back either way (the action never happened).
   */
  private injectActionFault(item: Extract<QueueItem, { kind: 'cancel-all' | 'withdraw' | 'nonce' }>): boolean {
    const fault = this.deps.queuedActionFault?.();
    if (fault === undefined) return false;
    const { ledger } = this.deps;
    const gasToken = item.kind === 'cancel-all' ? undefined : item.request.gasFee.feeToken.symbol;
    if (item.kind === 'withdraw' && gasToken !== undefined) unlockPair(ledger, item.request.maker, item.request.token.symbol, item.request.amount, gasToken, item.lockedGas);
    if (item.kind === 'nonce' && gasToken !== undefined) {
      ledger.unlock(item.request.maker, gasToken, item.lockedGas);
      if (this.pendingNonces.get(item.request.maker) === item.request.newNonce) this.pendingNonces.delete(item.request.maker);
    }
    const reportType = item.kind === 'cancel-all' ? 'CANCEL_ALL' : item.kind === 'withdraw' ? 'WITHDRAW' : 'INCREASE_NONCE';
    if (fault === 'fail') failReport(this.deps.listener, item.request.maker, reportType, item.hash, 'ACTION_FAILED (fault injection)');
    return true;
  }

  /**
   * An accepted placement that fails as it is processed (fault injection): nothing of it applies,
   * its locked funds go back, the venue remembers it as NOT_PROCESSED and says so with a `fail`
   * report only (no execution report).
   */
  private failOrder(order: SimOrder): void {
    releaseOrder(this.deps.ledger, order);
    order.status = 'NOT_PROCESSED';
    order.updatedAtMs = this.deps.clock.nowMs();
    failReport(this.deps.listener, order.account, 'PLACE_ORDER', order.hash, 'ACTION_FAILED (fault injection)');
  }

  private processCancelAll(request: CancelAllRequest, hash: bigint, market: Market): void {
    for (const order of this.ordersByAccount.get(request.maker) ?? []) {
      if (order.market === market && !isFinal(order) && order.status !== 'ACC') this.matcher.finish(order, 'CANCELLED', undefined);
    }
    this.deps.listener.onAccountReport({ account: request.maker, market, result: { cancel_ticker_hash: addressToHex(hash) } });
  }

  private processNonce(request: IncreaseNonceRequest, hash: bigint, lockedGas: bigint): void {
    if (this.pendingNonces.get(request.maker) === request.newNonce) this.pendingNonces.delete(request.maker);
    const gas = chargeNonceGas(this.deps, request, hash, lockedGas, this.nonceOf(request.maker));
    if (gas === undefined) return;
    this.nonces.set(request.maker, request.newNonce);
    // Every live order below the new nonce is now invalid on chain (SPEC §5 kill switch).
    for (const order of this.ordersByAccount.get(request.maker) ?? []) {
      if (!isFinal(order) && order.request.constraints.nonce < request.newNonce && order.status !== 'ACC') {
        this.matcher.finish(order, 'EXPIRED', 'EXPIRED');
      }
    }
    settledReport(this.deps.listener, request.maker, 'increase_nonce', hash, { new_nonce: request.newNonce, gas_paid: gas.toString() });
  }

  private touch(market: Market, side: Side, price: bigint): void {
    let levels = this.touched.get(market);
    if (levels === undefined) {
      levels = new Map();
      this.touched.set(market, levels);
    }
    levels.set(`${side}:${price}`, { side, price });
  }

  private flushTouched(): void {
    if (this.touched.size === 0) return;
    const changes = new Map<Market, Array<{ side: Side; price: bigint }>>();
    for (const [market, levels] of this.touched) changes.set(market, [...levels.values()]);
    this.touched.clear();
    this.deps.listener.onBooksChanged(changes);
  }

  // ------------------------------------------------------------------ time

  /** Removes resting orders whose time ran out (called on the sweep timer). */
  sweepExpired(): void {
    for (const book of this.books.values()) {
      for (const order of [...book.orders()]) {
        if (this.matcher.isStale(order)) this.matcher.finish(order, 'EXPIRED', 'EXPIRED');
      }
    }
    this.flushTouched();
  }

  /** Stops processing and drops pending delayed requests; idempotent. */
  stop(): void {
    this.isStopped = true;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
  }
}

/** True for states an order never leaves. */
export function isFinal(order: SimOrder): boolean {
  return order.status === 'CANCELLED' || order.status === 'FILLED' || order.status === 'CLOSED' || order.status === 'NOT_PROCESSED' || order.status === 'EXPIRED';
}
