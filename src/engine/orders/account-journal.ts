/**
 * The crash journal's file: one per venue and trading account, holding every pair's records
 * (each line names its pair), so one process quoting several pairs of an account keeps one
 * journal, and each pair's engine sees only its own orders through `forPair`.
 *
 * The first line names the owner (`{"t":"owner","venue":…,"account":…}`); a file that belongs to
 * another venue or account, or that has no owner line (written before journals were keyed so),
 * is refused with a `JournalOwnerError` saying whose it is: its orders are not ours to resolve.
 *
 * Durability: each record is written with a synchronous `write(2)` before the request it
 * describes is sent, so it is in the kernel (and survives the process dying) before any byte
 * reaches the venue; `fdatasync` follows asynchronously (at most `syncEveryMs` later), which
 * covers a machine crash without putting a disk flush on the tick-to-wire path.
 */
import { closeSync, existsSync, fdatasync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyRecord, parseJournal, type Journal, type JournaledOrder, type JournalRecord } from './journal.ts';

/** Whose journal a file is. */
export interface JournalOwner {
  /** The venue's REST base URL, as configured (EXCHANGE_HTTP_URL). */
  readonly venue: string;
  /** The trading account, 0x-hex. */
  readonly account: string;
}

/** The file belongs to another venue or account, or to nobody we can tell. */
export class JournalOwnerError extends Error {
  constructor(
    message: string,
    readonly path: string,
    /** The file's owner; undefined when it names none. */
    readonly found: JournalOwner | undefined,
  ) {
    super(message);
    this.name = 'JournalOwnerError';
  }
}

/** Options of {@link AccountJournal}. */
export interface AccountJournalOptions {
  /** Schedules the asynchronous flush; the engine's clock in production. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
  /** Longest time a record waits for fdatasync. Default 50 ms. */
  readonly syncEveryMs?: number;
  /**
   * Rewrite the file with only the unresolved orders after this many appends (default 10,000),
   * so a daemon that runs for months keeps neither a growing file nor a growing memory.
   */
  readonly compactEvery?: number;
  /**
   * Keep every record (no compaction, also not at a clean stop): a session's whole history for
   * `akira-mm parity` (`paper --journal FILE`). Default false.
   */
  readonly keepHistory?: boolean;
}

const FORMAT_VERSION = 2;

/** Same venue and account? URLs compare without a trailing slash and case-insensitively in scheme and host; accounts as numbers. */
export function isSameOwner(a: JournalOwner, b: JournalOwner): boolean {
  const url = (text: string): string => {
    try {
      const parsed = new URL(text);
      return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
    } catch {
      return text.replace(/\/+$/, '');
    }
  };
  let sameAccount: boolean;
  try {
    sameAccount = BigInt(a.account) === BigInt(b.account);
  } catch {
    sameAccount = a.account.toLowerCase() === b.account.toLowerCase();
  }
  return sameAccount && url(a.venue) === url(b.venue);
}

/** Reads the owner line of journal text, if it has one (the first parsable line). */
function ownerOf(text: string): JournalOwner | undefined {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as { t?: unknown; venue?: unknown; account?: unknown };
      return parsed.t === 'owner' && typeof parsed.venue === 'string' && typeof parsed.account === 'string' ? { venue: parsed.venue, account: parsed.account } : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** One venue-and-account journal file and the pairs' views of it. */
export class AccountJournal {
  private fd: number;
  /** Orders not known to be finished, by pair (not every record ever written). */
  private readonly open = new Map<string, Map<string, JournaledOrder>>();
  private appendsSinceCompact = 0;
  private syncScheduled = false;
  private closed = false;
  private openViews = 0;
  /** The fills log beside the journal (`<journal>.fills`), opened on the first fill. */
  private fillsFd = -1;

  private constructor(
    readonly path: string,
    readonly owner: JournalOwner,
    private readonly options: AccountJournalOptions,
  ) {
    this.fd = -1;
  }

  /**
   * Opens (or creates, with its directory) the journal of this venue and account.
   * @throws JournalOwnerError when the file belongs to another venue or account, or names no owner.
   */
  static open(path: string, owner: JournalOwner, options: AccountJournalOptions): AccountJournal {
    const journal = new AccountJournal(path, owner, options);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (text.trim() !== '') {
      const found = ownerOf(text);
      if (found === undefined) {
        throw new JournalOwnerError(
          `journal ${path} names no venue or account (it was written before journals were kept per venue and account); refusing to resolve its orders as ${owner.account}'s on ${owner.venue}. Move it away (whatever rests on the venue is settled by STARTUP_ORDERS at start) or pass another --journal`,
          path,
          undefined,
        );
      }
      if (!isSameOwner(found, owner)) {
        throw new JournalOwnerError(
          `journal ${path} belongs to account ${found.account} on ${found.venue}, not to ${owner.account} on ${owner.venue}; refusing to use it. Point --journal at this account's own journal (or leave it out: the state directory keeps one per venue and account)`,
          path,
          found,
        );
      }
      for (const record of parseJournal(text)) applyRecord(journal.pairMap(record.pair ?? ''), record);
    }
    mkdirSync(dirname(path), { recursive: true });
    journal.fd = openSync(path, 'a');
    if (text.trim() === '') writeSync(journal.fd, JSON.stringify({ t: 'owner', venue: owner.venue, account: owner.account, version: FORMAT_VERSION }) + '\n');
    return journal;
  }

  /** Pairs (`BASE/QUOTE`) with orders the journal cannot tell are finished. */
  pairsWithUnresolvedOrders(): string[] {
    return [...this.open].filter(([, orders]) => orders.size > 0).map(([pair]) => pair);
  }

  /**
   * The journal as one pair's engine sees it: its appends carry the pair, its unresolved orders
   * are that pair's only. The file closes when every view taken has been closed.
   */
  forPair(pair: string): Journal {
    this.openViews++;
    let viewClosed = false;
    return {
      append: (record) => this.append(pair, record),
      unresolvedOrders: () => [...this.pairMap(pair).values()],
      compact: () => this.compact(),
      close: () => {
        if (viewClosed) return;
        viewClosed = true;
        if (--this.openViews <= 0) this.close();
      },
    };
  }

  /** Closes the file (flushing it); idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fillsFd >= 0) {
      try {
        fsyncSync(this.fillsFd);
      } finally {
        closeSync(this.fillsFd);
      }
    }
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
  }

  /** Rewrites the file with the owner and only what is still unresolved, every pair's. */
  compact(): void {
    if (this.closed || this.options.keepHistory === true) return;
    const lines = [JSON.stringify({ t: 'owner', venue: this.owner.venue, account: this.owner.account, version: FORMAT_VERSION })];
    for (const [pair, orders] of this.open) {
      for (const order of orders.values()) {
        lines.push(JSON.stringify({ t: 'intent', orderId: order.orderId, side: order.side, price: order.priceUnits.toString(), qty: order.qtyUnits.toString(), timeMs: order.sentAtMs, pair }));
        if (order.cancelRequested) lines.push(JSON.stringify({ t: 'cancel', orderId: order.orderId, timeMs: order.sentAtMs, pair }));
      }
    }
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, lines.map((line) => line + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    closeSync(this.fd);
    renameSync(temporary, this.path);
    this.fd = openSync(this.path, 'a');
    this.appendsSinceCompact = 0;
  }

  private append(pair: string, record: JournalRecord): void {
    if (this.closed) return;
    const line = JSON.stringify({ ...record, pair }) + '\n';
    if (record.t === 'fill') {
      // A fill also goes to its own append-only log, which compaction never rewrites: the
      // settlement check (`akira-mm account settlement`) reads every fill ever made, not just the
      // open orders. It stays in the journal too, in order with the session's other records, for
      // `akira-mm parity` on a session's whole journal (paper --journal, run --keep-journal).
      if (this.fillsFd < 0) this.fillsFd = openSync(fillsPathOf(this.path), 'a');
      writeSync(this.fillsFd, line);
    }
    // Written first: if the disk refuses it, the in-memory state does not claim it either.
    writeSync(this.fd, line);
    applyRecord(this.pairMap(pair), record);
    this.scheduleSync();
    if (++this.appendsSinceCompact >= (this.options.compactEvery ?? 10_000)) this.compact();
  }

  private pairMap(pair: string): Map<string, JournaledOrder> {
    let orders = this.open.get(pair);
    if (orders === undefined) {
      orders = new Map();
      this.open.set(pair, orders);
    }
    return orders;
  }

  private scheduleSync(): void {
    if (this.syncScheduled) return;
    this.syncScheduled = true;
    this.options.schedule(() => {
      this.syncScheduled = false;
      if (!this.closed) fdatasync(this.fd, () => undefined);
    }, this.options.syncEveryMs ?? 50);
  }
}

/** The fills log of a journal: `<journal>.fills`, one JSON `fill` record per line. */
export function fillsPathOf(journalPath: string): string {
  return `${journalPath}.fills`;
}
