/**
 * A thin exchange on a real replay clock and scheduler, fed synthetic reference events and our
 * orders directly, with everything it tells its host recorded: what the honesty tests drive.
 */
import { DEFAULT_COMPETING_MAKER, createRng, type Side } from '../../../src/core/index.ts';
import { ReplayClock } from '../../../src/backtest/replay-clock.ts';
import { EventScheduler } from '../../../src/backtest/scheduler.ts';
import { DEFAULT_THIN_VENUE, ThinExchange, type ThinExchangeOptions } from '../../../src/backtest/thin/index.ts';
import type { ExchangeHost, ExchangeReport, FillTag, ReplayOrder } from '../../../src/backtest/venue-exchange.ts';
import { ETH_USDC } from '../../engine/fixtures.ts';

export const START_MS = 1_700_000_000_000;

/** One fill as the host heard it, with the exchange time it happened at. */
export interface HeardFill {
  readonly timeMs: number;
  readonly orderId: string;
  readonly side: Side;
  readonly lots: number;
  readonly priceTicks: number;
  readonly quoteUnits: bigint;
  readonly isMaker: boolean;
  readonly tag: FillTag | undefined;
}

/**
 * Options of a harness: any part of the thin venue's, plus the seed and the gas of a taker trade.
 * Unless a test says otherwise the venue is the plainer one each property is easiest to read on:
 * fixed taker limits, no competing maker, arbitrageurs paying the venue leg only; the tests of
 * those models opt in.
 */
export interface HarnessOptions {
  readonly seed?: number;
  readonly takerFeePbips?: number;
  readonly uninformed?: Partial<ThinExchangeOptions['uninformed']>;
  readonly background?: Partial<ThinExchangeOptions['background']>;
  readonly competitor?: Partial<NonNullable<ThinExchangeOptions['competitor']>>;
  readonly arbitrage?: Partial<ThinExchangeOptions['arbitrage']>;
  /** The venue's smallest order, base units; default one lot. */
  readonly minQty?: bigint;
  /** Quote tokens of gas per taker trade. Default 0. */
  readonly takerGasQuote?: number;
}

export class ThinHarness {
  readonly clock = new ReplayClock(START_MS);
  readonly scheduler = new EventScheduler(this.clock);
  readonly exchange: ThinExchange;
  readonly fills: HeardFill[] = [];
  readonly trades: { timeMs: number; aggressor: Side | undefined; priceTicks: number; lots: number }[] = [];
  readonly reports: ExchangeReport[] = [];
  /** Times the host was asked to republish the top. */
  bookChanges = 0;
  private touch: { bid: number; ask: number } | undefined;
  private nextId = 1;

  constructor(options: HarnessOptions = {}) {
    const host: ExchangeHost = {
      clock: this.clock,
      report: (report) => this.reports.push(report),
      fill: (order, lots, priceTicks, quoteUnits, isMaker, tag) =>
        this.fills.push({ timeMs: this.clock.nowMs(), orderId: order.orderId, side: order.side, lots, priceTicks, quoteUnits, isMaker, tag }),
      trade: (aggressor, priceTicks, lots) => this.trades.push({ timeMs: this.clock.nowMs(), aggressor, priceTicks, lots }),
      at: (timeMs, run) => this.scheduler.atOrder(timeMs, run),
      bookChanged: () => {
        this.bookChanges++;
      },
      takerGasQuote: () => options.takerGasQuote ?? 0,
    };
    this.exchange = new ThinExchange(
      {
        // One lot is the venue's smallest order here: the tests twin trades of a lot or two.
        rules: { ...ETH_USDC, minQty: options.minQty ?? ETH_USDC.qtyStep },
        takerFeePbips: options.takerFeePbips ?? DEFAULT_THIN_VENUE.takerFeePbips,
        uninformed: { ...DEFAULT_THIN_VENUE.uninformed, limitModel: 'fixed', ...options.uninformed },
        background: { ...DEFAULT_THIN_VENUE.background, ...options.background },
        competitor: { ...DEFAULT_COMPETING_MAKER, depthShare: 0, ...options.competitor },
        arbitrage: { ...DEFAULT_THIN_VENUE.arbitrage, referenceFeeBps: 0, edgeBps: 5, ...options.arbitrage },
        rng: createRng(options.seed ?? 1).fork('thin'),
      },
      host,
    );
  }

  /** Moves exchange time to `timeMs`, running what falls due on the way (as a session does before each event). */
  at(timeMs: number): this {
    const pending = this.scheduler.runUntil(timeMs, () => undefined);
    if (pending !== undefined) throw new Error('the scheduler waited on a promise');
    return this;
  }

  /** A reference message that sets its touch to (bid, ask), one level a side of `lots`. */
  referenceTop(bidTicks: number, askTicks: number, lots = 1_000): this {
    const previous = this.touch;
    if (previous !== undefined) {
      this.exchange.applyDepth('buy', previous.bid, 0);
      this.exchange.applyDepth('sell', previous.ask, 0);
    }
    this.exchange.applyDepth('buy', bidTicks, lots);
    this.exchange.applyDepth('sell', askTicks, lots);
    this.exchange.settleCrossings();
    this.touch = { bid: bidTicks, ask: askTicks };
    return this;
  }

  /** A reference trade at the current time. */
  referenceTrade(aggressor: Side | undefined, priceTicks: number, lots: number): this {
    this.exchange.applyTrade(aggressor, priceTicks, lots);
    return this;
  }

  /** One of our orders reaches the venue now; returns its id. */
  place(side: Side, priceTicks: number, lots: number, postOnly = true): string {
    const orderId = `o${this.nextId++}`;
    this.exchange.submit(orderId, side, priceTicks, lots, postOnly);
    return orderId;
  }

  order(orderId: string): ReplayOrder {
    const order = this.exchange.get(orderId);
    if (order === undefined) throw new Error(`no order ${orderId}`);
    return order;
  }
}

/** What a random scenario left behind. */
export interface ScenarioRun {
  readonly harness: ThinHarness;
  /** Uninformed fills whose price was past their taker's limit (should stay empty). */
  readonly pastLimit: HeardFill[];
  /** Times the background maker's quotes crossed each other or ours (should stay 0). */
  readonly crossings: number;
}

/**
 * A reference that random-walks (a message every 100 ms, a step of up to ±`stepTicks`), trades every
 * 20 ms at its touch, and our two quotes re-placed around its mid every 500 ms; the scenario's own
 * draws come from `scenarioSeed`, the venue's from `options.seed`.
 */
export function runScenario(options: HarnessOptions & { readonly scenarioSeed: number; readonly durationMs: number; readonly stepTicks: number; readonly halfSpreadTicks: number }): ScenarioRun {
  const h = new ThinHarness(options);
  const rng = createRng(options.scenarioSeed);
  const limitBps = options.uninformed?.limitBps ?? DEFAULT_THIN_VENUE.uninformed.limitBps;
  const pastLimit: HeardFill[] = [];
  let crossings = 0;
  let mid = 300_000;
  let quotes: string[] = [];
  for (let t = 0; t <= options.durationMs; t += 20) {
    h.at(START_MS + t);
    if (t % 100 === 0) {
      mid += rng.int(2 * options.stepTicks + 1) - options.stepTicks;
      h.referenceTop(mid - 5, mid + 5);
    }
    if (t % 500 === 0) {
      for (const id of quotes) h.exchange.cancel(id);
      const lots = 1 + rng.int(2_000);
      quotes = [h.place('buy', mid - options.halfSpreadTicks, lots), h.place('sell', mid + options.halfSpreadTicks, lots)];
    }
    const aggressor = rng.next() < 0.5 ? 'buy' : 'sell';
    const price = aggressor === 'buy' ? mid + 5 : mid - 5;
    const before = h.fills.length;
    h.referenceTrade(aggressor, price, 1 + rng.int(500));
    const limit = aggressor === 'buy' ? price + Math.floor((price * limitBps) / 10_000) : price - Math.floor((price * limitBps) / 10_000);
    for (const fill of h.fills.slice(before)) {
      if (fill.tag?.counterparty === 'uninformed' && (aggressor === 'buy' ? fill.priceTicks > limit : fill.priceTicks < limit)) pastLimit.push(fill);
    }
    const book = h.exchange.book;
    const bid = book.bestBidPrice();
    const ask = book.bestAskPrice();
    const ourBid = h.exchange.bestRestingPrice('buy');
    const ourAsk = h.exchange.bestRestingPrice('sell');
    if ((bid !== undefined && ask !== undefined && bid >= ask) || (bid !== undefined && ourAsk !== undefined && bid >= ourAsk) || (ask !== undefined && ourBid !== undefined && ask <= ourBid)) crossings++;
  }
  return { harness: h, pastLimit, crossings };
}
