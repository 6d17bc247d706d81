/**
 * Reading a strategy's table from a pair's env entries: every key at once, so a user sees every
 * bad key in one run (MM-NOTES §4 item 8: calibration must not be a guessing game), then the
 * checks across keys. Values are read as `env[key] ?? default`, trimmed; an empty value is a bad
 * value, as in `src/config`.
 */
import type { ConfigIssue, ParamsResult } from '../strategy.ts';
import type { KeySpec, ParamsOf } from './keys.ts';

/**
 * A check across several keys: returns issues (naming one key each) for values that do not fit
 * together. `rawOf(key)` is the text the value was parsed from, for the issue.
 */
export type CrossCheck<Values> = (values: Values, rawOf: (key: string) => string) => ConfigIssue[];

/** Reads every key of a strategy's table from env, then runs the cross-key checks on the values. */
export function readKeys<Table extends Readonly<Record<string, KeySpec & { readonly default: string }>>>(
  table: Table,
  env: Readonly<Record<string, string | undefined>>,
  crossChecks: readonly CrossCheck<ParamsOf<Table>>[] = [],
): ParamsResult<ParamsOf<Table>> {
  const issues: ConfigIssue[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const raw = env[spec.key] ?? spec.default;
    const parsed = spec.parse(raw.trim());
    if (parsed.ok) values[name] = parsed.value;
    else issues.push({ key: spec.key, value: raw, allowed: parsed.allowed });
  }
  if (issues.length > 0) return { ok: false, issues };
  const typed = values as ParamsOf<Table>;
  const rawOf = (key: string): string => env[key] ?? Object.values(table).find((spec) => spec.key === key)?.default ?? '';
  for (const check of crossChecks) issues.push(...check(typed, rawOf));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, params: typed };
}
