import { describe, expect, it } from 'vitest';
import { fewFillsNote, fillMarkouts, histogram, touchDistanceBps } from '../../../src/backtest/report/series.ts';
import { deriveScorecard, resolveScorecard, timeAtTouch } from '../../../src/backtest/scorecard.ts';
import type { PathSample } from '../../../src/backtest/stats.ts';
import { fills, samples } from './fixture.ts';

const at = (over: Partial<PathSample>): PathSample => ({ timeMs: 0, mid: 100, bid: 99, ask: 101, bestBid: 99.9, bestAsk: 100.1, inventory: 0, pnl: 0, ...over });

describe('report series', () => {
  it('marks out each fill against the sampled mid after the horizon', () => {
    const markouts = fillMarkouts(fills, samples, 10_000);
    const midAfter = samples.find((s) => s.timeMs >= fills[0]!.timeMs + 10_000)?.mid ?? 0;
    expect(markouts[0]).toBeCloseTo(((midAfter - 1_999.5) * 10_000) / 1_999.5, 9);
  });

  it('measures distance from the touch in bps of the mid: 0 at the touch, negative inside the spread', () => {
    expect(touchDistanceBps(at({ bid: 99.9 }), 'bid')).toBe(0);
    expect(touchDistanceBps(at({ bid: 99 }), 'bid')).toBeCloseTo(90, 9);
    expect(touchDistanceBps(at({ ask: 100.05 }), 'ask')).toBeCloseTo(-5, 9);
    expect(touchDistanceBps(at({ ask: undefined }), 'ask')).toBeNull();
  });

  it('bins a histogram on round edges and counts every value once', () => {
    const values = [-3.2, -1, 0, 0.5, 2.2, 7.9, null];
    const bars = histogram(values);
    expect(bars.counts.reduce((a, b) => a + b, 0)).toBe(6);
    expect([1, 2, 5, 10].some((f) => Math.abs(bars.binWidth / f - Math.round(bars.binWidth / f)) < 1e-9 || bars.binWidth === f)).toBe(true);
    expect(bars.centers[0]! - bars.binWidth / 2).toBeLessThanOrEqual(-3.2);
    expect(histogram([0.91]).centers).toEqual([0.95]);
    expect(histogram([]).counts).toEqual([]);
  });

  it('counts time at the touch over the samples where we quoted', () => {
    expect(timeAtTouch([at({ bid: 99.9 }), at({}), at({ bid: undefined, ask: undefined }), at({ ask: 100.1 })])).toBeCloseTo(2 / 3, 9);
    expect(timeAtTouch([at({ bid: undefined, ask: undefined })])).toBeNull();
  });

  it('says nothing when quotes were often at the touch, and explains when no order was sent', () => {
    const context = { fills: 3, ordersSent: 10, tick: 0.1, lot: 1, base: 'AAPL' };
    expect(fewFillsNote([at({ bid: 99.9 }), at({ ask: 100.1 })], context)).toBeUndefined();
    expect(fewFillsNote([at({})], { ...context, ordersSent: 0 })).toContain("at least the recording's lot (1 AAPL)");
    expect(fewFillsNote([at({}), at({})], context)).toMatch(/at the touch only 0.0 % .* the bid a median 90.0 bps \(9 ticks\) behind/);
  });
});

describe('scorecard', () => {
  it('derives order counts, ratios, time at the touch, cap breaches and the PnL split', () => {
    const derived = deriveScorecard({ samples, fills: 2, activity: { ordersSent: 40, cancelsSent: 38, ordersFilled: 2 }, twoSidedUptime: 0.9, inventoryCapBase: 0.25 });
    expect(derived.orders_per_fill).toBe(20);
    expect(derived.fill_ratio).toBe(0.05);
    expect(derived.time_at_touch).toBeCloseTo(0.1, 9);
    expect(derived.cap_breaches).toBe(samples.filter((s) => Math.abs(s.inventory) > 0.25).length);
    const last = samples[samples.length - 1]!;
    expect(derived.pnl_spread_quote).toBe(last.components?.spread);
    expect(deriveScorecard({ samples, fills: 0, activity: { ordersSent: 0, cancelsSent: 0, ordersFilled: 0 }, twoSidedUptime: 0, inventoryCapBase: undefined })).toMatchObject({ orders_per_fill: null, fill_ratio: null, cap_breaches: null });
  });

  it("prefers the summary's own keys and marks the rest as computed by the report", () => {
    const entries = resolveScorecard({ orders_sent: 7, fees_quote: 0.5 }, { orders_sent: 40, cancels_sent: 3 });
    expect(entries.find((e) => e.key === 'orders_sent')).toEqual({ key: 'orders_sent', value: 7, source: 'engine' });
    expect(entries.find((e) => e.key === 'cancels_sent')).toEqual({ key: 'cancels_sent', value: 3, source: 'report' });
    expect(entries.find((e) => e.key === 'fees_quote')?.source).toBe('engine');
    expect(entries.some((e) => e.key === 'time_at_touch')).toBe(false);
  });

  it('has path components that add up to the PnL of each sample', () => {
    for (const sample of samples) {
      const c = sample.components!;
      expect(c.spread + c.inventory + c.fees + c.gas).toBeCloseTo(sample.pnl, 9);
    }
  });
});
