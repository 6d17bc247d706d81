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
 * together. `rawOf(key)` is the text the value was parsed from, for the issue; `isSet(key)` tells
 * whether the file sets the key to anything but `off` (a default is not "set").
 */
export type CrossCheck<Values> = (values: Values, rawOf: (key: string) => string, isSet: (key: string) => boolean) => ConfigIssue[];

/**
 * Two keys that set one thing in different units (`LADDER_ORDER_SIZE` in base tokens beside
 * `LADDER_ORDER_NOTIONAL` in quote tokens; a deprecated key beside its replacement): a file may set
 * one of them, not both, so that which one is in effect is never a guess. `what` names the thing.
 */
export function notBoth(first: string, second: string, what: string): CrossCheck<unknown> {
  return (_values, rawOf, isSet) =>
    isSet(first) && isSet(second)
      ? [{ key: second, value: rawOf(second), allowed: `${first} and ${second} both set ${what}: set one of them, not both (${first}=${rawOf(first)} is set too)` }]
      : [];
}

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
  const isSet = (key: string): boolean => {
    const raw = env[key];
    return raw !== undefined && raw.trim().toLowerCase() !== 'off';
  };
  for (const check of crossChecks) issues.push(...check(typed, rawOf, isSet));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, params: typed };
}
