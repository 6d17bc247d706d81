/**
 * What a daemon opens for one trading account before any engine starts: the account's lock in
 * the state directory, then its journal (one file for every pair of the account). A process
 * quoting several pairs of one account opens this once and hands each pair's engine
 * `journal.forPair('BASE/QUOTE')`; `release()` after the last engine stopped.
 */
import { AccountJournal, JournalOwnerError } from '../engine/index.ts';
import { acquireAccountLock, type AccountLock } from './account-lock.ts';
import { UsageError } from './io.ts';
import { accountJournalPath, accountKey, type AccountKey } from './state-dir.ts';

/** The account's lock and journal, held by one process. */
export interface AccountState {
  readonly stateDir: string;
  readonly key: AccountKey;
  readonly journal: AccountJournal;
  /** Undefined when no lock was asked for (paper mode's private exchange). */
  readonly lock: AccountLock | undefined;
  /** Releases the lock (the journal closes with its last pair's view); idempotent. */
  release(): void;
}

/** Options of {@link openAccountState}. */
export interface AccountStateOptions {
  /** EXCHANGE_HTTP_URL. */
  readonly venueUrl: string;
  /** TRADING_ACCOUNT. */
  readonly account: string;
  /** The resolved state directory (`resolveStateDir`). */
  readonly stateDir: string;
  /** `--journal FILE`; default the account's journal in the state directory. */
  readonly journalPath?: string | undefined;
  /** Keep the journal's whole history (no compaction): `paper --journal FILE`, for `akira-mm parity`. */
  readonly keepJournalHistory?: boolean;
  /** Take the account's lock (default true). */
  readonly lock?: boolean;
  /** Schedules the journal's asynchronous flush (the daemon's clock). */
  readonly schedule: (callback: () => void, delayMs: number) => void;
}

/**
 * Locks the account in the state directory and opens its journal.
 * @throws UsageError (exit 2, one line) when another process serves the account from this state
 *   directory, or when the journal file belongs to another venue or account.
 */
export function openAccountState(options: AccountStateOptions): AccountState {
  const key = accountKey(options.venueUrl, options.account);
  const lock = options.lock === false ? undefined : acquireAccountLock(options.stateDir, key);
  let journal: AccountJournal;
  try {
    journal = AccountJournal.open(options.journalPath ?? accountJournalPath(options.stateDir, key), { venue: options.venueUrl, account: key.account }, { schedule: options.schedule, ...(options.keepJournalHistory === true ? { keepHistory: true } : {}) });
  } catch (error) {
    lock?.release();
    if (error instanceof JournalOwnerError) throw new UsageError(error.message);
    throw error;
  }
  return { stateDir: options.stateDir, key, journal, lock, release: () => lock?.release() };
}
