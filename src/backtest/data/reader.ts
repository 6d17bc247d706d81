/**
 * Streams a recording in fixed chunks (1 MiB by default) through typed-array views: memory stays
 * flat in the file size, and decoding a record is a dozen array reads into one reused object.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { DataError, HEADER_BYTES, RECORD_BYTES, decodeHeader, emptyRecord, isKnownKind, nsHalvesToMs, type DataRecord, type RecordingHeader } from './format.ts';

const TWO_32 = 4_294_967_296;

/** Options of {@link readRecording}. */
export interface ReadOptions {
  /** Records per read; default 16384 (1 MiB). */
  readonly chunkRecords?: number;
  /** Called after each chunk with records read so far and the total. */
  readonly onProgress?: (recordsRead: number, totalRecords: number) => void;
}

/**
 * Visits each record in order. The record object is reused: copy what you keep. A returned
 * promise is awaited before the next record.
 */
export type RecordVisitor = (record: DataRecord, index: number, raw: RawRecord) => Promise<void> | void;

/** Where the current record's bytes are (reused): for {@link readExactFields}. */
export interface RawRecord {
  bytes: Uint8Array;
  offset: number;
}

/** Reads and checks the header of a recording, and that the file is not truncated. */
export function readRecordingHeader(path: string): RecordingHeader {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new DataError('DATA_BAD_FILE', `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const bytes = new Uint8Array(HEADER_BYTES);
    const read = readSync(fd, bytes, 0, HEADER_BYTES, 0);
    const header = decodeHeader(bytes.subarray(0, read), path);
    checkSize(path, header, fstatSync(fd).size);
    return header;
  } finally {
    closeSync(fd);
  }
}

function checkSize(path: string, header: RecordingHeader, size: number): void {
  const expected = HEADER_BYTES + header.records * RECORD_BYTES;
  if (size !== expected) {
    throw new DataError('DATA_BAD_FILE', `${path}: ${size} bytes but the header promises ${header.records} records (${expected} bytes): truncated or still being written`);
  }
}

/** Decodes record `index` of a chunk (views over the same bytes) into `out`. */
export function decodeRecord(u32: Uint32Array, i32: Int32Array, index: number, out: DataRecord): void {
  const w = index * 16;
  const w0 = u32[w] as number;
  out.kind = w0 & 0xff;
  out.side = (w0 >>> 8) & 0xff;
  out.flags = w0 >>> 16;
  out.exchMs = nsHalvesToMs(u32[w + 3] as number, u32[w + 2] as number);
  out.localMs = nsHalvesToMs(u32[w + 5] as number, u32[w + 4] as number);
  out.seq = (i32[w + 7] as number) * TWO_32 + (u32[w + 6] as number);
  out.price = (i32[w + 9] as number) * TWO_32 + (u32[w + 8] as number);
  out.qty = (i32[w + 11] as number) * TWO_32 + (u32[w + 10] as number);
  out.aux1 = (i32[w + 13] as number) * TWO_32 + (u32[w + 12] as number);
  out.aux2 = (i32[w + 15] as number) * TWO_32 + (u32[w + 14] as number);
}

/**
 * Streams every record of `path` to `visit`; returns the header and the record count.
 * @throws DataError for a bad header, a truncated file or an unknown record kind.
 */
export async function readRecording(path: string, visit: RecordVisitor, options: ReadOptions = {}): Promise<RecordingHeader> {
  const record = emptyRecord();
  let raw: RawRecord | undefined;
  return readRecordingChunks(
    path,
    async (chunk) => {
      raw ??= { bytes: chunk.bytes, offset: 0 };
      raw.bytes = chunk.bytes;
      for (let i = 0; i < chunk.count; i++) {
        decodeRecord(chunk.u32, chunk.i32, i, record);
        if (!isKnownKind(record.kind)) throw new DataError('DATA_BAD_RECORD', `${path}: record ${chunk.first + i} has unknown kind ${record.kind}`);
        raw.offset = i * RECORD_BYTES;
        const result = visit(record, chunk.first + i, raw);
        if (result !== undefined) await result;
      }
    },
    options,
  );
}

/** One chunk of records as typed-array views over the same (reused) bytes. */
export interface RecordChunk {
  readonly bytes: Uint8Array;
  readonly u32: Uint32Array;
  readonly i32: Int32Array;
  /** Records in this chunk. */
  readonly count: number;
  /** Index in the file of the chunk's first record. */
  readonly first: number;
}

/**
 * Streams `path` chunk by chunk, for readers that decode only the fields they need (the replay
 * reads five of ten). The views are reused: `visit` must be done with a chunk when its promise
 * settles. Record word layout: see {@link decodeRecord}.
 * @throws DataError for a bad header or a truncated file.
 */
export async function readRecordingChunks(path: string, visit: (chunk: RecordChunk) => Promise<void>, options: ReadOptions = {}): Promise<RecordingHeader> {
  const header = readRecordingHeader(path);
  const chunkRecords = Math.max(1, options.chunkRecords ?? 16_384);
  // Two buffers: the next chunk is read while this one is visited, so the replay does not sit
  // idle waiting for the disk (or for a busy thread pool) between chunks.
  const makeChunk = (): RecordChunk & { count: number; first: number } => {
    const buffer = new ArrayBuffer(chunkRecords * RECORD_BYTES);
    return { bytes: new Uint8Array(buffer), u32: new Uint32Array(buffer), i32: new Int32Array(buffer), count: 0, first: 0 };
  };
  const chunks = [makeChunk(), makeChunk()] as const;
  let handle: FileHandle | undefined;
  const fill = async (file: FileHandle, chunk: RecordChunk & { count: number; first: number }, first: number): Promise<void> => {
    const want = Math.min(chunkRecords, header.records - first);
    const length = want * RECORD_BYTES;
    let got = 0;
    while (got < length) {
      const { bytesRead } = await file.read(chunk.bytes, got, length - got, HEADER_BYTES + first * RECORD_BYTES + got);
      if (bytesRead === 0) throw new DataError('DATA_BAD_FILE', `${path}: ended early at record ${first + Math.floor(got / RECORD_BYTES)}`);
      got += bytesRead;
    }
    chunk.count = want;
    chunk.first = first;
  };
  let reading: Promise<void> | undefined;
  try {
    const file = await open(path, 'r');
    handle = file;
    let which = 0;
    reading = header.records > 0 ? fill(file, chunks[0], 0) : undefined;
    while (reading !== undefined) {
      await reading;
      const chunk = chunks[which] as (typeof chunks)[number];
      const next = chunk.first + chunk.count;
      which = 1 - which;
      reading = next < header.records ? fill(file, chunks[which] as (typeof chunks)[number], next) : undefined;
      await visit(chunk);
      options.onProgress?.(next, header.records);
    }
  } finally {
    // A visitor that threw leaves a read in flight: let it land before closing the file.
    await reading?.catch(() => undefined);
    await handle?.close();
  }
  return header;
}

/**
 * Exact int64 fields of the current record, for the few places that need more than 2^53
 * (gas prices in fri) or exact nanoseconds (copying a recording).
 */
export function readExactFields(raw: RawRecord): { exchNs: bigint; localNs: bigint; aux1: bigint } {
  const view = new DataView(raw.bytes.buffer, raw.bytes.byteOffset + raw.offset, RECORD_BYTES);
  return { exchNs: view.getBigInt64(8, true), localNs: view.getBigInt64(16, true), aux1: view.getBigInt64(48, true) };
}
