import { describe, expect, it } from 'vitest';
import { GLFT, computeGlftCoefficients, computeGlftQuote, createGlft } from '../../strategies/index.ts';
import { makeInventory, makeView, parseOrThrow } from './fixtures.ts';

describe('GLFT formulas', () => {
  it('gives ln 2 and √2 for γ = k = A = 1', () => {
    // c1 = ln(1 + 1) = 0.693147181; c2 = √(1/2 · 2^(1+1)) = √2 = 1.414213562
    const { c1, c2 } = computeGlftCoefficients({ gamma: 1, a: 1, k: 1 });
    expect(c1).toBeCloseTo(0.693147181, 9);
    expect(c2).toBeCloseTo(1.414213562, 9);
  });

  it('gives the half spread and skew computed by hand', () => {
    // γ = ξ = 0.1, Δ = 1, A = 2, k = 1.5, σ = 2:
    // c1 = 10·ln(1.0666667) = 0.645385211
    // c2 = √(0.1/(2·2·1.5) · 1.0666667^16) = √(0.0166667 · 2.808403966) = 0.216348637
    // half = c1 + ½·2·c2 = 0.861733848; skew = 2·c2 = 0.432697274
    // q = 3, fair 100: bid = 100 − (0.861733848 + 1.298091822) = 97.840174329,
    //                  ask = 100 + (0.861733848 − 1.298091822) = 99.563642026
    const coefficients = computeGlftCoefficients({ gamma: 0.1, a: 2, k: 1.5 });
    expect(coefficients.c1).toBeCloseTo(0.645385211, 9);
    expect(coefficients.c2).toBeCloseTo(0.216348637, 9);
    const quote = computeGlftQuote({ ...coefficients, fair: 100, inventory: 3, volatility: 2 });
    expect(quote.halfSpread).toBeCloseTo(0.861733848, 8);
    expect(quote.skew).toBeCloseTo(0.432697274, 8);
    expect(quote.bid).toBeCloseTo(97.840174329, 8);
    expect(quote.ask).toBeCloseTo(99.563642026, 8);
  });

  it('applies adj1 to the half spread and adj2 to the skew', () => {
    const base = computeGlftQuote({ c1: 1, c2: 2, fair: 10, inventory: 1, volatility: 0.5 });
    const adjusted = computeGlftQuote({ c1: 1, c2: 2, fair: 10, inventory: 1, volatility: 0.5, adj1: 2, adj2: 0.5 });
    // half = 1 + 0.5·0.5·2 = 1.5, skew = 1; adjusted: 3 and 0.5
    expect([base.halfSpread, base.skew]).toEqual([1.5, 1]);
    expect([adjusted.halfSpread, adjusted.skew]).toEqual([3, 0.5]);
  });

  it('stays finite when ξΔ ≪ k, where (1 + x)^(1/x + 1) → e', () => {
    const { c1, c2 } = computeGlftCoefficients({ gamma: 1e-12, a: 1, k: 1 });
    // c1 → 1/k = 1; c2 → √(γ·e/(2Ak)) = √(1e-12·2.718281828/2)
    expect(c1).toBeCloseTo(1, 9);
    expect(c2).toBeCloseTo(Math.sqrt(1.359140914e-12), 15);
  });
});

describe('glft strategy', () => {
  const wideBook = { bestBid: 99, bestAsk: 101, mid: 100, microprice: 100 };

  it('quotes around the fair price with fallback A and k until the fit is ready, q the position in base tokens', () => {
    const params = parseOrThrow(GLFT, {
      GLFT_GAMMA: '1',
      GLFT_A: '1',
      GLFT_K_PER_BPS: '0.01', // 1 per price unit at 100
      GLFT_MIN_SPREAD_BPS: '0',
      GLFT_MAX_SPREAD_BPS: '1000',
      GLFT_MAX_SKEW_BPS: '5000',
      GLFT_ORDER_SIZE: '0.1',
      GLFT_MAX_POSITION: 'off',
    });
    // Δ = 0.1, ξΔ/k = 0.1: c1 = 10·ln 1.1 = 0.953101798; c2 = √(1/(2·0.1) · 1.1^11) = 3.776980743.
    // σ = 0.5: half = c1 + (Δ/2)·σ·c2 = 1.047526317; skew = σ·c2 = 1.888490371 per base token;
    // q = 0.2 → r = 100 − 0.377698074 = 99.622301926.
    const explained = createGlft(params).explain(makeView({ ...wideBook, volatility: 0.5 }), makeInventory({ base: 0.2 }));
    expect(explained?.arrivalSource).toBe('fallback');
    expect(explained?.inventory).toBeCloseTo(0.2, 12);
    expect(explained?.reservationPrice).toBeCloseTo(99.622301926, 8);
    expect(explained?.bid).toBeCloseTo(99.622301926 - 1.047526317, 8);
    expect(explained?.ask).toBeCloseTo(99.622301926 + 1.047526317, 8);
  });

  it('adds the maker fee and the gas per fill to the half spread', () => {
    const params = parseOrThrow(GLFT, { GLFT_ORDER_SIZE: '0.1', GLFT_MIN_SPREAD_BPS: '0' });
    const free = createGlft(params).explain(makeView(wideBook), makeInventory());
    // 5 bps of 100 = 0.05, plus 0.003 quote of gas over 0.1 base = 0.03: 0.08 a side.
    const costly = createGlft(params).explain(makeView({ ...wideBook, makerFee: 0.0005, gasPerFill: 0.003 }), makeInventory());
    expect(costly?.cost).toBeCloseTo(0.08, 12);
    expect((costly?.ask ?? 0) - (free?.ask ?? 0)).toBeCloseTo(0.08, 9);
    expect((free?.bid ?? 0) - (costly?.bid ?? 0)).toBeCloseTo(0.08, 9);
  });

  it('switches to the fitted A and k (per bp, turned into per price unit at the fair price), unless GLFT_FIT_ARRIVAL is off', () => {
    const view = makeView({ ...wideBook, arrival: { a: 5, kPerBps: 0.02 } });
    const fitted = createGlft(parseOrThrow(GLFT)).explain(view, makeInventory());
    expect([fitted?.arrivalSource, fitted?.a]).toEqual(['fit', 5]);
    expect(fitted?.k).toBeCloseTo(2, 12); // 0.02 per bp of 100 = 2 per price unit
    expect(fitted?.kPerBps).toBeCloseTo(0.02, 12);
    const fixed = createGlft(parseOrThrow(GLFT, { GLFT_FIT_ARRIVAL: 'off', GLFT_A: '3', GLFT_K_PER_BPS: '0.04' })).explain(view, makeInventory());
    expect([fixed?.arrivalSource, fixed?.a]).toEqual(['fallback', 3]);
    expect(fixed?.k).toBeCloseTo(4, 12);
  });

  it('still reads the deprecated GLFT_K per quote price unit, and refuses it beside GLFT_K_PER_BPS', () => {
    const view = makeView({ ...wideBook, arrival: undefined });
    const legacy = createGlft(parseOrThrow(GLFT, { GLFT_K: '4' })).explain(view, makeInventory());
    expect(legacy?.k).toBe(4);
    expect(legacy?.kPerBps).toBeCloseTo(0.04, 12);
    const both = GLFT.parseParams({ GLFT_K: '4', GLFT_K_PER_BPS: '0.04' });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(both.issues).toEqual([expect.objectContaining({ key: 'GLFT_K_PER_BPS', value: '0.04', allowed: expect.stringContaining('GLFT_K=4') })]);
  });

  it('quotes only the levels that, all filled, keep the position inside GLFT_MAX_POSITION', () => {
    const strategy = createGlft(parseOrThrow(GLFT, { GLFT_ORDER_SIZE: '0.1', GLFT_MAX_POSITION: '0.3', GLFT_LEVELS: '3' }));
    const count = (base: number, side: 'buy' | 'sell'): number => strategy.quote(makeView(wideBook), makeInventory({ base, targetBase: 1 })).filter((q) => q.side === side).length;
    expect([count(1, 'buy'), count(1, 'sell')]).toEqual([3, 3]);
    expect([count(1.1, 'buy'), count(1.1, 'sell')]).toEqual([2, 3]); // 0.1 + 2·0.1 = 0.3
    expect([count(1.25, 'buy'), count(1.25, 'sell')]).toEqual([0, 3]);
    expect([count(0.8, 'buy'), count(0.8, 'sell')]).toEqual([3, 1]);
  });

  it('stops quoting the side whose next fill would pass the position limit', () => {
    const strategy = createGlft(parseOrThrow(GLFT, { GLFT_ORDER_SIZE: '0.1', GLFT_MAX_POSITION: '0.3' }));
    const sides = (base: number): string[] => strategy.quote(makeView(wideBook), makeInventory({ base, targetBase: 1 })).map((q) => q.side).sort();
    expect(sides(1.2)).toEqual(['buy', 'sell']); // 0.2 + 0.1 = 0.3: at the limit, allowed
    expect(sides(1.25)).toEqual(['sell']);
    expect(sides(0.75)).toEqual(['buy']);
    expect(sides(1)).toEqual(['buy', 'sell']);
  });

  it('caps the skew at GLFT_MAX_SKEW_BPS, and leaves the clamp to the book to the engine', () => {
    const strategy = createGlft(parseOrThrow(GLFT, { GLFT_MAX_POSITION: 'off', GLFT_ORDER_SIZE: '0.01', GLFT_MAX_SKEW_BPS: '20' }));
    const view = makeView({ volatility: 2 });
    const explained = strategy.explain(view, makeInventory({ base: 5 }));
    // An enormous long: the reservation price stops 20 bps (4.0002) under the fair 2000.01.
    expect(explained?.reservationPrice).toBeCloseTo(2000.01 * (1 - 0.002), 9);
    const ask = explained?.quotes.find((q) => q.side === 'sell');
    expect(ask?.price).toBeLessThan(2000); // under the best bid: the engine clamps it, in ticks
    expect(explained?.quotes.every((q) => q.reference === explained.reservationPrice)).toBe(true);
  });
});
