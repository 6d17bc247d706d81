/**
 * From a pair file's signer settings to a signer a command can use: a key held in this process
 * (SIGNER_PRIVATE_KEY, its `_FILE`, or SIGNER_KEYSTORE decrypted with its password file or a
 * prompt), or the remote signer (SIGNER_REMOTE), in which case this process never sees a key.
 * Also the signing policy a pair file implies. Every failure is one line (a UsageError): a wrong
 * password, a corrupt keystore, a keystore open to others, a signer that does not answer.
 */
import { readFileSync } from 'node:fs';
import { assertPrivateFile, InsecurePermissionsError, type PairConfig, type PermissionOptions } from '../config/index.ts';
import { ENGINE_KEYS, MmError, Secret, getChain, getToken, settingsOf, withContracts, type Clock, type Logger } from '../core/index.ts';
import {
  RemoteSigner,
  SignerError,
  Signer,
  SigningAudit,
  SigningPolicy,
  decryptStarkKeystore,
  type SigningPolicySpec,
} from '../exchange/signer/index.ts';
import { UsageError, type CliIo } from './io.ts';
import { isInteractive, promptHidden } from './secret-input.ts';

/** The signer of a run: a key here, or a connection to the key holder. */
export type OpenedSigner = { readonly kind: 'key'; readonly privateKey: Secret } | { readonly kind: 'remote'; readonly remote: RemoteSigner };

/** What opening a signer needs. */
export interface SignerSetupContext {
  readonly io: CliIo;
  readonly logger: Logger;
  readonly clock: Clock;
  /** How strictly the keystore's permissions are checked. */
  readonly permissions?: PermissionOptions;
  /** Counts the refusals the remote signer reports. */
  readonly audit?: SigningAudit;
}

/**
 * Opens the signer the pair file names.
 * @throws UsageError naming what is wrong (no signer, keystore, password, remote signer).
 */
export async function openSigner(config: PairConfig, context: SignerSetupContext): Promise<OpenedSigner> {
  const source = config.signer;
  if (source === undefined) throw new UsageError('no signer: set SIGNER_PRIVATE_KEY, SIGNER_PRIVATE_KEY_FILE, SIGNER_KEYSTORE or SIGNER_REMOTE');
  switch (source.kind) {
    case 'key':
      return { kind: 'key', privateKey: source.privateKey };
    case 'keystore':
      return { kind: 'key', privateKey: await unlockKeystore(source.path, source.password, context.io, context.permissions ?? {}) };
    case 'remote':
      try {
        const remote = await RemoteSigner.connect({
          socketPath: source.socketPath,
          chain: withContracts(getChain(config.chain), config.contracts),
          account: BigInt(config.tradingAccount),
          clock: context.clock,
          logger: context.logger,
          ...(context.audit === undefined ? {} : { audit: context.audit }),
        });
        return { kind: 'remote', remote };
      } catch (error) {
        if (error instanceof SignerError) throw new UsageError(`SIGNER_REMOTE=unix:${source.socketPath}: ${error.message}`);
        throw error;
      }
  }
}

/**
 * Decrypts a keystore after checking nobody else may read it; the password comes from the
 * configuration or, on a terminal, from a prompt without echo.
 * @throws UsageError for a keystore open to others, unreadable, corrupt, or a wrong password.
 */
export async function unlockKeystore(path: string, password: Secret | undefined, io: CliIo, permissions: PermissionOptions): Promise<Secret> {
  const text = readKeystoreFile(path, permissions);
  if (password === undefined && !isInteractive(io)) {
    throw new UsageError(`keystore ${path} needs its password: set SIGNER_KEYSTORE_PASSWORD_FILE (or --password-file), or run on a terminal to be asked`);
  }
  const typed = password ?? new Secret(await promptHidden(io, `Password of keystore ${path}: `));
  try {
    const key = await decryptStarkKeystore(text, typed.reveal());
    return new Secret(`0x${key.toString(16)}`);
  } catch (error) {
    if (error instanceof MmError && error.code.startsWith('SIGNER_')) throw new UsageError(`keystore ${path}: ${error.message}`);
    throw error;
  }
}

/**
 * The text of a keystore file, after checking nobody else may read it.
 * @throws UsageError when it is open to others (without --insecure-permissions) or unreadable.
 */
export function readKeystoreFile(path: string, permissions: PermissionOptions): string {
  return readPrivateFile(path, 'keystore', permissions);
}

/**
 * A secret kept in a file (a password file): its content without the trailing newline.
 * @throws UsageError as {@link readKeystoreFile}.
 */
export function readSecretFile(path: string, what: string, permissions: PermissionOptions): Secret {
  return new Secret(readPrivateFile(path, what, permissions).replace(/[\r\n]+$/, ''));
}

function readPrivateFile(path: string, what: string, permissions: PermissionOptions): string {
  try {
    assertPrivateFile(path, what, permissions);
  } catch (error) {
    if (error instanceof InsecurePermissionsError) throw new UsageError(error.message);
    throw error;
  }
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The signing policy a pair file implies: its pair (with RISK_MAX_ORDER_NOTIONAL as the order
 * limit when set), its account and chain, withdrawals only to WITHDRAW_ALLOWED_RECEIVERS.
 */
export function signingPolicyOf(config: PairConfig): SigningPolicySpec {
  const chain = getChain(config.chain);
  const decimals = { baseDecimals: getToken(chain, config.base).decimals, quoteDecimals: getToken(chain, config.quote).decimals };
  const notional = settingsOf(ENGINE_KEYS, 'risk', config.keys, decimals).maxOrderNotionalUnits;
  return {
    chain: config.chain,
    account: BigInt(config.tradingAccount),
    pairs: [{ base: config.base, quote: config.quote, ...(notional > 0n ? { maxOrderNotionalUnits: notional } : {}) }],
    withdrawReceivers: config.withdrawAllowedReceivers.map((receiver) => BigInt(receiver)),
    contracts: config.contracts,
  };
}

/** A signer for logging in (and holding the session) only, e.g. `record`. `close()` releases it. */
export interface LoginOnlySigner {
  readonly starkKey: bigint;
  signLogin(challenge: bigint): { readonly signature: { r: bigint; s: bigint } } | Promise<{ readonly signature: { r: bigint; s: bigint } }>;
  close(): Promise<void>;
}

/**
 * Opens the pair's signer for a command that only logs in (under the pair's policy when the key
 * is held here).
 * @throws UsageError as {@link openSigner}.
 */
export async function openLoginSigner(config: PairConfig, context: SignerSetupContext): Promise<LoginOnlySigner> {
  return loginSignerOf(await openSigner(config, context), config, context.audit);
}

/** The login side of an opened signer (under the pair's policy when the key is held here). */
export function loginSignerOf(opened: OpenedSigner, config: PairConfig, audit?: SigningAudit): LoginOnlySigner {
  if (opened.kind === 'remote') return opened.remote;
  const signer = new Signer({
    privateKey: opened.privateKey,
    account: BigInt(config.tradingAccount),
    chain: withContracts(getChain(config.chain), config.contracts),
    withdrawHash: config.withdrawHash,
    policy: new SigningPolicy(signingPolicyOf(config), audit),
  });
  return { starkKey: signer.starkKey, signLogin: (challenge) => signer.signLogin(challenge), close: async () => undefined };
}
