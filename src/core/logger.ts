/**
 * The logger every component receives: pino, JSON lines, with secrets redacted by path so a
 * private key or a JWT never reaches a log line even if a whole config or request is logged.
 */
import { pino, type DestinationStream, type LogFn, type Logger as PinoLogger } from 'pino';

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

/**
 * Keys pino writes on every line itself. A logged object bringing one of them again is written
 * under `logged<Key>` instead (`msg` only when the call also gives a message: alone it is the message).
 */
const LINE_KEYS: ReadonlySet<string> = new Set(['level', 'time', 'msg']);

/** The keys bound on each logger made here (its base, and every child's bindings). */
const boundKeys = new WeakMap<object, ReadonlySet<string>>();

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * A JSON logger with secret redaction, whose lines never repeat a key: a JSON object with a
 * duplicate key is read differently by different log pipelines (JSON.parse keeps the last, some
 * keep the first, some refuse the line). pino writes a child's bindings after its parent's and a
 * logged object's keys after both, so a key bound twice (`pair` by the daemon and again by the
 * venue it builds) or bound and logged again would appear twice. Here a child binding a key again
 * replaces the value in place, and a logged object's key wins over the binding of the same name.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = options.base ?? {};
  const logger = pino(
    {
      level: options.level ?? 'info',
      base,
      redact: { paths: [...REDACTED_PATHS], censor: '<redacted>' },
      onChild: mergeBindings,
      hooks: { logMethod: logWithoutRepeatedKeys },
    },
    options.destination ?? pino.destination({ dest: 2, sync: false }),
  );
  boundKeys.set(logger, new Set(Object.keys(base)));
  return logger;
}

/**
 * pino appends a child's bindings, already serialised (and redacted), to its parent's. They are
 * parsed back here, where JSON.parse keeps a repeated key once, at its first place, with the
 * child's value, and written again.
 */
function mergeBindings(child: Logger): void {
  const holder = child as unknown as Record<symbol, string>;
  const serialised = holder[pino.symbols.chindingsSym] ?? '';
  const merged = JSON.parse(`{${serialised.slice(1)}}`) as Record<string, unknown>;
  const keys = Object.keys(merged);
  holder[pino.symbols.chindingsSym] = keys.length === 0 ? '' : `,${JSON.stringify(merged).slice(1, -1)}`;
  boundKeys.set(child, new Set(keys));
}

/**
 * pino's `logMethod` hook: a logged object with a key the logger binds is logged through a child
 * binding the object's value (which replaces the bound one, see {@link mergeBindings}); one with
 * a key pino writes itself has it renamed.
 */
function logWithoutRepeatedKeys(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  const [fields, ...rest] = args as unknown[];
  if (typeof fields !== 'object' || fields === null || fields instanceof Error) {
    method.apply(this, args);
    return;
  }
  const bound = boundKeys.get(this) ?? NO_KEYS;
  const hasMessage = rest.length > 0;
  const isLineKey = (key: string): boolean => LINE_KEYS.has(key) && (key !== 'msg' || hasMessage);
  const keys = Object.keys(fields);
  if (!keys.some((key) => bound.has(key) || isLineKey(key))) {
    method.apply(this, args);
    return;
  }
  const own: Record<string, unknown> = {};
  const rebound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (isLineKey(key)) own[`logged${key[0]?.toUpperCase() ?? ''}${key.slice(1)}`] = value;
    else if (bound.has(key)) rebound[key] = value;
    else own[key] = value;
  }
  const target = Object.keys(rebound).length === 0 ? this : this.child(rebound);
  method.apply(target, [own, ...rest] as Parameters<LogFn>);
}

/** A logger that writes nothing (tests, benchmarks). */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' });
}
