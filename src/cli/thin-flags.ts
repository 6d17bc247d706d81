/**
 * The taker models' `--thin-*` flags, one parser for every command that has them: `backtest
 * --venue thin` and the reference flow of `sim` and `paper`. Each flag is named, bounded and
 * defaulted by its model's declaration in `src/core/takers` (`*_PARAMETERS`: flag, unit, range),
 * so a value is refused the same way, with the same words, wherever it is given.
 */
import {
  ARBITRAGE_PARAMETERS,
  BACKGROUND_MAKER_PARAMETERS,
  COMPETING_MAKER_PARAMETERS,
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_COMPETING_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  TAKER_LIMIT_MODELS,
  UNINFORMED_TAKER_PARAMETERS,
  describeRange,
  type ArbitrageOptions,
  type BackgroundMakerOptions,
  type CompetingMakerOptions,
  type TakerLimitModel,
  type TakerParameter,
  type UninformedTakerOptions,
} from '../core/takers/index.ts';
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';

/** The taker models' settings, as a plan carries them (plain data: sweep workers receive it). */
export interface ThinPlan {
  readonly uninformed: UninformedTakerOptions;
  readonly background: BackgroundMakerOptions;
  /** The competing maker; absent in plans written before issue 30 (none then). */
  readonly competitor?: CompetingMakerOptions;
  readonly arbitrage: ArbitrageOptions;
  /** A backtest's: the seed the uninformed takers draw from (`--thin-taker-seed`); absent: the run's `--seed`. */
  readonly takerSeed?: number;
  /** A backtest's: run once per seed and report the PnL's spread (`--taker-seeds`); absent: once, with `takerSeed`. */
  readonly takerSeeds?: readonly number[];
}

/** The defaults of every model. */
export const DEFAULT_THIN_PLAN: ThinPlan = { uninformed: DEFAULT_UNINFORMED_TAKERS, background: DEFAULT_BACKGROUND_MAKER, competitor: DEFAULT_COMPETING_MAKER, arbitrage: DEFAULT_ARBITRAGE };

/** The arbitrageurs' switch (`enabled` is no number, so it has no declaration of its own). */
export const THIN_ARBITRAGE_FLAG = 'thin-arbitrage';

/** The twins' limit model (`limitModel` is a name, so it has no numeric declaration either). */
export const THIN_LIMIT_MODEL_FLAG = 'thin-taker-limit-model';

/** A backtest's taker seed (a whole number, sweepable: `--sweep thin-taker-seed=1,2,3`); paper and sim have their own `--seed`. */
export const THIN_TAKER_SEED_FLAG = 'thin-taker-seed';

/** One numeric flag: its declaration and where its value lives in a `ThinPlan`. */
interface ThinNumberFlag {
  readonly model: ThinModel;
  readonly declaration: TakerParameter<never>;
  readonly defaultValue: number;
}

type ThinModel = 'uninformed' | 'background' | 'competitor' | 'arbitrage';

function flagsOf<Options extends object>(model: ThinModel, declarations: readonly TakerParameter<Options>[], defaults: Options): ThinNumberFlag[] {
  return declarations.map((declaration) => ({ model, declaration: declaration as unknown as TakerParameter<never>, defaultValue: defaults[declaration.field] as number }));
}

const NUMBER_FLAGS: readonly ThinNumberFlag[] = [
  ...flagsOf('uninformed', UNINFORMED_TAKER_PARAMETERS, DEFAULT_UNINFORMED_TAKERS),
  ...flagsOf('background', BACKGROUND_MAKER_PARAMETERS, DEFAULT_BACKGROUND_MAKER),
  ...flagsOf('competitor', COMPETING_MAKER_PARAMETERS, DEFAULT_COMPETING_MAKER),
  ...flagsOf('arbitrage', ARBITRAGE_PARAMETERS, DEFAULT_ARBITRAGE),
];

/** Every `--thin-*` flag name (without `--`). */
export const THIN_FLAG_NAMES: readonly string[] = [...NUMBER_FLAGS.map((flag) => flag.declaration.flag), THIN_ARBITRAGE_FLAG, THIN_LIMIT_MODEL_FLAG, THIN_TAKER_SEED_FLAG];

/** Whether `name` is a `--thin-*` flag. */
export function isThinFlag(name: string): boolean {
  return THIN_FLAG_NAMES.includes(name);
}

/**
 * The flags for a command's `--help` and parser, each with its unit, range and default; `appliesTo`
 * says when they count (e.g. `--venue thin`).
 */
export function thinFlagSpecs(appliesTo: string, options: { readonly backtest?: boolean } = {}): Readonly<Record<string, FlagSpec>> {
  return Object.fromEntries([
    ...(options.backtest === true
      ? [
          [
            THIN_TAKER_SEED_FLAG,
            { type: 'string', value: 'N', unit: 'a whole number ≥ 0', default: 'the run\'s --seed', doc: `${appliesTo}: the seed the uninformed takers draw from (which reference trades get a twin, and each twin's slack)` },
          ] as [string, FlagSpec],
        ]
      : []),
    ...NUMBER_FLAGS.map((flag): [string, FlagSpec] => [
      flag.declaration.flag,
      {
        type: 'string',
        value: 'X',
        unit: `${flag.declaration.unit.replace(/^\((.*)\)$/, '$1')}; ${describeRange(flag.declaration)}`,
        default: flag.defaultValue,
        doc: `${appliesTo}: ${flag.declaration.doc}`,
      },
    ]),
    [THIN_ARBITRAGE_FLAG, { type: 'string', value: 'on|off', default: DEFAULT_ARBITRAGE.enabled ? 'on' : 'off', doc: `${appliesTo}: whether arbitrageurs take stale quotes (off: the honesty checks' baseline)` }],
    [
      THIN_LIMIT_MODEL_FLAG,
      {
        type: 'string',
        value: TAKER_LIMIT_MODELS.join('|'),
        default: DEFAULT_UNINFORMED_TAKERS.limitModel,
        doc: `${appliesTo}: a twin's slack past its reference trade's price: elastic = drawn per twin from an exponential of mean --thin-taker-slack-bps (a wider quote fills less), fixed = --thin-taker-limit-bps for every twin (flat up to it)`,
      },
    ],
  ]);
}

/**
 * `plan` with one `--thin-*` flag set from its text.
 * @throws UsageError naming the flag, the value and what is allowed.
 */
export function withThinFlag(plan: ThinPlan, name: string, text: string): ThinPlan {
  if (name === THIN_ARBITRAGE_FLAG) {
    if (text !== 'on' && text !== 'off') throw new UsageError(`--${THIN_ARBITRAGE_FLAG}=${text}: allowed on or off`);
    return { ...plan, arbitrage: { ...plan.arbitrage, enabled: text === 'on' } };
  }
  if (name === THIN_TAKER_SEED_FLAG) {
    if (!/^\d{1,10}$/.test(text) || Number(text) > 2 ** 31 - 1) throw new UsageError(`--${THIN_TAKER_SEED_FLAG}=${text}: allowed a whole number from 0 to ${2 ** 31 - 1}`);
    return { ...plan, takerSeed: Number(text) };
  }
  if (name === THIN_LIMIT_MODEL_FLAG) {
    if (!(TAKER_LIMIT_MODELS as readonly string[]).includes(text)) throw new UsageError(`--${THIN_LIMIT_MODEL_FLAG}=${text}: allowed ${TAKER_LIMIT_MODELS.join(' or ')}`);
    return { ...plan, uninformed: { ...plan.uninformed, limitModel: text as TakerLimitModel } };
  }
  const flag = NUMBER_FLAGS.find((candidate) => candidate.declaration.flag === name);
  if (flag === undefined) throw new UsageError(`--${name} is no thin-venue flag (${THIN_FLAG_NAMES.map((known) => `--${known}`).join(', ')})`);
  const { declaration } = flag;
  const value = /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text.trim()) ? Number(text) : Number.NaN;
  const tooLow = declaration.minExclusive ? value <= declaration.min : value < declaration.min;
  const mustBeWhole = flag.model === 'competitor' && declaration.field === 'offsetTicks';
  if (!Number.isFinite(value) || tooLow || value > declaration.max || (mustBeWhole && !Number.isInteger(value))) {
    throw new UsageError(`--${name}=${text}: allowed ${mustBeWhole ? 'a whole number, ' : ''}${describeRange(declaration)} ${declaration.unit}`);
  }
  return { ...plan, [flag.model]: { ...modelOf(plan, flag.model), [declaration.field]: value } };
}

/** A model's options in a plan (a plan written before the competing maker has none: no competing maker, depth 0). */
function modelOf(plan: ThinPlan, model: ThinModel): object {
  if (model === 'competitor') return plan.competitor ?? { ...DEFAULT_COMPETING_MAKER, depthShare: 0 };
  return plan[model];
}

/** The `--thin-*` flags given (as texts) among a command's parsed values. */
export function givenThinFlags(values: Readonly<Record<string, unknown>>): string[] {
  return THIN_FLAG_NAMES.filter((name) => typeof values[name] === 'string');
}

/**
 * `--taker-seeds`: a count N (the taker seeds from `first` on, N of them) or a list `a,b,c`.
 * @throws UsageError naming the value and what is allowed.
 */
export function parseTakerSeeds(text: string, first: number): number[] {
  const fail = (): never => {
    throw new UsageError(`--taker-seeds=${text}: allowed a count from 1 to 100 (seeds from the taker seed on) or a list of up to 100 distinct whole numbers, e.g. 1,2,3`);
  };
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count < 1 || count > 100) fail();
    return Array.from({ length: count }, (_, i) => first + i);
  }
  const seeds = text.split(',').map((part) => (/^\d{1,10}$/.test(part.trim()) ? Number(part.trim()) : fail()));
  if (seeds.length > 100 || new Set(seeds).size !== seeds.length || seeds.some((seed) => seed > 2 ** 31 - 1)) fail();
  return seeds;
}

/**
 * The models from the `--thin-*` flags given, the defaults where not.
 * @throws UsageError naming the flag, the value and what is allowed.
 */
export function readThinFlags(values: Readonly<Record<string, unknown>>): ThinPlan {
  let plan = DEFAULT_THIN_PLAN;
  for (const name of givenThinFlags(values)) plan = withThinFlag(plan, name, values[name] as string);
  return plan;
}
