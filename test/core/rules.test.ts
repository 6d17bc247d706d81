import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clampPassivePrice,
  fitQuantity,
  fitQuantityNumber,
  isValidPrice,
  isValidQuantity,
  notionalUnits,
  quotePriceToUnits,
  roundPassivePrice,
  roundToStep,
  type Side,
  type TickerRules,
} from '../../src/core/index.ts';

const ethUsdc: TickerRules = {
  base: 'ETH',
  quote: 'USDC',
  isEcosystemBook: true,
  priceTick: 10_000n, // 0.01 USDC
  qtyStep: 10n ** 14n, // 0.0001 ETH
  minQty: 10n ** 15n, // 0.001 ETH
  baseDecimals: 18,
  quoteDecimals: 6,
};

const rulesArbitrary = fc.record({
  base: fc.constant('ETH'),
  quote: fc.constant('USDC'),
  isEcosystemBook: fc.boolean(),
  priceTick: fc.bigInt({ min: 1n, max: 10n ** 8n }),
  qtyStep: fc.bigInt({ min: 1n, max: 10n ** 16n }),
  minQty: fc.bigInt({ min: 0n, max: 10n ** 17n }),
  baseDecimals: fc.constant(18),
  quoteDecimals: fc.constant(6),
});
const side = fc.constantFrom<Side>('buy', 'sell');

describe('roundToStep', () => {
  it('floors and ceils to multiples, negatives included', () => {
    expect(roundToStep(17n, 5n, 'down')).toBe(15n);
    expect(roundToStep(17n, 5n, 'up')).toBe(20n);
    expect(roundToStep(15n, 5n, 'up')).toBe(15n);
    expect(roundToStep(-17n, 5n, 'down')).toBe(-20n);
    expect(roundToStep(-17n, 5n, 'up')).toBe(-15n);
  });

  it('returns the nearest multiple on the asked side, never further than one step', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (value, step) => {
        const down = roundToStep(value, step, 'down');
        const up = roundToStep(value, step, 'up');
        expect(down % step).toBe(0n);
        expect(up % step).toBe(0n);
        expect(down <= value && value - down < step).toBe(true);
        expect(up >= value && up - value < step).toBe(true);
      }),
    );
  });
});

describe('passive price rounding', () => {
  it('rounds bids down and asks up, so a quote never moves towards crossing', () => {
    expect(roundPassivePrice(2_675_305_000n, 'buy', ethUsdc)).toBe(2_675_300_000n);
    expect(roundPassivePrice(2_675_305_000n, 'sell', ethUsdc)).toBe(2_675_310_000n);
    expect(quotePriceToUnits(2675.305, 'buy', ethUsdc)).toBe(2_675_300_000n);
    expect(quotePriceToUnits(2675.305, 'sell', ethUsdc)).toBe(2_675_310_000n);
  });

  it('keeps a float price that is already on the tick exactly there', () => {
    expect(quotePriceToUnits(2675.3, 'buy', ethUsdc)).toBe(2_675_300_000n);
    expect(quotePriceToUnits(2675.3, 'sell', ethUsdc)).toBe(2_675_300_000n);
  });

  it('for any price and tick: on the tick, within one tick, on the passive side', () => {
    fc.assert(
      fc.property(rulesArbitrary, side, fc.double({ min: 1e-3, max: 1e6, noNaN: true }), (rules, s, price) => {
        const units = quotePriceToUnits(price, s, rules);
        expect(isValidPrice(units, rules)).toBe(true);
        const exactMicro = Number(units) / 1e6;
        if (s === 'buy') expect(exactMicro <= price + 1e-9 || units === rules.priceTick).toBe(true);
        else expect(exactMicro >= price - 1e-9).toBe(true);
        expect(Math.abs(exactMicro - price) * 1e6 < Number(rules.priceTick) + 1 || units === rules.priceTick).toBe(true);
      }),
    );
  });

  it('after the integer guard, a bid is below the best ask and an ask above the best bid', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.double({ min: -2, max: 2, noNaN: true }), (rules, ticks, offsetTicks) => {
        const touch = ticks * rules.priceTick;
        const price = (Number(touch) + offsetTicks * Number(rules.priceTick)) / 1e6;
        if (!(price > 0)) return;
        const bid = clampPassivePrice(quotePriceToUnits(price, 'buy', rules), 'buy', touch, rules);
        if (bid !== undefined) {
          expect(bid < touch).toBe(true);
          expect(isValidPrice(bid, rules)).toBe(true);
        } else expect(touch).toBe(rules.priceTick);
        const ask = clampPassivePrice(quotePriceToUnits(price, 'sell', rules), 'sell', touch, rules);
        expect(ask !== undefined && ask > touch && isValidPrice(ask, rules)).toBe(true);
      }),
    );
  });

  it('leaves a passive price alone when it does not reach the other side', () => {
    expect(clampPassivePrice(2_675_300_000n, 'buy', 2_675_310_000n, ethUsdc)).toBe(2_675_300_000n);
    expect(clampPassivePrice(2_675_310_000n, 'buy', 2_675_310_000n, ethUsdc)).toBe(2_675_300_000n);
    expect(clampPassivePrice(2_675_300_000n, 'sell', 2_675_300_000n, ethUsdc)).toBe(2_675_310_000n);
    expect(clampPassivePrice(2_675_300_000n, 'sell', undefined, ethUsdc)).toBe(2_675_300_000n);
  });

  it('rejects a non-positive or non-finite strategy price', () => {
    expect(() => quotePriceToUnits(0, 'buy', ethUsdc)).toThrow(/positive finite/);
    expect(() => quotePriceToUnits(Number.NaN, 'sell', ethUsdc)).toThrow(/positive finite/);
  });
});

describe('fitQuantity', () => {
  it('rounds sizes down to the step and flags sizes under the minimum', () => {
    expect(fitQuantity(123_456_789_000_000_000n, ethUsdc)).toEqual({ kind: 'ok', qty: 123_400_000_000_000_000n });
    expect(fitQuantity(999_999_999_999_999n, ethUsdc)).toEqual({ kind: 'below-minimum', qty: 900_000_000_000_000n, minQty: 10n ** 15n });
    expect(fitQuantity(0n, ethUsdc).kind).toBe('below-minimum');
    expect(fitQuantity(-5n, ethUsdc)).toEqual({ kind: 'below-minimum', qty: 0n, minQty: 10n ** 15n });
    expect(fitQuantityNumber(0.12345, ethUsdc)).toEqual({ kind: 'ok', qty: 123_400_000_000_000_000n });
  });

  it('never exceeds the size asked for, and an ok size is always valid', () => {
    fc.assert(
      fc.property(rulesArbitrary, fc.bigInt({ min: 0n, max: 10n ** 22n }), (rules, qty) => {
        const fit = fitQuantity(qty, rules);
        expect(fit.qty <= qty || qty < 0n).toBe(true);
        expect(qty - fit.qty < rules.qtyStep).toBe(true);
        if (fit.kind === 'ok') expect(isValidQuantity(fit.qty, rules)).toBe(true);
        else expect(fit.qty < rules.minQty || fit.qty === 0n).toBe(true);
      }),
    );
  });
});

describe('notionalUnits', () => {
  it('multiplies price by size in quote base units with explicit rounding', () => {
    // 0.0001 ETH at 2675.3 USDC = 0.26753 USDC = 267530 units
    expect(notionalUnits(2_675_300_000n, 10n ** 14n, ethUsdc, 'down')).toBe(267_530n);
    // 1 wei of ETH at 1 USDC rounds to 0 down and 1 up
    expect(notionalUnits(1_000_000n, 1n, ethUsdc, 'down')).toBe(0n);
    expect(notionalUnits(1_000_000n, 1n, ethUsdc, 'up')).toBe(1n);
  });
});
