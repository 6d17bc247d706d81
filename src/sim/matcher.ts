/**
 * Processing one order against its book (REFERENCE §5 matching rules, SPEC §6 states):
 * post-only orders rest or are refused if they would cross; other orders take liquidity in
 * price-time order within their limit or protection price, honouring full-fill-only,
 * best-level-only, the swap limit and self-trade prevention, paying taker gas per fill; a limit
 * order's remainder then rests. Stale makers (expired, or below their account's nonce) met on the
 * way are removed as EXPIRED.
 */
import type { Clock, MatcherResult, Side } from '../core/index.ts';
import type { EngineListener } from './events.ts';
import { gasCharge } from './gas.ts';
import type { Ledger } from './ledger.ts';
import type { Market } from './markets.ts';
import type { OrderBook } from './order-book.ts';
import { acceptsPrice, availableBase, crosses, isExpired, quoteOf, type SimOrder } from './orders.ts';
import { checkFill, releaseGas, releaseOrder, resizeLock, settleFill, type FillAmounts } from './settlement.ts';

/** What the matcher needs from the engine. */
export interface MatcherDeps {
  readonly ledger: Ledger;
  readonly clock: Clock;
  readonly nativeGasToken: string;
  readonly listener: EngineListener;
  book(market: Market): OrderBook;
  gasPriceFri(): bigint;
  tradeSteps(market: Market): number;
  nonceOf(account: bigint): number;
  /** Records a changed level for this request's market-data flush. */
  touch(market: Market, side: Side, price: bigint): void;
}

const STP_NONE = 0;
const STP_EXPIRE_TAKER = 1;
const STP_EXPIRE_MAKER = 2;

/** Matches and rests orders; one instance per venue. */
export class Matcher {
  constructor(private readonly deps: MatcherDeps) {}

  /** True when a resting order can no longer trade: expired by time or by its account's nonce. */
  isStale(order: SimOrder): boolean {
    return isExpired(order, this.deps.clock.nowMs()) || order.request.constraints.nonce < this.deps.nonceOf(order.account);
  }

  /** Ends an order with a final status and returns what it still holds. */
  finish(order: SimOrder, status: SimOrder['status'], result: MatcherResult | undefined): void {
    if (order.restingPrice !== undefined && this.deps.book(order.market).remove(order)) {
      this.deps.touch(order.market, order.side, order.restingPrice);
    }
    releaseOrder(this.deps.ledger, order);
    order.status = status;
    order.matcherResult = result;
    order.cancelScheduled = false;
    order.updatedAtMs = this.deps.clock.nowMs();
    this.deps.listener.onExecution({ order, fill: undefined });
  }

  /** Processes a freshly dequeued order. */
  process(order: SimOrder): void {
    if (this.isStale(order)) {
      this.finish(order, 'EXPIRED', 'EXPIRED');
      return;
    }
    if (!order.request.flags.postOnly && order.request.fee.gasFee.maxGasPrice < this.deps.gasPriceFri()) {
      // The gas price rose while the order waited in the queue: the rollup would refuse it.
      this.finish(order, 'NOT_PROCESSED', 'GAS_COST');
      return;
    }
    const book = this.deps.book(order.market);
    const touch = book.best(order.side === 'buy' ? 'sell' : 'buy');
    if (order.request.flags.postOnly) {
      if (touch !== undefined && crosses(order, touch.price)) this.finish(order, 'NOT_PROCESSED', 'FAILED_VALIDATION');
      else this.rest(order);
      return;
    }
    if (order.request.flags.fullFillOnly && !this.canFillCompletely(order)) {
      this.finish(order, 'CLOSED', 'NOT_ENOUGH_LIQUIDITY');
      return;
    }
    const outcome = this.take(order);
    if (outcome === 'EXPIRED') {
      this.finish(order, 'EXPIRED', 'EXPIRED');
    } else if (order.status === 'FILLED') {
      // The last fill report already said FILLED; only leftovers of the lock go back.
      releaseOrder(this.deps.ledger, order);
    } else if (this.canRest(order) && outcome !== 'GAS_COST' && outcome !== 'FAILED_VALIDATION') {
      this.rest(order, { silent: order.filledBase > 0n });
    } else {
      this.finish(order, 'CLOSED', outcome);
    }
  }

  private canRest(order: SimOrder): boolean {
    const { flags } = order.request;
    return !flags.isMarketOrder && !flags.fullFillOnly;
  }

  private rest(order: SimOrder, options: { silent?: boolean } = {}): void {
    releaseGas(this.deps.ledger, order);
    resizeLock(this.deps.ledger, order);
    order.restingPrice = order.request.price;
    order.status = order.filledBase > 0n ? 'PARTIALLY_FILLED' : 'OPEN';
    order.matcherResult = 'OK';
    order.updatedAtMs = this.deps.clock.nowMs();
    this.deps.book(order.market).add(order, order.request.price);
    this.deps.touch(order.market, order.side, order.request.price);
    if (options.silent !== true) this.deps.listener.onExecution({ order, fill: undefined });
  }

  /** Dry run for full-fill-only: is there enough eligible liquidity within the limits? */
  private canFillCompletely(order: SimOrder): boolean {
    const side = this.deps.book(order.market).opposite(order.side);
    const { bestLevelOnly } = order.request.flags;
    let swaps = 0;
    let base = 0n;
    let quote = 0n;
    for (const level of side.levels) {
      if (!acceptsPrice(order, level.price)) break;
      for (const maker of level.orders) {
        if (this.isStale(maker) || maker.account === order.account) continue;
        if (swaps >= order.request.constraints.numberOfSwapsAllowed) return false;
        const want = this.remainingAt(order, level.price, base, quote);
        const q = want < availableBase(maker, level.price) ? want : availableBase(maker, level.price);
        base += q;
        quote += quoteOf(level.price, q, order.market);
        swaps++;
        if (this.remainingAt(order, level.price, base, quote) === 0n) return true;
      }
      if (bestLevelOnly) break;
    }
    return false;
  }

  private remainingAt(order: SimOrder, price: bigint, extraBase: bigint, extraQuote: bigint): bigint {
    const saved = [order.filledBase, order.filledQuote] as const;
    order.filledBase += extraBase;
    order.filledQuote += extraQuote;
    const left = availableBase(order, price);
    [order.filledBase, order.filledQuote] = saved;
    return left;
  }

  /** Takes liquidity; returns why it stopped ('OK' = nothing more to do or limit reached). */
  private take(order: SimOrder): MatcherResult {
    const book = this.deps.book(order.market);
    const oppositeSide: Side = order.side === 'buy' ? 'sell' : 'buy';
    const { bestLevelOnly, isMarketOrder } = order.request.flags;
    let firstPrice: bigint | undefined;
    for (;;) {
      const level = book.best(oppositeSide);
      if (level === undefined) return isMarketOrder ? 'NOT_ENOUGH_LIQUIDITY' : 'OK';
      if (!acceptsPrice(order, level.price)) return isMarketOrder ? 'SLIPPAGE' : 'OK';
      if (bestLevelOnly && firstPrice !== undefined && level.price !== firstPrice) return 'OK';
      const maker = level.orders[0] as SimOrder;
      if (this.isStale(maker)) {
        this.finish(maker, 'EXPIRED', 'EXPIRED');
        continue;
      }
      if (maker.account === order.account && order.request.constraints.stp !== STP_NONE) {
        const stp = order.request.constraints.stp;
        if (stp !== STP_EXPIRE_TAKER) this.finish(maker, 'EXPIRED', 'EXPIRED');
        if (stp === STP_EXPIRE_MAKER) continue;
        return 'EXPIRED';
      }
      if (order.swaps >= order.request.constraints.numberOfSwapsAllowed) return 'HIT_SWAPS_LIMIT';
      const takerLeft = availableBase(order, level.price);
      if (takerLeft === 0n) return 'OK';
      const makerLeft = availableBase(maker, level.price);
      if (makerLeft === 0n) {
        this.finish(maker, 'FILLED', 'OK');
        continue;
      }
      const base = takerLeft < makerLeft ? takerLeft : makerLeft;
      const fill: FillAmounts = { price: level.price, base, quote: quoteOf(level.price, base, order.market) };
      if (fill.quote === 0n) return 'OK';
      const gasPrice = this.deps.gasPriceFri();
      const gas = gasCharge(this.deps.tradeSteps(order.market), gasPrice, order.request.fee.gasFee, this.deps.nativeGasToken);
      const blocked = checkFill(this.deps.ledger, order, maker, fill, gas);
      if (blocked === 'maker-funds') {
        this.finish(maker, 'CANCELLED', 'FAILED_VALIDATION');
        continue;
      }
      if (blocked === 'gas-cost') return 'GAS_COST';
      if (blocked === 'taker-funds') return 'FAILED_VALIDATION';
      settleFill(this.deps.ledger, order, maker, fill, gas);
      firstPrice ??= level.price;
      this.afterFill(order, maker, fill);
    }
  }

  private afterFill(taker: SimOrder, maker: SimOrder, fill: FillAmounts): void {
    const now = this.deps.clock.nowMs();
    const makerDone = availableBase(maker, fill.price) === 0n;
    maker.status = makerDone ? 'FILLED' : 'PARTIALLY_FILLED';
    maker.matcherResult = 'OK';
    maker.updatedAtMs = now;
    if (makerDone) {
      this.deps.book(maker.market).remove(maker);
      releaseOrder(this.deps.ledger, maker);
    }
    this.deps.touch(maker.market, maker.side, fill.price);
    const takerDone = availableBase(taker, fill.price) === 0n;
    taker.status = takerDone ? 'FILLED' : 'PARTIALLY_FILLED';
    taker.matcherResult = 'OK';
    taker.updatedAtMs = now;
    this.deps.listener.onFill?.({ maker, taker, fill, timeMs: now });
    this.deps.listener.onTrade({ market: taker.market, price: fill.price, base: fill.base, quote: fill.quote, takerSide: taker.side, timeMs: now });
    this.deps.listener.onExecution({ order: maker, fill });
    this.deps.listener.onExecution({ order: taker, fill });
  }
}
