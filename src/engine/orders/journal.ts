/**
 * The crash journal as the engine sees it: records of its intents and the venue's answers, so a
 * bot killed at any instant (SIGKILL included) knows on restart which orders it may have left on
 * the venue and can adopt or cancel them and account for what filled while it was down. The file
 * that holds them (one per venue and account, every pair's records in it) is `AccountJournal`.
 */
import type { OrderStatus, Side } from '../../core/index.ts';

/** One journal record. Amounts are decimal strings of base units (JSON has no bigint). */
export type JournalRecord =
  /**
   * The engine starts quoting. `tick`, `lot` and `minQty` (base units of quote, base and base) are
   * the venue's rules for the pair then, so `akira-mm parity` backtests the session on the rules it
   * traded under (issue 32); absent in journals written before them.
   */
  | { readonly t: 'start'; readonly timeMs: number; readonly tick?: string; readonly lot?: string; readonly minQty?: string }
  | { readonly t: 'intent'; readonly orderId: string; readonly side: Side; readonly price: string; readonly qty: string; readonly timeMs: number }
  | { readonly t: 'ack'; readonly orderId: string; readonly outcome: 'accepted' | 'rejected' | 'unknown'; readonly timeMs: number }
  | { readonly t: 'cancel'; readonly orderId: string; readonly timeMs: number }
  | { readonly t: 'done'; readonly orderId: string; readonly status: OrderStatus; readonly timeMs: number }
  /**
   * A fill of one of our orders as the engine applied it (issue 32: `akira-mm parity` reads a
   * session's fills from its journal): `timeMs` is the venue's time of the fill, `atMs` the
   * engine's when it heard it; `fee` in the received token (`feeToken`), `feeQuote` valued in quote.
   * Recovery ignores it (a fill settles nothing the `done` record does not).
   */
  | {
      readonly t: 'fill';
      readonly orderId: string;
      readonly side: Side;
      readonly price: string;
      readonly qty: string;
      readonly quote: string;
      readonly fee: string;
      readonly feeToken: 'base' | 'quote';
      readonly feeQuote: number;
      readonly maker: boolean;
      readonly timeMs: number;
      readonly atMs: number;
    }
  /**
   * The funds the pair quotes with as it begins (base units of base and quote): the account's
   * balances when the pair is alone on it, its budget when it shares it. `akira-mm parity` starts
   * the backtest with them, so an inventory skew sees the same position (issue 32).
   */
  | { readonly t: 'funds'; readonly base: string; readonly quote: string; readonly timeMs: number }
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
export function applyRecord(open: Map<string, JournaledOrder>, record: JournalRecord): void {
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
    case 'fill':
    case 'funds':
      break;
  }
}

/** Replays records into the set of orders that are not known to be finished. */
export function unresolvedFromRecords(records: readonly JournalRecord[]): JournaledOrder[] {
  const open = new Map<string, JournaledOrder>();
  for (const record of records) applyRecord(open, record);
  return [...open.values()];
}

const RECORD_TYPES: ReadonlySet<string> = new Set(['start', 'intent', 'ack', 'cancel', 'done', 'fill', 'funds', 'stop']);

/**
 * Parses journal text into its records (each with the pair it belongs to, when the file says);
 * a torn last line (the process died mid-write) and lines that are not records (the file's owner)
 * are skipped.
 */
export function parseJournal(text: string): (JournalRecord & { readonly pair?: string })[] {
  const records: (JournalRecord & { readonly pair?: string })[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // Only the last line can be torn by a crash; anything unparsable is skipped.
      continue;
    }
    if (typeof parsed === 'object' && parsed !== null && RECORD_TYPES.has(String((parsed as { t?: unknown }).t))) records.push(parsed as JournalRecord);
  }
  return records;
}
