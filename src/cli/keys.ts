/**
 * `akira-mm keys`: Stark-curve signer keys.
 * - `keys new` prints a fresh key pair (private key included: for the sim and tests);
 * - `keys new --keystore FILE` writes a fresh key into an encrypted keystore and prints only the
 *   public key (what `bind_to_signer` needs);
 * - `keys import --keystore FILE` encrypts an existing key, read from a prompt without echo or
 *   from stdin, never from the command line (which `ps` and shell history would show);
 * - `keys inspect --keystore FILE` decrypts a keystore and prints its public key.
 * Keystores are Web3 Secret Storage v3 files that starkli reads and writes.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Secret, hasErrorCode } from '../core/index.ts';
import { DEFAULT_SCRYPT, describeKeyPair, encryptStarkKeystore, generatePrivateKey, parsePrivateKey } from '../exchange/signer/index.ts';
import { integerFlag, parseFlags, selectSubcommand } from './args.ts';
import { INSECURE_PERMISSIONS_FLAG } from './file-permissions.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { isInteractive, promptHidden, readStdin } from './secret-input.ts';
import { readSecretFile, unlockKeystore } from './signer-setup.ts';

const SUBCOMMANDS = [
  { name: 'new', usage: 'akira-mm keys new [--keystore FILE [--password-file FILE] [--scrypt-n N]]', summary: 'a fresh key pair: printed as JSON (private key included: dev and sim only), or with --keystore written encrypted and only its public key printed' },
  { name: 'import', usage: 'akira-mm keys import --keystore FILE [--password-file FILE] [--scrypt-n N]', summary: 'encrypt an existing key, typed at a prompt without echo or piped on stdin (never on the command line)' },
  { name: 'inspect', usage: 'akira-mm keys inspect --keystore FILE [--password-file FILE]', summary: 'print the public key of a keystore' },
];

const KEYSTORE_DOC = 'the keystore (Web3 Secret Storage v3, as starkli reads and writes it); written with mode 0600, never overwritten';
const PASSWORD_FILE = { type: 'string', value: 'FILE', default: 'asked on the terminal without echo', doc: 'read the keystore password from FILE (chmod 600; trailing newline ignored)' } as const;
const SCRYPT_N = {
  type: 'string',
  value: 'N',
  default: `${DEFAULT_SCRYPT.n} (about 256 MiB and 2 s to unlock; starkli writes 8192)`,
  doc: 'scrypt cost when writing, a power of two from 1024 to 1048576',
} as const;

/** Each sub-command's flags (one table: its help and its parsing). */
const OPTIONS = {
  new: { keystore: { type: 'string', value: 'FILE', default: 'none: print the pair', doc: KEYSTORE_DOC }, 'password-file': PASSWORD_FILE, 'scrypt-n': SCRYPT_N, ...INSECURE_PERMISSIONS_FLAG },
  import: { keystore: { type: 'string', value: 'FILE', required: true, doc: KEYSTORE_DOC }, 'password-file': PASSWORD_FILE, 'scrypt-n': SCRYPT_N, ...INSECURE_PERMISSIONS_FLAG },
  inspect: { keystore: { type: 'string', value: 'FILE', required: true, doc: 'the keystore to decrypt' }, 'password-file': PASSWORD_FILE, ...INSECURE_PERMISSIONS_FLAG },
} as const;

type KeysFlags = { readonly keystore?: string; readonly 'password-file'?: string; readonly 'scrypt-n'?: string; readonly 'insecure-permissions'?: boolean };

export const runKeys: CommandRunner = async (args, io) => {
  const { subcommand: entry, rest } = selectSubcommand('keys', args, SUBCOMMANDS);
  const { values, positionals } = parseFlags(rest, OPTIONS[entry.name as keyof typeof OPTIONS], { usage: entry.usage, summary: entry.summary });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${entry.usage}`);
  const flags = values as KeysFlags;
  switch (entry.name) {
    case 'new':
      return flags.keystore === undefined ? printNewPair(io, flags) : writeKeystore(io, flags, generatePrivateKey(randomBytes));
    case 'import':
      return writeKeystore(io, flags, await readKeyToImport(io, flags));
    default:
      return inspectKeystore(io, flags);
  }
};

function printNewPair(io: CliIo, values: KeysFlags): number {
  if (values['password-file'] !== undefined || values['scrypt-n'] !== undefined) throw new UsageError('--password-file and --scrypt-n need --keystore FILE');
  const pair = describeKeyPair(generatePrivateKey(randomBytes));
  io.stdout.write(JSON.stringify({ privateKey: pair.privateKey, publicKey: pair.publicKey, fullPublicKey: pair.fullPublicKey }, null, 2) + '\n');
  return 0;
}

async function readKeyToImport(io: CliIo, values: KeysFlags): Promise<bigint> {
  if (values.keystore === undefined) throw new UsageError('--keystore FILE is required');
  const text = isInteractive(io) ? await promptHidden(io, 'Private key to import (0x hex, not shown): ') : await readStdin(io);
  try {
    return parsePrivateKey(new Secret(text));
  } catch (error) {
    if (hasErrorCode(error, 'SIGNER_INVALID_KEY')) throw new UsageError(error.message);
    throw error;
  }
}

async function writeKeystore(io: CliIo, values: KeysFlags, privateKey: bigint): Promise<number> {
  const path = resolve(io.cwd, values.keystore ?? '');
  const n = integerFlag('scrypt-n', values['scrypt-n'], DEFAULT_SCRYPT.n, 1024, 2 ** 20);
  if ((n & (n - 1)) !== 0) throw new UsageError(`--scrypt-n=${n} is not a power of two`);
  const password = await newPassword(io, values);
  const text = await encryptStarkKeystore(privateKey, password.reveal(), { scrypt: { ...DEFAULT_SCRYPT, n }, randomBytes });
  try {
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it exists (a keystore is never overwritten)' : error instanceof Error ? error.message : String(error);
    throw new UsageError(`cannot write keystore ${path}: ${reason}`);
  }
  printPublic(io, path, privateKey);
  return 0;
}

async function inspectKeystore(io: CliIo, values: KeysFlags): Promise<number> {
  if (values.keystore === undefined) throw new UsageError('--keystore FILE is required');
  const path = resolve(io.cwd, values.keystore);
  const permissions = { insecurePermissions: values['insecure-permissions'] === true, warn: (message: string) => io.stderr.write(`${message}\n`) };
  const password = values['password-file'] === undefined ? undefined : readSecretFile(resolve(io.cwd, values['password-file']), 'password file', permissions);
  const key = await unlockKeystore(path, password, io, permissions);
  printPublic(io, path, parsePrivateKey(key));
  return 0;
}

/** The password of a new keystore: from --password-file, or typed twice at a prompt. */
async function newPassword(io: CliIo, values: KeysFlags): Promise<Secret> {
  let password: Secret;
  if (values['password-file'] !== undefined) {
    const permissions = { insecurePermissions: values['insecure-permissions'] === true, warn: (message: string) => io.stderr.write(`${message}\n`) };
    password = readSecretFile(resolve(io.cwd, values['password-file']), 'password file', permissions);
  } else {
    if (!isInteractive(io)) throw new UsageError('no terminal to ask the keystore password on: pass --password-file FILE');
    password = new Secret(await promptHidden(io, 'New keystore password: '));
    if ((await promptHidden(io, 'Repeat the password: ')) !== password.reveal()) throw new UsageError('the passwords differ; nothing written');
  }
  if (password.reveal() === '') throw new UsageError('an empty password protects nothing; nothing written');
  return password;
}

function printPublic(io: CliIo, path: string, privateKey: bigint): void {
  const pair = describeKeyPair(privateKey);
  io.stdout.write(JSON.stringify({ keystore: path, publicKey: pair.publicKey, fullPublicKey: pair.fullPublicKey }, null, 2) + '\n');
}
