import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, InventoryView, MarketView, Strategy, StrategyDefinition } from '../../src/core/index.ts';
import { AVELLANEDA_STOIKOV, GLFT, LADDER, type ExplainedStrategy, type QuoteExplanation } from '../../strategies/index.ts';
import { makeInventory } from './fixtures.ts';

/** A two-sided view around a random price level, with anything from no σ to wild σ and fits. */
const viewArb: fc.Arbitrary<MarketView> = fc
  .record({
    price: fc.double({ min: 0.001, max: 1e5, noNaN: true }),
    tickExponent: fc.integer({ min: -6, max: -2 }),
    spreadTicks: fc.integer({ min: 1, max: 200 }),
    bidSize: fc.double({ min: 0, max: 100, noNaN: true }),
    askSize: fc.double({ min: 0, max: 100, noNaN: true }),
    volatilityFraction: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.05, noNaN: true })),
    arrival: fc.option(fc.record({ a: fc.double({ min: 1e-6, max: 1e4, noNaN: true }), kFraction: fc.double({ min: 1e-6, max: 1e6, noNaN: true }) }), { nil: undefined }),
    timeMs: fc.integer({ min: 0, max: 2_000_000_000_000 }),
    // A maker rebate (−1 bp) too: quotes move in by it, and still never cross each other.
    makerFee: fc.constantFrom(0, 0.0001, 0.001, -0.0001),
    gasPerFill: fc.constantFrom(0, 0.01),
  })
  .map(({ price, tickExponent, spreadTicks, bidSize, askSize, volatilityFraction, arrival, timeMs, makerFee, gasPerFill }) => {
    const tickSize = price * 10 ** tickExponent;
    const bestBid = price;
    const bestAsk = price + spreadTicks * tickSize;
    const mid = (bestBid + bestAsk) / 2;
    const microprice = bidSize + askSize > 0 ? (bestBid * askSize + bestAsk * bidSize) / (bidSize + askSize) : mid;
    return {
      timeMs,
      bestBid,
      bestAsk,
      bestBidSize: bidSize,
      bestAskSize: askSize,
      mid,
      microprice,
      fair: mid,
      volatility: volatilityFraction * price,
      tradeRate: { buy: 1, sell: 1 },
      // k per bp: kFraction / price per price unit, so fits range from very flat to very steep.
      arrival: arrival === undefined ? undefined : { a: arrival.a, kPerBps: arrival.kFraction / 10_000 },
      tickSize,
      lotSize: 0.001,
      minSize: 0.001,
      makerFee,
      takerFee: 0.001,
      gasPerFill: gasPerFill * 1e-3 * price,
    };
  });

const inventoryArb = (orderSize: number): fc.Arbitrary<InventoryView> =>
  fc.record({
    base: fc.double({ min: 0, max: 200 * orderSize, noNaN: true }),
    quote: fc.constant(1e6),
    targetBase: fc.double({ min: 0, max: 200 * orderSize, noNaN: true }),
    lastFill: fc.option(fc.record({ side: fc.constantFrom('buy' as const, 'sell' as const), price: fc.constant(1), timeMs: fc.constant(0) }), { nil: undefined }),
  });

const bps = (max: number): fc.Arbitrary<string> => fc.double({ min: 0, max, noNaN: true }).map((value) => value.toFixed(3));

const ladderEnv = fc.record({
  LADDER_BID_SPREAD_BPS: bps(300),
  LADDER_ASK_SPREAD_BPS: bps(300),
  LADDER_LEVELS: fc.integer({ min: 1, max: 5 }).map(String),
  LADDER_LEVEL_SPACING_BPS: bps(100),
  LADDER_ORDER_SIZE: fc.constantFrom('0.01', '1', '25'),
  LADDER_LEVEL_SIZE_INCREMENT: fc.constantFrom('0', '0.5'),
  LADDER_INVENTORY_SKEW: fc.constantFrom('on', 'off'),
  LADDER_INVENTORY_RANGE_BASE: fc.constantFrom('auto', '1', '100'),
  LADDER_PRICE_SKEW_BPS: bps(500),
  LADDER_MIN_SPREAD_BPS: fc.constantFrom('-10000', '-5', '0', '5'),
  LADDER_PING_PONG: fc.constantFrom('on', 'off'),
  LADDER_PRICE_SOURCE: fc.constantFrom('fair', 'mid', 'microprice'),
});

const asEnv = fc.record({
  AS_GAMMA: fc.constantFrom('1e-9', '0.01', '1', '50', '1000000'),
  AS_HORIZON_S: fc.constantFrom('inf', '1', '60', '86400'),
  AS_KAPPA: fc.constantFrom('auto', '1e-6', '1', '1000'),
  AS_KAPPA_FALLBACK_PER_BPS: fc.constantFrom('1e-6', '0.25', '1000'),
  AS_ORDER_SIZE: fc.constantFrom('0.01', '1', '25'),
  AS_MIN_SPREAD_BPS: fc.constantFrom('0', '4', '50'),
  AS_MAX_SPREAD_BPS: fc.constantFrom('50', '200', '10000'),
  AS_LEVELS: fc.integer({ min: 1, max: 4 }).map(String),
  AS_LEVEL_SPACING_BPS: bps(50),
  AS_PRICE_SOURCE: fc.constantFrom('fair', 'mid', 'microprice'),
  AS_MAX_SKEW_BPS: fc.constantFrom('0', '20', '5000'),
});

const glftEnv = fc.record({
  GLFT_GAMMA: fc.constantFrom('1e-9', '0.01', '1', '50', '1000000'),
  GLFT_ADJ1: fc.constantFrom('0.5', '1', '3'),
  GLFT_ADJ2: fc.constantFrom('0', '0.05', '1', '10'),
  GLFT_MAX_POSITION: fc.constantFrom('off', '25', '1000'),
  GLFT_FIT_ARRIVAL: fc.constantFrom('on', 'off'),
  GLFT_A: fc.constantFrom('1e-6', '1', '1000'),
  GLFT_K_PER_BPS: fc.constantFrom('1e-6', '0.25', '1000'),
  GLFT_ORDER_SIZE: fc.constantFrom('0.01', '1', '25'),
  GLFT_MIN_SPREAD_BPS: fc.constantFrom('0', '4', '50'),
  GLFT_MAX_SPREAD_BPS: fc.constantFrom('50', '200', '10000'),
  GLFT_LEVELS: fc.integer({ min: 1, max: 4 }).map(String),
  GLFT_LEVEL_SPACING_BPS: bps(50),
  GLFT_PRICE_SOURCE: fc.constantFrom('fair', 'mid', 'microprice'),
  GLFT_MAX_SKEW_BPS: fc.constantFrom('0', '20', '5000'),
});

type Case = readonly [string, StrategyDefinition<unknown>, fc.Arbitrary<Record<string, string>>, string];
const cases: Case[] = [
  ['ladder', LADDER , ladderEnv, 'LADDER_ORDER_SIZE'],
  ['avellaneda-stoikov', AVELLANEDA_STOIKOV , asEnv, 'AS_ORDER_SIZE'],
  ['glft', GLFT , glftEnv, 'GLFT_ORDER_SIZE'],
];

function build(definition: StrategyDefinition<unknown>, env: Record<string, string>): ExplainedStrategy<QuoteExplanation> | undefined {
  const parsed = definition.parseParams(env);
  return parsed.ok ? (definition.create(parsed.params) as ExplainedStrategy<QuoteExplanation>) : undefined;
}

const level0 = (quotes: DesiredQuote[], side: 'buy' | 'sell'): DesiredQuote | undefined => quotes.find((q) => q.side === side && q.level === 0);

describe.each(cases)('%s invariants', (_name, definition, envArb, sizeKey) => {
  const withInventory = envArb.chain((env) => fc.tuple(fc.constant(env), viewArb, inventoryArb(Number(env[sizeKey]))));

  it('returns finite positive prices and sizes, every bid of ours below every ask of ours (the engine clamps to the book)', () => {
    fc.assert(
      fc.property(withInventory, ([env, view, inventory]) => {
        const strategy = build(definition, env);
        fc.pre(strategy !== undefined);
        const quotes = (strategy as Strategy).quote(view, inventory);
        for (const quote of quotes) {
          expect(Number.isFinite(quote.price) && quote.price > 0).toBe(true);
          expect(Number.isFinite(quote.size) && quote.size > 0).toBe(true);
          if (quote.reference !== undefined) expect(Number.isFinite(quote.reference) && quote.reference > 0).toBe(true);
        }
        const highestBid = Math.max(...quotes.filter((q) => q.side === 'buy').map((q) => q.price));
        const lowestAsk = Math.min(...quotes.filter((q) => q.side === 'sell').map((q) => q.price));
        expect(highestBid).toBeLessThan(lowestAsk);
      }),
      { numRuns: 400 },
    );
  });

  it('moves quotes down (or not up) and bid sizes not up as the position grows', () => {
    fc.assert(
      fc.property(withInventory, fc.double({ min: 0, max: 50, noNaN: true }), ([env, view, inventory], extraOrders) => {
        const strategy = build(definition, env);
        fc.pre(strategy !== undefined);
        const more = { ...inventory, base: inventory.base + extraOrders * Number(env[sizeKey]) };
        const before = (strategy as Strategy).quote(view, inventory);
        const after = (strategy as Strategy).quote(view, more);
        for (const side of ['buy', 'sell'] as const) {
          const was = level0(before, side);
          const now = level0(after, side);
          if (was === undefined || now === undefined) continue;
          expect(now.price).toBeLessThanOrEqual(was.price * (1 + 1e-12));
          if (side === 'buy') expect(now.size).toBeLessThanOrEqual(was.size * (1 + 1e-12));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('quotes symmetrically around the reference at zero inventory', () => {
    fc.assert(
      fc.property(envArb, viewArb, fc.double({ min: 0, max: 100, noNaN: true }), (env, view, target) => {
        // Equal ladder spreads, no ping-pong, and no minimum spread: it is measured from the mid, so
        // around a microprice it may legitimately drop one side only.
        const symmetricEnv = { ...env, LADDER_PING_PONG: 'off', LADDER_ASK_SPREAD_BPS: env['LADDER_BID_SPREAD_BPS'] ?? '0', LADDER_MIN_SPREAD_BPS: '-10000' };
        const strategy = build(definition, symmetricEnv);
        fc.pre(strategy !== undefined);
        const explained = (strategy as ExplainedStrategy<QuoteExplanation>).explain(view, makeInventory({ base: target, targetBase: target }));
        expect(explained).toBeDefined();
        const reference = (explained as QuoteExplanation).reference;
        const model = explained as QuoteExplanation & { bid?: number; ask?: number };
        if (model.bid !== undefined && model.ask !== undefined) {
          // The models expose their raw level-0 prices: the post-only clamp may bend one side.
          expect(model.ask - reference).toBeCloseTo(reference - model.bid, 6);
          return;
        }
        // The ladder: its level-0 quotes.
        const bid = level0((explained as QuoteExplanation).quotes, 'buy');
        const ask = level0((explained as QuoteExplanation).quotes, 'sell');
        expect(bid === undefined).toBe(ask === undefined);
        if (bid === undefined || ask === undefined) return;
        expect(ask.price - reference).toBeCloseTo(reference - bid.price, 6);
        expect(ask.size).toBe(bid.size);
      }),
      { numRuns: 300 },
    );
  });

  it('quotes nothing without a fair price (empty, one-sided, crossed or locked book)', () => {
    fc.assert(
      fc.property(envArb, viewArb, fc.constantFrom('empty', 'no-bid', 'no-ask', 'crossed'), (env, view, shape) => {
        const strategy = build(definition, env);
        fc.pre(strategy !== undefined);
        const none = { mid: undefined, microprice: undefined, fair: undefined };
        const broken: MarketView =
          shape === 'empty'
            ? { ...view, ...none, bestBid: undefined, bestAsk: undefined }
            : shape === 'no-bid'
              ? { ...view, ...none, bestBid: undefined }
              : shape === 'no-ask'
                ? { ...view, ...none, bestAsk: undefined }
                : { ...view, ...none, bestBid: view.bestAsk, bestAsk: view.bestBid };
        expect((strategy as Strategy).quote(broken, makeInventory())).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('quotes both sides of an empty book around a fair price from elsewhere (a reference market)', () => {
    fc.assert(
      fc.property(envArb, viewArb, (env, view) => {
        const strategy = build(definition, { ...env, LADDER_PING_PONG: 'off', LADDER_PRICE_CEILING: 'off', LADDER_PRICE_FLOOR: 'off', LADDER_MIN_SPREAD_BPS: '-10000' });
        fc.pre(strategy !== undefined);
        const empty: MarketView = { ...view, bestBid: undefined, bestAsk: undefined, mid: undefined, microprice: undefined };
        const sources = Object.entries(env).filter(([key]) => key.endsWith('_PRICE_SOURCE'));
        fc.pre(sources.every(([, value]) => value === 'fair'));
        const quotes = (strategy as Strategy).quote(empty, makeInventory());
        expect(quotes.some((q) => q.side === 'buy')).toBe(true);
        expect(quotes.some((q) => q.side === 'sell')).toBe(true);
        for (const quote of quotes) expect(quote.side === 'buy' ? quote.price <= (view.fair as number) : quote.price >= (view.fair as number)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('puts the maker fee and gas per fill inside the spread: each quote is at least the costs away from its reference', () => {
    fc.assert(
      fc.property(withInventory, ([env, view, inventory]) => {
        const strategy = build(definition, env);
        fc.pre(strategy !== undefined);
        for (const quote of (strategy as Strategy).quote(view, inventory)) {
          const reference = quote.reference as number;
          const cost = view.makerFee * reference + view.gasPerFill / quote.size;
          const distance = quote.side === 'buy' ? reference - quote.price : quote.price - reference;
          // The ladder's size skew may shrink a level below its nominal size (gas per unit grows): compare with the nominal cost.
          expect(distance).toBeGreaterThanOrEqual(Math.min(cost, view.makerFee * reference) * (1 - 1e-9) - 1e-9 * reference);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('ladder size skew', () => {
  it('gives the bid side the whole doubled size below the band and none above it', () => {
    const strategy = build(LADDER , { LADDER_INVENTORY_SKEW: 'on', LADDER_INVENTORY_RANGE_BASE: '1' });
    fc.assert(
      fc.property(viewArb, fc.double({ min: 2, max: 10, noNaN: true }), (market, target) => {
        const low = (strategy as Strategy).quote(market, makeInventory({ base: target - 1.5, targetBase: target }));
        const high = (strategy as Strategy).quote(market, makeInventory({ base: target + 1.5, targetBase: target }));
        expect(low.map((q) => q.side)).toEqual(['buy']);
        expect(low[0]?.size).toBeCloseTo(0.02, 12);
        expect(high.map((q) => q.side)).toEqual(['sell']);
      }),
      { numRuns: 100 },
    );
  });
});
