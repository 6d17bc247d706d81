/**
 * Query-string readers with errors that name the parameter (400 WRONG_INPUT, never a crash).
 * Addresses and hashes are numbers, whatever their spelling (docs/venue.md §2): akira-js passes
 * the caller's strings through, checksummed or unpadded, python_akira pads them. Booleans in any
 * spelling an SDK sends anywhere.
 */
import { parseFelt } from '../exchange/wire/fields.ts';
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

/**
 * A felt parameter: an address, a key or a hash as a number. 0x-hex in any case, zero-padded or
 * not (akira-js sends a checksummed account and starknet.js's unpadded key as the caller gave
 * them; python_akira pads), or decimal (akira-js's own tests look orders up by a decimal hash).
 */
export function feltParam(query: URLSearchParams, name: string): bigint {
  const value = required(query, name);
  try {
    return parseFelt(value, name);
  } catch {
    throw bad(name, `${JSON.stringify(value.slice(0, 80))} is not a felt (0x-hex in any case, padded or not, or decimal, below the field prime)`);
  }
}

/**
 * Every spelling of a boolean the SDKs send, on every endpoint: akira-js sends `1|0` on
 * `/user/order` and the books (`isActive ? 1 : 0`, `+to_ecosystem_book`) and `true|false` on
 * `/user/orders` (`URLSearchParams` of a bool); python_akira `int(bool)` and, on
 * `/user/orders?is_active`, `True|False` (`str(bool)`). Which one an endpoint gets is a matter
 * of spelling, so the sim reads them all (docs/venue.md §2); anything else is an error.
 */
const BOOLEANS: Readonly<Record<string, boolean>> = { '1': true, '0': false, true: true, false: false, True: true, False: false };

/** A boolean flag under the first of `names` present; `fallback` when none is. */
export function boolParam(query: URLSearchParams, names: readonly string[], fallback: boolean | undefined): boolean | undefined {
  for (const name of names) {
    const value = query.get(name);
    if (value === null || value === '') continue;
    const parsed = BOOLEANS[value];
    if (parsed !== undefined) return parsed;
    throw bad(name, `${JSON.stringify(value.slice(0, 20))} is not a boolean (${Object.keys(BOOLEANS).join('|')})`);
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
  const isEcosystemBook = boolParam(query, ['to_ecosystem_book'], true) ?? true;
  const market = venue.engine.market(base, quote, isEcosystemBook);
  if (market === undefined) {
    throw new SimRejection('NOT_FOUND', `no ${isEcosystemBook ? 'ecosystem' : 'router'} book for ${base}/${quote}`, { httpStatus: 404 });
  }
  return market;
}
