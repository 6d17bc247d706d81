/**
 * Permissions like ssh's: a file that holds a secret (a pair file with a key in it, a `_FILE`
 * secret, a keystore, a password file) must not be readable or writable by group or others.
 * `--insecure-permissions` accepts such a file with a warning instead. Windows has no such mode
 * bits, so nothing is checked there.
 */
import { statSync } from 'node:fs';
import { MmError } from '../core/index.ts';

/** How strictly files holding secrets are checked. */
export interface PermissionOptions {
  /** Accept files open to group or others, with a warning (`--insecure-permissions`). Default false. */
  readonly insecurePermissions?: boolean;
  /** Where that warning goes (stderr in the CLI). */
  readonly warn?: (message: string) => void;
}

/** A secret file open to group or others. */
export class InsecurePermissionsError extends MmError<'CONFIG_INSECURE_PERMISSIONS'> {
  readonly path: string;

  constructor(path: string, message: string) {
    super('CONFIG_INSECURE_PERMISSIONS', message);
    this.name = 'InsecurePermissionsError';
    this.path = path;
  }
}

/**
 * Refuses `path` when group or others have any permission on it, naming the file and the fix.
 * A file that does not exist passes (whoever reads it reports that).
 * @param what what the file holds, for the message ("keystore", "SIGNER_PRIVATE_KEY_FILE").
 * @throws InsecurePermissionsError unless `insecurePermissions` is set.
 */
export function assertPrivateFile(path: string, what: string, options: PermissionOptions = {}): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  const problem = `${path} (${what}) is open to group or others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${path}`;
  if (options.insecurePermissions === true) {
    options.warn?.(`warning: ${problem}; accepted because of --insecure-permissions`);
    return;
  }
  throw new InsecurePermissionsError(path, `${problem} (or pass --insecure-permissions to accept it)`);
}
