/**
 * The venue's error vocabulary (REFERENCE §4) and how the embedded exchange reports it.
 * SPEC §2: the names are the contract; the numeric `code` is the sim's own, 1 + the name's index
 * in the §4 list, so it is stable as long as the list is. Clients branch on the name only.
 */

import { VENUE_ERROR_NAMES, type VenueErrorName } from '../exchange/wire/errors.ts';

export { VENUE_ERROR_NAMES, type VenueErrorName };

/** The numeric `code` of an error body: 1 + the index of the name (SPEC §2). */
export function venueErrorCode(name: VenueErrorName): number {
  return VENUE_ERROR_NAMES.indexOf(name) + 1;
}

/**
 * A request the venue refuses. `name` goes into the body's `error`; `detail` says what exactly
 * was wrong (the field, the expected value) so a user can fix it without reading the sim.
 * `httpStatus` is 422 for semantic refusals (SPEC §2), 400 for bodies that cannot be read,
 * 404 for unknown orders.
 */
export class SimRejection extends Error {
  readonly venueName: VenueErrorName;
  readonly detail: string;
  readonly httpStatus: number;
  readonly field: string | undefined;

  constructor(name: VenueErrorName, detail: string, options: { httpStatus?: number; field?: string } = {}) {
    super(`${name}: ${detail}`);
    this.name = 'SimRejection';
    this.venueName = name;
    this.detail = detail;
    this.httpStatus = options.httpStatus ?? 422;
    this.field = options.field;
  }
}

/** Shorthand for a 422 refusal. */
export function reject(name: VenueErrorName, detail: string): SimRejection {
  return new SimRejection(name, detail);
}
