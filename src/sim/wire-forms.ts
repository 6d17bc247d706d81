/**
 * Forms the SDKs rely on, checked on POST bodies before they are parsed (docs/venue.md §2).
 * Spelling is not among them: addresses, keys and hashes are felts and compared as numbers
 * (akira-js sends a checksummed `maker` and whatever `/info/router_details` gave it as
 * `router_signer`; python_akira pads every one), so the parser reads any 0x-hex or decimal form.
 * What stays strict is what an SDK's user needs a real error for:
 *
 * - `constraints.stp` is a JSON number: akira-js `STPMode` is a numeric enum, python_akira sends
 *   `stp.value`, and both read it back as a number. A name ("NONE") is no SDK's form and would
 *   hash as something else than the user meant.
 *
 * Signatures, nonces and amounts are checked where they are read (parser, validate.ts, engine).
 */
import { SimRejection } from './errors.ts';

/** The signed request kinds whose bodies are checked. */
export type BodyKind = 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'increase-nonce';

function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Refuses an order whose `stp` is not a number. Missing fields are left to the parser, which
 * names them.
 * @throws SimRejection WRONG_INPUT (400) naming the field.
 */
export function checkWireForms(body: unknown, kind: BodyKind): void {
  if (kind !== 'order') return;
  const stp = valueAt(body, 'constraints.stp');
  if (stp !== undefined && typeof stp !== 'number') {
    throw new SimRejection('WRONG_INPUT', `constraints.stp: ${JSON.stringify(stp)} is not a number 0-3 (the SDKs send STPMode as an integer)`, { httpStatus: 400, field: 'constraints.stp' });
  }
}
