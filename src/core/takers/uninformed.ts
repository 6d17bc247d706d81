/**
 * Uninformed takers on a thin venue priced off a deep one (MM-NOTES §7): the deep market's own
 * trades, thinned to a share of its volume. Each reference trade has a venue twin with probability
 * `share` (one Bernoulli draw per trade, whatever our quotes are, so the same seed brings the same
 * takers to every strategy); the twin keeps the trade's time and side, its size is scaled, and it
 * takes the venue's best prices up to a limit: the price its reference trade paid (the touch plus
 * how far that trade swept past it, an exact draw from the reference takers' own sweep
 * distribution) plus a slack in bps, the price it accepts beyond the deep market.
 * - `elastic` (the default): the slack is drawn per twin from an exponential of mean
 *   `slackMeanBps`, so the chance that a twin takes a quote δ bps past the reference falls as
 *   e^(−δ/mean) (the λ(δ) = A·e^(−kδ) of Avellaneda–Stoikov): a wider quote fills less.
 * - `fixed`: the slack is `limitBps` for every twin (the model before issue 30): the fill chance
 *   is flat up to the limit, so a wider quote earns more per fill at no cost in fills.
 */
import type { Side } from '../types.ts';
import { MmError } from '../errors.ts';
import { checkTakerOptions, type TakerParameter } from './parameters.ts';

/** How a twin's slack past its reference trade's price is set: drawn per twin, or one fixed value. */
export const TAKER_LIMIT_MODELS = ['elastic', 'fixed'] as const;
export type TakerLimitModel = (typeof TAKER_LIMIT_MODELS)[number];

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
   * With the `fixed` limit model: a twin takes venue prices up to this far past the price its
   * reference trade paid, bps (a buyer up to price × (1 + limit), a seller down to price × (1 −
   * limit)). Default 10.
   */
  readonly limitBps: number;
  /** `elastic` (slack drawn per twin, mean `slackMeanBps`) or `fixed` (`limitBps`). Default elastic. */
  readonly limitModel: TakerLimitModel;
  /** With the `elastic` limit model: the mean of a twin's exponential slack past its reference trade's price, bps. Default 5. */
  readonly slackMeanBps: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_UNINFORMED_TAKERS: UninformedTakerOptions = { share: 0.01, sizeScale: 1, limitBps: 10, limitModel: 'elastic', slackMeanBps: 5 };

/** The declarations behind `checkUninformedTakerOptions` and the flags. */
export const UNINFORMED_TAKER_PARAMETERS: readonly TakerParameter<UninformedTakerOptions>[] = [
  { field: 'share', flag: 'thin-taker-share', unit: '(share of the reference volume)', min: 0, minExclusive: false, max: 1, doc: "chance that a reference trade has an uninformed twin on the venue" },
  { field: 'sizeScale', flag: 'thin-size-scale', unit: '(× the reference size)', min: 0, minExclusive: true, max: Number.POSITIVE_INFINITY, doc: "a twin's size as a multiple of its reference trade's" },
  { field: 'limitBps', flag: 'thin-taker-limit-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "with --thin-taker-limit-model fixed: how far past its reference trade's price every twin still takes the venue" },
  { field: 'slackMeanBps', flag: 'thin-taker-slack-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "with --thin-taker-limit-model elastic: the mean of a twin's exponential slack past its reference trade's price" },
];

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value.
 */
export function checkUninformedTakerOptions(options: UninformedTakerOptions): UninformedTakerOptions {
  if (!(TAKER_LIMIT_MODELS as readonly unknown[]).includes(options.limitModel)) {
    throw new MmError('CORE_INVALID_OPTION', `uninformed takers.limitModel (--thin-taker-limit-model) = ${String(options.limitModel)}: allowed ${TAKER_LIMIT_MODELS.join(' or ')}`);
  }
  return checkTakerOptions('uninformed takers', UNINFORMED_TAKER_PARAMETERS, options);
}

/**
 * A twin's slack past its reference trade's price, bps, from one uniform draw in [0, 1) (drawn
 * only for a twin that came, so a seed fixes every twin whatever we quote): −mean·ln(1 − u) with
 * the elastic model (an exponential of that mean), `limitBps` with the fixed one (no draw needed).
 */
export function uninformedSlackBps(options: UninformedTakerOptions, uniform: number): number {
  return options.limitModel === 'fixed' ? options.limitBps : -options.slackMeanBps * Math.log1p(-uniform);
}

/** Whether a twin's slack takes a draw of its own (the elastic model's). */
export function drawsSlack(options: UninformedTakerOptions): boolean {
  return options.limitModel !== 'fixed';
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
 * ⌈p·(1 − limit)⌉, for the reference trade's price p and the twin's slack `limitBps`. Integer p
 * and a whole number of bps keep the rounding exact.
 */
export function uninformedLimitTicks(aggressor: Side, referencePriceTicks: number, limitBps: number): number {
  const slack = Math.floor((referencePriceTicks * limitBps) / 10_000);
  return aggressor === 'buy' ? referencePriceTicks + slack : referencePriceTicks - slack;
}
