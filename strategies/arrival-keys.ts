/**
 * The keys of a model's arrival prior and bounds (`GLFT_*`, `AS_KAPPA_*`): how much the
 * configured A and k weigh against the online fit, and the range the fit may move them in
 * (strategies/estimators/arrival-prior.ts says why; docs/strategies.md "Estimators on thin flow").
 */
import { envKey, values as v, type ConfigIssue } from '../src/core/index.ts';

/** Names of a model's prior keys. */
export interface ArrivalPriorKeyNames {
  readonly priorArrivals: string;
  readonly kMin: string;
  readonly kMax: string;
}

/** The prior's strength and the k bounds, under the model's names; `what` names its configured values in the docs. */
export function buildArrivalPriorKeys(names: ArrivalPriorKeyNames, what: string) {
  return {
    priorArrivals: envKey({
      key: names.priorArrivals,
      default: '20',
      unit: 'arrivals',
      doc: `Weight of the configured ${what} against the online fit, in arrivals: the fit weighs n/(n + this), n its arrivals inside the grid, each halved every ARRIVAL_EVIDENCE_HALF_LIFE_S; 0 = the fit alone`,
      parse: v.numberIn({ min: 0, max: 1e9 }),
    }),
    kMinPerBps: envKey({
      key: names.kMin,
      default: '0.1',
      unit: '1/bps of fair',
      doc: 'Smallest k the online fit may give (per bp): a smaller k quotes wider than the venue trades, and a thin venue then never prints near the quotes again',
      parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
    }),
    kMaxPerBps: envKey({
      key: names.kMax,
      default: '10',
      unit: '1/bps of fair',
      doc: 'Largest k the online fit may give (per bp); the spread tends to 2/k bps as k grows',
      parse: v.numberIn({ min: 0, minExclusive: true, max: 1e9 }),
    }),
  };
}

/** Cross-check: the k bounds must not cross. */
export function checkArrivalBounds(names: ArrivalPriorKeyNames) {
  return (values: { readonly kMinPerBps: number; readonly kMaxPerBps: number }, rawOf: (key: string) => string): ConfigIssue[] =>
    values.kMinPerBps <= values.kMaxPerBps ? [] : [{ key: names.kMin, value: rawOf(names.kMin), allowed: `at most ${names.kMax} (${values.kMaxPerBps})` }];
}
