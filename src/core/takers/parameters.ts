/**
 * The taker models' numeric parameters, each declared once with its unit, allowed range and
 * meaning. Each model's `check…Options` validates through its declarations, and whoever exposes
 * the parameters (the backtest's flags, `docs/thin-venue.md`) lists them from here; the defaults
 * live in each model's `DEFAULT_…` object.
 */
import { MmError } from '../errors.ts';

/** One numeric field of a model's options. */
export interface TakerParameter<Options> {
  /** The field in the model's options object. */
  readonly field: keyof Options & string;
  /** The command-line flag that sets it (without `--`). */
  readonly flag: string;
  readonly unit: string;
  /** Smallest allowed value; excluded itself when `minExclusive`. */
  readonly min: number;
  readonly minExclusive: boolean;
  /** Largest allowed value (included). */
  readonly max: number;
  /** What it means, in one sentence. */
  readonly doc: string;
}

/**
 * Checks every declared field of `options` (a finite number within its range).
 * @throws MmError `CORE_INVALID_OPTION` naming the model, the field, its value and what is allowed.
 */
export function checkTakerOptions<Options extends object>(model: string, declarations: readonly TakerParameter<Options>[], options: Options, wholeFields: readonly string[] = []): Options {
  for (const declaration of declarations) {
    const value: unknown = options[declaration.field];
    const tooLow = typeof value === 'number' && (declaration.minExclusive ? value <= declaration.min : value < declaration.min);
    const isWhole = !wholeFields.includes(declaration.field) || Number.isInteger(value);
    if (typeof value !== 'number' || !Number.isFinite(value) || tooLow || value > declaration.max || !isWhole) {
      throw new MmError('CORE_INVALID_OPTION', `${model}.${declaration.field} (--${declaration.flag}) = ${String(value)}: allowed ${isWhole ? '' : 'a whole number, '}${describeRange(declaration)} ${declaration.unit}`);
    }
  }
  return options;
}

/** The allowed range as text, e.g. "a number > 0 and ≤ 1". */
export function describeRange(declaration: Pick<TakerParameter<unknown>, 'min' | 'minExclusive' | 'max'>): string {
  const low = `${declaration.minExclusive ? '>' : '≥'} ${declaration.min}`;
  return declaration.max === Number.POSITIVE_INFINITY ? `a number ${low}` : `a number ${low} and ≤ ${declaration.max}`;
}
