/**
 * The flags of the embedded exchange's flow shared by `akira-mm sim` and `paper` (issue 23, item
 * 2): `--flow poisson|reference` and the taker models' `--thin-*` flags, parsed by the one parser
 * the backtest's thin venue also uses (thin-flags.ts).
 */
import { MmError } from '../core/index.ts';
import { checkReferenceFlowOptions, type ReferenceFlowOptions } from '../sim/index.ts';
import type { FlagSpec } from './args.ts';
import { UsageError } from './io.ts';
import { givenThinFlags, readThinFlags, thinFlagSpecs } from './thin-flags.ts';

/** Who trades on the followed books. */
export type FlowModel = 'poisson' | 'reference';

/** `--flow` and the `--thin-*` flags, for a command's flag table. */
export const FLOW_FLAGS: Readonly<Record<string, FlagSpec>> = {
  flow: {
    type: 'string',
    value: 'poisson|reference',
    default: 'reference with a reference market, else poisson',
    doc: "who trades on the followed token's books against a USD stable: reference = the thin venue's takers (docs/thin-venue.md): twins of the reference's trades, arbitrageurs of its touch and a lagged background maker; poisson = the synthetic ladder and coin-flip Poisson takers (every other book keeps it)",
  },
  ...thinFlagSpecs('with --flow reference'),
};

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
  const given = givenThinFlags(values)[0];
  if (model === 'poisson' && given !== undefined) throw new UsageError(`--${given} goes with --flow reference (${hasReference ? '--flow poisson ignores it' : `it needs a reference market: ${referenceFlags}`})`);
  const options: ReferenceFlowOptions = readThinFlags(values);
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
