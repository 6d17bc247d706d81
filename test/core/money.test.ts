import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv, formatUnits, numberToUnits, parseUnits } from '../../src/core/index.ts';

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

  it('throws on NaN and infinities', () => {
    expect(() => numberToUnits(Number.NaN, 6, 'down')).toThrow(/not a finite amount/);
    expect(() => numberToUnits(Number.POSITIVE_INFINITY, 6, 'up')).toThrow(/not a finite amount/);
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
