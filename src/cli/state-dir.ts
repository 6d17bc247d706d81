/**
 * The state directory: where a daemon keeps what must outlive it, per venue and trading account —
 * the crash journal (one file for every pair of the account) and the lock that keeps a second
 * process off an account already served from this directory.
 *
 *   <state dir>/<venue id>/<account>.journal
 *   <state dir>/<venue id>/<account>.lock
 *   <state dir>/<venue id>/ctl-<last 16 hex digits of the account>.sock   (`akira-mm ctl`)
 *   <state dir>/<venue id>/<account>.audit   (what `ctl` changed, one JSON line each)
 *
 * The directory is `--state-dir`, else the pair file's STATE_DIR, else $XDG_STATE_HOME/akira-mm,
 * else ~/.local/state/akira-mm (in a container: mount a volume and set STATE_DIR, or the journal
 * dies with the container). `--journal FILE` moves the journal alone; the lock stays here.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** A venue and an account, and the file-safe names they are kept under. */
export interface AccountKey {
  /** EXCHANGE_HTTP_URL as configured. */
  readonly venueUrl: string;
  /** The trading account, 0x and 64 lowercase hex digits. */
  readonly account: string;
  /** The venue's directory name: its host (and port), then a short hash of the whole URL. */
  readonly venueId: string;
}

/** Where the state directory is, from the most specific setting to the default. */
export function resolveStateDir(options: {
  /** `--state-dir DIR`. */
  readonly flag?: string | undefined;
  /** The pair file's STATE_DIR (empty = not set). */
  readonly configured?: string | undefined;
  /** The process environment (XDG_STATE_HOME, HOME). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative settings resolve against this. */
  readonly cwd: string;
}): string {
  const chosen = [options.flag, options.configured].find((value) => value !== undefined && value !== '');
  if (chosen !== undefined) return resolve(options.cwd, chosen);
  const xdg = options.env['XDG_STATE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'akira-mm');
  return join(options.env['HOME'] ?? homedir(), '.local', 'state', 'akira-mm');
}

/** The key of a venue and account; the same venue written differently (case, trailing slash) gets the same key. */
export function accountKey(venueUrl: string, account: string | bigint): AccountKey {
  const parsed = new URL(venueUrl);
  const normalized = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  const readable = parsed.host.replace(/[^a-zA-Z0-9.-]/g, '_').toLowerCase();
  const hash = createHash('sha256').update(normalized).digest('hex').slice(0, 8);
  const accountHex = `0x${BigInt(account).toString(16).padStart(64, '0')}`;
  return { venueUrl, account: accountHex, venueId: `${readable}-${hash}` };
}

/** The default journal of a venue and account (every pair of the account writes to it). */
export function accountJournalPath(stateDir: string, key: AccountKey): string {
  return join(stateDir, key.venueId, `${key.account}.journal`);
}

/** The lock file of a venue and account. */
export function accountLockPath(stateDir: string, key: AccountKey): string {
  return join(stateDir, key.venueId, `${key.account}.lock`);
}

/** The order journal a daemon for this pair file writes: `--journal FILE`, else its account's journal in the state directory. */
export function orderJournalPath(
  config: { readonly exchangeHttpUrl: string; readonly tradingAccount: string; readonly stateDir?: string },
  options: { readonly journalPath?: string | undefined; readonly stateDir?: string | undefined; readonly env: Readonly<Record<string, string | undefined>>; readonly cwd: string },
): string {
  if (options.journalPath !== undefined) return options.journalPath;
  const stateDir = options.stateDir ?? resolveStateDir({ configured: config.stateDir, env: options.env, cwd: options.cwd });
  return accountJournalPath(stateDir, accountKey(config.exchangeHttpUrl, config.tradingAccount));
}

/**
 * A pair's hedge journal, beside its account's order journal: one per pair, since every pair of
 * the account shares the order journal while each hedges on its own market.
 */
export function hedgeJournalPath(orderJournal: string, base: string, quote: string): string {
  return `${orderJournal}.${base}-${quote}.hedge`;
}

/**
 * The daemon's control socket (`akira-mm ctl`). Short on purpose: a Unix socket path holds at most
 * 107 bytes, and the account's 66 characters would eat most of them; its last 16 hex digits tell
 * accounts on one venue apart.
 */
export function controlSocketPath(stateDir: string, key: AccountKey): string {
  return join(stateDir, key.venueId, `ctl-${key.account.slice(-16)}.sock`);
}

/** The audit trail of what `akira-mm ctl` changed on the account's daemon (JSON lines, owner-only). */
export function controlAuditPath(stateDir: string, key: AccountKey): string {
  return join(stateDir, key.venueId, `${key.account}.audit`);
}
