/** Query-string readers with errors that name the parameter (400 WRONG_INPUT, never a crash). */
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

/** A felt parameter (hex or decimal). */
export function feltParam(query: URLSearchParams, name: string): bigint {
  const value = required(query, name);
  try {
    return parseFelt(value, name);
  } catch {
    throw bad(name, `${JSON.stringify(value.slice(0, 80))} is not a felt (0x-hex or decimal)`);
  }
}

/** A 0/1 (or true/false) flag; `fallback` when absent. */
export function boolParam(query: URLSearchParams, names: readonly string[], fallback: boolean | undefined): boolean | undefined {
  for (const name of names) {
    const value = query.get(name);
    if (value === null || value === '') continue;
    if (value === '1' || value === 'true') return true;
    if (value === '0' || value === 'false') return false;
    throw bad(name, `${JSON.stringify(value.slice(0, 20))} is not 1/0 or true/false`);
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
