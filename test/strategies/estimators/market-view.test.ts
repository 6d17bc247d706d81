import { describe, expect, it } from 'vitest';
import { MarketEstimators, buildMarketView, type MarketViewInput } from '../../../strategies/index.ts';

const ticker = { tickSize: 0.01, lotSize: 0.001, minSize: 0.01, makerFee: 0.0001, takerFee: 0.0005 };
const input = (overrides: Partial<MarketViewInput> = {}): MarketViewInput => ({
  timeMs: 42,
  bid: { price: 100, size: 3 },
  ask: { price: 100.1, size: 1 },
  volatility: 0.2,
  tradeRate: { buy: 1, sell: 2 },
  arrival: { a: 1, kPerBps: 5 },
  ticker,
  ...overrides,
});

describe('buildMarketView', () => {
  it('computes mid and the size-weighted microprice', () => {
    const view = buildMarketView(input());
    expect(view.mid).toBeCloseTo(100.05, 12);
    // (100·1 + 100.1·3) / 4 = 400.3 / 4 = 100.075: heavier bids pull it towards the ask
    expect(view.microprice).toBeCloseTo(100.075, 12);
    expect(view).toMatchObject({ timeMs: 42, bestBid: 100, bestAsk: 100.1, bestBidSize: 3, bestAskSize: 1, volatility: 0.2, tickSize: 0.01, makerFee: 0.0001 });
    expect(view.arrival).toEqual({ a: 1, kPerBps: 5 });
  });

  it('falls back to the mid when both top sizes are zero', () => {
    const view = buildMarketView(input({ bid: { price: 100, size: 0 }, ask: { price: 100.1, size: 0 } }));
    expect(view.microprice).toBe(view.mid);
  });

  it('has no mid for a one-sided, crossed or locked book, and ignores unusable prices', () => {
    expect(buildMarketView(input({ ask: undefined })).mid).toBeUndefined();
    expect(buildMarketView(input({ ask: undefined })).bestBid).toBe(100);
    expect(buildMarketView(input({ bid: { price: 100.2, size: 1 } })).mid).toBeUndefined();
    expect(buildMarketView(input({ bid: { price: 100.1, size: 1 } })).microprice).toBeUndefined();
    const bad = buildMarketView(input({ bid: { price: Number.NaN, size: 1 }, ask: { price: 100.1, size: -4 } }));
    expect([bad.bestBid, bad.bestAskSize, bad.mid]).toEqual([undefined, 0, undefined]);
  });
});

describe('MarketEstimators', () => {
  it('feeds mids and trades to the three estimators and reads them at one time', () => {
    const estimators = new MarketEstimators({ volatility: { minSamples: 1 }, tradeRate: { windowMs: 10_000 }, arrival: { bucketWidthBps: 1 } });
    estimators.onMid(0, 100);
    estimators.onMid(1000, 101);
    estimators.onTrade(1500, 101.02, 'buy');
    estimators.onTrade(1600, 100.5, undefined); // below the mid 101: inferred sell
    estimators.onMid(2000, undefined);
    estimators.onTrade(2500, 100, undefined); // no mid, no side: only the arrival clock sees it
    const values = estimators.values(3000);
    expect(values.volatility).toBeCloseTo(1, 12);
    expect(values.tradeRate).toEqual({ buy: 0.1, sell: 0.1 });
    expect(values.arrival).toBeUndefined();
    expect(estimators.arrival.arrivalCount()).toBe(2);
  });
});
