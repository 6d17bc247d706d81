/**
 * The flags of the embedded exchange's flow shared by `akira-mm sim` and `paper` (issue 23, item
 * 2): `--flow poisson|reference` and the taker models' `--thin-*` flags, named, bounded and
 * defaulted by their declarations in `src/core/takers` (the backtest's thin venue reads the same).
 */
import {
  ARBITRAGE_PARAMETERS,
  BACKGROUND_MAKER_PARAMETERS,
  DEFAULT_ARBITRAGE,
  DEFAULT_BACKGROUND_MAKER,
  DEFAULT_UNINFORMED_TAKERS,
  MmError,
  UNINFORMED_TAKER_PARAMETERS,
  describeRange,
  type TakerParameter,
} from '../core/index.ts';
import { checkReferenceFlowOptions, type ReferenceFlowOptions } from '../sim/index.ts';
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';

/** Who trades on the followed books. */
export type FlowModel = 'poisson' | 'reference';

/** A model's declarations with its defaults, so each flag's help and parsing come from one place. */
interface ModelFlags<Options> {
  readonly declarations: readonly TakerParameter<Options>[];
  readonly defaults: Options;
}

const MODELS = [
  { declarations: UNINFORMED_TAKER_PARAMETERS, defaults: DEFAULT_UNINFORMED_TAKERS },
  { declarations: BACKGROUND_MAKER_PARAMETERS, defaults: DEFAULT_BACKGROUND_MAKER },
  { declarations: ARBITRAGE_PARAMETERS, defaults: DEFAULT_ARBITRAGE },
] as const;

function numericFlags<Options>(model: ModelFlags<Options>): [string, FlagSpec][] {
  return model.declarations.map((declaration) => [
    declaration.flag,
    { type: 'string', value: 'X', unit: declaration.unit.replace(/^\((.*)\)$/, '$1'), default: String(model.defaults[declaration.field]), doc: `with --flow reference: ${declaration.doc} (${describeRange(declaration)})` },
  ]);
}

/** The switch of the arbitrageurs (`enabled`), beside their numeric parameters. */
const ARBITRAGE_SWITCH = 'thin-arbitrage';

/** `--flow` and the `--thin-*` flags, for a command's flag table. */
export const FLOW_FLAGS: Readonly<Record<string, FlagSpec>> = Object.fromEntries([
  [
    'flow',
    {
      type: 'string',
      value: 'poisson|reference',
      default: 'reference with a reference market, else poisson',
      doc: "who trades on the followed token's books against a USD stable: reference = the thin venue's takers (docs/thin-venue.md): twins of the reference's trades, arbitrageurs of its touch and a lagged background maker; poisson = the synthetic ladder and coin-flip Poisson takers (every other book keeps it)",
    },
  ],
  ...numericFlags(MODELS[0]),
  ...numericFlags(MODELS[1]),
  ...numericFlags(MODELS[2]),
  [ARBITRAGE_SWITCH, { type: 'string', value: 'on|off', default: 'on', doc: 'with --flow reference: whether arbitrageurs take stale quotes (off: the honesty checks\' baseline)' }],
]);

/** The flag names `FLOW_FLAGS` holds besides `--flow`. */
const THIN_FLAG_NAMES = Object.keys(FLOW_FLAGS).filter((name) => name !== 'flow');

function readModel<Options extends object>(model: ModelFlags<Options>, values: Readonly<Record<string, unknown>>): Options {
  const options: Record<string, unknown> = { ...(model.defaults as Record<string, unknown>) };
  for (const declaration of model.declarations) {
    const text = values[declaration.flag];
    if (typeof text !== 'string') continue;
    const value = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) throw new UsageError(`--${declaration.flag}=${text} is not a number (allowed ${describeRange(declaration)} ${declaration.unit})`);
    options[declaration.field] = value;
  }
  return options as Options;
}

/**
 * The flow a command runs, from its flags and whether it has a reference market to hear.
 * @throws UsageError for `--flow reference` without a reference, a `--thin-*` flag with the
 *   Poisson flow, or a value out of its range (naming the flag, the value and what is allowed).
 */
export function parseFlowFlags(values: Readonly<Record<string, unknown>>, hasReference: boolean, referenceFlags: string): { readonly model: FlowModel; readonly options: ReferenceFlowOptions } {
  const flow = values['flow'];
  if (flow !== undefined && flow !== 'poisson' && flow !== 'reference') throw new UsageError(`--flow ${String(flow)}: expected poisson or reference`);
  const model: FlowModel = flow ?? (hasReference ? 'reference' : 'poisson');
  if (model === 'reference' && !hasReference) throw new UsageError(`--flow reference needs a reference market to drive it: ${referenceFlags}`);
  const given = THIN_FLAG_NAMES.find((name) => values[name] !== undefined);
  if (model === 'poisson' && given !== undefined) throw new UsageError(`--${given} goes with --flow reference (${hasReference ? '--flow poisson ignores it' : `it needs a reference market: ${referenceFlags}`})`);
  const arbitrageSwitch = values[ARBITRAGE_SWITCH];
  if (arbitrageSwitch !== undefined && arbitrageSwitch !== 'on' && arbitrageSwitch !== 'off') throw new UsageError(`--${ARBITRAGE_SWITCH} ${String(arbitrageSwitch)}: expected on or off`);
  const options: ReferenceFlowOptions = {
    uninformed: readModel(MODELS[0], values),
    background: readModel(MODELS[1], values),
    arbitrage: { ...readModel(MODELS[2], values), enabled: arbitrageSwitch !== 'off' },
  };
  try {
    return { model, options: checkReferenceFlowOptions(options) };
  } catch (error) {
    if (error instanceof MmError) throw new UsageError(error.message);
    throw error;
  }
}

/** What the flow is, in a few words for a command's banner. */
export function describeFlow(model: FlowModel, options: ReferenceFlowOptions): string {
  if (model === 'poisson') return 'synthetic flow on (ladder and Poisson takers)';
  const { uninformed, background, arbitrage } = options;
  return (
    `reference flow: uninformed twins of ${uninformed.share * 100} % of its trades, ` +
    `${arbitrage.enabled ? `arbitrageurs after ${arbitrage.latencyMs} ms past fee + gas + ${arbitrage.edgeBps} bp` : 'no arbitrageurs'}, ` +
    `background maker ±${background.halfSpreadBps} bp ${background.lagMs} ms late`
  );
}
