import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARBITRAGE_PARAMETERS,
  BACKGROUND_MAKER_PARAMETERS,
  COMPETING_MAKER_PARAMETERS,
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_COMPETING_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  UNINFORMED_TAKER_PARAMETERS,
  arbitrageCost,
  arbitrageThresholdBps,
  backgroundAskTicks,
  backgroundBidTicks,
  backgroundLots,
  checkArbitrageOptions,
  checkBackgroundMakerOptions,
  checkCompetingMakerOptions,
  checkUninformedTakerOptions,
  competitorAskTicks,
  competitorBidTicks,
  competitorLots,
  createRng,
  hasErrorCode,
  isArbitrageTarget,
  mayBeArbitrageTarget,
  uninformedLimitTicks,
  uninformedSlackBps,
  uninformedTwinLots,
} from '../../../src/core/index.ts';

describe('uninformed takers', () => {
  it('give a reference trade a twin exactly when the draw is below the share, with its size scaled to whole lots', () => {
    const options = { ...DEFAULT_UNINFORMED_TAKERS, share: 0.25, sizeScale: 0.5 };
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

  it('draw an elastic slack from an exponential of the stated mean, and the fixed limit without a draw', () => {
    const elastic = { ...DEFAULT_UNINFORMED_TAKERS, slackMeanBps: 5 };
    expect(uninformedSlackBps(elastic, 0)).toBe(0);
    expect(uninformedSlackBps(elastic, 1 - Math.exp(-1))).toBeCloseTo(5, 12);
    expect(uninformedSlackBps({ ...elastic, limitModel: 'fixed', limitBps: 10 }, 0.9)).toBe(10);
    // The sample mean of 20 000 draws is within 4.5 standard errors (σ = mean / √n) of the mean.
    const rng = createRng(3);
    let sum = 0;
    for (let i = 0; i < 20_000; i++) sum += uninformedSlackBps(elastic, rng.next());
    expect(Math.abs(sum / 20_000 - 5)).toBeLessThan((4.5 * 5) / Math.sqrt(20_000));
  });

  it('accept a quote δ bps past the reference trade price with a chance that falls as e^(−δ/mean) (elastic), flat up to the limit (fixed)', () => {
    const elastic = { ...DEFAULT_UNINFORMED_TAKERS, slackMeanBps: 5 };
    const fixed = { ...elastic, limitModel: 'fixed' as const, limitBps: 10 };
    const acceptShare = (options: typeof elastic, quoteTicks: number): number => {
      const rng = createRng(11);
      let accepted = 0;
      for (let i = 0; i < 20_000; i++) if (uninformedLimitTicks('buy', 300_000, uninformedSlackBps(options, rng.next())) >= quoteTicks) accepted++;
      return accepted / 20_000;
    };
    // 2, 4 and 8 bps past 300 000 ticks.
    const shares = [300_060, 300_120, 300_240].map((quote) => acceptShare(elastic, quote));
    expect(shares[0]).toBeGreaterThan(shares[1] as number);
    expect(shares[1]).toBeGreaterThan(shares[2] as number);
    shares.forEach((share, i) => expect(share).toBeCloseTo(Math.exp(-[2, 4, 8][i]! / 5), 1));
    expect([300_060, 300_120, 300_240, 300_301].map((quote) => acceptShare(fixed, quote))).toEqual([1, 1, 1, 0]);
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

  it('count the venue taker fee in bps (1000 pbips = 10 bps) plus their edge, the reference leg\'s fee, and gas per trade', () => {
    expect(cost).toEqual({ proportionalBps: 15, referenceBps: 0, fixedTickLots: 1_125 });
    expect(arbitrageThresholdBps(cost, 300_000, 500)).toBeCloseTo(15 + (1_125 * 10_000) / (300_000 * 500), 12);
    expect(arbitrageCost(1_000, 0, 0, 2.4)).toEqual({ proportionalBps: 10, referenceBps: 2.4, fixedTickLots: 0 });
  });

  it('take a quote only when it is stale by more than both legs: the venue fee on our price and the reference fee on the reference price', () => {
    // Venue fee 10 bps, reference fee 3 bps, no edge or gas; a resting sell at 300 000 ticks.
    const twoLegs = arbitrageCost(1_000, 0, 0, 3);
    // Gain g ticks a lot against 10 bps of 300 000 (300 ticks) + 3 bps of (300 000 + g): g > 390.117…
    expect(isArbitrageTarget('sell', 300_000, 7, 300_390, 300_400, twoLegs)).toBe(false);
    expect(isArbitrageTarget('sell', 300_000, 7, 300_391, 300_400, twoLegs)).toBe(true);
    // A resting buy at 300 000, bought back at the ask A: 300 000 − A > 300 + 3 bps of A, so A < 299 610.117…
    expect(isArbitrageTarget('buy', 300_000, 7, 299_600, 299_611, twoLegs)).toBe(false);
    expect(isArbitrageTarget('buy', 300_000, 7, 299_600, 299_610, twoLegs)).toBe(true);
    expect(mayBeArbitrageTarget('sell', 300_000, 300_391, 300_400, twoLegs)).toBe(true);
    expect(mayBeArbitrageTarget('sell', 300_000, 300_390, 300_400, twoLegs)).toBe(false);
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
          if (expected) expect(mayBeArbitrageTarget(side, price, bid, ask, c)).toBe(true);
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

describe('the competing maker', () => {
  const options = { ...DEFAULT_COMPETING_MAKER, halfSpreadBps: 3 };

  it('quotes at the reference touch on a large-tick book, one tick inside when asked and the spread allows, never nearer the mid than its floor', () => {
    // NEXO-like: 1.200/1.201 in 0.001 ticks (≈ 8 bps a tick): the touch is ≈ 4 bps from the mid, past the 3 bps floor.
    expect([competitorBidTicks(1_200, 1_201, options), competitorAskTicks(1_200, 1_201, options)]).toEqual([1_200, 1_201]);
    // One tick inside a one-tick spread would cross: the floor holds it at the touch.
    const inside = { ...options, offsetTicks: -1 };
    expect([competitorBidTicks(1_200, 1_201, inside), competitorAskTicks(1_200, 1_201, inside)]).toEqual([1_200, 1_201]);
    // A three-tick spread leaves room: one tick inside on each side.
    expect([competitorBidTicks(1_200, 1_203, inside), competitorAskTicks(1_200, 1_203, inside)]).toEqual([1_201, 1_202]);
    // ETH-like: 2 683.80/2 683.81 in 0.01 ticks: the 3 bps floor decides (≈ 80.5 ticks from the mid, rounded away from it).
    expect([competitorBidTicks(268_380, 268_381, options), competitorAskTicks(268_380, 268_381, options)]).toEqual([268_299, 268_462]);
  });

  it('keeps its bid below its ask for any touch, offset and floor', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000_000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: -100, max: 100 }), fc.double({ min: 0.01, max: 100, noNaN: true }), (bid, spread, offsetTicks, halfSpreadBps) => {
        const o = { ...options, offsetTicks, halfSpreadBps };
        expect(competitorBidTicks(bid, bid + spread, o)).toBeLessThan(competitorAskTicks(bid, bid + spread, o));
      }),
    );
  });

  it('shows a share of the reference queue at its touch, in whole lots', () => {
    expect(competitorLots(12_345, 0.01)).toBe(123);
    expect(competitorLots(12_345, 0)).toBe(0);
    expect(competitorLots(12_345, 1)).toBe(12_345);
  });
});

describe('options', () => {
  it('default to the values docs/thin-venue.md states', () => {
    expect(DEFAULT_UNINFORMED_TAKERS).toEqual({ share: 0.01, sizeScale: 1, limitBps: 10, limitModel: 'elastic', slackMeanBps: 5 });
    expect(DEFAULT_BACKGROUND_MAKER).toEqual({ halfSpreadBps: 10, lagMs: 1_000, depthQuote: 10_000 });
    expect(DEFAULT_COMPETING_MAKER).toEqual({ depthShare: 0.01, offsetTicks: 0, halfSpreadBps: 3, lagMs: 250 });
    expect(DEFAULT_ARBITRAGE).toEqual({ enabled: true, latencyMs: 50, edgeBps: 0, referenceFeeBps: 2.4 });
    expect(checkCompetingMakerOptions(DEFAULT_COMPETING_MAKER)).toBe(DEFAULT_COMPETING_MAKER);
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
    expect(String(error(() => checkUninformedTakerOptions({ ...DEFAULT_UNINFORMED_TAKERS, limitModel: 'flat' as 'fixed' })))).toContain('limitModel (--thin-taker-limit-model) = flat: allowed elastic or fixed');
    expect(String(error(() => checkCompetingMakerOptions({ ...DEFAULT_COMPETING_MAKER, offsetTicks: 0.5 })))).toContain('offsetTicks (--thin-competitor-offset-ticks) = 0.5: allowed a whole number');
  });

  it('declare every numeric field once, each with a distinct flag', () => {
    const flags = [...UNINFORMED_TAKER_PARAMETERS, ...BACKGROUND_MAKER_PARAMETERS, ...COMPETING_MAKER_PARAMETERS, ...ARBITRAGE_PARAMETERS].map((p) => p.flag);
    expect(new Set(flags).size).toBe(flags.length);
    expect(UNINFORMED_TAKER_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_UNINFORMED_TAKERS).filter((key) => key !== 'limitModel').sort());
    expect(COMPETING_MAKER_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_COMPETING_MAKER).sort());
    expect(BACKGROUND_MAKER_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_BACKGROUND_MAKER).sort());
    expect(ARBITRAGE_PARAMETERS.map((p) => p.field).sort()).toEqual(Object.keys(DEFAULT_ARBITRAGE).filter((key) => key !== 'enabled').sort());
  });
});
