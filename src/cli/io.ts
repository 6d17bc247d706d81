/**
 * What a CLI command may touch, injected so tests can run commands in-process and read what they
 * printed. `src/cli.ts` builds the real one from `process`.
 */
import type { Readable } from 'node:stream';

/** Streams and environment of one command run. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown };
  readonly stdin: Readable;
  /** The process environment; secrets read from it are deleted from it (so no child inherits them). */
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
}

/** One `akira-mm` sub-command: returns the process exit code. */
export type CommandRunner = (args: readonly string[], io: CliIo) => Promise<number>;

/** Exit code for bad usage or bad input (missing flag, malformed file). */
export const EXIT_USAGE = 2;

/**
 * Exit code of a daemon whose shutdown could not confirm, within SHUTDOWN_TIMEOUT_MS, that none of
 * its orders rests (the venue unreachable): the log's last error names the orders that may.
 */
export const EXIT_ORDERS_MAY_REST = 3;

/** A usage or input error: printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `--help` was asked for: the entry point prints `text` on stdout and exits 0. */
export class HelpRequest extends Error {
  constructor(readonly text: string) {
    super('help requested');
    this.name = 'HelpRequest';
  }
}
