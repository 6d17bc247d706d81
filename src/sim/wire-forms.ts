/**
 * The exact forms the SDKs send, checked on POST bodies before they are parsed: the venue may
 * refuse anything else, so the embedded exchange does, and a client regression fails a test
 * instead of a live order (docs/venue.md). The shared wire parsers stay lenient on purpose: the
 * `hash` command reads bodies users paste.
 *
 * - Addresses (`maker`, fee `recipient`s, `router_signer`, `receiver`) are zero-padded, 66
 *   characters: python_akira serialises every one with `ContractAddress.as_str()`
 *   (OrderSerializer.py, HttpClient.py) and the swagger examples show them so.
 * - `constraints.stp` is a JSON number: akira-js `STPMode` is a numeric enum, python_akira sends
 *   `stp.value`.
 */
import { isPaddedAddress } from '../exchange/wire/fields.ts';
import { SimRejection } from './errors.ts';

/** The signed request kinds whose bodies are checked. */
export type BodyKind = 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'increase-nonce';

const ADDRESS_PATHS: Readonly<Record<BodyKind, readonly string[]>> = {
  order: ['maker', 'fee.trade_fee.recipient', 'fee.router_fee.recipient', 'fee.integrator_fee.recipient', 'constraints.router_signer'],
  cancel: ['maker'],
  'cancel-all': ['maker'],
  withdraw: ['maker', 'receiver'],
  'increase-nonce': ['maker'],
};

function valueAt(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function refuse(field: string, problem: string): SimRejection {
  return new SimRejection('WRONG_INPUT', `${field}: ${problem}`, { httpStatus: 400, field });
}

/**
 * Refuses a body whose addresses are not zero-padded or whose `stp` is not a number. Missing
 * fields are left to the parser, which names them.
 * @throws SimRejection WRONG_INPUT (400) naming the field.
 */
export function checkWireForms(body: unknown, kind: BodyKind): void {
  for (const path of ADDRESS_PATHS[kind]) {
    const value = valueAt(body, path);
    if (value !== undefined && !isPaddedAddress(value)) {
      throw refuse(path, `${JSON.stringify(value)} is not a zero-padded address (0x and 64 hex digits, as the SDKs send it)`);
    }
  }
  if (kind === 'order') {
    const stp = valueAt(body, 'constraints.stp');
    if (stp !== undefined && typeof stp !== 'number') throw refuse('constraints.stp', `${JSON.stringify(stp)} is not a number 0-3 (the SDKs send STPMode as an integer)`);
  }
}
