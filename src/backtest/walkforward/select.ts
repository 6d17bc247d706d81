/**
 * What a walk-forward's training span chooses: among the training grid's cells that traded enough
 * to judge (`--min-fills`), the one best by the objective (`--objective`), the first in grid order
 * on a tie. Pure: summaries in, a cell index out, so the same grid always freezes the same
 * settings.
 */
import { RANK_FIGURES, rankByValue } from '../sweep.ts';

/** The objective of an interval's lower bound: `KEY_ci95_low` is the low end of `KEY_ci95`. */
const LOWER_BOUND_SUFFIX = '_ci95_low';

/** Figures whose interval's lower bound may be an objective (`pnl_quote_ci95_low`, …). */
const BOUNDED_FIGURES = ['pnl_quote', 'pnl_per_notional_bps', 'markout_1s_bps', 'markout_10s_bps', 'markout_60s_bps'] as const;

/**
 * What the training span maximises by default: the PnL after fees, what a desk keeps. It is what
 * `backtest --sweep` ranks by and what the ablation chose by, so the walk-forward freezes the
 * settings those tools would; PnL per notional favours settings that barely trade, and an
 * interval's lower bound is null on a span shorter than two bootstrap blocks. The test span, not
 * the objective, is what guards against a lucky choice.
 */
export const DEFAULT_OBJECTIVE = 'pnl_quote';

/**
 * Fewest fills a training cell needs to be chosen by default: a cell that barely trades has a
 * PnL near 0 that would beat every cell that trades at a small loss, and says nothing of the
 * settings (issue 24's goals ask ≥ 20 fills of a run too).
 */
export const DEFAULT_MIN_FILLS = 20;

/** Every objective, with the direction that is better. */
export function objectiveNames(): string[] {
  return [...Object.keys(RANK_FIGURES), ...BOUNDED_FIGURES.map((key) => `${key}${LOWER_BOUND_SUFFIX}`)];
}

/**
 * Checks an objective's name.
 * @throws RangeError naming the objectives allowed.
 */
export function checkObjective(name: string): string {
  if (!objectiveNames().includes(name)) throw new RangeError(`--objective ${name} is not a figure a walk-forward maximises (allowed: ${objectiveNames().join(', ')})`);
  return name;
}

/** Whether a higher value of the objective is better. */
export function isHigherBetter(objective: string): boolean {
  return objective.endsWith(LOWER_BOUND_SUFFIX) || RANK_FIGURES[objective] !== 'lower';
}

/** The objective's value in a summary; null when the summary has none (no fills, no interval). */
export function objectiveValue(summary: object, objective: string): number | null {
  const record = summary as Readonly<Record<string, unknown>>;
  if (objective.endsWith(LOWER_BOUND_SUFFIX)) {
    const interval = record[`${objective.slice(0, -LOWER_BOUND_SUFFIX.length)}_ci95`];
    return Array.isArray(interval) && typeof interval[0] === 'number' && Number.isFinite(interval[0]) ? interval[0] : null;
  }
  const value = record[objective];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The training span's choice, or why there is none. */
export type Selection =
  | { readonly ok: true; readonly index: number; readonly value: number; readonly eligible: number }
  | { readonly ok: false; readonly reason: string };

/**
 * The cell the training span freezes: the best `objective` among cells with at least `minFills`
 * fills and a value of it; on a tie the first in grid order.
 */
export function selectCell(summaries: readonly { readonly fills: number }[], objective: string, minFills: number): Selection {
  const values = summaries.map((summary) => (summary.fills >= minFills ? objectiveValue(summary, objective) : null));
  const eligible = values.filter((value) => value !== null).length;
  const best = rankByValue(values, isHigherBetter(objective))[0];
  const value = best === undefined ? null : values[best];
  if (best !== undefined && value !== null && value !== undefined) return { ok: true, index: best, value, eligible };
  const mostFills = Math.max(0, ...summaries.map((summary) => summary.fills));
  const reason =
    mostFills < minFills
      ? `no cell of the ${summaries.length} traded --min-fills ${minFills} times on the training span (the most: ${mostFills}): lower --min-fills, or widen the grid towards settings that trade`
      : `no cell with ≥ ${minFills} fills has a value of ${objective} (an interval needs a span of two bootstrap blocks and fills): choose another --objective`;
  return { ok: false, reason };
}

/** Cell indexes best first by the objective (cells without a value of it last); ties keep grid order, as the choice does. */
export function rankByObjective(summaries: readonly object[], objective: string): number[] {
  return rankByValue(
    summaries.map((summary) => objectiveValue(summary, objective)),
    isHigherBetter(objective),
  );
}
