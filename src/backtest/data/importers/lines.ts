/**
 * Text lines of a recording file, streamed: gzip is recognised by its magic bytes (not the file
 * name) and decompressed on the fly, so a file of any size costs one line of memory.
 */
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DataError } from '../format.ts';

/**
 * The first `count` bytes of a file (fewer when it is shorter).
 * @throws DataError `DATA_BAD_FILE` naming the file when it cannot be opened.
 */
export function readFileHead(path: string, count: number): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new DataError('DATA_BAD_FILE', `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const head = new Uint8Array(count);
    return head.subarray(0, readSync(fd, head, 0, count, 0));
  } finally {
    closeSync(fd);
  }
}

function isGzip(path: string): boolean {
  const magic = readFileHead(path, 2);
  return magic.length === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
}

/**
 * The file's lines in order (no line terminators), gunzipped when the file is gzip.
 * @throws DataError `DATA_BAD_FILE` naming the file when it is unreadable, corrupt or truncated.
 */
export async function* readLines(path: string): AsyncGenerator<string> {
  const gzip = isGzip(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream: Readable = gzip ? file.pipe(createGunzip()) : file;
  // A read error must fail the import, not end it quietly.
  file.on('error', (error) => stream.destroy(error));
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) yield line;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataError('DATA_BAD_FILE', `${path}: ${reason}${gzip ? ' (corrupt or truncated gzip)' : ''}`);
  } finally {
    stream.destroy();
  }
}
