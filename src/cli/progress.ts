/**
 * A progress bar with the time spent and the time left (ETA) on stderr, for long commands (a
 * replay, a sweep): shown only on a terminal, so pipes, logs and tests see clean output, and
 * never with `--no-progress`. The ETA is cli-progress's: the rate over the last updates applied to
 * what is left; it reads "…" until the first unit of work is done (a rate of nothing is no
 * estimate).
 */
import cliProgress, { type Options, type Params } from 'cli-progress';
import type { CliIo } from './io.ts';

// A CommonJS package: Node's ESM loader finds `SingleBar` among its named exports, not `Format`.
const { Format, SingleBar } = cliProgress;

/** A started progress bar. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** Options of {@link startProgress}. */
export interface ProgressOptions {
  /** False (`--no-progress`) shows nothing; default true (on a terminal). */
  readonly enabled?: boolean;
  /** Draw the bar at 0 at once (a sweep: "0/16 cells" while the first cells run); default on the first update. */
  readonly total?: number;
  /** Updates the ETA's rate is taken over: more for few, uneven steps; default 20. */
  readonly etaUpdates?: number;
}

/**
 * A bar labelled `label` counting `unit`; undefined when stderr is not a terminal or progress is
 * switched off.
 */
export function startProgress(io: CliIo, label: string, unit: string, options: ProgressOptions = {}): Progress | undefined {
  const stderr = io.stderr as { isTTY?: boolean };
  if (stderr.isTTY !== true || options.enabled === false) return undefined;
  const head = `${label} [{bar}] {percentage}% {value}/{total} ${unit} | {duration_formatted} spent`;
  const format = (barOptions: Options, params: Params, payload: Record<string, unknown>): string =>
    Format.Formatter({ ...barOptions, format: params.value > 0 ? `${head}, ETA {eta_formatted}` : `${head}, ETA …` }, params, payload);
  const bar = new SingleBar({ stream: io.stderr as NodeJS.WritableStream, format, hideCursor: true, clearOnComplete: true, etaBuffer: options.etaUpdates ?? 20 });
  let started = false;
  const start = (total: number): void => {
    bar.start(total, 0);
    started = true;
  };
  if (options.total !== undefined) start(options.total);
  return {
    update(done, total) {
      if (!started) start(total);
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
