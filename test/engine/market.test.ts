import { describe, expect, it } from 'vitest';
import { MarketTracker } from '../../src/engine/market.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const info = { rules: ETH_USDC, makerFeePbips: 100, takerFeePbips: 200, steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 } };
const top = (bid: number, bidQty: number, ask: number, askQty: number) => ({
  bidPriceUnits: usdc(bid),
  bidQtyUnits: eth(bidQty),
  askPriceUnits: usdc(ask),
  askQtyUnits: eth(askQty),
  timeMs: 1,
});

describe('the fair price stage', () => {
  it('hands every strategy the fair price FAIR_PRICE asks for: the mid, or the size-weighted microprice', () => {
    const mid = new MarketTracker(info, 'mid');
    const micro = new MarketTracker(info, 'microprice');
    for (const market of [mid, micro]) market.onTopOfBook(top(2000, 3, 2000.4, 1));
    expect(mid.fair()).toBeCloseTo(2000.2, 9);
    expect(mid.view(1, 0).fair).toBeCloseTo(2000.2, 9);
    // (2000·1 + 2000.4·3) / 4 = 2000.3: more bids than asks, the fair price leans up.
    expect(micro.fair()).toBeCloseTo(2000.3, 9);
    expect(micro.view(1, 0).fair).toBeCloseTo(2000.3, 9);
    expect(micro.fairUnits()).toBe(usdc(2000.3));
    expect(micro.view(1, 0).mid).toBeCloseTo(2000.2, 9);
  });

  it('has no fair price on a one-sided or crossed book, and passes the gas per fill on', () => {
    const market = new MarketTracker(info, 'microprice');
    market.onTopOfBook({ ...top(2000, 1, 2000.4, 1), askPriceUnits: undefined });
    expect(market.fair()).toBeUndefined();
    market.onTopOfBook(top(2000.5, 1, 2000.4, 1));
    expect(market.fair()).toBeUndefined();
    expect(market.view(1, 0.25).gasPerFill).toBe(0.25);
  });
});
