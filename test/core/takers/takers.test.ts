import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARBITRAGE_PARAMETERS,
  BACKGROUND_MAKER_PARAMETERS,
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  UNINFORMED_TAKER_PARAMETERS,
  arbitrageCost,
  arbitrageThresholdBps,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  checkArbitrageOptions,
  checkBackgroundMakerOptions,
  checkUninformedTakerOptions,
  hasErrorCode,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedTwinLots,
} from '../../../src/core/index.ts';

describe('uninformed takers', () => {
  it('give a reference trade a twin exactly when the draw is below the share, with its size scaled to whole lots', () => {
    const options = { share: 0.25, sizeScale: 0.5, limitBps: 10 };
    expect(uninformedTwinLots(7, 0.2499, options)).toBe(4);
    expect(uninformedTwinLots(7, 0.25, options)).toBe(0);
    expect(uninformedTwinLots(1, 0.1, { ...options, sizeScale: 0.4 })).toBe(0);
    expect(uninformedTwinLots(7, 0, { ...options, share: 0 })).toBe(0);
    expect(uninformedTwinLots(7, 0.999999, { ...options, share: 1, sizeScale: 1 })).toBe(7);
  });

  it('take venue prices up to the limit past the reference trade price, rounded against the taker', () => {
    expect(uninformedLimitTicks('buy', 300_000, 10)).toBe(300_300);
    expect(uninformedLimitTicks('sell', 300_000, 10)).toBe(299_700);
    expect(uninformedLimitTicks('buy', 300_001, 10)).toBe(300_301);
    expect(uninformedLimitTicks('sell', 300_001, 10)).toBe(299_701);
    expect(uninformedLimitTicks('buy', 12_345, 0)).toBe(12_345);
  });

  it('never accept a price past price × (1 ± limit), and accept every whole tick within it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 500 }), (price, limitBps) => {
        const up = uninformedLimitTicks('buy', price, limitBps);
        const down = uninformedLimitTicks('sell', price, limitBps);
        // Exact in integers: up·10⁴ ≤ p·(10⁴ + l) < (up + 1)·10⁴, and the same below.
        expect(up * 10_000 <= price * (10_000 + limitBps) && (up + 1) * 10_000 > price * (10_000 + limitBps)).toBe(true);
        expect(down * 10_000 >= price * (10_000 - limitBps) && (down - 1) * 10_000 < price * (10_000 - limitBps)).toBe(true);
      }),
    );
  });
});

describe('arbitrageurs', () => {
  const cost = arbitrageCost(1_000, 5, 1_125);

  it('count the venue taker fee in bps (1000 pbips = 10 bps) plus their edge, and gas per trade', () => {
    expect(cost).toEqual({ proportionalBps: 15, fixedTickLots: 1_125 });
    expect(arbitrageThresholdBps(cost, 300_000, 500)).toBeCloseTo(15 + (1_125 * 10_000) / (300_000 * 500), 12);
  });

  it('take a resting sell only when the reference bid is through it by more than fee + edge + gas', () => {
    // 500 lots at 300 000 ticks: fee + edge 15 bps = 450 ticks, gas 1 125 tick·lots = 2.25 ticks a lot.
    expect(isArbitrageTarget('sell', 300_000, 500, 300_452, 300_460, cost)).toBe(false); // 452 < 452.25
    expect(isArbitrageTarget('sell', 300_000, 500, 300_453, 300_460, cost)).toBe(true);
    expect(isArbitrageTarget('buy', 300_000, 500, 299_530, 299_548, cost)).toBe(false); // 452 < 452.25
    expect(isArbitrageTarget('buy', 300_000, 500, 299_530, 299_547, cost)).toBe(true);
    // Gas weighs more on a small quote: one lot needs 450 + 1 125 ticks.
    expect(isArbitrageTarget('sell', 300_000, 1, 301_575, 301_580, cost)).toBe(false);
    expect(isArbitrageTarget('sell', 300_000, 1, 301_576, 301_580, cost)).toBe(true);
  });

  it('decide as the closed form in bps says, ties left, for any price, size and cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: -2_000, max: 5_000 }),
        // Whole bps of fee (pbips a multiple of 100), so the float side compares exactly too.
        fc.integer({ min: 0, max: 20 }).map((bps) => bps * 100),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        (price, lots, throughTicks, feePbips, edgeBps, gasTickLots, side) => {
          const c = arbitrageCost(feePbips, edgeBps, gasTickLots);
          const bid = side === 'sell' ? price + throughTicks : price - throughTicks - 10;
          const ask = side === 'sell' ? bid + 10 : price - throughTicks;
          // Exact: through·q·10⁴ > (fee/100 + edge)·p·q·10⁴/10⁴ + gas·10⁴, with fee in pbips kept whole (×100).
          const expected = throughTicks > 0 && BigInt(throughTicks) * BigInt(lots) * 1_000_000n > BigInt(feePbips + 100 * edgeBps) * BigInt(price) * BigInt(lots) + BigInt(gasTickLots) * 1_000_000n;
          expect(isArbitrageTarget(side, price, lots, bid, ask, c)).toBe(expected);
          // The cheap pre-check never misses a target.
          if (expected) expect(mayBeArbitrageTarget(side, price, bid, ask, c.proportionalBps)).toBe(true);
        },
      ),
    );
  });
});

describe('the background maker', () => {
  it('quotes mid × (1 ∓ h) rounded away from the mid, one tick apart at least', () => {
    expect(backgroundBidTicks(600_000, 10)).toBe(299_700);
    expect(backgroundAskTicks(600_000, 10)).toBe(300_300);
    expect(backgroundBidTicks(600_001, 10)).toBe(299_700); // mid 300 000.5 → 299 700.4995
    expect(backgroundAskTicks(600_001, 10)).toBe(300_301); // → 300 300.5005
    expect(backgroundBidTicks(3, 0.0001)).toBeLessThan(backgroundAskTicks(3, 0.0001));
  });

  it('keeps its bid below its ask for any mid and positive half-spread', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20_000_000 }), fc.double({ min: 0.001, max: 5_000, noNaN: true }), (midTwice, h) => {
        const bid = backgroundBidTicks(midTwice, h);
        const ask = backgroundAskTicks(midTwice, h);
        expect(bid).toBeLessThan(ask);
        expect(bid * 2).toBeLessThanOrEqual(midTwice);
        expect(ask * 2).toBeGreaterThanOrEqual(midTwice);
      }),
    );
  });

  it('shows its notional in whole lots at its price', () => {
    // 10 000 quote at 3 000.00 (300 000 ticks of 0.01) with 0.0001 lots: 33 333 lots.
    expect(backgroundLots(300_000, 10_000, 0.01 * 0.0001)).toBe(33_333);
  });
});

describe('options', () => {
  it('default to the values docs/thin-venue.md states', () => {
    expect(DEFAULT_UNINFORMED_TAKERS).toEqual({ share: 0.01, sizeScale: 1, limitBps: 10 });
    expect(DEFAULT_BACKGROUND_MAKER).toEqual({ halfSpreadBps: 10, lagMs: 1_000, depthQuote: 10_000 });
    expect(DEFAULT_ARBITRAGE).toEqual({ enabled: true, latencyMs: 50, edgeBps: 5 });
    expect(checkUninformedTakerOptions(DEFAULT_UNINFORMED_TAKERS)).toBe(DEFAULT_UNINFORMED_TAKERS);
    expect(checkBackgroundMakerOptions(DEFAULT_BACKGROUND_MAKER)).toBe(DEFAULT_BACKGROUND_MAKER);
    expect(checkArbitrageOptions(DEFAULT_ARBITRAGE)).toBe(DEFAULT_ARBITRAGE);
  });

  it('refuse a value out of range with an error naming the field, its flag, the value and what is allowed', () => {
    const error = (run: () => unknown): unknown => {
      try {
        run();
      } catch (caught) {
        return caught;
      }
      return undefined;
    };
    const share = error(() => checkUninformedTakerOptions({ ...DEFAULT_UNINFORMED_TAKERS, share: 1.5 }));
    expect(hasErrorCode(share, 'CORE_INVALID_OPTION')).toBe(true);
    expect(String(share)).toContain('uninformed takers.share (--thin-taker-share) = 1.5: allowed a number ≥ 0 and ≤ 1');
    expect(String(error(() => checkBackgroundMakerOptions({ ...DEFAULT_BACKGROUND_MAKER, halfSpreadBps: 0 })))).toContain('halfSpreadBps (--thin-background-spread-bps) = 0: allowed a number > 0');
    expect(String(error(() => checkArbitrageOptions({ ...DEFAULT_ARBITRAGE, latencyMs: Number.NaN })))).toContain('latencyMs (--thin-arb-latency-ms) = NaN');
    expect(String(error(() => checkUninformedTakerOptions({ ...DEFAULT_UNINFORMED_TAKERS, sizeScale: -1 })))).toContain('sizeScale');
  });

  it('declare every numeric field once, each with a distinct flag', () => {
    const flags = [...UNINFORMED_TAKER_PARAMETERS, ...BACKGROUND_MAKER_PARAMETERS, ...ARBITRAGE_PARAMETERS].map((p) => p.flag);
    expect(new Set(flags).size).toBe(flags.length);
    expect(UNINFORMED_TAKER_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_UNINFORMED_TAKERS).sort());
    expect(BACKGROUND_MAKER_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_BACKGROUND_MAKER).sort());
    expect(ARBITRAGE_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_ARBITRAGE).filter((key) => key !== 'enabled').sort());
  });
});
