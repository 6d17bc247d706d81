/**
 * Uninformed takers on a thin venue priced off a deep one (MM-NOTES §7): the deep market's own
 * trades, thinned to a share of its volume. Each reference trade has a venue twin with probability
 * `share` (one Bernoulli draw per trade, whatever our quotes are, so the same seed brings the same
 * takers to every strategy); the twin keeps the trade's time and side, its size is scaled, and it
 * takes the venue's best prices up to a limit set from the trade's own price.
 */
import type { Side } from '../types.ts';
import { checkTakerOptions, type TakerParameter } from './parameters.ts';

/** How reference trades become venue takers. */
export interface UninformedTakerOptions {
  /**
   * Chance that one reference trade has a twin on the venue, so the venue's uninformed volume as a
   * share of the reference's (0–1). Default 0.01.
   */
  readonly share: number;
  /** A twin's size is the reference trade's times this, rounded to whole lots (0 lots: no twin). Default 1. */
  readonly sizeScale: number;
  /**
   * A twin takes venue prices up to this far past the price its reference trade paid, bps (a
   * buyer up to price × (1 + limit), a seller down to price × (1 − limit)). Default 10.
   */
  readonly limitBps: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_UNINFORMED_TAKERS: UninformedTakerOptions = { share: 0.01, sizeScale: 1, limitBps: 10 };

/** The declarations behind `checkUninformedTakerOptions` and the flags. */
export const UNINFORMED_TAKER_PARAMETERS: readonly TakerParameter<UninformedTakerOptions>[] = [
  { field: 'share', flag: 'thin-taker-share', unit: '(share of the reference volume)', min: 0, minExclusive: false, max: 1, doc: "chance that a reference trade has an uninformed twin on the venue" },
  { field: 'sizeScale', flag: 'thin-size-scale', unit: '(× the reference size)', min: 0, minExclusive: true, max: Number.POSITIVE_INFINITY, doc: "a twin's size as a multiple of its reference trade's" },
  { field: 'limitBps', flag: 'thin-taker-limit-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "how far past its reference trade's price a twin still takes the venue" },
];

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value.
 */
export function checkUninformedTakerOptions(options: UninformedTakerOptions): UninformedTakerOptions {
  return checkTakerOptions('uninformed takers', UNINFORMED_TAKER_PARAMETERS, options);
}

/**
 * Lots of the venue twin of a reference trade of `qtyLots`, given one uniform draw in [0, 1):
 * 0 when the trade has no twin (the draw is not below `share`, or the scaled size rounds to 0).
 */
export function uninformedTwinLots(qtyLots: number, uniform: number, options: UninformedTakerOptions): number {
  if (!(uniform < options.share)) return 0;
  return Math.round(qtyLots * options.sizeScale);
}

/**
 * The worst venue price (ticks) a twin accepts: a buyer up to ⌊p·(1 + limit)⌋, a seller down to
 * ⌈p·(1 − limit)⌉, for the reference trade's price p. Integer p keeps the rounding exact.
 */
export function uninformedLimitTicks(aggressor: Side, referencePriceTicks: number, limitBps: number): number {
  const slack = Math.floor((referencePriceTicks * limitBps) / 10_000);
  return aggressor === 'buy' ? referencePriceTicks + slack : referencePriceTicks - slack;
}
