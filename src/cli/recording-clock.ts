/**
 * `paper --journal` with a recorded market (issue 32): the clock the recording's server, the
 * embedded exchange and the bot share, started at the recording's first receive time, so the
 * session's journal is on the recording's own clock and `akira-mm parity` replays the same span.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { LiveClock, OffsetClock } from '../core/index.ts';
import { MAGIC, readFileHead, readRecording } from '../backtest/data/index.ts';

/** The first receive time of a recording (Binance collector .gz, or the replay format), ms; undefined when it has none. */
export async function firstReceiveMs(path: string): Promise<number | undefined> {
  const head = readFileHead(path, MAGIC.length);
  if (head.length === MAGIC.length && [...MAGIC].every((char, i) => head[i] === char.charCodeAt(0))) {
    let first: number | undefined;
    await readRecording(path, (record) => {
      if (first === undefined && record.localMs > 0) first = record.localMs;
    });
    return first;
  }
  const stream = createReadStream(path).pipe(createGunzip());
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      const stamp = /^(\d{13,19})\s/.exec(line)?.[1];
      if (stamp === undefined) continue;
      // The collector's stamps are ns (µs on some days): scale to ms by their length.
      const digits = stamp.length;
      return Math.floor(Number(BigInt(stamp) / 10n ** BigInt(Math.max(0, digits - 13))));
    }
    return undefined;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** A live clock that reads the recording's first receive time now. */
export async function recordingClock(paths: readonly string[]): Promise<OffsetClock | undefined> {
  const first = paths[0] === undefined ? undefined : await firstReceiveMs(paths[0]);
  if (first === undefined) return undefined;
  const live = new LiveClock();
  return new OffsetClock(live, first - live.nowMs());
}
