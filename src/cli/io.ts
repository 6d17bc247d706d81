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

/**
 * A flag, command or sub-command that does not exist: answered with the nearest valid one ("did
 * you mean --duration?"), or with the valid ones. The suggestion is worked out only when the error
 * is printed ({@link explain}), so that a command's `--help` and its happy path never load the
 * edit distance's layer.
 */
export class UnknownNameError extends UsageError {
  /**
   * @param what what was named: `option`, `command`, `sub-command`, `request kind`.
   * @param typed the name as the user typed it (`--durration`, `backtset`).
   * @param known the valid names, spelled as the user types them (`--duration`).
   * @param hint where the valid names are listed, when none is close (`--help lists every option`).
   */
  constructor(
    readonly what: string,
    readonly typed: string,
    readonly known: readonly string[],
    readonly hint: string,
  ) {
    super(`unknown ${what} ${typed} (${hint})`);
    this.name = 'UnknownNameError';
  }

  /** One line: the unknown name and the nearest valid one, else the valid ones when they are few, else where they are listed. */
  async explain(): Promise<string> {
    const { closestName } = await import('../core/index.ts');
    const bare = (text: string): string => text.replace(/^-+/, '');
    const word = bare(this.typed);
    // A typo is about one edit in three characters, at most three; a name of one or two
    // characters (`-x`) is too short to tell what it was meant to be.
    const maxDistance = Math.min(3, Math.floor(word.length / 3));
    const nearest = closestName(word, this.known.map(bare), maxDistance);
    const suggestion = this.known.find((name) => bare(name) === nearest);
    if (suggestion !== undefined) return `unknown ${this.what} ${this.typed}: did you mean ${suggestion}?`;
    if (this.known.length > 0 && this.known.length <= MAX_LISTED_NAMES) return `unknown ${this.what} ${this.typed}; allowed: ${this.known.join(', ')}`;
    return this.message;
  }
}

/** How many valid names an unknown-name error lists before it points to `--help` alone. */
const MAX_LISTED_NAMES = 8;

/** `--help` was asked for: the entry point prints `text` on stdout and exits 0. */
export class HelpRequest extends Error {
  constructor(readonly text: string) {
    super('help requested');
    this.name = 'HelpRequest';
  }
}

/** Where a command's outcome is printed: the CLI's own streams, or a script's. */
export type OutputStreams = Pick<CliIo, 'stdout' | 'stderr'>;

/**
 * Runs a command the way every entry point does: `--help` printed on stdout with exit code 0; a
 * usage error as one line `label: message` on stderr with exit code 2 (no stack trace); anything
 * else is rethrown for the entry point's own handling.
 */
export async function runReportingUsage(label: string, io: OutputStreams, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HelpRequest) {
      io.stdout.write(error.text);
      return 0;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`${label}: ${error instanceof UnknownNameError ? await error.explain() : error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
