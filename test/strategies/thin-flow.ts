/**
 * A strategy against the embedded exchange's synthetic flow, in simulated time and seeded: the
 * sim's own flow geometry (`DEFAULT_FLOW`: a background ladder 10, 15, … bps from the reference,
 * re-quoted each second; Poisson takers at 0.5/s sweeping the best prices first; the reference a
 * log random walk of `DEFAULT_VOLATILITY` per √s), the sim's ETH/USDC rules (tick 0.01, minimum
 * 0.001) and maker fee. The book here is our quotes plus that ladder; the estimators are the
 * engine's (`MarketEstimators`, fed as `MarketTracker` feeds them: each print before the book
 * change it causes) and the strategy sees the view `buildMarketView` builds. It leaves out the
 * wire (signing, latency, settlement): what it tests is how a model's quotes evolve on thin flow.
 */
import { createRng, type DesiredQuote, type ModelInternals, type Side, type Strategy } from '../../src/core/index.ts';
import { DEFAULT_FLOW } from '../../src/sim/flow.ts';
import { MarketEstimators, buildMarketView } from '../../strategies/index.ts';

const TICK = 0.01;
const MIN_QTY = 0.001;
/** The sim's maker fee (200 pbips) as a fraction. */
const MAKER_FEE = 0.0002;
const DEFAULT_VOLATILITY = 0.0005;

interface Level {
  price: number;
  size: number;
  readonly ours: boolean;
}

/** One second of the run, as the test reads it. */
export interface ThinFlowSample {
  readonly timeS: number;
  readonly fair: number;
  /** Our best bid and ask distance from the fair price, bps (undefined: that side not quoted). */
  readonly bidBps: number | undefined;
  readonly askBps: number | undefined;
  /** Our fills so far. */
  readonly fills: number;
  readonly internals: ModelInternals | undefined;
}

/** What a run gives back. */
export interface ThinFlowRun {
  readonly samples: readonly ThinFlowSample[];
  /** Times of our fills, s. */
  readonly fillTimesS: readonly number[];
  readonly startFair: number;
  readonly endFair: number;
}

/** Options of a run. */
export interface ThinFlowOptions {
  readonly seconds: number;
  readonly seed: number;
  readonly startPrice?: number;
  /** The engine's arrival grid (ARRIVAL_GRID_STEP_BPS, ARRIVAL_GRID_POINTS); default the keys' defaults. */
  readonly gridStepBps?: number;
  readonly gridPoints?: number;
  /** From a book change to our new quotes resting (the engine's requote, signing and the venue's queue), ms. Default 250. */
  readonly requoteLatencyMs?: number;
}

/** Runs `strategy` for `options.seconds` simulated seconds against the sim's flow. */
export function runThinFlow(strategy: Strategy, options: ThinFlowOptions): ThinFlowRun {
  const rng = createRng(options.seed);
  const flow = DEFAULT_FLOW;
  const estimators = new MarketEstimators({ arrival: { bucketWidthBps: options.gridStepBps ?? 0.05, maxBuckets: options.gridPoints ?? 60 } });
  let reference = options.startPrice ?? 3000;
  const startFair = reference;
  let bids: Level[] = [];
  let asks: Level[] = [];
  let base = 0;
  let quote = 10_000;
  let lastFill: { side: Side; price: number; timeMs: number } | undefined;
  const fillTimesS: number[] = [];
  const samples: ThinFlowSample[] = [];
  let nowMs = 0;
  let nextTakerMs = rng.exponential(flow.takerRatePerSec) * 1000;
  const latencyMs = options.requoteLatencyMs ?? 250;
  let requoteAtMs = Number.POSITIVE_INFINITY;

  const mid = (): number | undefined => {
    const bid = bids[0]?.price;
    const ask = asks[0]?.price;
    return bid !== undefined && ask !== undefined && bid < ask ? (bid + ask) / 2 : undefined;
  };
  const sortBook = (): void => {
    // Price priority; at one price the ladder (re-quoted first each second) before us.
    bids.sort((x, y) => y.price - x.price || Number(x.ours) - Number(y.ours));
    asks.sort((x, y) => x.price - y.price || Number(x.ours) - Number(y.ours));
    estimators.onMid(nowMs, mid());
  };
  const view = () => {
    const values = estimators.values(nowMs);
    const bid = bids[0];
    const ask = asks[0];
    return buildMarketView({
      timeMs: nowMs,
      bid,
      ask,
      ticker: { tickSize: TICK, lotSize: 0.0001, minSize: MIN_QTY, makerFee: MAKER_FEE, takerFee: 0.001 },
      ...values,
    });
  };
  const requote = (): DesiredQuote[] => {
    bids = bids.filter((level) => !level.ours);
    asks = asks.filter((level) => !level.ours);
    const market = view();
    const quotes = market.fair === undefined ? [] : strategy.quote(market, { base, quote, targetBase: 0, lastFill });
    const bestLadderBid = bids[0]?.price ?? 0;
    const bestLadderAsk = asks[0]?.price ?? Number.POSITIVE_INFINITY;
    for (const q of quotes) {
      // Rounded away from the touch and kept off the other side, as the engine's pipeline does.
      if (q.side === 'buy') bids.push({ price: Math.min(Math.floor(q.price / TICK) * TICK, bestLadderAsk - TICK), size: q.size, ours: true });
      else asks.push({ price: Math.max(Math.ceil(q.price / TICK) * TICK, bestLadderBid + TICK), size: q.size, ours: true });
    }
    sortBook();
    return quotes;
  };
  /** Fills our resting quote at its price for `size` at most (a taker's or a crossing ladder order's); what was filled. */
  const fillOurs = (level: Level, size: number, takerSide: Side): number => {
    const filled = Math.min(size, level.size);
    estimators.onTrade(nowMs, level.price, takerSide);
    base += takerSide === 'buy' ? -filled : filled;
    quote += takerSide === 'buy' ? filled * level.price : -filled * level.price;
    lastFill = { side: takerSide === 'buy' ? 'sell' : 'buy', price: level.price, timeMs: nowMs };
    fillTimesS.push(nowMs / 1000);
    level.size -= filled;
    return filled;
  };
  const relist = (): void => {
    bids = bids.filter((level) => level.ours);
    asks = asks.filter((level) => level.ours);
    for (let level = 0; level < flow.levels; level++) {
      const offset = (flow.halfSpreadBps + level * flow.levelStepBps) / 10_000;
      let bidSize = MIN_QTY * (1 + rng.int(flow.makerSizeMultiple));
      let askSize = MIN_QTY * (1 + rng.int(flow.makerSizeMultiple));
      const bidPrice = Math.floor((reference * (1 - offset)) / TICK) * TICK;
      const askPrice = Math.ceil((reference * (1 + offset)) / TICK) * TICK;
      // A ladder order placed through one of our stale quotes trades with it, as the venue matches it.
      for (const ours of asks.filter((l) => l.ours && l.price <= bidPrice)) bidSize -= fillOurs(ours, bidSize, 'buy');
      for (const ours of bids.filter((l) => l.ours && l.price >= askPrice)) askSize -= fillOurs(ours, askSize, 'sell');
      asks = asks.filter((l) => l.size > 1e-12);
      bids = bids.filter((l) => l.size > 1e-12);
      if (bidSize > 1e-12) bids.push({ price: bidPrice, size: bidSize, ours: false });
      if (askSize > 1e-12) asks.push({ price: askPrice, size: askSize, ours: false });
      sortBook();
    }
  };
  const take = (): void => {
    const side: Side = rng.next() < 0.5 ? 'buy' : 'sell';
    let left = MIN_QTY * (1 + rng.int(flow.takerSizeMultiple));
    const book = side === 'buy' ? asks : bids;
    const limit = side === 'buy' ? reference * 1.02 : reference * 0.98;
    let filledOurs = false;
    while (left > 1e-12 && book.length > 0) {
      const level = book[0]!;
      if (side === 'buy' ? level.price > limit : level.price < limit) break;
      if (level.ours) {
        left -= fillOurs(level, left, side);
        filledOurs = true;
      } else {
        const size = Math.min(left, level.size);
        estimators.onTrade(nowMs, level.price, side);
        level.size -= size;
        left -= size;
      }
      if (level.size <= 1e-12) book.shift();
    }
    sortBook();
    if (filledOurs) requoteAtMs = Math.min(requoteAtMs, nowMs + latencyMs);
  };

  relist();
  requote();
  for (let second = 1; second <= options.seconds; second++) {
    const endMs = second * 1000;
    // Takers and our (late) requotes in time order until the ladder's next re-quote.
    for (;;) {
      const next = Math.min(nextTakerMs, requoteAtMs);
      if (next >= endMs) break;
      nowMs = next;
      if (next === requoteAtMs) {
        requoteAtMs = Number.POSITIVE_INFINITY;
        requote();
      } else {
        take();
        nextTakerMs += rng.exponential(flow.takerRatePerSec) * 1000;
      }
    }
    nowMs = endMs;
    const sigma = DEFAULT_VOLATILITY;
    reference *= Math.exp(sigma * rng.normal() - (sigma * sigma) / 2);
    relist();
    requoteAtMs = Math.min(requoteAtMs, nowMs + latencyMs);
    const market = view();
    const fair = market.fair ?? reference;
    const ourBid = bids.find((level) => level.ours)?.price;
    const ourAsk = asks.find((level) => level.ours)?.price;
    const internals = strategy.internals?.(market, { base, quote, targetBase: 0, lastFill });
    samples.push({
      timeS: second,
      fair,
      bidBps: ourBid === undefined ? undefined : ((fair - ourBid) / fair) * 10_000,
      askBps: ourAsk === undefined ? undefined : ((ourAsk - fair) / fair) * 10_000,
      fills: fillTimesS.length,
      internals,
    });
  }
  return { samples, fillTimesS, startFair, endFair: reference };
}
