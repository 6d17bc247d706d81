/**
 * `backtest --venue thin`'s flags (docs/thin-venue.md): one per parameter of the taker models,
 * taken from their declarations in `src/core/takers` (`*_PARAMETERS`: flag, unit, range) with the
 * models' own defaults, so each is declared once. A plan carries the parsed values as plain data
 * (sweep workers receive it); a sweep cell may replace any of them.
 */
import {
  ARBITRAGE_PARAMETERS,
  BACKGROUND_MAKER_PARAMETERS,
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  UNINFORMED_TAKER_PARAMETERS,
  describeRange,
  type ArbitrageOptions,
  type BackgroundMakerOptions,
  type TakerParameter,
  type UninformedTakerOptions,
} from '../core/takers/index.ts';
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';

/** The venue a backtest quotes on: the recorded book itself, or a thin venue priced off it. */
export const VENUES = ['replay', 'thin'] as const;
export type VenueKind = (typeof VENUES)[number];

/** The thin venue's taker models, as a plan carries them (plain data). */
export interface ThinPlan {
  readonly uninformed: UninformedTakerOptions;
  readonly background: BackgroundMakerOptions;
  readonly arbitrage: ArbitrageOptions;
}

/** The arbitrageurs' switch (`enabled` is no number, so it has no declaration of its own). */
export const THIN_ARBITRAGE_FLAG = 'thin-arbitrage';

/** One numeric flag: its declaration and where its value lives in a `ThinPlan`. */
interface ThinNumberFlag {
  readonly model: keyof ThinPlan;
  readonly declaration: TakerParameter<never>;
  readonly defaultValue: number;
}

function flagsOf<Options extends object>(model: keyof ThinPlan, declarations: readonly TakerParameter<Options>[], defaults: Options): ThinNumberFlag[] {
  return declarations.map((declaration) => ({ model, declaration: declaration as unknown as TakerParameter<never>, defaultValue: defaults[declaration.field] as number }));
}

const NUMBER_FLAGS: readonly ThinNumberFlag[] = [
  ...flagsOf('uninformed', UNINFORMED_TAKER_PARAMETERS, DEFAULT_UNINFORMED_TAKERS),
  ...flagsOf('background', BACKGROUND_MAKER_PARAMETERS, DEFAULT_BACKGROUND_MAKER),
  ...flagsOf('arbitrage', ARBITRAGE_PARAMETERS, DEFAULT_ARBITRAGE),
];

/** Every thin-venue flag name (without `--`): what `--sweep` accepts besides the replay's flags. */
export const THIN_FLAG_NAMES: readonly string[] = [...NUMBER_FLAGS.map((flag) => flag.declaration.flag), THIN_ARBITRAGE_FLAG];

/** The flags for `--help` and the parser, each with its unit, range and default. */
export const THIN_OPTIONS: Readonly<Record<string, FlagSpec>> = Object.fromEntries([
  ...NUMBER_FLAGS.map((flag): [string, FlagSpec] => [
    flag.declaration.flag,
    {
      type: 'string',
      value: 'X',
      unit: `${flag.declaration.unit.replace(/^\((.*)\)$/, '$1')}; ${describeRange(flag.declaration)}`,
      default: flag.defaultValue,
      doc: `--venue thin: ${flag.declaration.doc}`,
    },
  ]),
  [THIN_ARBITRAGE_FLAG, { type: 'string', value: 'on|off', default: DEFAULT_ARBITRAGE.enabled ? 'on' : 'off', doc: '--venue thin: whether arbitrageurs take stale quotes (off: the honesty checks\' baseline)' }],
]);

/** The defaults of every model. */
export const DEFAULT_THIN_PLAN: ThinPlan = { uninformed: DEFAULT_UNINFORMED_TAKERS, background: DEFAULT_BACKGROUND_MAKER, arbitrage: DEFAULT_ARBITRAGE };

/**
 * `plan` with one thin flag set from its text.
 * @throws UsageError naming the flag, the value and what is allowed.
 */
export function withThinFlag(plan: ThinPlan, name: string, text: string): ThinPlan {
  if (name === THIN_ARBITRAGE_FLAG) {
    if (text !== 'on' && text !== 'off') throw new UsageError(`--${THIN_ARBITRAGE_FLAG}=${text}: allowed on or off`);
    return { ...plan, arbitrage: { ...plan.arbitrage, enabled: text === 'on' } };
  }
  const flag = NUMBER_FLAGS.find((candidate) => candidate.declaration.flag === name);
  if (flag === undefined) throw new UsageError(`--${name} is no thin-venue flag (${THIN_FLAG_NAMES.map((known) => `--${known}`).join(', ')})`);
  const { declaration } = flag;
  const value = /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text.trim()) ? Number(text) : Number.NaN;
  const tooLow = declaration.minExclusive ? value <= declaration.min : value < declaration.min;
  if (!Number.isFinite(value) || tooLow || value > declaration.max) {
    throw new UsageError(`--${name}=${text}: allowed ${describeRange(declaration)} ${declaration.unit}`);
  }
  return { ...plan, [flag.model]: { ...plan[flag.model], [declaration.field]: value } };
}

/** Whether `name` is a thin-venue flag. */
export function isThinFlag(name: string): boolean {
  return THIN_FLAG_NAMES.includes(name);
}

/**
 * The venue and, for a thin one, its models from the flags (the defaults where not given).
 * @throws UsageError for an unknown venue, a bad value, or thin flags without `--venue thin`.
 */
export function thinPlanFromFlags(values: Readonly<Record<string, unknown>>): { readonly venue: VenueKind; readonly thin: ThinPlan | undefined } {
  const venueText = values['venue'] ?? 'replay';
  if (!(VENUES as readonly unknown[]).includes(venueText)) throw new UsageError(`--venue=${String(venueText)}: allowed ${VENUES.join(' or ')}`);
  const venue = venueText as VenueKind;
  const given = THIN_FLAG_NAMES.filter((name) => typeof values[name] === 'string');
  if (venue !== 'thin') {
    if (given.length > 0) throw new UsageError(`--${given[0] as string} applies to --venue thin only`);
    return { venue, thin: undefined };
  }
  let thin = DEFAULT_THIN_PLAN;
  for (const name of given) thin = withThinFlag(thin, name, values[name] as string);
  return { venue, thin };
}

/** One line for a run's context: the thin venue's settings. */
export function describeThinPlan(thin: ThinPlan, takerPbips: number): string {
  const { uninformed, background, arbitrage } = thin;
  const arbitrageText = arbitrage.enabled ? `arbitrageurs after ${arbitrage.latencyMs} ms, edge ${arbitrage.edgeBps} bps over the ${takerPbips} pbips taker fee and gas` : 'no arbitrageurs';
  return (
    `venue: thin, priced off the recording as the reference (docs/thin-venue.md); uninformed takers ${uninformed.share} of the reference's trades × ${uninformed.sizeScale} size, ` +
    `limit ${uninformed.limitBps} bps; background maker ±${background.halfSpreadBps} bps, lag ${background.lagMs} ms, ${background.depthQuote} quote a side; ${arbitrageText}; markouts against the reference mid`
  );
}
