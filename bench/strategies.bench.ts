/**
 * How many `quote()` calls per second each strategy sustains on realistic ETH/USDC views (moving
 * mid, σ, an arrival fit, varying inventory, and the hedge book `xemm` prices on), and how many
 * market events per second the estimators absorb. One question each; about 5.5 s in total.
 */
import { createRng, type HedgeMarketView, type InventoryView, type MarketView, type Rng } from '../src/core/index.ts';
import { MarketEstimators, STRATEGY_NAMES, buildMarketView, getStrategyDefinition } from '../strategies/index.ts';
import { measureRate, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';

const TICKER = { tickSize: 0.01, lotSize: 0.0001, minSize: 0.001, makerFee: 0, takerFee: 0.0005 };

/**
 * Each strategy's heavier paths: three levels a side, and for the ladder skew and ping-pong on.
 * `hedged`: the strategy prices on the hedge market, so its views carry one, as the engine's do
 * when HEDGE is set. A strategy added to the registry without an entry here fails the suite (and
 * so `npm test`), rather than being measured on a path that quotes nothing.
 */
const SETUPS: Readonly<Record<string, { readonly env: Record<string, string>; readonly hedged: boolean }>> = {
  ladder: { env: { LADDER_LEVELS: '3', LADDER_INVENTORY_SKEW: 'on', LADDER_PRICE_SKEW_BPS: '5', LADDER_PING_PONG: 'on' }, hedged: false },
  'avellaneda-stoikov': { env: { AS_LEVELS: '3' }, hedged: false },
  glft: { env: { GLFT_LEVELS: '3' }, hedged: false },
  // Each of the three levels is priced on the hedge book walked for its 0.05 ETH slice.
  xemm: { env: { XEMM_LEVELS: '3' }, hedged: true },
  // Three levels a side, skewed, with the queue rule reading the touch's size.
  'tick-grid': { env: { GRID_LEVELS: '3', GRID_SKEW_TICKS: '0.25', GRID_MIN_TOUCH_NOTIONAL: '300' }, hedged: false },
};

/**
 * What the engine's hedger adds to the view when HEDGE is set (`MarketView.hedge`, engine.ts):
 * a Binance-like book a cent apart around the mid, 10 bps taker fee, 5 bps minimum profit, and a
 * hedge account with room for every level. `xemm` quotes nothing without it, by design.
 */
function hedgeView(mid: number, rng: Rng): HedgeMarketView {
  const qty = (): number => 0.5 + 3 * rng.next();
  return {
    bids: Array.from({ length: 20 }, (_, i) => ({ price: mid - 0.005 - 0.01 * i, qty: qty() })),
    asks: Array.from({ length: 20 }, (_, i) => ({ price: mid + 0.005 + 0.01 * i, qty: qty() })),
    takerFee: 0.001,
    minProfit: 0.0005,
    sellableBase: 10,
    spendableQuote: 30_000,
    minQty: 0.0001,
    uncoveredBase: 0,
  };
}

function buildInputs(count: number): { views: MarketView[]; hedgedViews: MarketView[]; inventories: InventoryView[] } {
  const rng = createRng(2024);
  const hedgeRng = createRng(2025);
  const views: MarketView[] = [];
  const hedgedViews: MarketView[] = [];
  const inventories: InventoryView[] = [];
  let mid = 3000;
  for (let i = 0; i < count; i++) {
    mid += 0.3 * rng.normal();
    const halfSpreadTicks = 1 + rng.int(5);
    const bid = Math.round(mid * 100 - halfSpreadTicks) / 100;
    const ask = Math.round(mid * 100 + halfSpreadTicks) / 100;
    const view = buildMarketView({
      timeMs: 1_700_000_000_000 + i * 100,
      bid: { price: bid, size: 0.1 + 5 * rng.next() },
      ask: { price: ask, size: 0.1 + 5 * rng.next() },
      volatility: 0.2 + 0.2 * rng.next(),
      tradeRate: { buy: 5 * rng.next(), sell: 5 * rng.next() },
      arrival: i % 4 === 0 ? undefined : { a: 2 + rng.next(), kPerBps: 1.8 + 1.2 * rng.next() },
      ticker: TICKER,
    });
    views.push(view);
    // Built as the engine builds it (engine.ts: `{ ...marketView, hedge }`), not as a literal.
    hedgedViews.push({ ...view, hedge: hedgeView(mid, hedgeRng) });
    const lastFill = rng.next() < 0.5 ? undefined : { side: rng.next() < 0.5 ? ('buy' as const) : ('sell' as const), price: mid, timeMs: 0 };
    inventories.push({ base: 1 + 0.1 * rng.normal(), quote: 3000, targetBase: 1, lastFill });
  }
  return { views, hedgedViews, inventories };
}

const quoteSuite: BenchSuite = {
  name: 'strategies',
  async run(context: BenchContext): Promise<BenchResult[]> {
    const { views: plainViews, hedgedViews, inventories } = buildInputs(4096);
    const results: BenchResult[] = [];
    for (const name of STRATEGY_NAMES) {
      const definition = getStrategyDefinition(name);
      const setup = Object.hasOwn(SETUPS, name) ? SETUPS[name] : undefined;
      if (setup === undefined) throw new Error(`strategy ${name} has no bench set-up: add its heavier paths to SETUPS in bench/strategies.bench.ts`);
      const parsed = definition?.parseParams(setup.env);
      if (definition === undefined || parsed === undefined || !parsed.ok) throw new Error(`${name}: bench params ${JSON.stringify(setup.env)} do not parse: ${JSON.stringify(parsed)}`);
      const views = setup.hedged ? hedgedViews : plainViews;
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
        { durationMs: context.pick(800, 5), warmupMs: context.pick(200, 0), opsPerCall: batch },
      );
      if (sink === 0) throw new Error(`${name} quoted nothing`);
      results.push({ bench: `strategy.${name}.quote_per_sec`, value: rate, unit: 'quotes/s', baseline: null });
    }

    // Estimators: a book change and a trade, alternating, then a view read every 10 events.
    const estimators = new MarketEstimators({ arrival: { bucketWidthBps: 0.05 } });
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
      { durationMs: context.pick(600, 5), warmupMs: context.pick(150, 0), opsPerCall: 100 },
    );
    results.push({ bench: 'strategy.estimators.events_per_sec', value: eventRate, unit: 'events/s', baseline: null });
    return results;
  },
};

/** The strategy benchmarks. */
export const benches: BenchSuite[] = [quoteSuite];
