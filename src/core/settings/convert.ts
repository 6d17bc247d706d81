/** Unit conversions that declarations name in their readers' landings. */
import type { DecimalValue } from './values.ts';

/** A decimal key's number (bps stay bps, tokens stay tokens). */
export const valueOf = (decimal: DecimalValue): number => decimal.value;
/** % → fraction (10 → 0.1). */
export const percentToFraction = (percent: DecimalValue): number => percent.value / 100;
/** bps → fraction (50 → 0.005). */
export const bpsToFraction = (bps: DecimalValue): number => bps.value / 10_000;
/** s → ms. */
export const secondsToMs = (seconds: number): number => seconds * 1_000;
