/**
 * The logger every component receives: pino, JSON lines, with secrets redacted by path so a
 * private key or a JWT never reaches a log line even if a whole config or request is logged.
 */
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

/** Logger type used across layers. */
export type Logger = PinoLogger;

/** Object paths whose values are replaced by `<redacted>` in every log line. */
export const REDACTED_PATHS: readonly string[] = [
  'privateKey',
  '*.privateKey',
  'signerPrivateKey',
  '*.signerPrivateKey',
  'SIGNER_PRIVATE_KEY',
  '*.SIGNER_PRIVATE_KEY',
  'password',
  '*.password',
  'SIGNER_KEYSTORE_PASSWORD',
  '*.SIGNER_KEYSTORE_PASSWORD',
  'jwt',
  '*.jwt',
  'authorization',
  'Authorization',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'headers.Authorization',
];

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** pino level; default 'info'. */
  readonly level?: string;
  /** Where lines go; default stderr (stdout stays free for command output). */
  readonly destination?: DestinationStream;
  /** Fields added to every line (e.g. `{pair: 'ETH/USDC'}`). */
  readonly base?: Record<string, unknown>;
}

/** A JSON logger with secret redaction. */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: options.base ?? {},
      redact: { paths: [...REDACTED_PATHS], censor: '<redacted>' },
    },
    options.destination ?? pino.destination({ dest: 2, sync: false }),
  );
}

/** A logger that writes nothing (tests, benchmarks). */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
