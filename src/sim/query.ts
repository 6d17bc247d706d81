/**
 * Query-string readers with errors that name the parameter (400 WRONG_INPUT, never a crash).
 * As strict as the venue may be (docs/venue.md): addresses only in the SDKs' zero-padded form,
 * booleans only in the spelling the SDKs send on that endpoint.
 */
import { isPaddedAddress, parseFelt } from '../exchange/wire/fields.ts';
import { SimRejection } from './errors.ts';
import type { Market } from './markets.ts';
import type { VenueContext } from './context.ts';

function bad(name: string, problem: string): SimRejection {
  return new SimRejection('WRONG_INPUT', `query ${name}: ${problem}`, { httpStatus: 400, field: name });
}

/** A required parameter. */
export function required(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw bad(name, 'missing');
  return value;
}

/** A felt parameter (hex or decimal). */
export function feltParam(query: URLSearchParams, name: string): bigint {
  const value = required(query, name);
  try {
    return parseFelt(value, name);
  } catch {
    throw bad(name, `${JSON.stringify(value.slice(0, 80))} is not a felt (0x-hex or decimal)`);
  }
}

/**
 * An account or key parameter: 0x and 64 hex digits, as python_akira's `ContractAddress.as_str`
 * and the swagger examples write it. A shorter form may be refused by the venue, so it is here.
 */
export function addressParam(query: URLSearchParams, name: string): bigint {
  const value = required(query, name);
  if (!isPaddedAddress(value)) throw bad(name, `${JSON.stringify(value.slice(0, 80))} is not a zero-padded address (0x and 64 hex digits)`);
  return BigInt(value);
}

/**
 * How an endpoint spells its booleans: `digit` 1|0 (akira-js `+bool` / `isActive ? 1 : 0`,
 * python_akira `int(bool)`), `word` true|false (akira-js `URLSearchParams` of a bool) and
 * True|False (python_akira `str(bool)` on `/user/orders?is_active`).
 */
export type BoolSpelling = 'digit' | 'word';

const SPELLINGS: Readonly<Record<BoolSpelling, Readonly<Record<string, boolean>>>> = {
  digit: { '1': true, '0': false },
  word: { true: true, false: false, True: true, False: false },
};

/** A boolean flag in the spelling this endpoint takes; `fallback` when absent. */
export function boolParam(query: URLSearchParams, names: readonly string[], fallback: boolean | undefined, spelling: BoolSpelling): boolean | undefined {
  const allowed = SPELLINGS[spelling];
  for (const name of names) {
    const value = query.get(name);
    if (value === null || value === '') continue;
    const parsed = allowed[value];
    if (parsed !== undefined) return parsed;
    throw bad(name, `${JSON.stringify(value.slice(0, 20))} is not one of ${Object.keys(allowed).join('|')} (the spelling this endpoint takes)`);
  }
  return fallback;
}

/** An integer parameter in [min, max]; `fallback` when absent. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw bad(name, `${JSON.stringify(value.slice(0, 20))} is not an integer`);
  const parsed = Number(value);
  if (parsed < min || parsed > max) throw bad(name, `${parsed} is outside ${min}..${max}`);
  return parsed;
}

/** The book named by `base`, `quote`, `to_ecosystem_book` (REFERENCE §1.2 #4); 404 when unlisted. */
export function marketParam(query: URLSearchParams, venue: VenueContext): Market {
  const base = required(query, 'base');
  const quote = required(query, 'quote');
  const isEcosystemBook = boolParam(query, ['to_ecosystem_book'], true, 'digit') ?? true;
  const market = venue.engine.market(base, quote, isEcosystemBook);
  if (market === undefined) {
    throw new SimRejection('NOT_FOUND', `no ${isEcosystemBook ? 'ecosystem' : 'router'} book for ${base}/${quote}`, { httpStatus: 404 });
  }
  return market;
}
