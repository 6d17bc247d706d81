import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readExactFields, readRecording } from '../../../src/backtest/data/reader.ts';
import { replayTopOfBook } from '../../../src/backtest/data/top-of-book.ts';
import type { DataRecord } from '../../../src/backtest/data/format.ts';

/** A fresh temporary directory for one test file. */
export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `akira-${label}-`));
}

/** Writes lines to `name` in `dir`, gzipped when the name ends in .gz. */
export function writeLines(dir: string, name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  const text = lines.join('\n') + '\n';
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

/** Every record of a recording, copied, with exact timestamps. */
export async function readAll(path: string): Promise<(DataRecord & { exchNs: bigint; localNs: bigint })[]> {
  const records: (DataRecord & { exchNs: bigint; localNs: bigint })[] = [];
  await readRecording(path, (record, _index, raw) => {
    const exact = readExactFields(raw);
    records.push({ ...record, exchNs: exact.exchNs, localNs: exact.localNs });
  });
  return records;
}

/** A Binance combined-stream line. */
export function binanceLine(localNs: bigint, stream: string, data: Record<string, unknown>): string {
  return `${localNs} ${JSON.stringify({ stream, data })}`;
}

/** A Binance depth diff line (levels as [price, qty] strings). */
export function depthLine(localNs: bigint, first: number, last: number, bids: [string, string][], asks: [string, string][], eventMs = 1_700_000_000_000): string {
  return binanceLine(localNs, 'ethusdt@depth@100ms', { e: 'depthUpdate', E: eventMs, s: 'ETHUSDT', U: first, u: last, b: bids, a: asks });
}

/**
 * The rebuilt top of a Binance recording against its own bookTicker records: at every update id
 * the two share, the top must be equal. Returns the comparisons made, the mismatches, the BBO
 * records seen and the book changes that left the book one-sided or crossed.
 */
export async function compareWithBookTicker(path: string): Promise<{ compared: number; mismatches: string[]; bbo: number; crossed: number }> {
  const rebuilt = new Map<number, string>();
  const venue: { updateId: number | undefined; text: string }[] = [];
  let crossed = 0;
  await replayTopOfBook(
    path,
    (row) => {
      if (row.bid === undefined || row.ask === undefined || row.bid >= row.ask) crossed++;
      if (row.updateId !== undefined) rebuilt.set(row.updateId, `${row.bid} ${row.bidQty} ${row.ask} ${row.askQty}`);
    },
    (top) => venue.push({ updateId: top.updateId, text: `${top.bid} ${top.bidQty} ${top.ask} ${top.askQty}` }),
  );
  let compared = 0;
  const mismatches: string[] = [];
  for (const top of venue) {
    const ours = top.updateId === undefined ? undefined : rebuilt.get(top.updateId);
    if (ours === undefined) continue;
    compared++;
    if (ours !== top.text) mismatches.push(`u=${top.updateId}: ours ${ours}, bookTicker ${top.text}`);
  }
  return { compared, mismatches, bbo: venue.length, crossed };
}
