/**
 * Binance sends every price and quantity as decimal text ("2683.80000000"). We hold them as
 * integers scaled by the symbol's decimals (taken from its tick and step sizes), so book keys are
 * exact and a crossed-book test never meets float rounding. This parser runs for every level of
 * every frame, so it walks the characters instead of using a regular expression.
 */

const POW10: readonly number[] = Array.from({ length: 19 }, (_, i) => 10 ** i);

/** Scale of one symbol's numbers. */
export interface BinanceScale {
  /** Price text × 10^priceDecimals is an integer (decimals of the tick size). */
  readonly priceDecimals: number;
  /** Quantity text × 10^qtyDecimals is an integer (decimals of the step size). */
  readonly qtyDecimals: number;
}

/** Binance's own text precision: the scale to use when the symbol's tick and step are unknown. */
export const FULL_SCALE: BinanceScale = { priceDecimals: 8, qtyDecimals: 8 };

/**
 * "2683.80000000" with 2 decimals → 268380. Trailing zeros beyond `decimals` are accepted.
 * @returns undefined for anything but plain non-negative decimal text, a digit beyond `decimals`
 *   that is not 0, or a result above 2^53.
 */
export function parseScaled(text: string, decimals: number): number | undefined {
  const length = text.length;
  let whole = 0;
  let i = 0;
  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 46) break;
    const digit = code - 48;
    if (digit < 0 || digit > 9) return undefined;
    whole = whole * 10 + digit;
  }
  if (i === 0) return undefined;
  let fraction = 0;
  let places = 0;
  if (i < length) {
    i++;
    if (i === length) return undefined;
    for (; i < length; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return undefined;
      places++;
      if (places > decimals) {
        if (digit !== 0) return undefined;
      } else {
        fraction = fraction * 10 + digit;
      }
    }
  }
  const kept = places < decimals ? places : decimals;
  const value = whole * (POW10[decimals] as number) + fraction * (POW10[decimals - kept] as number);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** 268380 with 2 decimals, padded to 8 → "2683.80000000" (Binance always prints 8 places). */
export function formatScaled(value: number, decimals: number, places = 8): string {
  const scale = POW10[decimals] as number;
  const whole = Math.floor(value / scale);
  const fraction = value - whole * scale;
  const shown = Math.max(places, decimals);
  if (shown === 0) return String(whole);
  const digits = decimals === 0 ? '' : String(fraction).padStart(decimals, '0');
  return `${whole}.${digits.padEnd(shown, '0')}`;
}

/** Number of decimals a step needs: "0.01000000" → 2, "1.00000000" → 0. */
export function stepDecimals(step: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(step)) return undefined;
  const fraction = (step.split('.')[1] ?? '').replace(/0+$/, '');
  return fraction.length;
}

/** Scaled integer → its value as a number (the port's unit). */
export function scaledToNumber(value: number, decimals: number): number {
  return value / (POW10[decimals] as number);
}
