/**
 * Human decimal strings ⇄ integer base units. This is the one place amounts cross between the
 * wire's decimal text and our `bigint` arithmetic (ARCHITECTURE "exact money at the edges").
 * Nothing here touches a float except `numberToUnits`, which turns a strategy's `number` into the
 * exact decimal it prints as, then rounds in an explicit direction (decimal.js where float
 * arithmetic cannot prove the answer).
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
 * The number is first read as the shortest decimal that prints it (as `String(value)` does), so
 * 0.1 is exactly one tenth, not 0.1000000000000000055…. Exact in every case: the common ones are
 * computed with float arithmetic whose error is known (see `fastNumberToUnits`), the rest through
 * decimal.js.
 * @throws MmError `CORE_INVALID_AMOUNT` for NaN or ±Infinity.
 */
export function numberToUnits(value: number, decimals: number, direction: RoundingDirection): bigint {
  if (!Number.isFinite(value)) {
    throw new MmError('CORE_INVALID_AMOUNT', `${value} is not a finite amount`);
  }
  return fastNumberToUnits(value, decimals, direction) ?? decimalNumberToUnits(value, decimals, direction);
}

/**
 * The reference conversion behind {@link numberToUnits}: decimal.js reads the shortest decimal
 * and rounds it. Slow (string parsing, arbitrary precision); kept for the cases the fast path
 * declines and as the oracle its property tests compare against.
 */
export function decimalNumberToUnits(value: number, decimals: number, direction: RoundingDirection): bigint {
  const scaled = new Decimal(value).mul(new Decimal(10).pow(decimals));
  const rounded = scaled.toDecimalPlaces(0, direction === 'down' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL);
  return BigInt(rounded.toFixed(0));
}

/** Powers of ten that doubles hold exactly (10^22 is the last). */
const EXACT_POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** Scaled magnitudes stay below this, so a float product is within 2^-3 of the exact one and its rounding interval is narrower than one unit. */
const FAST_LIMIT = 2 ** 50;
/** Below this, Dekker's split could underflow; such values take the slow path. */
const FAST_FLOOR = 2 ** -500;
const SPLITTER = 134_217_729; // 2^27 + 1

/**
 * `numberToUnits` without strings, or undefined when it cannot be sure. With D the shortest
 * decimal of `value` and p = 10^k (k ≤ decimals chosen so |value|·p < 2^50):
 * - if some integer m has m/p rounding to `value` (the division is correctly rounded, as decimal
 *   parsing is), the rounding interval of `value` (narrower than 1/p) holds no other multiple of
 *   1/p, and D, the shortest decimal in it, is m/p; the result is m·10^(decimals−k) whatever the
 *   direction;
 * - otherwise no multiple of 1/p lies between D and the double's exact binary value (both sit in
 *   that interval), so when k = decimals the floor of D·p is the floor of value·p, which
 *   `s + e = value·p` (Dekker's exact product) gives without rounding error, and the ceiling is
 *   one more; when k < decimals the answer needs digits beyond 10^-k and the caller takes the
 *   slow path.
 */
function fastNumberToUnits(value: number, decimals: number, direction: RoundingDirection): bigint | undefined {
  const magnitude = value < 0 ? -value : value;
  if (magnitude === 0) return 0n;
  if (magnitude < FAST_FLOOR || magnitude >= FAST_LIMIT || !Number.isInteger(decimals) || decimals < 0) return undefined;
  let k = decimals > 22 ? 22 : decimals;
  while (k > 0 && magnitude * (EXACT_POW10[k] as number) >= FAST_LIMIT) k--;
  const p = EXACT_POW10[k] as number;
  const s = value * p;
  const below = Math.floor(s);
  // The grid points next to value·p: floor(s) and floor(s)+1 cover it, as |s − value·p| < 1/8.
  for (let m = below - 1; m <= below + 1; m++) {
    if (m / p === value) return k === decimals ? BigInt(m) : BigInt(m) * pow10(decimals - k);
  }
  if (k !== decimals) return undefined;
  const error = productError(value, p, s);
  // value·p = s + error exactly, |error| ≤ ulp(s)/2. An integral s is crossed only by the sign of
  // the error; a fractional s has no integer within ulp(s)/2, so floor(s) stands. The exact
  // product is never an integer here (it would have been m above).
  const floor = Number.isInteger(s) ? (error < 0 ? s - 1 : s) : below;
  return BigInt(direction === 'down' ? floor : floor + 1);
}

/** The rounding error of `product = fl(a·b)`: a·b − product, exactly (Dekker's TwoProduct). */
function productError(a: number, b: number, product: number): number {
  const aSplit = SPLITTER * a;
  const aHigh = aSplit - (aSplit - a);
  const aLow = a - aHigh;
  const bSplit = SPLITTER * b;
  const bHigh = bSplit - (bSplit - b);
  const bLow = b - bHigh;
  return aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/**
 * Base units as a `number` of whole tokens, for strategy math and metrics only (lossy): the
 * double nearest to the exact decimal, the same as `Number(formatUnits(units, decimals))`.
 */
export function unitsToNumber(units: bigint, decimals: number): number {
  if (decimals >= 0 && decimals <= 22 && Number.isInteger(decimals)) {
    // Both operands exact and the division correctly rounded: the nearest double to units/10^d.
    if (units <= MAX_EXACT_UNITS && units >= -MAX_EXACT_UNITS) return Number(units) / (EXACT_POW10[decimals] as number);
    // Beyond 2^53 an amount is still often an exact double (lots of an 18-decimal token carry many
    // factors of two): then the same one correctly rounded division applies, and proving it
    // costs one conversion back instead of the two BigInt operations below.
    const double = Number(units);
    if (Number.isFinite(double) && BigInt(double) === units) return double / (EXACT_POW10[decimals] as number);
    // Large amounts are often round (sizes are lots, 18-decimal tokens): drop the zeros and the
    // same exact division applies.
    const approximate = Math.abs(double);
    const zeros = Math.ceil(Math.log10(approximate) - 15.9);
    if (zeros > 0 && zeros <= decimals) {
      const scale = pow10(zeros);
      const reduced = units / scale;
      if (reduced * scale === units && reduced <= MAX_EXACT_UNITS && reduced >= -MAX_EXACT_UNITS) {
        return Number(reduced) / (EXACT_POW10[decimals - zeros] as number);
      }
    }
  }
  return Number(formatUnits(units, decimals));
}
const MAX_EXACT_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/** ⌈a / b⌉ for a ≥ 0, b > 0: fees round against the payer (SPEC §5). */
export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new MmError('CORE_INVARIANT', `ceilDiv by ${denominator}`);
  if (numerator <= 0n) return -(-numerator / denominator);
  return (numerator + denominator - 1n) / denominator;
}
