/** Felt and u256 helpers of the Starknet double (Cairo serde: u256 is two felts, low then high). */
import { starknetJs } from '../../exchange/chain/starknet-js.ts';
import { Revert } from './double-chain.ts';

const U128 = 2n ** 128n;

/** A u256 as Cairo serialises it: [low, high]. */
export function u256(value: bigint): [bigint, bigint] {
  return [value % U128, value / U128];
}

/** Reads the argument at `index` (a felt). */
export function feltAt(calldata: readonly bigint[], index: number, name: string): bigint {
  const value = calldata[index];
  if (value === undefined) throw new Revert(`Failed to deserialize param #${index + 1} (${name})`);
  return value;
}

/** Reads a u256 (two felts, each below 2^128) at `index`. */
export function u256At(calldata: readonly bigint[], index: number, name: string): bigint {
  const low = feltAt(calldata, index, name);
  const high = feltAt(calldata, index + 1, name);
  if (low >= U128 || high >= U128) throw new Revert(`Failed to deserialize param ${name}: u256 limbs out of range`);
  return low + high * U128;
}

/** Reads a bool (0 or 1). */
export function boolAt(calldata: readonly bigint[], index: number, name: string): boolean {
  const value = feltAt(calldata, index, name);
  if (value !== 0n && value !== 1n) throw new Revert(`Failed to deserialize param ${name}: bool must be 0 or 1`);
  return value === 1n;
}

/** `0x…` lower-case hex. */
export function hex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** sn_keccak of a name: an entry point's selector, an event's first key. */
export function selectorOf(name: string): bigint {
  return BigInt(starknetJs().hash.getSelectorFromName(name));
}

/** A Cairo short string as a felt ('VALID', 'SN_MAIN'). */
export function shortString(text: string): bigint {
  return BigInt(starknetJs().shortString.encodeShortString(text));
}

/** Builds an entry-point table keyed by selector. */
export function entries<T>(table: Record<string, T>): Map<bigint, T> {
  return new Map(Object.entries(table).map(([name, entry]) => [selectorOf(name), entry]));
}
