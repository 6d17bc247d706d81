import { describe, expect, it } from 'vitest';
import { SignalSet, alphaBps, isAlphaOn } from '../../../strategies/index.ts';
import { signalSettings } from './fixtures.ts';

const top = (bidPrice: number, bidSize: number, askPrice: number, askSize: number) => ({ bidPrice, bidSize, askPrice, askSize });
const ZERO = { obi: 0, ofi: 0, tradeFlow: 0, volShortBps: 0, volLongBps: 0, volRatio: 1 };

describe('the signals of one market', () => {
  it('reads the imbalance of the last top when given no depth, and of the depth when given one', () => {
    const signals = new SignalSet(signalSettings({ obiLevels: 2, obiDecay: 1 }));
    signals.onTop(0, top(100, 3, 101, 1));
    expect(signals.values(0).obi).toBeCloseTo(0.5, 12);
    const depth = { bids: [{ price: 100, qty: 3 }, { price: 99, qty: 0 }], asks: [{ price: 101, qty: 1 }, { price: 102, qty: 4 }] };
    expect(signals.values(0, depth).obi).toBeCloseTo(-2 / 8, 12);
  });

  it('feeds the order-flow imbalance and the volatility from tops, the trade flow from trades', () => {
    const signals = new SignalSet(signalSettings());
    signals.onTop(0, top(100, 2, 101, 2));
    signals.onTop(100, top(100.5, 2, 101, 2));
    signals.onTrade(100, 1, 'sell');
    const values = signals.values(100);
    expect(values.ofi).toBeGreaterThan(0);
    expect(values.volShortBps).toBeGreaterThan(0);
    expect(values.tradeFlow).toBeLessThan(0);
  });

  it('reads no imbalance while the book has no usable top', () => {
    const signals = new SignalSet(signalSettings());
    signals.onTop(0, top(100, 3, 101, 1));
    signals.onTop(1, undefined);
    expect(signals.values(1).obi).toBe(0);
  });
});

describe('the alpha term', () => {
  it('is off with the shipped defaults: every weight 0', () => {
    expect(isAlphaOn(signalSettings())).toBe(false);
    expect(alphaBps({ ...ZERO, obi: 1, ofi: 5, tradeFlow: 3 }, signalSettings())).toBe(0);
  });

  it('is the weighted sum of the directional signals in bps, the volatility left out', () => {
    const settings = signalSettings({ alphaObiBps: 0.6, alphaOfiBps: 0.1, alphaTradeFlowBps: -0.2, alphaMaxBps: 5 });
    expect(isAlphaOn(settings)).toBe(true);
    expect(alphaBps({ ...ZERO, obi: 0.5, ofi: 2, tradeFlow: 1, volShortBps: 40, volRatio: 3 }, settings)).toBeCloseTo(0.3 + 0.2 - 0.2, 12);
  });

  it('is clamped to ±ALPHA_MAX_BPS so a bad fit cannot run the fair price away', () => {
    const settings = signalSettings({ alphaObiBps: 100, alphaMaxBps: 2 });
    expect(alphaBps({ ...ZERO, obi: 1 }, settings)).toBe(2);
    expect(alphaBps({ ...ZERO, obi: -1 }, settings)).toBe(-2);
    expect(alphaBps({ ...ZERO, obi: Number.NaN }, settings)).toBe(0);
    expect(isAlphaOn(signalSettings({ alphaObiBps: 100, alphaMaxBps: 0 }))).toBe(false);
  });
});
