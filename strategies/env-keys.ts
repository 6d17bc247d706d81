/**
 * Strategy parameters from the pair's env file: one table per strategy names every key with its
 * default, unit, meaning and parser, and `readKeys` validates the whole table at once so a user
 * sees every bad key in one run (MM-NOTES §4 item 8: calibration must not be a guessing game).
 * Values are read as `env[key] ?? default`, trimmed; an empty value is a bad value, as in
 * `src/config`.
 */
import type { ConfigIssue, ParamsResult } from '../src/core/index.ts';

/** A parsed value, or a sentence saying what would have been allowed. */
export type ValueResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly allowed: string };

/** Parser of one env value (already trimmed). */
export type ValueParser<T> = (raw: string) => ValueResult<T>;

/** One env key of a strategy. */
export interface EnvKeySpec<T> {
  readonly key: string;
  /** Default as written in an env file. */
  readonly default: string;
  readonly unit: string;
  readonly doc: string;
  readonly parse: ValueParser<T>;
}

/** A strategy's key table: parameter name → key spec. */
export type EnvKeyTable = Readonly<Record<string, EnvKeySpec<unknown>>>;

/** The values a key table parses to. */
export type EnvKeyValues<Table extends EnvKeyTable> = { -readonly [Name in keyof Table]: Table[Name] extends EnvKeySpec<infer T> ? T : never };

/**
 * A check across several keys: returns issues (naming one key each) for values that do not fit
 * together. `rawOf(key)` is the text the value was parsed from, for the issue.
 */
export type CrossCheck<Values> = (values: Values, rawOf: (key: string) => string) => ConfigIssue[];

const ok = <T>(value: T): ValueResult<T> => ({ ok: true, value });
const fail = <T>(allowed: string): ValueResult<T> => ({ ok: false, allowed });

/** Plain decimal text: optional sign, digits, optional fraction, optional exponent. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Bounds of a numeric key. */
export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  /** The minimum itself is not allowed (e.g. a risk aversion must be > 0). */
  readonly minExclusive?: boolean;
  readonly integer?: boolean;
  /** Unit appended to the "allowed" sentence. */
  readonly unit?: string;
}

/** Describes the allowed range of a numeric key, e.g. "a number > 0 and ≤ 100 bps". */
function describeBounds(bounds: NumberBounds): string {
  const kind = bounds.integer === true ? 'an integer' : 'a number';
  const parts: string[] = [];
  if (bounds.min !== undefined) parts.push(`${bounds.minExclusive === true ? '>' : '≥'} ${bounds.min}`);
  if (bounds.max !== undefined) parts.push(`≤ ${bounds.max}`);
  const unit = bounds.unit === undefined || bounds.unit === '' ? '' : ` ${bounds.unit}`;
  return parts.length === 0 ? `${kind}${unit}` : `${kind} ${parts.join(' and ')}${unit}`;
}

/** A finite decimal number within bounds. */
export function numberIn(bounds: NumberBounds = {}): ValueParser<number> {
  const allowed = describeBounds(bounds);
  return (raw) => {
    if (!DECIMAL.test(raw)) return fail(allowed);
    const value = Number(raw);
    if (!Number.isFinite(value)) return fail(allowed);
    if (bounds.integer === true && !Number.isInteger(value)) return fail(allowed);
    if (bounds.min !== undefined && (bounds.minExclusive === true ? value <= bounds.min : value < bounds.min)) return fail(allowed);
    if (bounds.max !== undefined && value > bounds.max) return fail(allowed);
    return ok(value);
  };
}

const TRUE_WORDS = new Set(['true', '1', 'on', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'off', 'no']);

/** true/false, 1/0, on/off, yes/no (any case). */
export const booleanValue: ValueParser<boolean> = (raw) => {
  const word = raw.toLowerCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return fail('true/false, 1/0, on/off or yes/no');
};

/** One of a fixed set of words (any case). */
export function oneOf<T extends string>(choices: readonly T[]): ValueParser<T> {
  return (raw) => {
    const word = raw.toLowerCase();
    const found = choices.find((choice) => choice === word);
    return found === undefined ? fail(`one of ${choices.join(', ')}`) : ok(found);
  };
}

/**
 * A keyword (e.g. `auto`, `inf`, `off`, any case) or a number within bounds. The keyword parses
 * to itself (lower case), so callers branch on `typeof value === 'number'`.
 */
export function keywordOrNumber<K extends string>(keyword: K, bounds: NumberBounds): ValueParser<K | number> {
  const parseNumber = numberIn(bounds);
  const allowed = `${keyword} or ${describeBounds(bounds)}`;
  return (raw) => {
    if (raw.toLowerCase() === keyword) return ok(keyword);
    const parsed = parseNumber(raw);
    return parsed.ok ? parsed : fail(allowed);
  };
}

/** Identity helper that keeps a key spec's value type. */
export function envKey<T>(spec: EnvKeySpec<T>): EnvKeySpec<T> {
  return spec;
}

/** The `keys` listing of a `StrategyDefinition`, in table order. */
export function describeKeys(table: EnvKeyTable): { key: string; default: string; unit: string; doc: string }[] {
  return Object.values(table).map(({ key, default: byDefault, unit, doc }) => ({ key, default: byDefault, unit, doc }));
}

/**
 * Reads every key of a table from env, then runs the cross-key checks on the values that parsed.
 * Never stops at the first problem: all issues come back together.
 */
export function readKeys<Table extends EnvKeyTable>(
  table: Table,
  env: Readonly<Record<string, string | undefined>>,
  crossChecks: readonly CrossCheck<EnvKeyValues<Table>>[] = [],
): ParamsResult<EnvKeyValues<Table>> {
  const issues: ConfigIssue[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const raw = env[spec.key] ?? spec.default;
    const parsed = spec.parse(raw.trim());
    if (parsed.ok) values[name] = parsed.value;
    else issues.push({ key: spec.key, value: raw, allowed: parsed.allowed });
  }
  if (issues.length > 0) return { ok: false, issues };
  const typed = values as EnvKeyValues<Table>;
  const rawOf = (key: string): string => env[key] ?? Object.values(table).find((spec) => spec.key === key)?.default ?? '';
  for (const check of crossChecks) issues.push(...check(typed, rawOf));
  return issues.length > 0 ? { ok: false, issues } : { ok: true, params: typed };
}
