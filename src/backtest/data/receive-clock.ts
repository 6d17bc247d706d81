/**
 * A recording moved onto its receive clock: a copy whose exchange times are its receive times
 * (issue 32; docs/parity.md "Clocks"). The replay runs on exchange time; a session that heard the
 * market on the recording machine's clock (a live bot beside `akira-mm record`, or a paper session
 * whose flow followed the recording served at its receive times) saw every event at its receive
 * time, each with its own network delay. Replaying the copy puts the backtest on that clock event
 * by event, where one median offset would leave each event's jitter between the two.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { DataError, HEADER_BYTES, RECORD_BYTES } from './format.ts';
import { readRecordingHeader } from './reader.ts';

const CHUNK_RECORDS = 16_384;
/** Byte offsets of a record's exchange and receive times (int64 ns, little-endian; format.ts). */
const EXCH_AT = 8;
const LOCAL_AT = 16;
const NS_PER_MS = 1_000_000n;

/**
 * Writes `to`: `from` with each record's exchange time replaced by its receive time, in whole ms:
 * the resolution of a journal's clock and of a served recording (`feed --data` replays each line
 * at its ms). A record without one (receive time 0) keeps its exchange time. Records keep their
 * order (a recording is in receive order); the header is copied as is.
 * @throws DataError for an unreadable or truncated recording.
 */
export function copyOnReceiveClock(from: string, to: string): void {
  const header = readRecordingHeader(from);
  const input = openSync(from, 'r');
  try {
    const output = openSync(to, 'w', 0o600);
    try {
      const head = new Uint8Array(HEADER_BYTES);
      readSync(input, head, 0, HEADER_BYTES, 0);
      writeSync(output, head);
      const bytes = new Uint8Array(CHUNK_RECORDS * RECORD_BYTES);
      const view = new DataView(bytes.buffer);
      for (let first = 0; first < header.records; first += CHUNK_RECORDS) {
        const count = Math.min(CHUNK_RECORDS, header.records - first);
        const length = count * RECORD_BYTES;
        const read = readSync(input, bytes, 0, length, HEADER_BYTES + first * RECORD_BYTES);
        if (read !== length) throw new DataError('DATA_BAD_FILE', `${from}: ended at record ${first + Math.floor(read / RECORD_BYTES)} of ${header.records}`);
        for (let at = 0; at < length; at += RECORD_BYTES) {
          const localNs = view.getBigInt64(at + LOCAL_AT, true);
          if (localNs !== 0n) view.setBigInt64(at + EXCH_AT, localNs - (localNs % NS_PER_MS), true);
        }
        writeSync(output, bytes, 0, length);
      }
    } finally {
      closeSync(output);
    }
  } finally {
    closeSync(input);
  }
}
