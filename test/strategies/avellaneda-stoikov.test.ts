import { describe, expect, it } from 'vitest';
import {
  AVELLANEDA_STOIKOV,
  computeAvellanedaStoikov,
  computeTimeLeftS,
  createAvellanedaStoikov,
} from '../../strategies/index.ts';
import { makeInventory, makeView, parseOrThrow } from './fixtures.ts';

describe('Avellaneda–Stoikov formulas', () => {
  it('gives the reservation price and spread computed by hand', () => {
    // s=100, q=2, γ=0.1, σ=2, T−t=0.5, k=1.5:
    // γσ²(T−t) = 0.1·4·0.5 = 0.2; r = 100 − 2·0.2 = 99.6
    // (2/γ)·ln(1 + γ/k) = 20·ln(1.0666667) = 20·0.0645385211 = 1.290770423; spread = 1.490770423
    const result = computeAvellanedaStoikov({ mid: 100, inventory: 2, gamma: 0.1, volatility: 2, timeLeftS: 0.5, kappa: 1.5 });
    expect(result.reservationPrice).toBeCloseTo(99.6, 9);
    expect(result.spread).toBeCloseTo(1.490770423, 8);
  });

  it('tends to a 2/k spread and no skew when γ is tiny', () => {
    const result = computeAvellanedaStoikov({ mid: 50, inventory: 10, gamma: 1e-12, volatility: 1, timeLeftS: 1, kappa: 4 });
    expect(result.spread).toBeCloseTo(0.5, 9);
    expect(result.reservationPrice).toBeCloseTo(50, 9);
  });

  it('counts T−t down within sessions of the horizon and restarts', () => {
    expect(computeTimeLeftS(0, 60)).toBe(60);
    expect(computeTimeLeftS(15_000, 60)).toBe(45);
    expect(computeTimeLeftS(59_999, 60)).toBeCloseTo(0.001, 9);
    expect(computeTimeLeftS(60_000, 60)).toBe(60);
    expect(computeTimeLeftS(1_700_000_000_000, 'inf')).toBe(1);
  });
});

describe('avellaneda-stoikov strategy', () => {
  const wideBook = { bestBid: 99, bestAsk: 101, mid: 100, microprice: 100, tickSize: 0.01 };

  it('quotes r ∓ spread/2 with q the position in base tokens, Δ the order size and a fixed k', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, {
      AS_GAMMA: '0.1',
      AS_KAPPA: '1.5',
      AS_HORIZON_S: '60',
      AS_ORDER_SIZE: '0.5',
      AS_MIN_SPREAD_BPS: '0',
    });
    // timeMs 30 s into a 60 s session: T−t = 30 s; σ = 0.2 → γσ²(T−t) = 0.1·0.04·30 = 0.12 per base token.
    // base 1 over target 0 → q = 1; r = 100 − 0.12 = 99.88 (inside the 20 bps skew cap).
    // spread = 0.12·Δ + (2/(γΔ))·ln(1 + γΔ/k) = 0.06 + 40·ln(1.0333…) = 1.371592913 → bid 99.194203544, ask 100.565796456.
    const view = makeView({ ...wideBook, timeMs: 30_000, volatility: 0.2 });
    const explained = createAvellanedaStoikov(params).explain(view, makeInventory({ base: 1 }));
    expect(explained?.inventory).toBe(1);
    expect(explained?.timeLeftS).toBe(30);
    expect(explained?.kappaSource).toBe('fixed');
    expect(explained?.reservationPrice).toBeCloseTo(99.88, 9);
    const quotes = createAvellanedaStoikov(params).quote(view, makeInventory({ base: 1 }));
    expect(quotes).toHaveLength(2);
    expect(quotes.find((q) => q.side === 'buy')?.price).toBeCloseTo(99.194203544, 8);
    expect(quotes.find((q) => q.side === 'sell')?.price).toBeCloseTo(100.565796456, 8);
    expect(quotes.every((q) => q.size === 0.5 && q.reference === explained?.reservationPrice)).toBe(true);
  });

  it('adds the maker fee and the gas per fill to each half spread', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, { AS_GAMMA: '0.1', AS_KAPPA: '1.5', AS_ORDER_SIZE: '0.5', AS_MIN_SPREAD_BPS: '0' });
    const free = createAvellanedaStoikov(params).explain(makeView(wideBook), makeInventory());
    // 10 bps maker fee on 100 = 0.1, plus 0.02 quote of gas per fill over 0.5 base = 0.04: 0.14 a side.
    const costly = createAvellanedaStoikov(params).explain(makeView({ ...wideBook, makerFee: 0.001, gasPerFill: 0.02 }), makeInventory());
    expect(costly?.cost).toBeCloseTo(0.14, 12);
    expect((free?.bid ?? 0) - (costly?.bid ?? 0)).toBeCloseTo(0.14, 9);
    expect((costly?.ask ?? 0) - (free?.ask ?? 0)).toBeCloseTo(0.14, 9);
  });

  it('caps the reservation offset at AS_MAX_SKEW_BPS of the fair price', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, { AS_GAMMA: '10', AS_KAPPA: '1.5', AS_ORDER_SIZE: '0.5', AS_MAX_SKEW_BPS: '30' });
    // γσ²τ·q = 10·0.04·1·5 = 2 price units uncapped; the cap is 30 bps of 100 = 0.3.
    const explained = createAvellanedaStoikov(params).explain(makeView({ ...wideBook, volatility: 0.2 }), makeInventory({ base: 5 }));
    expect(explained?.reservationPrice).toBeCloseTo(99.7, 9);
    const short = createAvellanedaStoikov(params).explain(makeView({ ...wideBook, volatility: 0.2 }), makeInventory({ base: -5 }));
    expect(short?.reservationPrice).toBeCloseTo(100.3, 9);
  });

  it('uses the fitted k when AS_KAPPA=auto and the fallback until the fit exists, both per bp of the reference', () => {
    const strategy = createAvellanedaStoikov(parseOrThrow(AVELLANEDA_STOIKOV, { AS_KAPPA_FALLBACK_PER_BPS: '0.03' }));
    const before = strategy.explain(makeView(wideBook), makeInventory());
    expect(before?.kappaSource).toBe('fallback');
    expect(before?.kappa).toBeCloseTo(3, 12); // 0.03 per bp of 100 = 3 per price unit
    const after = strategy.explain(makeView({ ...wideBook, arrival: { a: 2, kPerBps: 0.007 } }), makeInventory());
    expect(after?.kappaSource).toBe('fit');
    expect(after?.kappa).toBeCloseTo(0.7, 12);
    expect(after?.kappaPerBps).toBeCloseTo(0.007, 12);
    const degenerate = strategy.explain(makeView({ ...wideBook, arrival: { a: 2, kPerBps: Number.NaN } }), makeInventory());
    expect(degenerate?.kappaSource).toBe('fallback');
  });

  it('fixes k per bp with AS_KAPPA_PER_BPS, still reads the deprecated per-price keys, and refuses a key beside its replacement', () => {
    const perBps = createAvellanedaStoikov(parseOrThrow(AVELLANEDA_STOIKOV, { AS_KAPPA_PER_BPS: '0.015' })).explain(makeView({ ...wideBook, arrival: { a: 2, kPerBps: 0.5 } }), makeInventory());
    expect([perBps?.kappaSource, perBps?.kappa]).toEqual(['fixed', expect.closeTo(1.5, 12)]);
    const legacyFallback = createAvellanedaStoikov(parseOrThrow(AVELLANEDA_STOIKOV, { AS_KAPPA_FALLBACK: '3' })).explain(makeView(wideBook), makeInventory());
    expect([legacyFallback?.kappaSource, legacyFallback?.kappa]).toEqual(['fallback', 3]);
    for (const [env, key] of [
      [{ AS_KAPPA: '1.5', AS_KAPPA_PER_BPS: '0.015' }, 'AS_KAPPA_PER_BPS'],
      [{ AS_KAPPA: 'auto', AS_KAPPA_PER_BPS: '0.015' }, 'AS_KAPPA_PER_BPS'],
      [{ AS_KAPPA_FALLBACK: '3', AS_KAPPA_FALLBACK_PER_BPS: '0.03' }, 'AS_KAPPA_FALLBACK_PER_BPS'],
    ] as const) {
      const result = AVELLANEDA_STOIKOV.parseParams(env);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.map((issue) => issue.key)).toEqual([key]);
    }
  });

  it('widens a spread narrower than the floor around the reservation price, keeping the skew', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, { AS_GAMMA: '1', AS_KAPPA: '1000', AS_MIN_SPREAD_BPS: '50', AS_ORDER_SIZE: '1' });
    // τ = 1 s, σ = 0.1 → γσ² = 0.01 per base token; q = 3 → r = 100 − 0.03 = 99.97.
    // Model spread 0.01 + 2·ln(1.001) = 0.011999 < floor 50 bps of 100 = 0.5 → r ∓ 0.25.
    const explained = createAvellanedaStoikov(params).explain(makeView({ ...wideBook, volatility: 0.1 }), makeInventory({ base: 3 }));
    expect(explained?.bid).toBeCloseTo(99.72, 9);
    expect(explained?.ask).toBeCloseTo(100.22, 9);
  });

  it('caps the model spread at AS_MAX_SPREAD_BPS', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, { AS_GAMMA: '0.001', AS_KAPPA: '0.001', AS_MAX_SPREAD_BPS: '100' });
    // Uncapped 2/k ≈ 2000; the cap is 100 bps of 100 = 1 → 99.5 / 100.5.
    const explained = createAvellanedaStoikov(params).explain(makeView(wideBook), makeInventory());
    expect(explained?.modelSpread).toBeGreaterThan(1000);
    expect(explained?.bid).toBeCloseTo(99.5, 9);
    expect(explained?.ask).toBeCloseTo(100.5, 9);
  });

  it('lays out levels spaced in bps of the reference', () => {
    const params = parseOrThrow(AVELLANEDA_STOIKOV, { AS_LEVELS: '3', AS_LEVEL_SPACING_BPS: '10', AS_KAPPA: '2', AS_MIN_SPREAD_BPS: '0' });
    const quotes = createAvellanedaStoikov(params).quote(makeView(wideBook), makeInventory());
    const bids = quotes.filter((q) => q.side === 'buy').sort((x, y) => x.level - y.level);
    expect(bids.map((q) => q.level)).toEqual([0, 1, 2]);
    expect((bids[0]?.price ?? 0) - (bids[1]?.price ?? 0)).toBeCloseTo(0.1, 9);
    expect((bids[1]?.price ?? 0) - (bids[2]?.price ?? 0)).toBeCloseTo(0.1, 9);
  });
});
