/**
 * A progress bar on stderr for long commands (a replay, a sweep), shown only on a terminal so
 * pipes and tests see clean output.
 */
import { SingleBar } from 'cli-progress';
import type { CliIo } from './io.ts';

/** A started progress bar. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A bar labelled `label` counting `unit`; undefined when stderr is not a terminal. */
export function startProgress(io: CliIo, label: string, unit: string): Progress | undefined {
  const stderr = io.stderr as { isTTY?: boolean };
  if (stderr.isTTY !== true) return undefined;
  const bar = new SingleBar({ stream: io.stderr as NodeJS.WritableStream, format: `${label} [{bar}] {percentage}% {value}/{total} {unit}`, hideCursor: true, clearOnComplete: true });
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0, { unit });
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
