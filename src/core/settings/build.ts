/**
 * The one builder of a component's settings from parsed key values: every key whose declaration
 * names the reader lands in the field it names, converted to the reader's unit. Amounts become
 * base units here, so settings that hold them are built once the pair's decimals are known.
 */
import { MmError } from '../errors.ts';
import { parseUnits } from '../money.ts';
import type { KeyTable, KeyValues, Reader, SettingsOf, TokenUnits, ValuesReadBy } from './keys.ts';

/** Token decimals of a pair. */
export interface PairDecimals {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

/** A zero amount is zero in any unit: defaults convert without a pair. */
const ZERO = /^0+(\.0+)?$/;

/** Base and quote amounts to units; a side whose decimals are unknown converts only zero. */
function tokenUnits(decimals: Partial<PairDecimals>): TokenUnits {
  const toUnits = (side: 'base' | 'quote', places: number | undefined) => (text: string): bigint => {
    if (places !== undefined) return parseUnits(text, places, { rounding: 'down' });
    if (ZERO.test(text)) return 0n;
    throw new MmError('CORE_INVARIANT', `${text} ${side} tokens need the pair's ${side} token decimals: build these settings once the pair is known`);
  };
  return { base: toUnits('base', decimals.baseDecimals), quote: toUnits('quote', decimals.quoteDecimals) };
}

/**
 * The settings `reader` receives from `table`: one field per key that names it.
 * @param values parsed values by key name (a loaded config's, or {@link defaultValues}).
 * @param decimals the pair's token decimals, needed by keys that hold amounts.
 * @throws MmError `CORE_INVARIANT` when a value is missing, or an amount needs decimals not given.
 */
export function settingsOf<Table extends KeyTable, R extends Reader>(table: Table, reader: R, values: ValuesReadBy<Table, R>, decimals: Partial<PairDecimals> = {}): SettingsOf<Table, R> {
  const units = tokenUnits(decimals);
  const given = values as Readonly<Record<string, unknown>>;
  const settings: Record<string, unknown> = {};
  for (const spec of Object.values(table)) {
    const landing = spec.readers?.[reader];
    if (landing === undefined) continue;
    if (!(spec.key in given)) throw new MmError('CORE_INVARIANT', `no value of ${spec.key} to build the ${reader} settings from`);
    const value = given[spec.key];
    if (typeof landing === 'string') settings[landing] = value;
    else settings[landing.field] = landing.convert(value, units);
  }
  return settings as SettingsOf<Table, R>;
}

/**
 * Every key's default, parsed: what a file that sets nothing gives.
 * @throws MmError `CORE_INVARIANT` when a default is missing or does not parse (a declaration's bug).
 */
export function defaultValues<Table extends KeyTable>(table: Table): KeyValues<Table> {
  const values: Record<string, unknown> = {};
  for (const spec of Object.values(table)) {
    const parsed = spec.default === undefined ? undefined : spec.parse(spec.default);
    if (parsed === undefined || !parsed.ok) throw new MmError('CORE_INVARIANT', `${spec.key} has no default that parses`);
    values[spec.key] = parsed.value;
  }
  return values as KeyValues<Table>;
}
