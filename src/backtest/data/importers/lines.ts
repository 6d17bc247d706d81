/**
 * Text lines of a recording file, streamed: gzip is recognised by its magic bytes (not the file
 * name) and decompressed on the fly, so a file of any size costs one line of memory.
 */
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { DataError } from '../format.ts';

function isGzip(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new DataError('DATA_BAD_FILE', `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const magic = new Uint8Array(2);
    return readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
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
