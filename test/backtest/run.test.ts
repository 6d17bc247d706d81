import { describe, expect, it } from 'vitest';
import { createRng, type DesiredQuote, type MarketView, type Side, type Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { powerQueue } from '../../src/backtest/queue-model.ts';
import { runBacktest, type RecordedEventHandler, type RecordedEventSource } from '../../src/backtest/run.ts';
import { deterministicPart } from '../../src/backtest/summary.ts';
import { BOOTSTRAP_DEFAULTS } from '../../src/backtest/error-bars.ts';
import { BACKTEST_DEFAULTS } from '../../src/cli/backtest-defaults.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { ETH_USDC } from '../engine/fixtures.ts';

const spread: Strategy = {
  name: 'fixed',
  quote(view: MarketView): DesiredQuote[] {
    if (view.mid === undefined) return [];
    return [
      { side: 'buy', price: view.mid - 0.6, size: 0.05, level: 0 },
      { side: 'sell', price: view.mid + 0.6, size: 0.05, level: 0 },
    ];
  },
};

/** A seeded random-walk book with trades: 10 levels a side, a trade every few updates. */
function syntheticSource(seed: number, steps: number): RecordedEventSource {
  return {
    async replay(handler: RecordedEventHandler): Promise<number> {
      const rng = createRng(seed);
      let mid = 200_000; // ticks of 0.01
      let events = 0;
      let time = 1_700_000_000_000;
      const emit = async (result: Promise<void> | undefined): Promise<void> => {
        events++;
        if (result !== undefined) await result;
      };
      await handler.advance(time);
      await emit(handler.clear());
      for (let step = 0; step < steps; step++) {
        time += 50 + rng.int(100);
        await handler.advance(time);
        const move = rng.int(3) - 1;
        // Remove the previous levels, then lay out ten fresh ones a side around the new mid.
        for (let level = 1; level <= 10; level++) {
          await emit(handler.depth('buy', mid - level * 10, 0));
          await emit(handler.depth('sell', mid + level * 10, 0));
        }
        mid += move * 5;
        for (let level = 1; level <= 10; level++) {
          await emit(handler.depth('buy', mid - level * 10, 1 + rng.int(20) * 100));
          await emit(handler.depth('sell', mid + level * 10, 1 + rng.int(20) * 100));
        }
        if (rng.next() < 0.4) {
          const aggressor: Side = rng.next() < 0.5 ? 'buy' : 'sell';
          const price = aggressor === 'buy' ? mid + 10 + rng.int(8) * 10 : mid - 10 - rng.int(8) * 10;
          await emit(handler.trade(aggressor, price, 1 + rng.int(3000)));
        }
      }
      return events;
    },
  };
}

const venue = {
  rules: ETH_USDC,
  makerFeePbips: 200,
  takerFeePbips: 1000,
  steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
  gasPriceUnits: 10n ** 13n,
  quotePerStrk: 0.5,
  latency: constantLatency(20),
  feedLatencyMs: 5,
  queue: powerQueue(2),
};
const settings = { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 5_000, presignTicks: 0 };

describe('runBacktest', () => {
  it('replays a recording through the engine and summarises it with every contract key', async () => {
    // With an inventory limit the engine stays two-sided: the side that would breach it shrinks.
    const limited = { ...settings, risk: { ...settings.risk, maxInventoryDeviationUnits: 5n * 10n ** 17n } };
    const result = await runBacktest({ source: syntheticSource(1, 2_000), strategy: spread, settings: limited, venue, initialBase: 2 });
    const s = result.summary;
    const contract = ['events', 'fills', 'maker_fills', 'taker_fills', 'volume_base', 'fees_quote', 'gas_quote', 'pnl_quote', 'max_abs_inventory_base', 'inventory_std_base', 'sharpe', 'max_drawdown_quote', 'quote_uptime', 'markout_1s_bps', 'markout_10s_bps', 'markout_60s_bps', 'events_per_sec'];
    const scorecard = ['orders_sent', 'cancels_sent', 'orders_per_fill', 'fill_ratio', 'two_sided_uptime', 'time_at_touch', 'cap_breaches', 'pnl_spread_quote', 'pnl_inventory_quote'];
    for (const key of [...contract, ...scorecard]) expect(s).toHaveProperty(key);
    expect(s.cap_breaches).toBe(0);
    expect(s.orders_per_fill).toBeCloseTo(s.orders_sent / s.fills, 6);
    expect(s.fill_ratio).toBeGreaterThan(0);
    expect(s.fill_ratio).toBeLessThanOrEqual(1);
    expect(s.events).toBeGreaterThan(2_000 * 40);
    expect(s.fills).toBeGreaterThan(10);
    expect(s.maker_fills + s.taker_fills).toBe(s.fills);
    expect(s.quote_uptime).toBeGreaterThan(0.5);
    expect(s.max_abs_inventory_base).toBeLessThanOrEqual(0.5 + 0.05);
    expect(result.samples.length).toBeGreaterThan(100);
    // The engine's counts agree with what the replay venue received and filled, counted apart.
    expect(result.activity.ordersSent).toBe(s.orders_sent);
    expect(result.activity.cancelsSent).toBe(s.cancels_sent);
    expect(result.fills).toHaveLength(s.fills);
    // Each sample's PnL split adds up to the engine's split total at that moment.
    const last = result.samples[result.samples.length - 1];
    expect(last?.components?.spread).toBeCloseTo(s.pnl_spread_quote, 6);
    expect(s.sharpe_horizon).toBe('hour');
  });

  it('splits PnL into spread, inventory, fees and gas that sum to the total, against the ledger\'s own average-cost PnL', async () => {
    // A strategy that skews with its position, so the inventory part moves too.
    const skewing: Strategy = {
      name: 'skewing',
      quote: (view, inventory) => {
        if (view.fair === undefined) return [];
        const centre = view.fair - (inventory.base - inventory.targetBase) * 4;
        return [
          { side: 'buy', price: centre - 0.7, size: 0.05, level: 0, reference: centre },
          { side: 'sell', price: centre + 0.7, size: 0.05, level: 0, reference: centre },
        ];
      },
    };
    for (const strategy of [spread, skewing]) {
      const s = (await runBacktest({ source: syntheticSource(3, 1_500), strategy, settings, venue, initialBase: 2 })).summary;
      expect(s.fills).toBeGreaterThan(5);
      expect(Math.abs(s.pnl_inventory_quote)).toBeGreaterThan(0);
      const sum = s.pnl_spread_quote + s.pnl_inventory_quote - s.fees_quote - s.gas_quote;
      expect(Math.abs(sum - s.pnl_quote)).toBeLessThan(1e-6 * (1 + Math.abs(s.pnl_spread_quote) + Math.abs(s.pnl_inventory_quote)));
      expect(s.fees_quote).toBeGreaterThan(0);
    }
  });

  it('credits a maker rebate: fees_quote goes negative and the PnL is still exactly spread + inventory − fees − gas', async () => {
    const rebate = { ...venue, makerFeePbips: -100 };
    const result = await runBacktest({ source: syntheticSource(3, 1_500), strategy: spread, settings, venue: rebate, initialBase: 2 });
    const s = result.summary;
    expect(s.maker_fills).toBeGreaterThan(5);
    expect(s.taker_fills).toBe(0);
    expect(s.fees_quote).toBeLessThan(0);
    // Every maker fill was credited, ⌊1 bp⌋ of what it received: the venue's record and the engine's ledger agree.
    for (const fill of result.fills) expect(fill.feeQuote).toBeLessThan(0);
    const venueFees = result.fills.reduce((sum, fill) => sum + fill.feeQuote, 0);
    expect(s.fees_quote).toBeCloseTo(venueFees, 6);
    expect(-venueFees).toBeLessThanOrEqual(result.fills.reduce((sum, fill) => sum + fill.size * fill.price, 0) * 1e-4 * (1 + 1e-9));
    const sum = s.pnl_spread_quote + s.pnl_inventory_quote - s.fees_quote - s.gas_quote;
    expect(Math.abs(sum - s.pnl_quote)).toBeLessThan(1e-6 * (1 + Math.abs(s.pnl_spread_quote) + Math.abs(s.pnl_inventory_quote)));
    // The rebate is income: the same run with no fee ends lower by what was credited (a rebate
    // received in base is marked at the end, not at its fill's price: within a percent).
    const free = (await runBacktest({ source: syntheticSource(3, 1_500), strategy: spread, settings, venue: { ...venue, makerFeePbips: 0 }, initialBase: 2 })).summary;
    expect(free.fills).toBe(s.fills);
    expect(free.fees_quote).toBe(0);
    expect(Math.abs(s.pnl_quote - free.pnl_quote + s.fees_quote)).toBeLessThan(0.01 * -s.fees_quote);
  });

  it('refuses a maker rebate larger than the taker fee', async () => {
    await expect(runBacktest({ source: syntheticSource(3, 10), strategy: spread, settings, venue: { ...venue, makerFeePbips: -1001 }, initialBase: 2 })).rejects.toThrow(/maker fee -1001 pbips: allowed a whole number ≥ −taker fee \(−1000\)/);
  });

  it('gives a byte-identical summary for the same data, settings and seed', async () => {
    const once = async (): Promise<string> =>
      JSON.stringify(deterministicPart((await runBacktest({ source: syntheticSource(7, 800), strategy: spread, settings, venue, initialBase: 2 })).summary));
    expect(await once()).toBe(await once());
  });
});

describe('runBacktest error bars', () => {
  // 10 s blocks: the run (≈ 300 s) spans 30 of them, past the 20 an interval needs.
  const bootstrap = { blockMs: 10_000, samples: 300, seed: 5 };
  const run = (seed: number, strategy: Strategy = spread) => runBacktest({ source: syntheticSource(3, 3_000), strategy, settings, venue, initialBase: 2, bootstrap: { ...bootstrap, seed } });

  it('gives PnL, PnL per notional and each markout horizon a 95 % interval around the figure, the markouts counted over the same fills as the fills\' own markouts', async () => {
    const result = await run(5);
    const s = result.summary;
    expect(s.fills).toBeGreaterThan(10);
    const inside = (value: number | null, interval: readonly [number, number] | null): void => {
      expect(value).not.toBeNull();
      expect(interval).not.toBeNull();
      expect(interval?.[0]).toBeLessThanOrEqual(value as number);
      expect(interval?.[1]).toBeGreaterThanOrEqual(value as number);
      expect((interval?.[1] ?? 0) - (interval?.[0] ?? 0)).toBeGreaterThan(0);
    };
    inside(s.pnl_quote, s.pnl_quote_ci95);
    inside(s.pnl_per_notional_bps, s.pnl_per_notional_bps_ci95);
    inside(s.markout_1s_bps, s.markout_1s_bps_ci95);
    inside(s.markout_10s_bps, s.markout_10s_bps_ci95);
    expect(s.volume_quote).toBeCloseTo(result.fills.reduce((sum, fill) => sum + fill.price * fill.size, 0), 6);
    expect(s.pnl_per_notional_bps).toBeCloseTo((s.pnl_quote / s.volume_quote) * 10_000, 4);
    expect(s.markout_curve_ms).toEqual([100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 60_000]);
    expect(s.markout_curve_bps_ci95).toHaveLength(10);
    // The headline is the plain mean of the per-fill markouts the report's table lists.
    const tenSeconds = (result.markouts?.bps[6] ?? []).filter((bps): bps is number => bps !== null);
    expect(s.markout_10s_bps).toBeCloseTo(tenSeconds.reduce((sum, bps) => sum + bps, 0) / tenSeconds.length, 6);
    expect(s.markout_curve_fills[6]).toBe(tenSeconds.length);
    expect(s.markout_curve_bps[6]).toBe(s.markout_10s_bps);
    // Fills whose 60 s ended after the run are left out, never guessed.
    expect(s.markout_curve_fills[9]).toBeLessThan(s.fills);
    expect([s.bootstrap_block_ms, s.bootstrap_samples, s.bootstrap_seed, s.ci95_withheld]).toEqual([10_000, 300, 5, null]);
    expect(s.bootstrap_blocks).toBeGreaterThanOrEqual(20);
  });

  it('draws the same intervals from the same seed, and others from another seed with every other figure unchanged', async () => {
    const [first, again, other] = [await run(5), await run(5), await run(6)];
    expect(deterministicPart(again.summary)).toEqual(deterministicPart(first.summary));
    expect(other.summary.pnl_quote_ci95).not.toEqual(first.summary.pnl_quote_ci95);
    expect(other.summary.pnl_quote).toBe(first.summary.pnl_quote);
  });

  it('takes the same defaults from the command line as the library (60 s blocks, 1,000 samples, seed 1)', () => {
    expect({ blockMs: BACKTEST_DEFAULTS.bootstrapBlockMs, samples: BACKTEST_DEFAULTS.bootstrapSamples, seed: BACKTEST_DEFAULTS.seed }).toEqual(BOOTSTRAP_DEFAULTS);
  });

  it('gives no per-notional or markout interval without fills', async () => {
    const idle: Strategy = { name: 'idle', quote: () => [] };
    const s = (await run(5, idle)).summary;
    expect(s.fills).toBe(0);
    expect([s.pnl_per_notional_bps, s.pnl_per_notional_bps_ci95, s.markout_10s_bps, s.markout_10s_bps_ci95]).toEqual([null, null, null, null]);
    expect(s.markout_curve_bps_ci95.every((interval) => interval === null)).toBe(true);
    expect(s.pnl_quote_ci95).toEqual([0, 0]);
  });
});
