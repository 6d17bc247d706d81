/**
 * The account owner's key for `akira-mm account`: not the trading key. It signs Starknet
 * transactions (bind, approve, deposit, grant, on-chain withdrawals), so it comes from its own
 * place, under the same custody rules as the signer's: `ACCOUNT_KEYSTORE` (an encrypted keystore,
 * chmod 600, its password from `ACCOUNT_KEYSTORE_PASSWORD`, `ACCOUNT_KEYSTORE_PASSWORD_FILE` or a
 * prompt without echo), or `ACCOUNT_PRIVATE_KEY` / `ACCOUNT_PRIVATE_KEY_FILE` (dev and sim). They
 * are read from the process environment only (never from the pair file the daemon reads, which
 * holds no owner key) and deleted from it once read. The key never appears in a message.
 */
import { Secret } from '../core/index.ts';
import { parsePrivateKey } from '../exchange/signer/index.ts';
import type { PermissionOptions } from '../config/index.ts';
import { UsageError, type CliIo } from './io.ts';
import { readSecretFile, unlockKeystore } from './signer-setup.ts';
import { resolve } from 'node:path';

/** The environment keys naming the owner key; exactly one of the first three. */
export const ACCOUNT_KEY_SOURCES = ['ACCOUNT_PRIVATE_KEY', 'ACCOUNT_PRIVATE_KEY_FILE', 'ACCOUNT_KEYSTORE'] as const;

function take(io: CliIo, key: string): string | undefined {
  const value = io.env[key];
  if (value === undefined || value.trim() === '') return undefined;
  delete io.env[key];
  return value.trim();
}

/**
 * Opens the owner key.
 * @throws UsageError when none or several are named, a file is open to others or unreadable, the
 *   keystore's password is wrong, or the key is not a Stark private key (shown as <redacted>).
 */
export async function openOwnerKey(io: CliIo, permissions: PermissionOptions): Promise<Secret> {
  const named = ACCOUNT_KEY_SOURCES.filter((key) => (io.env[key] ?? '').trim() !== '');
  if (named.length === 0) {
    throw new UsageError(`no account owner key: set ACCOUNT_KEYSTORE (with ACCOUNT_KEYSTORE_PASSWORD_FILE, or be asked), ACCOUNT_PRIVATE_KEY_FILE or ACCOUNT_PRIVATE_KEY in the environment (the key of the Starknet account, not the trading key)`);
  }
  if (named.length > 1) throw new UsageError(`only one account owner key: ${named.join(' and ')} are both set`);
  let secret: Secret;
  if (named[0] === 'ACCOUNT_KEYSTORE') {
    const path = resolve(io.cwd, take(io, 'ACCOUNT_KEYSTORE') as string);
    const passwordFile = take(io, 'ACCOUNT_KEYSTORE_PASSWORD_FILE');
    const passwordText = take(io, 'ACCOUNT_KEYSTORE_PASSWORD');
    const password = passwordFile !== undefined ? readSecretFile(resolve(io.cwd, passwordFile), 'ACCOUNT_KEYSTORE_PASSWORD_FILE', permissions) : passwordText === undefined ? undefined : new Secret(passwordText);
    secret = await unlockKeystore(path, password, io, permissions);
  } else if (named[0] === 'ACCOUNT_PRIVATE_KEY_FILE') {
    secret = readSecretFile(resolve(io.cwd, take(io, 'ACCOUNT_PRIVATE_KEY_FILE') as string), 'ACCOUNT_PRIVATE_KEY_FILE', permissions);
  } else {
    secret = new Secret(take(io, 'ACCOUNT_PRIVATE_KEY') as string);
  }
  try {
    return new Secret(`0x${parsePrivateKey(secret).toString(16)}`);
  } catch {
    throw new UsageError(`${named[0]}: the account owner key <redacted> is not a 0x-hex or decimal Stark private key`);
  }
}
