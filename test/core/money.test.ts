import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv, decimalNumberToUnits, formatUnits, numberToUnits, parseUnits, unitsToNumber } from '../../src/core/index.ts';

describe('parseUnits and formatUnits', () => {
  it('parses decimal strings into exact base units', () => {
    expect(parseUnits('3000.5', 6)).toBe(3_000_500_000n);
    expect(parseUnits('0.000000000000000001', 18)).toBe(1n);
    expect(parseUnits('12', 0)).toBe(12n);
    expect(parseUnits('0', 18)).toBe(0n);
  });

  it('formats without exponent, trailing zeros or a trailing dot', () => {
    expect(formatUnits(3_000_500_000n, 6)).toBe('3000.5');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(10n ** 18n, 18)).toBe('1');
    expect(formatUnits(-1_250_000n, 6)).toBe('-1.25');
    expect(formatUnits(0n, 6)).toBe('0');
  });

  it('round-trips every amount for every decimals count', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), fc.integer({ min: 0, max: 30 }), (units, decimals) => {
        expect(parseUnits(formatUnits(units, decimals), decimals)).toBe(units);
      }),
    );
  });

  it('rejects exponents, signs, spaces and junk, naming the text', () => {
    for (const bad of ['1e5', '-1', '+1', ' 1', '1.', '.5', '0x10', 'NaN', '', '1,5']) {
      expect(() => parseUnits(bad, 6)).toThrow(/not a plain decimal/);
    }
  });

  it('refuses extra decimal places unless told how to round', () => {
    expect(() => parseUnits('1.0000001', 6)).toThrow(/more than 6 decimal places/);
    expect(parseUnits('1.0000001', 6, { rounding: 'down' })).toBe(1_000_000n);
    expect(parseUnits('1.0000001', 6, { rounding: 'up' })).toBe(1_000_001n);
    expect(parseUnits('1.5000000', 6)).toBe(1_500_000n);
  });

  it('rounds negative amounts in the mathematical direction when allowed', () => {
    expect(parseUnits('-1.55', 1, { allowNegative: true, rounding: 'down' })).toBe(-16n);
    expect(parseUnits('-1.55', 1, { allowNegative: true, rounding: 'up' })).toBe(-15n);
  });
});

describe('numberToUnits', () => {
  it('reads a float as the decimal it prints as, then rounds in the given direction', () => {
    expect(numberToUnits(0.1, 18, 'down')).toBe(10n ** 17n);
    expect(numberToUnits(2675.3, 6, 'down')).toBe(2_675_300_000n);
    expect(numberToUnits(1.0000005, 6, 'down')).toBe(1_000_000n);
    expect(numberToUnits(1.0000005, 6, 'up')).toBe(1_000_001n);
  });

  it('never rounds down above nor up below the exact value', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 18 }), (value, decimals) => {
        const down = numberToUnits(value, decimals, 'down');
        const up = numberToUnits(value, decimals, 'up');
        expect(up - down === 0n || up - down === 1n).toBe(true);
      }),
    );
  });

  it('equals the decimal.js reference for any double and any decimals count', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 0, max: 30 }), fc.constantFrom('down', 'up'), (value, decimals, direction) => {
        expect(numberToUnits(value, decimals, direction)).toBe(decimalNumberToUnits(value, decimals, direction));
      }),
      { numRuns: 3_000 },
    );
  });

  it('equals the decimal.js reference on and next to every grid point of the decimals', () => {
    // m / 10^k and its neighbouring doubles: where float rounding could land on the wrong side.
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
        fc.integer({ min: 0, max: 22 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: -2, max: 2 }),
        fc.constantFrom('down', 'up'),
        (m, k, decimals, step, direction) => {
          const value = nextDouble(m / 10 ** k, step);
          expect(numberToUnits(value, decimals, direction)).toBe(decimalNumberToUnits(value, decimals, direction));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('equals the decimal.js reference for strategy-like prices and sizes', () => {
    // Tick prices moved by a few bps, and sizes scaled by skew factors: what the engine rounds.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.double({ min: -50, max: 50, noNaN: true }),
        fc.constantFrom(2, 6, 8, 18),
        fc.constantFrom('down', 'up'),
        (ticks, bps, decimals, direction) => {
          const value = (ticks / 100) * (1 + bps / 10_000);
          expect(numberToUnits(value, decimals, direction)).toBe(decimalNumberToUnits(value, decimals, direction));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('throws on NaN and infinities', () => {
    expect(() => numberToUnits(Number.NaN, 6, 'down')).toThrow(/not a finite amount/);
    expect(() => numberToUnits(Number.POSITIVE_INFINITY, 6, 'up')).toThrow(/not a finite amount/);
  });
});

describe('unitsToNumber', () => {
  it('gives the double nearest to the exact decimal, as parsing its text would', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.integer({ min: 0, max: 30 }), (units, decimals) => {
        expect(unitsToNumber(units, decimals)).toBe(Number(formatUnits(units, decimals)));
      }),
      { numRuns: 3_000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }), fc.integer({ min: 0, max: 24 }), (units, decimals) => {
        expect(unitsToNumber(units, decimals)).toBe(Number(formatUnits(units, decimals)));
      }),
      { numRuns: 3_000 },
    );
    // Exact doubles beyond 2^53 (lots of 18-decimal tokens), and their neighbours that are not.
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }), fc.integer({ min: 1, max: 80 }), fc.integer({ min: -1, max: 1 }), fc.integer({ min: 0, max: 24 }), (odd, shift, nudge, decimals) => {
        const units = (odd << BigInt(shift)) + BigInt(nudge);
        expect(unitsToNumber(units, decimals)).toBe(Number(formatUnits(units, decimals)));
      }),
      { numRuns: 3_000 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 24 }), (units, zeros, decimals) => {
        const round = units * 10n ** BigInt(zeros);
        expect(unitsToNumber(round, decimals)).toBe(Number(formatUnits(round, decimals)));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('ceilDiv', () => {
  it('rounds fees up, against the payer', () => {
    expect(ceilDiv(1n, 1_000_000n)).toBe(1n);
    expect(ceilDiv(1_000_000n, 1_000_000n)).toBe(1n);
    expect(ceilDiv(1_000_001n, 1_000_000n)).toBe(2n);
    expect(ceilDiv(0n, 7n)).toBe(0n);
    expect(ceilDiv(-7n, 2n)).toBe(-3n);
  });

  it('equals the mathematical ceiling for every sign of numerator', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (a, b) => {
        const q = ceilDiv(a, b);
        expect(q * b >= a).toBe(true);
        expect((q - 1n) * b < a).toBe(true);
      }),
    );
  });
});

/** The double `steps` representable values above (or below, when negative) `value`. */
function nextDouble(value: number, steps: number): number {
  const view = new DataView(new ArrayBuffer(8));
  let current = value;
  for (let i = 0; i < Math.abs(steps); i++) {
    if (current === 0) {
      current = steps > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
      continue;
    }
    view.setFloat64(0, current);
    const bits = view.getBigInt64(0);
    // Moving away from zero adds one to the magnitude's bits; towards zero subtracts one.
    const away = (steps > 0) === current > 0;
    view.setBigInt64(0, away ? bits + 1n : bits - 1n);
    current = view.getFloat64(0);
  }
  return current;
}
