/**
 * How many `quote()` calls per second each strategy sustains on realistic ETH/USDC views (moving
 * mid, σ, an arrival fit, varying inventory), and how many market events per second the
 * estimators absorb. One question each; about 4.5 s in total.
 */
import { createRng, type InventoryView, type MarketView } from '../src/core/index.ts';
import { MarketEstimators, STRATEGY_NAMES, buildMarketView, getStrategyDefinition } from '../strategies/index.ts';
import { measureRate, type BenchResult, type BenchSuite } from './harness.ts';

const TICKER = { tickSize: 0.01, lotSize: 0.0001, minSize: 0.001, makerFee: 0, takerFee: 0.0005 };

function buildInputs(count: number): { views: MarketView[]; inventories: InventoryView[] } {
  const rng = createRng(2024);
  const views: MarketView[] = [];
  const inventories: InventoryView[] = [];
  let mid = 3000;
  for (let i = 0; i < count; i++) {
    mid += 0.3 * rng.normal();
    const halfSpreadTicks = 1 + rng.int(5);
    const bid = Math.round(mid * 100 - halfSpreadTicks) / 100;
    const ask = Math.round(mid * 100 + halfSpreadTicks) / 100;
    views.push(
      buildMarketView({
        timeMs: 1_700_000_000_000 + i * 100,
        bid: { price: bid, size: 0.1 + 5 * rng.next() },
        ask: { price: ask, size: 0.1 + 5 * rng.next() },
        volatility: 0.2 + 0.2 * rng.next(),
        tradeRate: { buy: 5 * rng.next(), sell: 5 * rng.next() },
        arrival: i % 4 === 0 ? undefined : { a: 2 + rng.next(), k: 6 + 4 * rng.next() },
        ticker: TICKER,
      }),
    );
    const lastFill = rng.next() < 0.5 ? undefined : { side: rng.next() < 0.5 ? ('buy' as const) : ('sell' as const), price: mid, timeMs: 0 };
    inventories.push({ base: 1 + 0.1 * rng.normal(), quote: 3000, targetBase: 1, lastFill });
  }
  return { views, inventories };
}

const quoteSuite: BenchSuite = {
  name: 'strategies',
  async run(): Promise<BenchResult[]> {
    const { views, inventories } = buildInputs(4096);
    const results: BenchResult[] = [];
    for (const name of STRATEGY_NAMES) {
      const definition = getStrategyDefinition(name);
      // Three levels a side, skew and ping-pong on: the heavier paths of each strategy.
      const prefix = name === 'ladder' ? 'LADDER' : name === 'glft' ? 'GLFT' : 'AS';
      const parsed = definition?.parseParams({ [`${prefix}_LEVELS`]: '3', LADDER_INVENTORY_SKEW: 'on', LADDER_PRICE_SKEW_BPS: '5', LADDER_PING_PONG: 'on' });
      if (definition === undefined || parsed === undefined || !parsed.ok) throw new Error(`${name}: default params do not parse`);
      const strategy = definition.create(parsed.params);
      let index = 0;
      let sink = 0;
      const batch = 256;
      const rate = await measureRate(
        () => {
          for (let i = 0; i < batch; i++) {
            index = (index + 1) & 4095;
            sink += strategy.quote(views[index] as MarketView, inventories[index] as InventoryView).length;
          }
        },
        { durationMs: 800, warmupMs: 200, opsPerCall: batch },
      );
      if (sink === 0) throw new Error(`${name} quoted nothing`);
      results.push({ bench: `strategy.${name}.quote_per_sec`, value: rate, unit: 'quotes/s', baseline: null });
    }

    // Estimators: a book change and a trade, alternating, then a view read every 10 events.
    const estimators = new MarketEstimators({ arrival: { bucketWidth: 0.005 } });
    const rng = createRng(7);
    let timeMs = 0;
    let mid = 3000;
    const eventRate = await measureRate(
      () => {
        for (let i = 0; i < 100; i++) {
          timeMs += 50;
          mid += 0.02 * rng.normal();
          if (i % 2 === 0) estimators.onMid(timeMs, mid);
          else estimators.onTrade(timeMs, mid + (rng.next() < 0.5 ? 1 : -1) * rng.exponential(8), rng.next() < 0.5 ? 'buy' : 'sell');
          if (i % 10 === 0) estimators.values(timeMs);
        }
      },
      { durationMs: 600, warmupMs: 150, opsPerCall: 100 },
    );
    results.push({ bench: 'strategy.estimators.events_per_sec', value: eventRate, unit: 'events/s', baseline: null });
    return results;
  },
};

/** The strategy benchmarks. */
export const benches: BenchSuite[] = [quoteSuite];
