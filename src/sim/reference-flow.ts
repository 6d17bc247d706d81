/**
 * The embedded exchange's order flow driven by a deep reference market (issue 23, item 2;
 * docs/thin-venue.md "The same takers in paper and sim"): the takers of the backtest's thin venue
 * (`src/core/takers`), trading through the matching engine as ordinary orders, so a bot on the
 * venue sees ordinary fills on its stream and a stale quote is picked off.
 * - uninformed takers: each reference trade, with probability `share`, has a twin here: its side,
 *   its size × `sizeScale`, a market order limited past the reference trade's price by its slack
 *   (drawn per twin from an exponential with the elastic model, `limitBps` with the fixed one);
 * - arbitrageurs: when the reference touch is through a resting quote (anyone's) by more than both
 *   legs' cost (the venue's taker fee + the gas of one trade, the reference's taker fee, + their
 *   edge), an order for it arrives `latencyMs` later and takes every quote still a target then, whole;
 * - the background maker: one post-only level a side at the reference mid (as seen `lagMs` ago)
 *   ± `halfSpreadBps`, `depthQuote` a side;
 * - the competing maker: one post-only level a side near the reference touch (as seen its lag
 *   ago), a share of the reference's queue there (from the reference's bookTicker sizes).
 * The makers are post-only: a quote that would cross is refused by the matching engine, and the
 * maker tries again one lag later; a taken level is re-posted one lag later. The matching engine's
 * price-time priority puts whoever came first at a price first.
 * Their delayed actions wait in the takers' `VenueAgenda`, woken by the clock's timers; the only
 * randomness is one draw per reference trade and market (and one for a twin's slack), from the
 * seeded RNG.
 */
import {
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_COMPETING_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  ReferenceTouch,
  VenueAgenda,
  arbitrageCost,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  checkArbitrageOptions,
  checkBackgroundMakerOptions,
  checkCompetingMakerOptions,
  checkUninformedTakerOptions,
  competitorAskTicks,
  competitorBidTicks,
  competitorLots,
  createRng,
  drawsSlack,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedSlackBps,
  uninformedTwinLots,
  unitsToNumber,
  type ArbitrageOptions,
  type BackgroundMakerOptions,
  type CompetingMakerOptions,
  type Rng,
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

/** The taker and maker models' options (the backtest's `--thin-*` flags, with their defaults). */
export interface ReferenceFlowOptions {
  readonly uninformed: UninformedTakerOptions;
  readonly background: BackgroundMakerOptions;
  /** The competing maker; absent: none. */
  readonly competitor?: CompetingMakerOptions;
  readonly arbitrage: ArbitrageOptions;
  /**
   * The uninformed takers' seed, as the backtest's `--thin-taker-seed`: each book draws from its
   * own `createRng(takerSeed).fork('thin')`, as the backtest's thin venue does, so a paper session
   * and the backtest of its recording twin the same reference trades (issue 32 item 2). Absent:
   * every book draws from the sim's own stream, in turn.
   */
  readonly takerSeed?: number;
}

export const DEFAULT_REFERENCE_FLOW: ReferenceFlowOptions = { uninformed: DEFAULT_UNINFORMED_TAKERS, background: DEFAULT_BACKGROUND_MAKER, competitor: DEFAULT_COMPETING_MAKER, arbitrage: DEFAULT_ARBITRAGE };

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field, its flag, the value and the range.
 */
export function checkReferenceFlowOptions(options: ReferenceFlowOptions): ReferenceFlowOptions {
  checkUninformedTakerOptions(options.uninformed);
  checkBackgroundMakerOptions(options.background);
  if (options.competitor !== undefined) checkCompetingMakerOptions(options.competitor);
  checkArbitrageOptions(options.arbitrage);
  return options;
}

/** The arbitrageurs' account ("akira-sim arbitrageur" as a felt): their fills are easy to tell apart. */
export const FLOW_ARBITRAGEUR = shortStringToFelt('akira-sim arbitrageur');

/** The competing maker's account ("akira-sim competitor" as a felt). */
export const FLOW_COMPETITOR = shortStringToFelt('akira-sim competitor');

/** The simulated makers' accounts. */
const MAKER_ACCOUNTS = [FLOW_MAKER, FLOW_COMPETITOR] as const;

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
  /** The competing maker's re-quotes, and the makers' quotes the venue refused (post-only, they would have crossed). */
  readonly competitorRequotes: number;
  readonly makerRefusals: number;
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

/** A simulated maker's live orders on one book and what they show (ticks, lots). */
interface MakerOrders {
  bid: bigint | undefined;
  ask: bigint | undefined;
  bidTicks: number;
  askTicks: number;
  bidLots: number;
  askLots: number;
}

/** The agents on one book, in the book's ticks (price tick) and lots (quantity step). */
class BookAgents {
  private readonly agenda: VenueAgenda;
  private readonly tickSize: number;
  private readonly lotSize: number;
  private readonly quotePerTickLot: number;
  /** The reference's touch the agents watch, in this venue's ticks. */
  private readonly touch = new ReferenceTouch();
  /** What the makers were last told of: the touch's sum (the background maker's mid), and the touch with its lots (the competing maker's). */
  private readonly pushed = { midTwice: 0, bid: 0, ask: 0, bidLots: 0, askLots: 0 };
  private hasPushedMid = false;
  /** Each simulated maker's live orders, by account (the background maker's, the competing maker's). */
  private readonly makers = new Map<bigint, MakerOrders>(MAKER_ACCOUNTS.map((account) => [account, { bid: undefined, ask: undefined, bidTicks: 0, askTicks: 0, bidLots: 0, askLots: 0 }]));
  /** Resting order → the arbitrage order on its way to it (not processed yet): never sent twice. */
  private readonly inFlight = new Map<bigint, bigint>();
  /** Where the uninformed takers' draws come from (the book's own with a taker seed). */
  private readonly rng: Rng;

  constructor(
    private readonly market: Market,
    private readonly flow: ReferenceFlow,
  ) {
    const takerSeed = flow.options.takerSeed;
    this.rng = takerSeed === undefined ? flow.deps.rng : createRng(takerSeed).fork('thin');
    this.tickSize = unitsToNumber(market.priceTick, market.quote.decimals);
    this.lotSize = unitsToNumber(market.qtyStep, market.base.decimals);
    this.quotePerTickLot = this.tickSize * this.lotSize;
    this.agenda = new VenueAgenda(
      { clock: flow.deps.clock, at: (timeMs, run) => flow.wakeAt(timeMs, run) },
      {
        requote: (midTwice) => {
          if (flow.isRunning) this.requoteBackground(midTwice);
        },
        competitorRequote: (bid, ask, bidLots, askLots) => {
          if (flow.isRunning) this.requoteCompetitor(bid, ask, bidLots, askLots);
        },
        arbitrage: (bid, ask) => {
          if (flow.isRunning) this.arbitrage(bid, ask);
        },
      },
    );
  }

  /**
   * A new reference touch (with its sizes, base tokens, when the reference gives them): the makers
   * will follow it after their lags; a stale quote draws an arbitrageur.
   */
  onTop(bidPrice: number, askPrice: number, bidQty = 0, askQty = 0): void {
    this.agenda.catchUp();
    const touch = this.touch;
    const moved = touch.update(Math.floor(bidPrice / this.tickSize + 1e-9), Math.ceil(askPrice / this.tickSize - 1e-9));
    if (!touch.isSet) return;
    const now = this.flow.deps.clock.nowMs();
    const pushed = this.pushed;
    if (moved) {
      const midTwice = touch.bid + touch.ask;
      if (!this.hasPushedMid || midTwice !== pushed.midTwice) this.agenda.requoteAt(now + this.flow.options.background.lagMs, midTwice);
      this.hasPushedMid = true;
      pushed.midTwice = midTwice;
    }
    // As the backtest's thin venue (`ThinExchange.settleCrossings`): a queue at the touch that
    // changed size re-sizes the competing maker, whether or not the touch moved.
    const competitor = this.flow.options.competitor;
    if (competitor !== undefined && competitor.depthShare > 0) {
      const bidLots = Math.floor(bidQty / this.lotSize + 1e-9);
      const askLots = Math.floor(askQty / this.lotSize + 1e-9);
      if (moved || bidLots !== pushed.bidLots || askLots !== pushed.askLots) {
        Object.assign(pushed, { bid: touch.bid, ask: touch.ask, bidLots, askLots });
        this.agenda.competitorRequoteAt(now + competitor.lagMs, pushed.bid, pushed.ask, pushed.bidLots, pushed.askLots);
      }
    }
    if (!moved) return;
    this.watchForArbitrage();
    this.agenda.runDue();
  }

  /** A reference trade: maybe an uninformed twin here (one draw, whatever the book shows; one more for its slack). */
  onTrade(aggressor: Side, price: number, qty: number): boolean {
    this.agenda.catchUp();
    const uninformed = this.flow.options.uninformed;
    const lots = uninformedTwinLots(qty / this.lotSize, this.rng.next(), uninformed);
    if (lots <= 0) return false;
    const slackBps = uninformedSlackBps(uninformed, drawsSlack(uninformed) ? this.rng.next() : 0);
    const market = this.market;
    const baseQty = BigInt(lots) * market.qtyStep;
    // The venue refuses an order below its minimum: such a twin does not trade.
    if (baseQty < market.minQty) return false;
    const priceTicks = Math.round(price / this.tickSize);
    const limitTicks = uninformedLimitTicks(aggressor, priceTicks, slackBps);
    if (limitTicks <= 0) return false;
    return this.flow.orders.place(FLOW_TAKER, market, aggressor, BigInt(limitTicks) * market.priceTick, baseQty, true) !== undefined;
  }

  /** The book changed (an order arrived, traded or left): a quote may now be stale against the touch. */
  onBookChanged(): void {
    this.agenda.catchUp();
    this.watchForArbitrage();
  }

  /** One of a simulated maker's orders traded: it re-posts the level one lag later. */
  onMakerTaken(account: bigint): void {
    if (this.hasPushedMid) this.requoteLater(account);
  }

  /** The matching engine refused a simulated maker's post-only order (it would have crossed): it tries again one lag later. */
  onMakerRefused(account: bigint): void {
    this.flow.count('makerRefusals');
    if (this.hasPushedMid) this.requoteLater(account, true);
  }

  private book() {
    return this.flow.deps.engine.book(this.market);
  }

  private ticksOf(units: bigint): number {
    return Number(units / this.market.priceTick);
  }

  /**
   * A maker re-quotes one lag from now on what it was last told (after a take, or a refused
   * post-only quote). A maker with no lag that was refused waits for the reference's next move
   * instead: trying again in the same millisecond would be refused for ever.
   */
  private requoteLater(account: bigint, isRetry = false): void {
    const { options, deps } = this.flow;
    const lagMs = account === FLOW_MAKER ? options.background.lagMs : (options.competitor?.lagMs ?? 0);
    if (isRetry && lagMs === 0) return;
    const now = deps.clock.nowMs();
    const pushed = this.pushed;
    if (account === FLOW_MAKER) this.agenda.requoteAt(now + options.background.lagMs, pushed.midTwice);
    else if (options.competitor !== undefined) this.agenda.competitorRequoteAt(now + options.competitor.lagMs, pushed.bid, pushed.ask, pushed.bidLots, pushed.askLots);
  }

  /** Sends an arbitrage order (due after the latency) when the book's best quote on a side may be a target now. */
  private watchForArbitrage(): void {
    const arbitrage = this.flow.options.arbitrage;
    if (!arbitrage.enabled || !this.touch.isSet) return;
    const bid = this.touch.bid;
    const ask = this.touch.ask;
    const cost = { proportionalBps: this.flow.deps.settings.takerPbips / 100 + arbitrage.edgeBps, referenceBps: arbitrage.referenceFeeBps };
    const book = this.book();
    const bestAsk = book.best('sell');
    const bestBid = book.best('buy');
    // Worse quotes gain less and cost more: if the best on a side is no target, none is.
    const isWorthSending =
      (bestAsk !== undefined && mayBeArbitrageTarget('sell', this.ticksOf(bestAsk.price), bid, ask, cost)) ||
      (bestBid !== undefined && mayBeArbitrageTarget('buy', this.ticksOf(bestBid.price), bid, ask, cost));
    if (isWorthSending) this.agenda.arbitrageAt(this.flow.deps.clock.nowMs() + arbitrage.latencyMs, bid, ask);
  }

  /** An arbitrage order sent on the touch (bid, ask) arrives: every quote still a target is taken whole, best price first. */
  private arbitrage(bid: number, ask: number): void {
    const { deps, options } = this.flow;
    const market = this.market;
    const cost = arbitrageCost(deps.settings.takerPbips, options.arbitrage.edgeBps, this.flow.takerGasQuote(market) / this.quotePerTickLot, options.arbitrage.referenceFeeBps);
    const engine = deps.engine;
    for (const [hash, arbitrageHash] of this.inFlight) if (engine.order(arbitrageHash)?.status !== 'ACC') this.inFlight.delete(hash);
    for (const restingSide of ['sell', 'buy'] as const) {
      for (const level of this.book().side(restingSide).levels) {
        const priceTicks = this.ticksOf(level.price);
        if (!mayBeArbitrageTarget(restingSide, priceTicks, bid, ask, cost)) break;
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

  /** The background maker re-posts both sides around the mid `midTwice`/2 it now sees. */
  private requoteBackground(midTwice: number): void {
    const background = this.flow.options.background;
    const bid = backgroundBidTicks(midTwice, background.halfSpreadBps);
    const ask = backgroundAskTicks(midTwice, background.halfSpreadBps);
    const bidLots = bid > 0 ? backgroundLots(bid, background.depthQuote, this.quotePerTickLot) : 0;
    if (this.post(FLOW_MAKER, bid, ask, bidLots, backgroundLots(ask, background.depthQuote, this.quotePerTickLot))) this.flow.count('backgroundRequotes');
  }

  /** The competing maker re-posts both sides on the reference touch (bid, ask) and the lots there it now sees. */
  private requoteCompetitor(bidTicks: number, askTicks: number, bidLots: number, askLots: number): void {
    const competitor = this.flow.options.competitor;
    if (competitor === undefined) return;
    const bid = competitorBidTicks(bidTicks, askTicks, competitor);
    const ask = competitorAskTicks(bidTicks, askTicks, competitor);
    if (this.post(FLOW_COMPETITOR, bid, ask, bid > 0 ? competitorLots(bidLots, competitor.depthShare) : 0, competitorLots(askLots, competitor.depthShare))) this.flow.count('competitorRequotes');
  }

  /**
   * A maker posts its two sides, post-only, through the matching engine. A side at the same price
   * and size, untouched, stays (and keeps its place in the queue); a side that changes is
   * cancelled and posted again, at the back of its price's queue: LayerAkira has no amend, only
   * cancel and place (../shared/api/REFERENCE.md), as the backtest's thin venue models it. A side
   * the engine refuses when it processes it (it would cross a resting quote) stays empty, and the
   * maker tries again one lag later (`onMakerRefused`). Returns whether it re-posted.
   */
  private post(account: bigint, bidTicks: number, askTicks: number, bidLots: number, askLots: number): boolean {
    const current = this.makers.get(account) as MakerOrders;
    const keepsBid = current.bidTicks === bidTicks && current.bidLots === bidLots && this.isWhole(current.bid, bidLots);
    const keepsAsk = current.askTicks === askTicks && current.askLots === askLots && this.isWhole(current.ask, askLots);
    if (keepsBid && keepsAsk) return false;
    const { orders } = this.flow;
    const market = this.market;
    const engine = this.flow.deps.engine;
    const place = (side: Side, ticks: number, lots: number): bigint | undefined =>
      lots <= 0 || ticks <= 0 ? undefined : orders.place(account, market, side, BigInt(ticks) * market.priceTick, BigInt(lots) * market.qtyStep, false, true);
    const cancel = (hash: bigint | undefined): void => {
      if (hash !== undefined && this.isResting(hash)) orders.cancel(account, hash);
    };
    // One market-data message for the cancels and the re-posts: nobody sees the book between them.
    engine.together(() => {
      if (!keepsBid) cancel(current.bid);
      if (!keepsAsk) cancel(current.ask);
      const bid = keepsBid ? current.bid : place('buy', bidTicks, bidLots);
      const ask = keepsAsk ? current.ask : place('sell', askTicks, askLots);
      this.makers.set(account, { bid, ask, bidTicks, askTicks, bidLots, askLots });
    });
    for (const prune of [...MAKER_ACCOUNTS, FLOW_TAKER, FLOW_ARBITRAGEUR]) engine.pruneFinished(prune, 500);
    return true;
  }

  /** Whether an order is still on the book (or queued to it), so it can be cancelled. */
  private isResting(hash: bigint): boolean {
    const order = this.flow.deps.engine.order(hash);
    return order !== undefined && (order.status === 'OPEN' || order.status === 'ACC' || order.status === 'PARTIALLY_FILLED') && order.cancelScheduled !== true;
  }

  /** Whether a maker's order is still resting untouched (so re-posting it at the same price would only lose its place); no order is whole when none is meant. */
  private isWhole(hash: bigint | undefined, lots: number): boolean {
    if (hash === undefined) return lots <= 0;
    const order = this.flow.deps.engine.order(hash);
    return order !== undefined && order.filledBase === 0n && (order.status === 'OPEN' || order.status === 'ACC');
  }
}

/** The running flow of the books a reference drives; `stop()` is idempotent. */
export class ReferenceFlow {
  readonly orders: FlowOrders;
  private readonly books = new Map<Market, BookAgents>();
  private unsubscribe: (() => void) | undefined;
  private readonly counts = { referenceTrades: 0, uninformedTakers: 0, arbitrageOrders: 0, backgroundRequotes: 0, competitorRequotes: 0, makerRefusals: 0 };

  /** @throws MmError `CORE_INVALID_OPTION` for a bad option. */
  constructor(
    readonly deps: ReferenceFlowDeps,
    readonly options: ReferenceFlowOptions = DEFAULT_REFERENCE_FLOW,
  ) {
    checkReferenceFlowOptions(options);
    this.orders = new FlowOrders({ ...deps, gasPriceFri: () => deps.prices.gasPriceFri() }, 'akira-sim reference flow');
    for (const token of deps.chain.tokens.values()) {
      for (const account of [...MAKER_ACCOUNTS, FLOW_TAKER, FLOW_ARBITRAGEUR]) deps.ledger.deposit(account, token.symbol, flowBalance(token.decimals));
    }
    for (const market of deps.markets) this.books.set(market, new BookAgents(market, this));
  }

  start(): void {
    if (this.unsubscribe !== undefined) return;
    this.unsubscribe = this.deps.source.subscribe({
      onTop: (bid, ask, bidQty, askQty) => {
        for (const agents of this.books.values()) agents.onTop(bid, ask, bidQty, askQty);
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

  /** The engine reported an execution: a fill of a simulated maker's has it re-post, a refused post-only order has it try again. */
  onExecution(event: ExecutionEvent): void {
    const account = event.order.account;
    if (!this.isRunning || (account !== FLOW_MAKER && account !== FLOW_COMPETITOR)) return;
    const agents = this.books.get(event.order.market);
    if (event.fill !== undefined) agents?.onMakerTaken(account);
    else if (event.order.status === 'NOT_PROCESSED') agents?.onMakerRefused(account);
  }

  /** Whether it is running (a stopped flow's agents, woken by a pending timer, do nothing). */
  get isRunning(): boolean {
    return this.unsubscribe !== undefined;
  }

  /** The agenda's wake-up on the clock (unref'd: it never keeps a process alive). */
  wakeAt(timeMs: number, run: () => void): void {
    this.deps.clock.setTimeout(run, Math.max(0, timeMs - this.deps.clock.nowMs()), { unref: true });
  }

  count(key: 'arbitrageOrders' | 'backgroundRequotes' | 'competitorRequotes' | 'makerRefusals'): void {
    this.counts[key]++;
  }

  /** The gas of one taker trade on `market` now, in its quote token (steps × gas price, STRK at the sim's price). */
  takerGasQuote(market: Market): number {
    const { prices, settings, chain } = this.deps;
    const strkPerQuote = (prices.usd(chain.nativeGasToken) ?? 0) / (prices.usd(market.quote.symbol) ?? 1);
    return tradeSteps(settings, market) * unitsToNumber(prices.gasPriceFri(), 18) * strkPerQuote;
  }
}
