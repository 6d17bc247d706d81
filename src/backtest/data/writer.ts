/**
 * Writes a recording: records go through a 1 MiB buffer to the file as they come (memory flat in
 * the data size); the header is written last, because the tick and lot it carries are inferred
 * from every price and quantity written (their greatest common divisor).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import {
  DataError,
  FLAG,
  HEADER_BYTES,
  RECORD_BYTES,
  encodeHeader,
  isKnownKind,
  scaledToDecimal,
  type RecordInput,
  type RecordingHeader,
} from './format.ts';

/** What the importer knows before the first record. */
export interface RecordingMeta {
  readonly symbol: string;
  readonly source: string;
  readonly priceDecimals: number;
  readonly qtyDecimals: number;
  readonly base?: string;
  readonly quote?: string;
  /** `<venue>:<SYMBOL>` of a reference market (`binance:ETHUSDT`). */
  readonly market?: string;
}

const BUFFER_RECORDS = 16_384;
const TWO_32 = 4_294_967_296;

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** A recording being written; call `close()` to flush and write the header. */
export class RecordingWriter {
  private readonly fd: number;
  private readonly buffer = new ArrayBuffer(BUFFER_RECORDS * RECORD_BYTES);
  private readonly view = new DataView(this.buffer);
  private readonly bytes = new Uint8Array(this.buffer);
  private used = 0;
  private position = HEADER_BYTES;
  private count = 0;
  private priceGcd = 0;
  private qtyGcd = 0;
  private lastLocalNs = -1n;
  private closed = false;

  /** Creates (or truncates) `path`. @throws Error from the file system. */
  constructor(
    readonly path: string,
    private readonly meta: RecordingMeta,
  ) {
    if (meta.priceDecimals < 0 || meta.priceDecimals > 18 || meta.qtyDecimals < 0 || meta.qtyDecimals > 18) {
      throw new DataError('DATA_BAD_INPUT', `decimals out of range 0..18: price ${meta.priceDecimals}, qty ${meta.qtyDecimals}`);
    }
    this.fd = openSync(path, 'w');
    // A placeholder header: a file left by a crash has records: 0 and fails the size check.
    writeSync(this.fd, this.headerBytes(), 0, HEADER_BYTES, 0);
  }

  /** Records written so far. */
  get records(): number {
    return this.count;
  }

  /**
   * Appends one record. Local time must never go back (the file is in receive order).
   * @throws DataError `DATA_BAD_RECORD` for an unknown kind, a non-integer or too large value,
   *   `DATA_OUT_OF_ORDER` when local time goes back.
   */
  append(record: RecordInput): void {
    if (!isKnownKind(record.kind)) throw new DataError('DATA_BAD_RECORD', `unknown record kind ${String(record.kind)}`);
    if (record.localNs < this.lastLocalNs) {
      throw new DataError('DATA_OUT_OF_ORDER', `local time goes back at record ${this.count}: ${record.localNs} < ${this.lastLocalNs}`);
    }
    this.lastLocalNs = record.localNs;
    const price = record.price ?? 0;
    const qty = record.qty ?? 0;
    const aux2 = record.aux2 ?? 0;
    const at = this.used * RECORD_BYTES;
    const view = this.view;
    view.setUint8(at, record.kind);
    view.setUint8(at + 1, record.side ?? 0);
    view.setUint16(at + 2, (record.flags ?? 0) | (record.seq === undefined ? 0 : FLAG.hasSeq) | (record.aux1 === undefined ? 0 : FLAG.hasAux1), true);
    view.setUint32(at + 4, 0, true);
    view.setBigInt64(at + 8, record.exchNs, true);
    view.setBigInt64(at + 16, record.localNs, true);
    this.setInt(at + 24, record.seq ?? 0, 'seq');
    this.setInt(at + 32, price, 'price');
    this.setInt(at + 40, qty, 'qty');
    if (typeof record.aux1 === 'bigint') view.setBigInt64(at + 48, record.aux1, true);
    else this.setInt(at + 48, record.aux1 ?? 0, 'aux1');
    this.setInt(at + 56, aux2, 'aux2');
    if (record.kind === 1 || record.kind === 2 || record.kind === 3) {
      if (price !== 0) this.priceGcd = gcd(this.priceGcd, price);
      if (qty !== 0) this.qtyGcd = gcd(this.qtyGcd, qty);
      if (record.kind === 3) {
        if (record.aux1 !== undefined && record.aux1 !== 0) this.priceGcd = gcd(this.priceGcd, Number(record.aux1));
        if (aux2 !== 0) this.qtyGcd = gcd(this.qtyGcd, aux2);
      }
    }
    this.used++;
    this.count++;
    if (this.used === BUFFER_RECORDS) this.flush();
  }

  /** The header as it stands (tick and lot inferred so far). */
  header(): RecordingHeader {
    return {
      symbol: this.meta.symbol,
      source: this.meta.source,
      priceDecimals: this.meta.priceDecimals,
      qtyDecimals: this.meta.qtyDecimals,
      tick: scaledToDecimal(this.priceGcd, this.meta.priceDecimals),
      lot: scaledToDecimal(this.qtyGcd, this.meta.qtyDecimals),
      records: this.count,
      ...(this.meta.base === undefined ? {} : { base: this.meta.base }),
      ...(this.meta.quote === undefined ? {} : { quote: this.meta.quote }),
      ...(this.meta.market === undefined ? {} : { market: this.meta.market }),
    };
  }

  /** Flushes the records and writes the final header. Idempotent. */
  close(): RecordingHeader {
    const header = this.header();
    if (this.closed) return header;
    this.closed = true;
    try {
      this.flush();
      writeSync(this.fd, this.headerBytes(), 0, HEADER_BYTES, 0);
    } finally {
      closeSync(this.fd);
    }
    return header;
  }

  /** Closes the file without a final header (it keeps `records: 0` and fails to open). Idempotent. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private headerBytes(): Uint8Array {
    return encodeHeader(this.header());
  }

  private flush(): void {
    if (this.used === 0) return;
    const length = this.used * RECORD_BYTES;
    let written = 0;
    while (written < length) written += writeSync(this.fd, this.bytes, written, length - written, this.position + written);
    this.position += length;
    this.used = 0;
  }

  /** Writes a safe integer as int64 LE through two 32-bit halves (no bigint on the hot path). */
  private setInt(at: number, value: number, field: string): void {
    if (!Number.isSafeInteger(value)) throw new DataError('DATA_BAD_RECORD', `${field}=${value} is not a safe integer (record ${this.count})`);
    const hi = Math.floor(value / TWO_32);
    this.view.setUint32(at, value - hi * TWO_32, true);
    this.view.setInt32(at + 4, hi, true);
  }
}
