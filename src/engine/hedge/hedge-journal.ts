/**
 * The hedger's journal: every fill it counted and every hedge it sent, with the hedge written
 * before it leaves (a synchronous append, as the order journal does), so a bot killed at any
 * instant knows on restart which fills are covered, which hedges may be on the venue (to be
 * queried by their client id, never sent again), and what is still uncovered. Amounts are
 * decimal strings of base units.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { MmError } from '../../core/index.ts';
import type { Side } from '../../core/index.ts';
import type { HedgeExposure } from './exposure.ts';

/** One journal record. */
export type HedgeJournalRecord =
  | { readonly t: 'fill'; readonly orderId: string; readonly cum: string; readonly qty: string; readonly delta: string; readonly timeMs: number }
  | { readonly t: 'hedge'; readonly id: string; readonly side: Side; readonly qty: string; readonly expected: string; readonly ref: string; readonly timeMs: number }
  | { readonly t: 'result'; readonly id: string; readonly executed: string; readonly quote: string; readonly commission: string; readonly final: boolean; readonly timeMs: number }
  | { readonly t: 'abort'; readonly id: string; readonly reason: string; readonly timeMs: number }
  /** The hedge account at a start, and the base the hedges had moved by then (venue units). */
  | { readonly t: 'balances'; readonly base: string; readonly quote: string; readonly hedged: string; readonly timeMs: number };

/** Where the hedger writes. */
export interface HedgeJournal {
  append(record: HedgeJournalRecord): void;
  /** Everything written so far (replayed at start). */
  records(): readonly HedgeJournalRecord[];
  close(): void;
}

/** A journal in memory (backtests; tests that restart a hedger on the same journal). */
export class MemoryHedgeJournal implements HedgeJournal {
  private readonly list: HedgeJournalRecord[] = [];
  append(record: HedgeJournalRecord): void {
    this.list.push(record);
  }
  records(): readonly HedgeJournalRecord[] {
    return this.list;
  }
  close(): void {}
}

/**
 * A journal in one append-only file; a torn last line (the process died mid-write) is ignored.
 * One process at a time: `<path>.lock` holds the owner's pid (a lock whose process is gone is taken
 * over), so `akira-mm hedge flatten` cannot hedge beside a running daemon.
 */
export class FileHedgeJournal implements HedgeJournal {
  private fd: number | undefined;
  private readonly lockPath: string;

  /** @throws MmError `HEDGE_JOURNAL_LOCKED` when a live process holds the journal. */
  constructor(private readonly path: string) {
    this.lockPath = `${path}.lock`;
    if (existsSync(this.lockPath)) {
      const pid = Number(readFileSync(this.lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new MmError('HEDGE_JOURNAL_LOCKED', `${path} is in use by process ${pid} (a running daemon?): stop it first`);
      }
    }
    writeFileSync(this.lockPath, `${process.pid}\n`);
    this.fd = openSync(path, 'a');
    // A line torn by a crash is ended first, so the next record starts a line of its own
    // instead of being glued to the fragment (and lost with it at the next read).
    if (!endsWithNewline(path)) writeSync(this.fd, '\n');
  }

  append(record: HedgeJournalRecord): void {
    if (this.fd !== undefined) writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  /**
   * Read from the file each time (the hedger reads them once, at start): a daemon that hedges for
   * weeks would otherwise hold every fill and hedge it ever journaled in memory.
   */
  records(): readonly HedgeJournalRecord[] {
    if (!existsSync(this.path)) return [];
    const records: HedgeJournalRecord[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as HedgeJournalRecord);
      } catch {
        // Only the last line can be torn by a crash.
      }
    }
    return records;
  }

  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.lockPath, { force: true });
  }
}

/** True for an empty file or one whose last byte ends a line. */
function endsWithNewline(path: string): boolean {
  const size = statSync(path).size;
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Rebuilds the books from a journal; returns the hedges whose outcome the journal does not know. */
export function replayJournal(records: readonly HedgeJournalRecord[], exposure: HedgeExposure): string[] {
  for (const record of records) {
    switch (record.t) {
      case 'fill':
        exposure.addFill({ orderId: record.orderId, cumulativeUnits: BigInt(record.cum), qtyUnits: BigInt(record.qty), baseDeltaUnits: BigInt(record.delta) });
        break;
      case 'hedge':
        exposure.beginHedge({ id: record.id, side: record.side, qtyVenueUnits: BigInt(record.qty), expectedUnits: BigInt(record.expected), sentAtMs: record.timeMs, referencePriceUnits: BigInt(record.ref) });
        break;
      case 'result':
        exposure.progress(record.id, BigInt(record.executed), BigInt(record.quote), BigInt(record.commission), record.final);
        break;
      case 'abort':
        exposure.abort(record.id);
        break;
      case 'balances':
        break;
    }
  }
  return exposure.openHedges().map((record) => record.id);
}
