/**
 * What an import did: lines read, records written, and every line it could not use, counted by
 * reason. Malformed lines are logged (the first few of each reason, so a broken file does not
 * flood the terminal) and skipped; the import goes on.
 */
import type { RecordingHeader } from '../format.ts';
import type { TimeUnit } from './time-unit.ts';

/** Where an importer reports a skipped line. */
export type WarnSink = (message: string) => void;

/** What a user can tell an importer beyond the files. */
export interface ImportOptions {
  /** Unit of the local timestamps (binance, bitstamp); default `auto`: from the data. */
  readonly timeUnit?: TimeUnit;
}

/** Totals of one import. */
export interface ImportReport {
  readonly format: string;
  readonly lines: number;
  readonly records: number;
  /** Lines not imported, by reason (malformed JSON, unknown stream, stale diff…). */
  readonly skipped: Readonly<Record<string, number>>;
  readonly header: RecordingHeader;
}

/** Counts skipped lines by reason and logs the first few of each. */
export class SkipCounter {
  readonly counts: Record<string, number> = {};
  lines = 0;

  constructor(
    private readonly warn: WarnSink,
    private readonly logPerReason = 5,
  ) {}

  /** Skips one line (or message) for `reason`, logging `where` and `detail` the first few times. */
  skip(reason: string, where: string, detail = ''): void {
    const count = (this.counts[reason] ?? 0) + 1;
    this.counts[reason] = count;
    if (count <= this.logPerReason) this.warn(`${where}: ${reason}${detail === '' ? '' : ` (${detail})`}, skipped`);
    else if (count === this.logPerReason + 1) this.warn(`more lines skipped for "${reason}"; see the totals at the end`);
  }

  /** Total skipped. */
  total(): number {
    return Object.values(this.counts).reduce((sum, n) => sum + n, 0);
  }
}
