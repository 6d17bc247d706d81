/**
 * Human decimal strings ⇄ integer base units. This is the one place amounts cross between the
 * wire's decimal text and our `bigint` arithmetic (ARCHITECTURE "exact money at the edges").
 * Nothing here touches a float except `numberToUnits`, which goes through decimal.js so that a
 * strategy's `number` becomes the exact decimal it prints as, then rounds in an explicit direction.
 */
import { Decimal } from 'decimal.js';
import { MmError } from './errors.ts';

/** Which way to round when a value falls between two representable amounts. */
export type RoundingDirection = 'down' | 'up';

const UNSIGNED_DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const SIGNED_DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;

/** 10^decimals as a bigint, cached for the decimals tokens use. */
export function pow10(decimals: number): bigint {
  const cached = POW10[decimals];
  if (cached !== undefined) return cached;
  return 10n ** BigInt(decimals);
}
const POW10: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

/** Options of {@link parseUnits}. */
export interface ParseUnitsOptions {
  /** What to do with digits beyond `decimals`: reject (default) or round down/up. */
  readonly rounding?: 'exact' | RoundingDirection;
  /** Accept a leading minus sign (PnL, signed inventory). Default false: wire amounts are ≥ 0. */
  readonly allowNegative?: boolean;
}

/**
 * Parses a plain decimal string ("3000.5", "0", "12") into base units with `decimals` places.
 * No exponent, no sign unless allowed, no whitespace: the wire format of REFERENCE §1.1.
 * @throws MmError `CORE_INVALID_AMOUNT` naming the text, when it is not such a decimal or
 *   has more fractional digits than `decimals` and rounding is 'exact'.
 */
export function parseUnits(text: string, decimals: number, options: ParseUnitsOptions = {}): bigint {
  const pattern = options.allowNegative === true ? SIGNED_DECIMAL : UNSIGNED_DECIMAL;
  const match = pattern.exec(text);
  if (match === null) {
    throw new MmError('CORE_INVALID_AMOUNT', `"${text}" is not a plain decimal number`);
  }
  const negative = text.startsWith('-');
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  const scale = pow10(decimals);
  let units = BigInt(whole) * scale;
  if (fraction.length <= decimals) {
    units += fraction.length === 0 ? 0n : BigInt(fraction.padEnd(decimals, '0'));
  } else {
    const kept = fraction.slice(0, decimals);
    const dropped = fraction.slice(decimals);
    const rounding = options.rounding ?? 'exact';
    const hasRemainder = /[1-9]/.test(dropped);
    if (hasRemainder && rounding === 'exact') {
      throw new MmError('CORE_INVALID_AMOUNT', `"${text}" has more than ${decimals} decimal places`);
    }
    units += kept.length === 0 ? 0n : BigInt(kept);
    // Rounding is applied to the magnitude, then the sign: 'up' means away from zero here only for
    // positives; for negatives we keep the mathematical direction.
    const awayFromZero = negative ? rounding === 'down' : rounding === 'up';
    if (hasRemainder && awayFromZero) units += 1n;
  }
  return negative ? -units : units;
}

/**
 * Formats base units as the wire's decimal text: no exponent, trailing zeros stripped, no
 * trailing dot ("3000.5", "0", "-1.25").
 */
export function formatUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const scale = pow10(decimals);
  const whole = magnitude / scale;
  const fraction = magnitude % scale;
  let text = whole.toString();
  if (fraction !== 0n) {
    text += '.' + fraction.toString().padStart(decimals, '0').replace(/0+$/, '');
  }
  return negative ? '-' + text : text;
}

/**
 * Converts a finite `number` (strategy math) to base units, rounding in `direction`.
 * The number is first read as the shortest decimal that prints it (decimal.js), so 0.1 is
 * exactly one tenth, not 0.1000000000000000055….
 * @throws MmError `CORE_INVALID_AMOUNT` for NaN or ±Infinity.
 */
export function numberToUnits(value: number, decimals: number, direction: RoundingDirection): bigint {
  if (!Number.isFinite(value)) {
    throw new MmError('CORE_INVALID_AMOUNT', `${value} is not a finite amount`);
  }
  const scaled = new Decimal(value).mul(new Decimal(10).pow(decimals));
  const rounded = scaled.toDecimalPlaces(0, direction === 'down' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL);
  return BigInt(rounded.toFixed(0));
}

/** Base units as a `number` of whole tokens, for strategy math and metrics only (lossy). */
export function unitsToNumber(units: bigint, decimals: number): number {
  return Number(formatUnits(units, decimals));
}

/** ⌈a / b⌉ for a ≥ 0, b > 0: fees round against the payer (SPEC §5). */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new MmError('CORE_INVARIANT', `ceilDiv by ${denominator}`);
  if (numerator <= 0n) return -(-numerator / denominator);
  return (numerator + denominator - 1n) / denominator;
}
