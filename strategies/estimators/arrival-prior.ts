/**
 * The arrival fit weighed against a model's configured A and k (its prior), then bounded.
 *
 * Why: on a thin venue the online fit of λ(δ) = A·e^(−kδ) sees a handful of prints inside its
 * grid, and those are the ones our own stale quotes drew; its k then measures how often we quoted
 * near, and a small k widens the quotes past where anyone trades, which keeps the near prints away
 * and k small (issue 24 item 5; docs/strategies.md "Estimators on thin flow"). So:
 * - shrinkage: ln A and ln k are the fit's and the prior's, weighted w = n / (n + n₀), where n is
 *   the fit's evidence (arrivals inside the grid, each weighted 2^(−age/half-life):
 *   `ArrivalIntensity.evidence`) and n₀ the prior's strength in arrivals (`*_PRIOR_ARRIVALS`).
 *   This is the posterior mean of a normal prior on ln k worth n₀ observations; in log space
 *   because A and k are positive scale parameters (halving and doubling are equally far);
 * - recovery: n decays when prints inside the grid stop, so the weight returns to the prior with
 *   the evidence half-life (`ARRIVAL_EVIDENCE_HALF_LIFE_S`) instead of the last fit locking in;
 * - bounds: whatever the blend, k and A stay inside declared ranges (`*_MIN`/`*_MAX` keys); they
 *   fence what the fit can do, so the configured values alone are used as they are.
 * A fit without `evidence` (given from outside, as tests do) carries full weight.
 */
import type { ArrivalIntensity } from '../../src/core/index.ts';

/** The model's prior and bounds. */
export interface ArrivalPrior {
  /** Configured A (arrivals per second) and k (per bp). */
  readonly a: number;
  readonly kPerBps: number;
  /** n₀: how many arrivals the prior is worth; 0 = the fit alone. */
  readonly strength: number;
  readonly kMinPerBps: number;
  readonly kMaxPerBps: number;
  readonly aMin: number;
  readonly aMax: number;
}

/** A and k a model uses, and how much of them came from the fit. */
export interface ShrunkArrival {
  readonly a: number;
  readonly kPerBps: number;
  /** w in [0, 1]: 0 = the prior alone (no fit, or no evidence), 1 = the fit alone (before the bounds). */
  readonly fitWeight: number;
  /** True when a bound moved A or k. */
  readonly bounded: boolean;
}

/** The fit shrunk towards the prior by its evidence, then clamped to the bounds. */
export function shrinkArrival(fit: ArrivalIntensity | undefined, prior: ArrivalPrior): ShrunkArrival {
  const usable = fit !== undefined && fit.a > 0 && Number.isFinite(fit.a) && fit.kPerBps > 0 && Number.isFinite(fit.kPerBps);
  const evidence = usable ? (fit.evidence ?? Number.POSITIVE_INFINITY) : 0;
  const weight = !usable || !(evidence > 0) ? 0 : evidence === Number.POSITIVE_INFINITY || prior.strength === 0 ? 1 : evidence / (evidence + prior.strength);
  const blend = (fitted: number, configured: number): number => (weight === 0 ? configured : weight === 1 ? fitted : Math.exp(weight * Math.log(fitted) + (1 - weight) * Math.log(configured)));
  // No weight on the fit: the configured values as they are (the bounds fence the fit, not the keys).
  if (weight === 0) return { a: prior.a, kPerBps: prior.kPerBps, fitWeight: 0, bounded: false };
  const a = usable ? blend(fit.a, prior.a) : prior.a;
  const kPerBps = usable ? blend(fit.kPerBps, prior.kPerBps) : prior.kPerBps;
  const boundedA = Math.min(Math.max(a, prior.aMin), prior.aMax);
  const boundedK = Math.min(Math.max(kPerBps, prior.kMinPerBps), prior.kMaxPerBps);
  return { a: boundedA, kPerBps: boundedK, fitWeight: weight, bounded: boundedA !== a || boundedK !== kPerBps };
}
