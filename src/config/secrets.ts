/**
 * Where secret values come from, for every key marked `secret` (today SIGNER_PRIVATE_KEY and
 * SIGNER_KEYSTORE_PASSWORD; the hedge venue's keys get the same by being marked secret):
 * - the pair file itself (`KEY=value`; the file must then be chmod 600, checked by the caller);
 * - a file named in the pair file (`KEY_FILE=path`, relative to the pair file), as Docker and
 *   Kubernetes mount secrets; it must be chmod 600;
 * - the process environment (`KEY=value` or `KEY_FILE=path`, relative to the working
 *   directory), read when the pair file does not set the key, and deleted from the environment
 *   once read so no child process or worker inherits it.
 * Exactly one source per key; two are a configuration error. Keys marked `environment` (paths,
 * sockets) may also come from the process environment, but are left in it.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ConfigIssue } from '../core/index.ts';
import type { KeySpec } from '../core/index.ts';
import { InsecurePermissionsError, assertPrivateFile, type PermissionOptions } from './permissions.ts';

/** Where secrets and environment keys are looked for. */
export interface SecretSourceOptions extends PermissionOptions {
  /** The process environment (the CLI passes `process.env`); secrets read from it are deleted from it. */
  readonly environment?: Record<string, string | undefined>;
  /** Directory of the pair file: relative paths written in it start there. Default: `cwd`. */
  readonly baseDir?: string;
  /** Working directory: relative paths from the environment start there. Default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * False for a command that signs nothing with the file (a backtest, the signer's policy files):
   * secret keys are then ignored and no secret file is opened. Default true.
   */
  readonly readSecrets?: boolean;
}

/** Where a value came from. */
export type ValueOrigin = 'file' | 'environment';

/** The pair file's entries with secrets and environment keys filled in. */
export interface ResolvedEntries {
  /** Every entry, `KEY_FILE` ones replaced by `KEY` with the file's content. */
  readonly env: Readonly<Record<string, string>>;
  /** For keys filled from the environment or a `_FILE`: where from, for messages and relative paths. */
  readonly origins: ReadonlyMap<string, { readonly origin: ValueOrigin; readonly described: string }>;
  /** Secret keys written in the pair file itself. */
  readonly inlineSecrets: readonly string[];
}

/** The `_FILE` twin of a secret key. */
export function fileKeyOf(key: string): string {
  return `${key}_FILE`;
}

/**
 * Fills secret keys from their `_FILE`s and the environment, and environment keys from the
 * environment. Problems are appended to `issues`, each naming the key (never a secret value).
 */
export function resolveSecretEntries(
  fileEnv: Readonly<Record<string, string>>,
  specs: readonly KeySpec[],
  options: SecretSourceOptions,
  issues: ConfigIssue[],
): ResolvedEntries {
  const env: Record<string, string> = { ...fileEnv };
  const origins = new Map<string, { origin: ValueOrigin; described: string }>();
  const inlineSecrets: string[] = [];
  const environment = options.environment ?? {};
  const cwd = options.cwd ?? process.cwd();
  const baseDir = options.baseDir ?? cwd;

  for (const spec of specs) {
    if (spec.secret === true && options.readSecrets === false) {
      delete env[spec.key];
      delete env[fileKeyOf(spec.key)];
    } else if (spec.secret === true) {
      const fileKey = fileKeyOf(spec.key);
      const sources = [
        { origin: 'file' as const, key: spec.key, value: nonEmpty(fileEnv[spec.key]), isPath: false },
        { origin: 'file' as const, key: fileKey, value: nonEmpty(fileEnv[fileKey]), isPath: true },
        { origin: 'environment' as const, key: spec.key, value: nonEmpty(environment[spec.key]), isPath: false },
        { origin: 'environment' as const, key: fileKey, value: nonEmpty(environment[fileKey]), isPath: true },
      ].filter((source) => source.value !== undefined);
      // Read once, gone: nothing started later (signing workers, a shell) inherits the secret.
      delete environment[spec.key];
      delete environment[fileKey];
      delete env[fileKey];
      if (sources.length > 1) {
        const listed = sources.map((source) => `${source.key} (${source.origin === 'file' ? 'pair file' : 'environment'})`).join(', ');
        issues.push({ key: spec.key, value: undefined, allowed: `set in one place only; found ${listed}` });
        delete env[spec.key];
        continue;
      }
      const source = sources[0];
      if (source === undefined) continue;
      if (source.origin === 'file' && !source.isPath) {
        inlineSecrets.push(spec.key);
        continue;
      }
      if (!source.isPath) {
        env[spec.key] = source.value!;
        origins.set(spec.key, { origin: 'environment', described: `${spec.key} from the environment` });
        continue;
      }
      const path = resolvePath(source.value!, source.origin === 'file' ? baseDir : cwd);
      const content = readSecretFile(path, source.key, options, issues);
      if (content !== undefined) {
        env[spec.key] = content;
        origins.set(spec.key, { origin: source.origin, described: `read from ${source.key}=${path}` });
      } else {
        delete env[spec.key];
      }
    } else if (spec.environment === true) {
      const fromEnvironment = nonEmpty(environment[spec.key]);
      if (fromEnvironment === undefined) continue;
      const fromFile = nonEmpty(fileEnv[spec.key]);
      if (fromFile !== undefined && fromFile !== fromEnvironment) {
        issues.push({ key: spec.key, value: fromFile, allowed: `set in one place only; the environment also sets ${spec.key}=${JSON.stringify(fromEnvironment)}` });
        continue;
      }
      if (fromFile === undefined) {
        env[spec.key] = fromEnvironment;
        origins.set(spec.key, { origin: 'environment', described: `${spec.key} from the environment` });
      }
    }
  }
  return { env, origins, inlineSecrets };
}

/** `path` made absolute against `base`. */
export function resolvePath(path: string, base: string): string {
  return isAbsolute(path) ? path : resolve(base, path);
}

function readSecretFile(path: string, key: string, options: PermissionOptions, issues: ConfigIssue[]): string | undefined {
  try {
    assertPrivateFile(path, key, options);
  } catch (error) {
    if (!(error instanceof InsecurePermissionsError)) throw error;
    issues.push({ key, value: path, allowed: error.message });
    return undefined;
  }
  try {
    // Secret files usually end in a newline (echo, kubectl create secret --from-file): not part of it.
    return readFileSync(path, 'utf8').replace(/[\r\n]+$/, '');
  } catch (error) {
    issues.push({ key, value: path, allowed: `a readable file (${error instanceof Error ? error.message : String(error)})` });
    return undefined;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
