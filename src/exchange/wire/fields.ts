/**
 * Field readers for JSON bodies from the network or a user's file. Each one validates one field
 * into an exact value and, when it cannot, throws a `WireError` that names the field by its full
 * path ("fee.gas_fee.max_gas_price") and shows the bad value, so a user fixing a body or a
 * FAILED_SIGN_CHECK knows exactly what to change.
 */
import { MmError, parseUnits, type ChainInfo, type TokenInfo } from '../../core/index.ts';
import type { AnomalySink } from './anomalies.ts';

/** The Stark field prime: every felt is in [0, P). */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** A field that is missing, of the wrong type or out of range. */
export class WireError extends MmError<'WIRE_INVALID_FIELD'> {
  readonly field: string;

  constructor(field: string, problem: string) {
    super('WIRE_INVALID_FIELD', `${field}: ${problem}`);
    this.name = 'WireError';
    this.field = field;
  }
}

/** A JSON object being read, with the path of its fields for error messages. */
export class FieldReader {
  readonly #value: Readonly<Record<string, unknown>>;
  readonly #path: string;
  readonly #sink: AnomalySink | undefined;

  private constructor(value: Readonly<Record<string, unknown>>, path: string, sink: AnomalySink | undefined) {
    this.#value = value;
    this.#path = path;
    this.#sink = sink;
  }

  /**
   * Reads the top-level body; throws when it is not a JSON object. With a `sink` (the client
   * reading what the venue sent) amounts with extra decimals are truncated and reported instead
   * of refused; without one (the sim reading requests) every field is strict.
   */
  static root(body: unknown, name = 'body', sink?: AnomalySink): FieldReader {
    if (!isPlainObject(body)) throw new WireError(name, `expected a JSON object, got ${describe(body)}`);
    return new FieldReader(body, '', sink);
  }

  /** Where this reader reports anomalies; undefined when strict. */
  get sink(): AnomalySink | undefined {
    return this.#sink;
  }

  /** Full path of a field of this object. */
  path(key: string): string {
    return this.#path === '' ? key : `${this.#path}.${key}`;
  }

  has(key: string): boolean {
    return this.#value[key] !== undefined && this.#value[key] !== null;
  }

  raw(key: string): unknown {
    const value = this.#value[key];
    if (value === undefined || value === null) throw new WireError(this.path(key), 'missing');
    return value;
  }

  object(key: string): FieldReader {
    const value = this.raw(key);
    if (!isPlainObject(value)) throw new WireError(this.path(key), `expected an object, got ${describe(value)}`);
    return new FieldReader(value, this.path(key), this.#sink);
  }

  /** A felt given as 0x-hex, a decimal string or a safe JSON integer. */
  felt(key: string): bigint {
    return parseFelt(this.raw(key), this.path(key));
  }

  /** An unsigned integer below 2^bits, as a JSON number or a decimal/hex string. */
  uint(key: string, bits: number): number {
    const value = parseFelt(this.raw(key), this.path(key));
    if (value >= 2n ** BigInt(bits)) throw new WireError(this.path(key), `${value} does not fit in u${bits}`);
    return Number(value);
  }

  bool(key: string): boolean {
    const value = this.raw(key);
    if (typeof value !== 'boolean') throw new WireError(this.path(key), `expected true or false, got ${describe(value)}`);
    return value;
  }

  string(key: string): string {
    const value = this.raw(key);
    if (typeof value !== 'string') throw new WireError(this.path(key), `expected a string, got ${describe(value)}`);
    return value;
  }

  /** A human decimal amount ("3000.5") in base units of a token with these decimals. */
  amount(key: string, decimals: number): bigint {
    return parseAmount(this.raw(key), decimals, this.path(key), this.#sink);
  }

  /** A token symbol of the chain's table. */
  token(key: string, chain: ChainInfo): TokenInfo {
    return parseTokenSymbol(this.raw(key), chain, this.path(key));
  }

  /** A Stark signature `[r, s]`: exactly two felts as decimal or hex strings. */
  signature(key: string): StarkSignature {
    return parseSignature(this.raw(key), this.path(key));
  }
}

/** An ECDSA signature on the Stark curve. */
export interface StarkSignature {
  readonly r: bigint;
  readonly s: bigint;
}

const HEX_FELT = /^0x[0-9a-fA-F]{1,64}$/;
const DECIMAL_FELT = /^(0|[1-9][0-9]{0,76})$/;

/** Parses a felt from 0x-hex, a decimal string or a safe non-negative integer. */
export function parseFelt(value: unknown, field: string): bigint {
  let parsed: bigint;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new WireError(field, `${value} is not a non-negative safe integer (send large values as strings)`);
    }
    parsed = BigInt(value);
  } else if (typeof value === 'string' && (HEX_FELT.test(value) || DECIMAL_FELT.test(value))) {
    parsed = BigInt(value);
  } else {
    throw new WireError(field, `expected a felt as 0x-hex or decimal, got ${describe(value)}`);
  }
  if (parsed >= FIELD_PRIME) throw new WireError(field, `${String(value)} is not below the field prime`);
  return parsed;
}

/**
 * Parses a wire decimal amount into base units. More decimals than the token has are refused,
 * unless a `sink` is given: then they are truncated, as both SDKs do (akira-js
 * `formattedDecimalToBigInt` slices, python_akira `precise_to_price_convert` cuts), and reported.
 */
export function parseAmount(value: unknown, decimals: number, field: string, sink?: AnomalySink): bigint {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new WireError(field, `expected a decimal string, got ${describe(value)}`);
  }
  const text = String(value);
  try {
    return parseUnits(text, decimals);
  } catch (error) {
    if (sink !== undefined) {
      try {
        const truncated = parseUnits(text, decimals, { rounding: 'down' });
        sink('extra_decimals', field, `${text} has more than ${decimals} decimals; truncated`);
        return truncated;
      } catch {
        // Not a decimal at all: refused below.
      }
    }
    throw new WireError(field, `${error instanceof Error ? error.message : String(error)} (token has ${decimals} decimals)`);
  }
}

function parseTokenSymbol(value: unknown, chain: ChainInfo, field: string): TokenInfo {
  const token = typeof value === 'string' ? chain.tokens.get(value) : undefined;
  if (token === undefined) {
    throw new WireError(field, `unknown token ${describe(value)} on ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`);
  }
  return token;
}

function parseSignature(value: unknown, field: string): StarkSignature {
  if (!Array.isArray(value) || value.length !== 2) {
    throw new WireError(field, `expected [r, s], two felts, got ${describe(value)}`);
  }
  const items = value as unknown[];
  if (typeof items[0] !== 'string' || typeof items[1] !== 'string') {
    throw new WireError(field, 'r and s must be decimal or 0x-hex strings');
  }
  return { r: parseFelt(items[0], `${field}[0]`), s: parseFelt(items[1], `${field}[1]`) };
}

/** Reads an array field of exactly `length` items. */
export function tupleOf(reader: FieldReader, key: string, length: number): unknown[] {
  const value = reader.raw(key);
  if (!Array.isArray(value) || value.length !== length) {
    throw new WireError(reader.path(key), `expected an array of ${length} items, got ${describe(value)}`);
  }
  return value as unknown[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, safe rendering of a bad value for an error message. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Encodes an ASCII string of at most 31 chars as a Cairo short string felt. */
export function shortStringToFelt(text: string, field = 'short string'): bigint {
  if (text.length > 31 || [...text].some((char) => char.charCodeAt(0) > 0x7f)) {
    throw new WireError(field, `"${text}" is not an ASCII short string of at most 31 characters`);
  }
  let value = 0n;
  for (let i = 0; i < text.length; i++) value = (value << 8n) | BigInt(text.charCodeAt(i));
  return value;
}

/** 0x-hex of a felt, lowercase, no padding (what starknet.js `num.toHex` prints). */
export function feltToHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/**
 * An address (or hash) in the padded form: 0x and 64 lowercase hex digits, 66 characters
 * (python_akira `ContractAddress.as_str`, akira-js websocket/utils.ts `normalize`). Our client
 * sends every address so and the sim answers so; the sim reads any spelling (docs/venue.md §2).
 */
export function addressToHex(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}
