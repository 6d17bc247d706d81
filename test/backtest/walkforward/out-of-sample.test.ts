import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/index.ts';
import { errorBars, type ErrorBarInput } from '../../../src/backtest/error-bars.ts';
import { MARKOUT_CURVE_MS } from '../../../src/backtest/fill-markouts.ts';
import type { PathSample } from '../../../src/backtest/stats.ts';
import type { VenueFill } from '../../../src/backtest/replay-venue.ts';
import { outOfSampleFigures, testSpanBins, type TestSpanPart } from '../../../src/backtest/walkforward/out-of-sample.ts';

const OPTIONS = { blockMs: 10_000, samples: 500, seed: 3 };

/** A seeded test span: a random-walk PnL sampled each second, a fill every few seconds with a markout at every horizon. */
function span(seed: number, startMs: number, seconds: number): { input: ErrorBarInput; part: TestSpanPart } {
  const rng = createRng(seed);
  const samples: PathSample[] = [];
  let pnl = 0;
  for (let i = 0; i < seconds; i++) {
    pnl += rng.next() - 0.48;
    samples.push({ timeMs: startMs + i * 1_000, mid: 100, bid: undefined, ask: undefined, inventory: 0, pnl });
  }
  const fills: VenueFill[] = [];
  for (let t = 0; t < seconds * 1_000; t += 1_000 + Math.floor(rng.next() * 4_000)) {
    fills.push({ timeMs: startMs + t, orderId: `o${t}`, side: rng.next() < 0.5 ? 'buy' : 'sell', price: 100 + rng.next(), size: 0.1 + rng.next(), isMaker: true, feeQuote: 0.001 });
  }
  const bps = MARKOUT_CURVE_MS.map((horizonMs) => fills.map((fill) => (fill.timeMs + horizonMs > startMs + seconds * 1_000 ? null : rng.next() * 4 - 2)));
  const input: ErrorBarInput = { samples, fills, markouts: { horizonsMs: MARKOUT_CURVE_MS, bps }, sampleMs: 1_000, startMs, pnlQuote: pnl };
  const volume = fills.reduce((sum, fill) => sum + fill.price * fill.size, 0);
  return { input, part: { summary: { fills: fills.length, pnl_quote: pnl, volume_quote: volume, fees_quote: fills.length * 0.001, duration_s: seconds }, bins: testSpanBins(input) } };
}

describe('out-of-sample figures of joined test spans', () => {
  it('are exactly one run\'s own figures and intervals when there is one test span', () => {
    const { input, part } = span(7, 1_700_000_000_000, 300);
    const bars = errorBars(input, OPTIONS);
    const figures = outOfSampleFigures([part], OPTIONS);
    const at = (horizonMs: number): number => MARKOUT_CURVE_MS.indexOf(horizonMs);
    expect(figures.pnl_quote_ci95).toEqual(bars.pnlQuoteCi95?.map((bound) => Number(bound.toPrecision(10))));
    expect(figures.pnl_per_notional_bps_ci95).toEqual(bars.pnlPerNotionalBpsCi95?.map((bound) => Number(bound.toPrecision(10))));
    expect(figures.markout_10s_bps_ci95).toEqual(bars.markoutBpsCi95[at(10_000)]?.map((bound) => Number(bound.toPrecision(10))));
    expect(figures.markout_1s_bps).toBeCloseTo(bars.markoutBps[at(1_000)] as number, 9);
    expect(figures.markout_60s_bps).toBeCloseTo(bars.markoutBps[at(60_000)] as number, 9);
    expect(figures.pnl_per_notional_bps).toBeCloseTo(bars.pnlPerNotionalBps as number, 6);
  });

  it('add up totals across spans and weigh each span\'s markouts by its fills', () => {
    const first = span(1, 1_700_000_000_000, 200);
    const second = span(2, 1_700_000_400_000, 400);
    const joined = outOfSampleFigures([first.part, second.part], OPTIONS);
    expect(joined.spans).toBe(2);
    expect(joined.fills).toBe(first.part.summary.fills + second.part.summary.fills);
    expect(joined.pnl_quote).toBeCloseTo(first.part.summary.pnl_quote + second.part.summary.pnl_quote, 8);
    expect(joined.duration_s).toBe(600);
    expect(joined.pnl_per_notional_bps).toBeCloseTo((joined.pnl_quote / joined.volume_quote) * 10_000, 6);
    const at1s = MARKOUT_CURVE_MS.indexOf(1_000);
    const all = [...(first.input.markouts.bps[at1s] ?? []), ...(second.input.markouts.bps[at1s] ?? [])].filter((bps): bps is number => bps !== null);
    expect(joined.markout_1s_bps).toBeCloseTo(all.reduce((sum, bps) => sum + bps, 0) / all.length, 9);
    // The PnL interval is over the joined path: it holds the joined total.
    const [low, high] = joined.pnl_quote_ci95 as [number, number];
    expect(low).toBeLessThan(joined.pnl_quote);
    expect(high).toBeGreaterThan(joined.pnl_quote);
  });

  it('repeats exactly for the same spans and seed', () => {
    const parts = [span(4, 1_700_000_000_000, 250).part, span(5, 1_700_000_300_000, 250).part];
    expect(outOfSampleFigures(parts, OPTIONS)).toEqual(outOfSampleFigures(parts, OPTIONS));
  });

  it('refuses no spans, and spans binned at different periods', () => {
    expect(() => outOfSampleFigures([], OPTIONS)).toThrow(/at least one test span/);
    const { part } = span(6, 1_700_000_000_000, 100);
    expect(() => outOfSampleFigures([part, { ...part, bins: { ...part.bins, sampleMs: 500 } }], OPTIONS)).toThrow(/different periods/);
  });
});
