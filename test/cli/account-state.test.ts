/**
 * The state directory (issue 13 item 5): one journal and one lock per venue and account, a second
 * process for an account already served from the directory refused at once, a lock left by a
 * dead process taken over, and a journal of another venue or account refused, saying whose.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountLockedError, acquireAccountLock } from '../../src/cli/account-lock.ts';
import { openAccountState } from '../../src/cli/account-state.ts';
import { UsageError } from '../../src/cli/io.ts';
import { accountJournalPath, accountKey, accountLockPath, resolveStateDir } from '../../src/cli/state-dir.ts';

const schedule = (callback: () => void): void => callback();
const VENUE = 'https://api.layerakira.xyz';
const ACCOUNT = '0x33a7';

function stateDir(): string {
  return mkdtempSync(join(tmpdir(), 'akira-state-'));
}

describe('the state directory', () => {
  it('is --state-dir, else STATE_DIR, else $XDG_STATE_HOME/akira-mm, else ~/.local/state/akira-mm', () => {
    const env = { HOME: '/home/mm', XDG_STATE_HOME: '/var/state' };
    expect(resolveStateDir({ flag: 'here', configured: '/from/file', env, cwd: '/work' })).toBe('/work/here');
    expect(resolveStateDir({ configured: '/from/file', env, cwd: '/work' })).toBe('/from/file');
    expect(resolveStateDir({ configured: '', env, cwd: '/work' })).toBe('/var/state/akira-mm');
    expect(resolveStateDir({ env: { HOME: '/home/mm' }, cwd: '/work' })).toBe('/home/mm/.local/state/akira-mm');
  });

  it('keys journals and locks by venue and account, however the URL and the account are written', () => {
    const key = accountKey(VENUE, ACCOUNT);
    expect(accountKey('https://API.layerakira.xyz/', `0x${'0'.repeat(60)}33a7`)).toEqual({ ...key, venueUrl: 'https://API.layerakira.xyz/' });
    expect(key.account).toBe(`0x${'33a7'.padStart(64, '0')}`);
    expect(key.venueId).toMatch(/^api\.layerakira\.xyz-[0-9a-f]{8}$/);
    expect(accountKey('https://api-testnet.layerakira.xyz', ACCOUNT).venueId).not.toBe(key.venueId);
    expect(accountKey('http://127.0.0.1:8080', ACCOUNT).venueId).toMatch(/^127\.0\.0\.1_8080-/);
    expect(accountJournalPath('/state', key)).toBe(`/state/${key.venueId}/${key.account}.journal`);
    expect(accountLockPath('/state', key)).toBe(`/state/${key.venueId}/${key.account}.lock`);
  });
});

describe('the account lock', () => {
  it('refuses a second process for an account already served from the state directory, naming the first', () => {
    const dir = stateDir();
    const key = accountKey(VENUE, ACCOUNT);
    const held = acquireAccountLock(dir, key, { host: 'box', isAlive: () => true });
    const other = (): unknown => acquireAccountLock(dir, key, { host: 'box', isAlive: () => true });
    // Another live process (pid 4242 on this host) holds it: a second start is refused.
    writeFileSync(held.path, JSON.stringify({ pid: 4242, host: 'box', startedAt: '2026-11-24T00:00:00.000Z', venue: VENUE, account: key.account }));
    expect(other).toThrow(AccountLockedError);
    expect(other).toThrow(/already served by pid 4242 on box \(since 2026-11-24T00:00:00.000Z\)/);
    // Another account, or the same account on another venue, is another lock.
    expect(() => acquireAccountLock(dir, accountKey(VENUE, '0x1'), { host: 'box' }).release()).not.toThrow();
    expect(() => acquireAccountLock(dir, accountKey('https://api-testnet.layerakira.xyz', ACCOUNT), { host: 'box' }).release()).not.toThrow();
  });

  it('takes over a lock whose owner died, and a lock of its own pid (a restarted container), but not one from another host', () => {
    const dir = stateDir();
    const key = accountKey(VENUE, ACCOUNT);
    const path = accountLockPath(dir, key);
    const first = acquireAccountLock(dir, key, { host: 'box' });
    writeFileSync(path, JSON.stringify({ pid: 99_999_999, host: 'box', startedAt: 'then', venue: VENUE, account: key.account }));
    const second = acquireAccountLock(dir, key, { host: 'box', isAlive: () => false });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: 'box' });
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: 'box', startedAt: 'then', venue: VENUE, account: key.account }));
    const third = acquireAccountLock(dir, key, { host: 'box', isAlive: () => true });
    writeFileSync(path, JSON.stringify({ pid: 7, host: 'elsewhere', startedAt: 'then', venue: VENUE, account: key.account }));
    expect(() => acquireAccountLock(dir, key, { host: 'box', isAlive: () => false })).toThrow(/on elsewhere .* or remove the lock if that host is gone/);
    // Releasing never removes a lock another process holds now.
    first.release();
    second.release();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ host: 'elsewhere' });
    third.release();
  });

  it('is released by its holder, so the next start takes it', () => {
    const dir = stateDir();
    const key = accountKey(VENUE, ACCOUNT);
    acquireAccountLock(dir, key).release();
    expect(() => acquireAccountLock(dir, key).release()).not.toThrow();
  });
});

describe('opening an account', () => {
  it('locks it and opens its journal; a journal of another venue or account is refused with a usage error saying whose it is', () => {
    const dir = stateDir();
    const state = openAccountState({ venueUrl: VENUE, account: ACCOUNT, stateDir: dir, schedule });
    expect(state.journal.path).toBe(accountJournalPath(dir, state.key));
    // As another process started on this host sees it (the lock names a live pid that is not its own).
    const lock = readFileSync(accountLockPath(dir, state.key), 'utf8');
    writeFileSync(accountLockPath(dir, state.key), JSON.stringify({ ...JSON.parse(lock), pid: process.ppid }));
    expect(() => openAccountState({ venueUrl: VENUE, account: ACCOUNT, stateDir: dir, schedule })).toThrow(UsageError);
    writeFileSync(accountLockPath(dir, state.key), lock);
    state.journal.forPair('ETH/USDC').close();
    state.release();
    expect(() => openAccountState({ venueUrl: VENUE, account: '0x77', stateDir: dir, journalPath: state.journal.path, schedule })).toThrow(
      new RegExp(`belongs to account ${state.key.account} on ${VENUE}, not to 0x${'77'.padStart(64, '0')} on ${VENUE}`),
    );
    // …and its lock was given back.
    expect(() => openAccountState({ venueUrl: VENUE, account: '0x77', stateDir: dir, schedule }).release()).not.toThrow();
  });
});
