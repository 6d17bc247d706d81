/**
 * The project recording format (docs/data-format.md): a 512-byte header, then fixed 64-byte
 * little-endian records. Fixed-size records make a file streamable in chunks (memory flat in the
 * file size), seekable by index, and decodable with typed-array views instead of a parser.
 * Prices and quantities are scaled integers (the header's decimals), so nothing in the file is a
 * float; timestamps are int64 nanoseconds since the Unix epoch, as hftbacktest keeps them.
 */
import { MmError } from '../../core/index.ts';

/** Codes raised by the data layer. */
export type DataErrorCode = 'DATA_BAD_FILE' | 'DATA_BAD_RECORD' | 'DATA_RULES_MISMATCH' | 'DATA_OUT_OF_ORDER' | 'DATA_BAD_INPUT';

/** An unreadable or inconsistent recording. */
export class DataError extends MmError<DataErrorCode> {
  constructor(code: DataErrorCode, message: string) {
    super(code, message);
    this.name = 'DataError';
  }
}

/** First 8 bytes of every recording. */
export const MAGIC = 'AKIRAMM\u0001';
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 512;
export const RECORD_BYTES = 64;
/** Bytes of the fixed header prelude before the JSON text. */
const PRELUDE_BYTES = 20;

/** Record kinds (byte 0). */
export const KIND = {
  /** Absolute size of one price level (0 removes it). */
  depth: 1,
  /** A trade: side = aggressor (0 when unknown). */
  trade: 2,
  /** The venue's own best bid/offer: price/qty = bid, aux1/aux2 = ask. */
  bbo: 3,
  /** The book is cleared; the depth records that follow (flag SNAPSHOT) rebuild it. */
  clear: 4,
  /** Gas price: aux1 = STRK base units (fri) per gas step. */
  gasPrice: 5,
  /** Conversion rate: price = quote tokens per STRK (price decimals). */
  conversionRate: 6,
} as const;
export type RecordKind = (typeof KIND)[keyof typeof KIND];
const KINDS: ReadonlySet<number> = new Set(Object.values(KIND));

/** Side byte: 0 = none or unknown, 1 = buy / bid, 2 = sell / ask. */
export const SIDE_NONE = 0;
export const SIDE_BUY = 1;
export const SIDE_SELL = 2;

/** Flag bits (bytes 2–3). */
export const FLAG = {
  /** Last record of one venue message: a reader sees a consistent book after it. */
  endOfMessage: 1,
  /** Level of a snapshot (after a CLEAR). */
  snapshot: 2,
  /** `seq` holds the venue's sequence id (update id, trade id). */
  hasSeq: 4,
  /** The venue sent no exchange time; exch_ts is local time plus the last measured offset. */
  exchTsEstimated: 8,
  /** `aux1` holds a value (depth: first update id of the message). */
  hasAux1: 16,
} as const;

/** What the header says about a recording. */
export interface RecordingHeader {
  /** Venue symbol as recorded, e.g. ETHUSDT. */
  readonly symbol: string;
  /** Importer that wrote it: binance, lobster, bitstamp, akira (record). */
  readonly source: string;
  /** Price fields are price × 10^priceDecimals. */
  readonly priceDecimals: number;
  /** Quantity fields are qty × 10^qtyDecimals. */
  readonly qtyDecimals: number;
  /** Largest step that divides every recorded price, as a decimal string ("0.01"); "0" if none. */
  readonly tick: string;
  /** Largest step that divides every recorded non-zero quantity ("0.0001"); "0" if none. */
  readonly lot: string;
  /** Number of records; a mismatch with the file size means a truncated file. */
  readonly records: number;
  /** Base and quote symbols when the importer knows them. */
  readonly base?: string;
  readonly quote?: string;
}

/** One record, decoded. Numbers are exact while below 2^53 (the writer refuses larger). */
export interface DataRecord {
  kind: number;
  side: number;
  flags: number;
  /** Exchange time, ms since epoch (fractional below 1 ms). */
  exchMs: number;
  /** Local receive time, ms since epoch. */
  localMs: number;
  seq: number;
  price: number;
  qty: number;
  aux1: number;
  aux2: number;
}

/** A fresh zeroed record to decode into. */
export function emptyRecord(): DataRecord {
  return { kind: 0, side: 0, flags: 0, exchMs: 0, localMs: 0, seq: 0, price: 0, qty: 0, aux1: 0, aux2: 0 };
}

/** A record to write: scaled integers as numbers, timestamps as exact bigint nanoseconds. */
export interface RecordInput {
  readonly kind: RecordKind;
  readonly side?: number;
  readonly flags?: number;
  readonly exchNs: bigint;
  readonly localNs: bigint;
  readonly seq?: number;
  readonly price?: number;
  readonly qty?: number;
  readonly aux1?: number | bigint;
  readonly aux2?: number;
}

/** True for a known record kind. */
export function isKnownKind(kind: number): kind is RecordKind {
  return KINDS.has(kind);
}

/**
 * Milliseconds of an unsigned int64 nanosecond count given as two 32-bit halves, exact to the ms
 * (2^32 = 4294 × 10^6 + 967296 keeps every intermediate below 2^53); the sub-ms part is a float.
 */
export function nsHalvesToMs(hi: number, lo: number): number {
  const rest = hi * 967_296 + lo;
  // rest < 2^53 and the doubles near rest / 10^6 (< 2^33) are closer than 10^-6 apart, so the
  // floor of the rounded quotient is the exact one: no floating-point `%` (a C call per record).
  const wholeMs = Math.floor(rest / 1_000_000);
  const subMs = rest - wholeMs * 1_000_000;
  return hi * 4_294 + wholeMs + subMs / 1_000_000;
}

/** Whole milliseconds of a nanosecond count (floor), exact. */
export function nsToWholeMs(ns: bigint): bigint {
  return ns >= 0n ? ns / 1_000_000n : -((-ns + 999_999n) / 1_000_000n);
}

/** Encodes the header into its 512 bytes. @throws DataError when the JSON does not fit. */
export function encodeHeader(header: RecordingHeader): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint16(8, FORMAT_VERSION, true);
  view.setUint16(10, RECORD_BYTES, true);
  view.setUint32(12, HEADER_BYTES, true);
  const json = new TextEncoder().encode(JSON.stringify(header));
  if (json.length > HEADER_BYTES - PRELUDE_BYTES) {
    throw new DataError('DATA_BAD_INPUT', `recording header too long (${json.length} bytes): shorten the symbol`);
  }
  view.setUint32(16, json.length, true);
  bytes.set(json, PRELUDE_BYTES);
  return bytes;
}

/**
 * Decodes and checks a header.
 * @throws DataError `DATA_BAD_FILE` naming what is wrong (not a recording, other version…).
 */
export function decodeHeader(bytes: Uint8Array, source: string): RecordingHeader {
  if (bytes.length < HEADER_BYTES) throw new DataError('DATA_BAD_FILE', `${source}: too short for a recording header (${bytes.length} bytes)`);
  const magic = String.fromCharCode(...bytes.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw new DataError('DATA_BAD_FILE', `${source}: not an akira-mm recording (bad magic); import it with \`akira-mm data import\``);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  if (version !== FORMAT_VERSION) throw new DataError('DATA_BAD_FILE', `${source}: format version ${version}, this build reads ${FORMAT_VERSION}`);
  if (view.getUint16(10, true) !== RECORD_BYTES || view.getUint32(12, true) !== HEADER_BYTES) {
    throw new DataError('DATA_BAD_FILE', `${source}: unexpected record size or header size`);
  }
  const length = view.getUint32(16, true);
  if (length > HEADER_BYTES - PRELUDE_BYTES) throw new DataError('DATA_BAD_FILE', `${source}: header length ${length} out of range`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes.subarray(PRELUDE_BYTES, PRELUDE_BYTES + length)));
  } catch {
    throw new DataError('DATA_BAD_FILE', `${source}: header is not JSON`);
  }
  return checkHeader(parsed, source);
}

function checkHeader(value: unknown, source: string): RecordingHeader {
  const bad = (field: string): DataError => new DataError('DATA_BAD_FILE', `${source}: header field ${field} is missing or invalid`);
  if (typeof value !== 'object' || value === null) throw bad('(all)');
  const h = value as Record<string, unknown>;
  const text = (field: string): string => {
    const v = h[field];
    if (typeof v !== 'string') throw bad(field);
    return v;
  };
  const decimals = (field: string): number => {
    const v = h[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 18) throw bad(field);
    return v;
  };
  const records = h['records'];
  if (typeof records !== 'number' || !Number.isSafeInteger(records) || records < 0) throw bad('records');
  const step = (field: string): string => {
    const v = text(field);
    if (!/^\d+(\.\d+)?$/.test(v)) throw bad(field);
    return v;
  };
  const header: RecordingHeader = {
    symbol: text('symbol'),
    source: text('source'),
    priceDecimals: decimals('priceDecimals'),
    qtyDecimals: decimals('qtyDecimals'),
    tick: step('tick'),
    lot: step('lot'),
    records,
    ...(typeof h['base'] === 'string' ? { base: h['base'] } : {}),
    ...(typeof h['quote'] === 'string' ? { quote: h['quote'] } : {}),
  };
  return header;
}

/** Scaled integer → decimal string with `decimals` places, trailing zeros stripped ("2683.8"). */
export function scaledToDecimal(value: number | bigint, decimals: number): string {
  const units = BigInt(value);
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = magnitude / scale;
  const fraction = magnitude % scale;
  let text = whole.toString();
  if (fraction !== 0n) text += '.' + fraction.toString().padStart(decimals, '0').replace(/0+$/, '');
  return negative ? `-${text}` : text;
}

/**
 * Decimal string → scaled integer with `decimals` places, exactly.
 * @returns undefined when the text is not a plain non-negative decimal or has more places.
 */
export function decimalToScaled(text: string, decimals: number): number | undefined {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (match === null) return undefined;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) return undefined;
  const value = Number(match[1]) * 10 ** decimals + (fraction.length === 0 ? 0 : Number(fraction.padEnd(decimals, '0')));
  // Number(whole) * 10^d is exact only while the result stays a safe integer.
  return Number.isSafeInteger(value) ? value : undefined;
}
