/**
 * What every command that reads a pair file, key file or keystore shares: the
 * `--insecure-permissions` flag, and the options that read secrets from the process environment
 * (deleted from it once read) and warn on stderr. Kept apart from `pair-config.ts` so a command's
 * option table does not load the config layer before `--help`.
 */
import type { LoadOptions } from '../config/index.ts';
import type { CliIo } from './io.ts';

/** How a command reads a pair file and its secrets. */
export type PairFileOptions = Pick<LoadOptions, 'environment' | 'insecurePermissions' | 'warn' | 'requireSigner' | 'cwd'>;

/** The flag of every command that reads a pair file, a key file or a keystore. */
export const INSECURE_PERMISSIONS_FLAG = {
  'insecure-permissions': {
    type: 'boolean',
    doc: 'accept a pair file, key file or keystore that group or others may read, with a warning',
    default: 'off: such a file is refused, as ssh refuses an open key',
  },
} as const;

/**
 * Options for a command run: secrets may come from the process environment (deleted from it once
 * read), warnings go to stderr.
 */
export function pairFileOptions(io: CliIo, flags: { readonly 'insecure-permissions'?: boolean | undefined }): PairFileOptions {
  return {
    environment: io.env,
    cwd: io.cwd,
    insecurePermissions: flags['insecure-permissions'] === true,
    warn: (message) => io.stderr.write(`${message}\n`),
  };
}
