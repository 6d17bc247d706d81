/**
 * The embedded exchange's order flow driven by a deep reference market (issue 23, item 2;
 * docs/thin-venue.md "The same takers in paper and sim"): the takers of the backtest's thin venue
 * (`src/core/takers`), trading through the matching engine as ordinary orders, so a bot on the
 * venue sees ordinary fills on its stream and a stale quote is picked off.
 * - uninformed takers: each reference trade, with probability `share`, has a twin here: its side,
 *   its size × `sizeScale`, a market order limited `limitBps` past the reference trade's price;
 * - arbitrageurs: when the reference touch is through a resting quote (anyone's) by more than the
 *   venue's taker fee + the gas of one trade + their edge, an order for it arrives `latencyMs`
 *   later and takes every quote still a target then, whole;
 * - the background maker: one post-only level a side at the reference mid (as seen `lagMs` ago)
 *   ± `halfSpreadBps`, `depthQuote` a side, never through another account's resting quote; a
 *   taken level is re-posted one lag later.
 * Their delayed actions wait in the takers' `VenueAgenda`, woken by the clock's timers; the only
 * randomness is one draw per reference trade and market, from the seeded RNG.
 */
import {
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  ReferenceTouch,
  VenueAgenda,
  arbitrageCost,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  checkArbitrageOptions,
  checkBackgroundMakerOptions,
  checkUninformedTakerOptions,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedTwinLots,
  unitsToNumber,
  type ArbitrageOptions,
  type BackgroundMakerOptions,
  type Side,
  type UninformedTakerOptions,
} from '../core/index.ts';
import { shortStringToFelt } from '../exchange/wire/fields.ts';
import { flowBalance } from './accounts.ts';
import type { ExecutionEvent } from './events.ts';
import { FlowOrders } from './flow-orders.ts';
import { FLOW_MAKER, FLOW_TAKER, type FlowDeps } from './flow.ts';
import type { Market } from './markets.ts';
import { availableBase } from './orders.ts';
import type { ReferenceMarket } from './price-follower.ts';
import { tradeSteps } from './validate.ts';

/** The three taker models' options (the backtest's `--thin-*` flags, with their defaults). */
export interface ReferenceFlowOptions {
  readonly uninformed: UninformedTakerOptions;
  readonly background: BackgroundMakerOptions;
  readonly arbitrage: ArbitrageOptions;
}

export const DEFAULT_REFERENCE_FLOW: ReferenceFlowOptions = { uninformed: DEFAULT_UNINFORMED_TAKERS, background: DEFAULT_BACKGROUND_MAKER, arbitrage: DEFAULT_ARBITRAGE };

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field, its flag, the value and the range.
 */
export function checkReferenceFlowOptions(options: ReferenceFlowOptions): ReferenceFlowOptions {
  checkUninformedTakerOptions(options.uninformed);
  checkBackgroundMakerOptions(options.background);
  checkArbitrageOptions(options.arbitrage);
  return options;
}

/** The arbitrageurs' account ("akira-sim arbitrageur" as a felt): their fills are easy to tell apart. */
export const FLOW_ARBITRAGEUR = shortStringToFelt('akira-sim arbitrageur');

/** Quote tokens the reference's prices are read in: a USD stable is taken at par with the reference's quote. */
const PAR_QUOTES = new Set(['USDC', 'USDT']);

/** The ecosystem books a reference of `token` drives: its pairs against a USD stable. */
export function referenceMarkets(markets: Iterable<Market>, token: string): Market[] {
  return [...markets].filter((market) => market.isEcosystemBook && market.base.symbol === token && PAR_QUOTES.has(market.quote.symbol));
}

/** What the flow did so far (all markets together). */
export interface ReferenceFlowStats {
  /** Reference trades with a known side (one draw each per market). */
  readonly referenceTrades: number;
  readonly uninformedTakers: number;
  /** Arbitrage orders sent (one per quote taken). */
  readonly arbitrageOrders: number;
  readonly backgroundRequotes: number;
}

/** What the flow needs from the venue: what the Poisson flow needs, the reference, and the books it drives. */
export interface ReferenceFlowDeps extends Omit<FlowDeps, 'excluded'> {
  readonly source: ReferenceMarket;
  /** The books it drives (`referenceMarkets`). */
  readonly markets: readonly Market[];
}

function opposite(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}

/** The agents on one book, in the book's ticks (price tick) and lots (quantity step). */
class BookAgents {
  private readonly agenda: VenueAgenda;
  private readonly tickSize: number;
  private readonly lotSize: number;
  private readonly quotePerTickLot: number;
  /** The reference's touch the agents watch, in this venue's ticks. */
  private readonly touch = new ReferenceTouch();
  private pushedMidTwice = 0;
  private hasPushedMid = false;
  /** The background maker's live orders and their prices (ticks). */
  private background: { bid: bigint | undefined; ask: bigint | undefined; bidTicks: number; askTicks: number } = { bid: undefined, ask: undefined, bidTicks: 0, askTicks: 0 };
  /** Resting order → the arbitrage order on its way to it (not processed yet): never sent twice. */
  private readonly inFlight = new Map<bigint, bigint>();

  constructor(
    private readonly market: Market,
    private readonly flow: ReferenceFlow,
  ) {
    this.tickSize = unitsToNumber(market.priceTick, market.quote.decimals);
    this.lotSize = unitsToNumber(market.qtyStep, market.base.decimals);
    this.quotePerTickLot = this.tickSize * this.lotSize;
    this.agenda = new VenueAgenda(
      { clock: flow.deps.clock, at: (timeMs, run) => flow.wakeAt(timeMs, run) },
      {
        requote: (midTwice) => {
          if (flow.isRunning) this.requote(midTwice);
        },
        arbitrage: (bid, ask) => {
          if (flow.isRunning) this.arbitrage(bid, ask);
        },
      },
    );
  }

  /** A new reference touch: the background maker will follow it after its lag; a stale quote draws an arbitrageur. */
  onTop(bidPrice: number, askPrice: number): void {
    this.agenda.catchUp();
    const bid = Math.floor(bidPrice / this.tickSize + 1e-9);
    const ask = Math.ceil(askPrice / this.tickSize - 1e-9);
    if (!this.touch.update(bid, ask)) return;
    const now = this.flow.deps.clock.nowMs();
    const midTwice = bid + ask;
    if (!this.hasPushedMid || midTwice !== this.pushedMidTwice) {
      this.hasPushedMid = true;
      this.pushedMidTwice = midTwice;
      this.agenda.requoteAt(now + this.flow.options.background.lagMs, midTwice);
    }
    this.watchForArbitrage();
    this.agenda.runDue();
  }

  /** A reference trade: maybe an uninformed twin here (one draw, whatever the book shows). */
  onTrade(aggressor: Side, price: number, qty: number): boolean {
    this.agenda.catchUp();
    const { options, deps } = this.flow;
    const lots = uninformedTwinLots(qty / this.lotSize, deps.rng.next(), options.uninformed);
    const market = this.market;
    const baseQty = BigInt(lots) * market.qtyStep;
    // The venue refuses an order below its minimum: such a twin does not trade.
    if (lots <= 0 || baseQty < market.minQty) return false;
    const priceTicks = Math.round(price / this.tickSize);
    const limitTicks = uninformedLimitTicks(aggressor, priceTicks, options.uninformed.limitBps);
    if (limitTicks <= 0) return false;
    return this.flow.orders.place(FLOW_TAKER, market, aggressor, BigInt(limitTicks) * market.priceTick, baseQty, true) !== undefined;
  }

  /** The book changed (an order arrived, traded or left): a quote may now be stale against the touch. */
  onBookChanged(): void {
    this.agenda.catchUp();
    this.watchForArbitrage();
  }

  /** One of the background maker's orders traded: it re-posts the level one lag later. */
  onBackgroundTaken(): void {
    if (!this.hasPushedMid) return;
    this.agenda.requoteAt(this.flow.deps.clock.nowMs() + this.flow.options.background.lagMs, this.pushedMidTwice);
  }

  private book() {
    return this.flow.deps.engine.book(this.market);
  }

  private ticksOf(units: bigint): number {
    return Number(units / this.market.priceTick);
  }

  /** Sends an arbitrage order (due after the latency) when the book's best quote on a side may be a target now. */
  private watchForArbitrage(): void {
    const arbitrage = this.flow.options.arbitrage;
    if (!arbitrage.enabled || !this.touch.isSet) return;
    const bid = this.touch.bid;
    const ask = this.touch.ask;
    const proportionalBps = this.flow.deps.settings.takerPbips / 100 + arbitrage.edgeBps;
    const book = this.book();
    const bestAsk = book.best('sell');
    const bestBid = book.best('buy');
    // Worse quotes gain less and cost more: if the best on a side is no target, none is.
    const isWorthSending =
      (bestAsk !== undefined && mayBeArbitrageTarget('sell', this.ticksOf(bestAsk.price), bid, ask, proportionalBps)) ||
      (bestBid !== undefined && mayBeArbitrageTarget('buy', this.ticksOf(bestBid.price), bid, ask, proportionalBps));
    if (isWorthSending) this.agenda.arbitrageAt(this.flow.deps.clock.nowMs() + arbitrage.latencyMs, bid, ask);
  }

  /** An arbitrage order sent on the touch (bid, ask) arrives: every quote still a target is taken whole, best price first. */
  private arbitrage(bid: number, ask: number): void {
    const { deps, options } = this.flow;
    const market = this.market;
    const cost = arbitrageCost(deps.settings.takerPbips, options.arbitrage.edgeBps, this.flow.takerGasQuote(market) / this.quotePerTickLot);
    const engine = deps.engine;
    for (const [hash, arbitrageHash] of this.inFlight) if (engine.order(arbitrageHash)?.status !== 'ACC') this.inFlight.delete(hash);
    for (const restingSide of ['sell', 'buy'] as const) {
      for (const level of this.book().side(restingSide).levels) {
        const priceTicks = this.ticksOf(level.price);
        if (!mayBeArbitrageTarget(restingSide, priceTicks, bid, ask, cost.proportionalBps)) break;
        for (const order of level.orders) {
          if (this.inFlight.has(order.hash)) continue;
          const left = availableBase(order, level.price);
          if (!isArbitrageTarget(restingSide, priceTicks, Number(left / market.qtyStep), bid, ask, cost)) continue;
          const sent = this.flow.orders.place(FLOW_ARBITRAGEUR, market, opposite(restingSide), level.price, left, true);
          if (sent === undefined) continue;
          this.inFlight.set(order.hash, sent);
          this.flow.count('arbitrageOrders');
        }
      }
    }
  }

  /**
   * Re-posts both sides around the mid `midTwice`/2 it now sees, a tick behind any other
   * account's resting quote it would cross (it only makes; its orders are post-only besides).
   */
  private requote(midTwice: number): void {
    const { options, deps } = this.flow;
    const background = options.background;
    const market = this.market;
    let bid = backgroundBidTicks(midTwice, background.halfSpreadBps);
    let ask = backgroundAskTicks(midTwice, background.halfSpreadBps);
    const othersAsk = this.bestOfOthers('sell');
    const othersBid = this.bestOfOthers('buy');
    if (othersAsk !== undefined && bid >= othersAsk) bid = othersAsk - 1;
    if (othersBid !== undefined && ask <= othersBid) ask = othersBid + 1;
    const current = this.background;
    if (current.bid !== undefined && current.ask !== undefined && current.bidTicks === bid && current.askTicks === ask && this.isWhole(current.bid) && this.isWhole(current.ask)) return;
    this.flow.count('backgroundRequotes');
    const orders = this.flow.orders;
    orders.cancelAll(FLOW_MAKER, market);
    const bidLots = bid > 0 ? backgroundLots(bid, background.depthQuote, this.quotePerTickLot) : 0;
    const askLots = backgroundLots(ask, background.depthQuote, this.quotePerTickLot);
    this.background = {
      bid: bidLots > 0 ? orders.place(FLOW_MAKER, market, 'buy', BigInt(bid) * market.priceTick, BigInt(bidLots) * market.qtyStep, false, true) : undefined,
      ask: askLots > 0 ? orders.place(FLOW_MAKER, market, 'sell', BigInt(ask) * market.priceTick, BigInt(askLots) * market.qtyStep, false, true) : undefined,
      bidTicks: bid,
      askTicks: ask,
    };
    deps.engine.pruneFinished(FLOW_MAKER, 500);
    deps.engine.pruneFinished(FLOW_TAKER, 500);
    deps.engine.pruneFinished(FLOW_ARBITRAGEUR, 500);
  }

  /** Whether a background order is still resting untouched (so re-posting it at the same price would only lose its place). */
  private isWhole(hash: bigint): boolean {
    const order = this.flow.deps.engine.order(hash);
    return order !== undefined && order.filledBase === 0n && (order.status === 'OPEN' || order.status === 'ACC');
  }

  /** The best resting price (ticks) on a side among accounts other than the background maker. */
  private bestOfOthers(side: Side): number | undefined {
    for (const level of this.book().side(side).levels) {
      if (level.orders.some((order) => order.account !== FLOW_MAKER)) return this.ticksOf(level.price);
    }
    return undefined;
  }
}

/** The running flow of the books a reference drives; `stop()` is idempotent. */
export class ReferenceFlow {
  readonly orders: FlowOrders;
  private readonly books = new Map<Market, BookAgents>();
  private unsubscribe: (() => void) | undefined;
  private readonly counts = { referenceTrades: 0, uninformedTakers: 0, arbitrageOrders: 0, backgroundRequotes: 0 };

  /** @throws MmError `CORE_INVALID_OPTION` for a bad option. */
  constructor(
    readonly deps: ReferenceFlowDeps,
    readonly options: ReferenceFlowOptions = DEFAULT_REFERENCE_FLOW,
  ) {
    checkReferenceFlowOptions(options);
    this.orders = new FlowOrders({ ...deps, gasPriceFri: () => deps.prices.gasPriceFri() }, 'akira-sim reference flow');
    for (const token of deps.chain.tokens.values()) {
      for (const account of [FLOW_MAKER, FLOW_TAKER, FLOW_ARBITRAGEUR]) deps.ledger.deposit(account, token.symbol, flowBalance(token.decimals));
    }
    for (const market of deps.markets) this.books.set(market, new BookAgents(market, this));
  }

  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.deps.source.subscribe({
      onTop: (bid, ask) => {
        for (const agents of this.books.values()) agents.onTop(bid, ask);
      },
      onTrade: (aggressor, price, qty) => {
        // A trade whose aggressor is unknown brings no twin (and no draw), as in the backtest.
        if (aggressor === undefined || !(price > 0) || !(qty > 0)) return;
        this.counts.referenceTrades++;
        for (const agents of this.books.values()) if (agents.onTrade(aggressor, price, qty)) this.counts.uninformedTakers++;
      },
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  stats(): ReferenceFlowStats {
    return { ...this.counts };
  }

  /** The engine processed a request that changed these books. */
  onBooksChanged(markets: Iterable<Market>): void {
    if (!this.isRunning) return;
    for (const market of markets) this.books.get(market)?.onBookChanged();
  }

  /** The engine reported an execution: a fill of the background maker's has it re-post. */
  onExecution(event: ExecutionEvent): void {
    if (!this.isRunning || event.fill === undefined || event.order.account !== FLOW_MAKER) return;
    this.books.get(event.order.market)?.onBackgroundTaken();
  }

  /** Whether it is running (a stopped flow's agents, woken by a pending timer, do nothing). */
  get isRunning(): boolean {
    return this.unsubscribe !== undefined;
  }

  /** The agenda's wake-up on the clock (unref'd: it never keeps a process alive). */
  wakeAt(timeMs: number, run: () => void): void {
    this.deps.clock.setTimeout(run, Math.max(0, timeMs - this.deps.clock.nowMs()), { unref: true });
  }

  count(key: 'arbitrageOrders' | 'backgroundRequotes'): void {
    this.counts[key]++;
  }

  /** The gas of one taker trade on `market` now, in its quote token (steps × gas price, STRK at the sim's price). */
  takerGasQuote(market: Market): number {
    const { prices, settings, chain } = this.deps;
    const strkPerQuote = (prices.usd(chain.nativeGasToken) ?? 0) / (prices.usd(market.quote.symbol) ?? 1);
    return tradeSteps(settings, market) * unitsToNumber(prices.gasPriceFri(), 18) * strkPerQuote;
  }
}
