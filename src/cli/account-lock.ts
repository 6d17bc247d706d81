/**
 * One process per trading account and state directory: two daemons quoting the same account
 * would each cancel the other's orders as unknown and double the exposure the risk limits count.
 * The lock is a file created exclusively (`O_EXCL`) that names its owner (pid, host, start);
 * a lock left by a process that died (SIGKILL, a crash) is taken over when its owner is gone.
 */
import { hostname } from 'node:os';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './io.ts';
import { accountLockPath, type AccountKey } from './state-dir.ts';

/** What a lock file says about its owner. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  readonly venue: string;
  readonly account: string;
}

/** A held lock; `release()` removes the file (idempotent). */
export interface AccountLock {
  readonly path: string;
  release(): void;
}

/** The account is already served from this state directory (a usage error: exit 2, one clear line). */
export class AccountLockedError extends UsageError {
  constructor(
    message: string,
    readonly owner: LockOwner | undefined,
  ) {
    super(message);
    this.name = 'AccountLockedError';
  }
}

/** How to tell whether a pid lives (tests pass their own). */
export type IsAlive = (pid: number) => boolean;

/** True while a process with this pid exists (EPERM: it exists, under another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? (parsed as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lock is stale when its owner ran on this host and is gone, or is this very process's pid
 * (a container restarted: pid 1 again). An owner on another host (a shared volume) cannot be
 * checked from here and is taken as alive.
 */
function isStale(owner: LockOwner | undefined, isAlive: IsAlive, ourHost: string): boolean {
  if (owner === undefined) return true;
  if (owner.host !== ourHost) return false;
  return owner.pid === process.pid || !isAlive(owner.pid);
}

/**
 * Takes the lock of this venue and account in the state directory, or fails at once.
 * @throws AccountLockedError naming the process (pid, host, start) that serves the account.
 */
export function acquireAccountLock(stateDir: string, key: AccountKey, options: { isAlive?: IsAlive; host?: string } = {}): AccountLock {
  const path = accountLockPath(stateDir, key);
  const ourHost = options.host ?? hostname();
  const isAlive = options.isAlive ?? isProcessAlive;
  mkdirSync(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: ourHost, startedAt: new Date().toISOString(), venue: key.venueUrl, account: key.account };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(path);
      if (attempt === 0 && isStale(owner, isAlive, ourHost)) {
        // Its owner is gone: take the lock over (once; a racing start that wins keeps it).
        rmSync(path, { force: true });
        continue;
      }
      throw new AccountLockedError(
        owner === undefined
          ? `account ${key.account} on ${key.venueUrl} is locked by ${path}, whose owner cannot be read; if no bot serves this account, remove that file`
          : `account ${key.account} on ${key.venueUrl} is already served by pid ${owner.pid} on ${owner.host} (since ${owner.startedAt}) from this state directory (${path}); stop that process first${owner.host === ourHost ? '' : ', or remove the lock if that host is gone'}`,
        owner,
      );
    }
    writeSync(fd, JSON.stringify(me) + '\n');
    closeSync(fd);
    let released = false;
    return {
      path,
      release: () => {
        if (released) return;
        released = true;
        // Only our own lock: never a successor's.
        if (readOwner(path)?.pid === process.pid) rmSync(path, { force: true });
      },
    };
  }
  throw new AccountLockedError(`account ${key.account} on ${key.venueUrl}: another process took the lock ${path} as this one started`, readOwner(path));
}
