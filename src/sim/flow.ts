/**
 * Synthetic order flow (issue #3), so a quoting bot trades against something: every tick the
 * reference prices take a random-walk step; a background maker re-quotes a ladder around each
 * ecosystem pair's reference price; Poisson takers send market orders of random size, which hit
 * the best prices first (a bot quoting inside the ladder gets filled). The agents are ordinary
 * accounts of the ledger, so their fees and gas count in the conservation check like anyone's.
 * Their orders skip signatures (they are the venue's own) but pass through the same engine.
 */
import { numberToUnits, roundToStep, type ChainInfo, type Clock, type Rng, type Timer } from '../core/index.ts';
import { shortStringToFelt } from '../exchange/wire/fields.ts';
import { flowBalance } from './accounts.ts';
import type { Engine } from './engine.ts';
import { FlowOrders } from './flow-orders.ts';
import type { Ledger } from './ledger.ts';
import type { Market } from './markets.ts';
import type { SimOrder } from './orders.ts';
import type { PriceModel } from './prices.ts';
import type { SimSettings } from './settings.ts';

/** Tunables of the synthetic flow. */
export interface FlowOptions {
  /** Price step and re-quote period. */
  readonly tickMs: number;
  /** Ladder: levels per side, distance of the first level from the reference, spacing. */
  readonly levels: number;
  readonly halfSpreadBps: number;
  readonly levelStepBps: number;
  /** Size of a maker level, in multiples of the pair's minimum quantity (uniform in [1, n]). */
  readonly makerSizeMultiple: number;
  /** Market orders per second per pair, and their size in multiples of the minimum. */
  readonly takerRatePerSec: number;
  readonly takerSizeMultiple: number;
}

export const DEFAULT_FLOW: FlowOptions = {
  tickMs: 1_000,
  levels: 5,
  halfSpreadBps: 10,
  levelStepBps: 5,
  makerSizeMultiple: 20,
  takerRatePerSec: 0.5,
  takerSizeMultiple: 10,
};

/** The flow agents' account addresses ("flowmaker" / "flowtaker" as felts: easy to spot). */
export const FLOW_MAKER = shortStringToFelt('akira-sim flow maker');
export const FLOW_TAKER = shortStringToFelt('akira-sim flow taker');

/** What the agents need from the venue. */
export interface FlowDeps {
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly engine: Engine;
  readonly ledger: Ledger;
  readonly prices: PriceModel;
  /** Markets it leaves alone (their flow is the reference's). */
  readonly excluded?: readonly Market[];
}

/** The running agents; `stop()` is idempotent. */
export class SyntheticFlow {
  private readonly timers: Timer[] = [];
  private tickMs: number;
  private readonly takerTimers = new Map<Market, Timer>();
  private readonly markets: Market[];
  private readonly orders: FlowOrders;

  constructor(
    private readonly deps: FlowDeps,
    private readonly options: FlowOptions = DEFAULT_FLOW,
  ) {
    this.tickMs = options.tickMs;
    // Markets whose flow the reference drives (`ReferenceFlow`) are left to it.
    this.markets = [...deps.engine.markets.values()].filter((market) => market.isEcosystemBook && deps.excluded?.includes(market) !== true);
    this.orders = new FlowOrders({ ...deps, gasPriceFri: () => deps.prices.gasPriceFri() }, 'akira-sim flow');
    for (const token of deps.chain.tokens.values()) {
      deps.ledger.deposit(FLOW_MAKER, token.symbol, flowBalance(token.decimals));
      deps.ledger.deposit(FLOW_TAKER, token.symbol, flowBalance(token.decimals));
    }
  }

  start(): void {
    this.quoteAll();
    this.timers.push(this.deps.clock.setInterval(() => this.tick(), this.tickMs, { unref: true }));
    for (const market of this.markets) this.scheduleTaker(market);
  }

  stop(): void {
    for (const timer of this.timers.splice(0)) timer.cancel();
    for (const timer of this.takerTimers.values()) timer.cancel();
    this.takerTimers.clear();
  }

  /**
   * A taker hits one resting order for about `fraction` of what is left (fault injection: a fill
   * that races a cancel). It is an ordinary market order limited at the order's price, queued now,
   * so it trades by the book's price-time priority; false when nothing could be sent.
   */
  takeFrom(order: SimOrder, fraction: number): boolean {
    const market = order.market;
    const price = order.restingPrice;
    if (price === undefined || !this.markets.includes(market)) return false;
    const left = order.request.baseQty - order.filledBase;
    const size = (((left * BigInt(Math.round(fraction * 1000))) / 1000n) / market.qtyStep) * market.qtyStep;
    if (size < market.minQty) return false;
    const side = order.side === 'buy' ? 'sell' : 'buy';
    return this.placeUnits(market, side, price, size, true);
  }

  /** Changes the tick period (prices step and the maker re-quotes this often); applies at once when running. */
  setTickMs(tickMs: number): void {
    this.tickMs = tickMs;
    if (this.timers.length === 0) return;
    for (const timer of this.timers.splice(0)) timer.cancel();
    this.timers.push(this.deps.clock.setInterval(() => this.tick(), this.tickMs, { unref: true }));
  }

  private tick(): void {
    this.deps.prices.step(this.tickMs / 1000);
    this.quoteAll();
    this.deps.engine.pruneFinished(FLOW_MAKER, 500);
    this.deps.engine.pruneFinished(FLOW_TAKER, 500);
  }

  private quoteAll(): void {
    for (const market of this.markets) {
      this.orders.cancelAll(FLOW_MAKER, market);
      const reference = this.deps.prices.referencePrice(market);
      for (let level = 0; level < this.options.levels; level++) {
        const offset = (this.options.halfSpreadBps + level * this.options.levelStepBps) / 10_000;
        this.place(market, 'buy', reference * (1 - offset), this.makerSize(market), false);
        this.place(market, 'sell', reference * (1 + offset), this.makerSize(market), false);
      }
    }
  }

  private makerSize(market: Market): bigint {
    return market.minQty * BigInt(1 + this.deps.rng.int(this.options.makerSizeMultiple));
  }

  private scheduleTaker(market: Market): void {
    const delayMs = this.deps.rng.exponential(this.options.takerRatePerSec) * 1000;
    const timer = this.deps.clock.setTimeout(() => {
      const side = this.deps.rng.next() < 0.5 ? 'buy' : 'sell';
      const reference = this.deps.prices.referencePrice(market);
      // Protection 2 % through the reference: deep enough to sweep a level or two.
      const protection = side === 'buy' ? reference * 1.02 : reference * 0.98;
      const size = market.minQty * BigInt(1 + this.deps.rng.int(this.options.takerSizeMultiple));
      this.place(market, side, protection, size, true);
      this.scheduleTaker(market);
    }, delayMs);
    this.takerTimers.set(market, timer);
  }

  private place(market: Market, side: 'buy' | 'sell', price: number, baseQty: bigint, isMarketOrder: boolean): void {
    if (!(price > 0)) return;
    const units = roundToStep(numberToUnits(price, market.quote.decimals, side === 'buy' ? 'down' : 'up'), market.priceTick, side === 'buy' ? 'down' : 'up');
    if (units <= 0n) return;
    this.placeUnits(market, side, units, baseQty, isMarketOrder);
  }

  private placeUnits(market: Market, side: 'buy' | 'sell', units: bigint, baseQty: bigint, isMarketOrder: boolean): boolean {
    return this.orders.place(isMarketOrder ? FLOW_TAKER : FLOW_MAKER, market, side, units, baseQty, isMarketOrder) !== undefined;
  }
}
