/**
 * The crash journal: an append-only file of the engine's intents and the venue's answers, so a
 * bot killed at any instant (SIGKILL included) knows on restart which orders it may have left on
 * the venue and can adopt or cancel them and account for what filled while it was down.
 *
 * Durability: each record is written with a synchronous `write(2)` before the request it
 * describes is sent, so it is in the kernel (and survives the process dying) before any byte
 * reaches the venue; `fdatasync` follows asynchronously (at most `syncEveryMs` later), which
 * covers a machine crash without putting a disk flush on the tick-to-wire path.
 */
import { closeSync, existsSync, fdatasync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import type { OrderStatus, Side } from '../../core/index.ts';

/** One journal record. Amounts are decimal strings of base units (JSON has no bigint). */
export type JournalRecord =
  | { readonly t: 'start'; readonly timeMs: number }
  | { readonly t: 'intent'; readonly orderId: string; readonly side: Side; readonly price: string; readonly qty: string; readonly timeMs: number }
  | { readonly t: 'ack'; readonly orderId: string; readonly outcome: 'accepted' | 'rejected' | 'unknown'; readonly timeMs: number }
  | { readonly t: 'cancel'; readonly orderId: string; readonly timeMs: number }
  | { readonly t: 'done'; readonly orderId: string; readonly status: OrderStatus; readonly timeMs: number }
  | { readonly t: 'stop'; readonly timeMs: number };

/** An order the journal says may still be on the venue. */
export interface JournaledOrder {
  readonly orderId: string;
  readonly side: Side;
  readonly priceUnits: bigint;
  readonly qtyUnits: bigint;
  readonly sentAtMs: number;
  readonly cancelRequested: boolean;
}

/** Where the engine writes its intents. */
export interface Journal {
  append(record: JournalRecord): void;
  /** Orders with an intent and no terminal record, in the order they were sent. */
  unresolvedOrders(): JournaledOrder[];
  /** Rewrites the file with only what is still unresolved; call after a clean recovery. */
  compact(): void;
  close(): void;
}

/** A journal that remembers nothing (backtests, tests that do not need crash safety). */
export class NullJournal implements Journal {
  append(): void {}
  unresolvedOrders(): JournaledOrder[] {
    return [];
  }
  compact(): void {}
  close(): void {}
}

/**
 * The engine's hold on its journal: a write that fails (disk full, I/O error) is reported once to
 * `onFailure` — the engine cancels everything and halts, since it does not trade without a
 * journal — instead of being thrown into the order path, and `append` says whether the record was
 * written, so a placement whose intent could not be journalled is never sent. After a failure
 * nothing more is written (the file may end in a torn line, which recovery skips).
 */
export class GuardedJournal implements Journal {
  private failure: unknown;

  constructor(
    private readonly inner: Journal,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** True once a write failed. */
  get hasFailed(): boolean {
    return this.failure !== undefined;
  }

  /** Writes the record; false when it could not be (now or after an earlier failure). */
  append(record: JournalRecord): boolean {
    return this.attempt(() => this.inner.append(record));
  }

  unresolvedOrders(): JournaledOrder[] {
    return this.inner.unresolvedOrders();
  }

  compact(): void {
    this.attempt(() => this.inner.compact());
  }

  close(): void {
    try {
      this.inner.close();
    } catch {
      // Closing flushes: on a full disk it fails too, and the failure was already reported.
    }
  }

  private attempt(write: () => void): boolean {
    if (this.failure !== undefined) return false;
    try {
      write();
      return true;
    } catch (error) {
      this.failure = error ?? new Error('journal write failed');
      this.onFailure(error);
      return false;
    }
  }
}

/** Applies one record to the orders that are not known to be finished. */
function applyRecord(open: Map<string, JournaledOrder>, record: JournalRecord): void {
  switch (record.t) {
    case 'intent':
      open.set(record.orderId, {
        orderId: record.orderId,
        side: record.side,
        priceUnits: BigInt(record.price),
        qtyUnits: BigInt(record.qty),
        sentAtMs: record.timeMs,
        cancelRequested: false,
      });
      break;
    case 'ack':
      if (record.outcome === 'rejected') open.delete(record.orderId);
      break;
    case 'cancel': {
      const order = open.get(record.orderId);
      if (order !== undefined) open.set(record.orderId, { ...order, cancelRequested: true });
      break;
    }
    case 'done':
      open.delete(record.orderId);
      break;
    case 'start':
    case 'stop':
      break;
  }
}

/** Replays records into the set of orders that are not known to be finished. */
export function unresolvedFromRecords(records: readonly JournalRecord[]): JournaledOrder[] {
  const open = new Map<string, JournaledOrder>();
  for (const record of records) applyRecord(open, record);
  return [...open.values()];
}

/** Parses journal text; a torn last line (the process died mid-write) is ignored. */
export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as JournalRecord);
    } catch {
      // Only the last line can be torn by a crash; anything unparsable is skipped.
    }
  }
  return records;
}

/** Options of {@link FileJournal}. */
export interface FileJournalOptions {
  /** Schedules the asynchronous flush; the engine's clock in production. */
  readonly schedule: (callback: () => void, delayMs: number) => void;
  /** Longest time a record waits for fdatasync. Default 50 ms. */
  readonly syncEveryMs?: number;
  /**
   * Rewrite the file with only the unresolved orders after this many appends (default 10,000),
   * so a daemon that runs for months keeps neither a growing file nor a growing memory.
   */
  readonly compactEvery?: number;
}

/** A journal in one file, appended to with synchronous writes and flushed shortly after. */
export class FileJournal implements Journal {
  private fd: number;
  /** Only what recovery needs: orders not known to be finished (not every record ever written). */
  private readonly open = new Map<string, JournaledOrder>();
  private appendsSinceCompact = 0;
  private syncScheduled = false;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly options: FileJournalOptions,
  ) {
    if (existsSync(path)) for (const record of parseJournal(readFileSync(path, 'utf8'))) applyRecord(this.open, record);
    this.fd = openSync(path, 'a');
  }

  append(record: JournalRecord): void {
    if (this.closed) return;
    applyRecord(this.open, record);
    writeSync(this.fd, JSON.stringify(record) + '\n');
    this.scheduleSync();
    if (++this.appendsSinceCompact >= (this.options.compactEvery ?? 10_000)) this.compact();
  }

  unresolvedOrders(): JournaledOrder[] {
    return [...this.open.values()];
  }

  compact(): void {
    if (this.closed) return;
    const records: JournalRecord[] = [];
    for (const order of this.open.values()) {
      records.push({ t: 'intent', orderId: order.orderId, side: order.side, price: order.priceUnits.toString(), qty: order.qtyUnits.toString(), timeMs: order.sentAtMs });
      if (order.cancelRequested) records.push({ t: 'cancel', orderId: order.orderId, timeMs: order.sentAtMs });
    }
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w');
    writeSync(fd, records.map((record) => JSON.stringify(record) + '\n').join(''));
    fsyncSync(fd);
    closeSync(fd);
    closeSync(this.fd);
    renameSync(temporary, this.path);
    this.fd = openSync(this.path, 'a');
    this.appendsSinceCompact = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fsyncSync(this.fd);
    closeSync(this.fd);
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
