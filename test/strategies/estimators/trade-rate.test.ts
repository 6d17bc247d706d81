import { describe, expect, it } from 'vitest';
import { TradeRateEstimator } from '../../../strategies/index.ts';

describe('TradeRateEstimator', () => {
  it('counts trades per second on each aggressor side over the sliding window', () => {
    const estimator = new TradeRateEstimator({ windowMs: 10_000 });
    // Buys every second from t = 1 s to 20 s; sells at 5, 6 and 15 s.
    for (let second = 1; second <= 20; second++) {
      estimator.onTrade(second * 1000, 'buy');
      if (second === 5 || second === 6 || second === 15) estimator.onTrade(second * 1000, 'sell');
    }
    // Window (10 s, 20 s]: buys at 11..20 = 10 → 1/s; sells at 15 → 0.1/s
    expect(estimator.rates(20_000)).toEqual({ buy: 1, sell: 0.1 });
    // Window (15.5 s, 25.5 s]: buys 16..20 = 5 → 0.5/s; no sells
    expect(estimator.rates(25_500)).toEqual({ buy: 0.5, sell: 0 });
    expect(estimator.rates(40_000)).toEqual({ buy: 0, sell: 0 });
  });

  it('divides by the whole window even before a full window has passed', () => {
    const estimator = new TradeRateEstimator({ windowMs: 60_000 });
    for (let i = 0; i < 30; i++) estimator.onTrade(1000 + i * 100, 'sell');
    expect(estimator.rates(4000)).toEqual({ buy: 0, sell: 0.5 });
  });

  it('keeps counting correctly over many windows', () => {
    const estimator = new TradeRateEstimator({ windowMs: 1000 });
    for (let timeMs = 1; timeMs <= 100_000; timeMs++) {
      estimator.onTrade(timeMs, timeMs % 4 === 0 ? 'sell' : 'buy');
      if (timeMs % 10_000 === 0) expect(estimator.rates(timeMs)).toEqual({ buy: 750, sell: 250 });
    }
  });
});
