import { describe, expect, it } from 'vitest';
import { fewFillsContext, fewFillsNote, fillMarkouts, histogram, touchDistanceBps } from '../../../src/backtest/report/series.ts';
import { scorecardEntries } from '../../../src/backtest/scorecard.ts';
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

  it('says nothing when quotes were often at the touch, and explains when no order was sent', () => {
    const context = { fills: 3, ordersSent: 10, timeAtTouch: 0.05, tick: 0.1, lot: 1, base: 'AAPL' };
    expect(fewFillsNote([at({}), at({})], { ...context, timeAtTouch: 0.5 })).toBeUndefined();
    expect(fewFillsNote([at({})], { ...context, ordersSent: 0 })).toContain("at least the recording's lot (1 AAPL)");
    expect(fewFillsNote([at({}), at({})], context)).toMatch(/at the touch only 5.0 % .* the bid a median 90.0 bps \(9 ticks\) behind/);
    expect(fewFillsContext({ fills: 2, orders_sent: 7, time_at_touch: 0.3 }, { tick: 0.1, lot: 1, base: 'X' })).toEqual({ fills: 2, ordersSent: 7, timeAtTouch: 0.3, tick: 0.1, lot: 1, base: 'X' });
  });
});

describe('scorecard', () => {
  it('lists the keys a summary carries, in display order', () => {
    const entries = scorecardEntries({ cancels_sent: 3, orders_sent: 7, fees_quote: 0.5, unrelated: 1 });
    expect(entries).toEqual([
      { key: 'orders_sent', value: 7 },
      { key: 'cancels_sent', value: 3 },
      { key: 'fees_quote', value: 0.5 },
    ]);
  });

  it('has path components that add up to the PnL of each sample', () => {
    for (const sample of samples) {
      const c = sample.components!;
      expect(c.spread + c.inventory + c.fees + c.gas).toBeCloseTo(sample.pnl, 9);
    }
  });
});
