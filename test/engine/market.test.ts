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

describe('the fair price through a flicker of the book', () => {
  it('keeps the last fair price for FAIR_HOLD_MS after the book stops giving one, then lets it go', () => {
    let now = 0;
    const market = new MarketTracker(info, 'mid', 500, () => now);
    market.onTopOfBook(top(2000, 1, 2000.4, 1));
    now = 5_000; // a quiet book for a while: the hold counts from the moment the price is lost
    market.onTopOfBook({ ...top(2000, 1, 2000.4, 1), bidPriceUnits: undefined, askPriceUnits: undefined, timeMs: now });
    expect(market.mid()).toBeUndefined();
    expect(market.fair()).toBeCloseTo(2000.2, 9);
    expect(market.fairUnits()).toBe(usdc(2000.2));
    expect(market.view(now, 0).fair).toBeCloseTo(2000.2, 9);
    now = 5_500;
    expect(market.fair()).toBeCloseTo(2000.2, 9);
    now = 5_501;
    expect(market.fair()).toBeUndefined();
    // A new two-sided book gives a fresh price at once.
    market.onTopOfBook({ ...top(2001, 1, 2001.4, 1), timeMs: now });
    expect(market.fair()).toBeCloseTo(2001.2, 9);
  });

  it('holds nothing with FAIR_HOLD_MS=0', () => {
    const market = new MarketTracker(info, 'mid', 0, () => 0);
    market.onTopOfBook(top(2000, 1, 2000.4, 1));
    market.onTopOfBook({ ...top(2000, 1, 2000.4, 1), askPriceUnits: undefined });
    expect(market.fair()).toBeUndefined();
  });
});
