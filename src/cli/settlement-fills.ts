/**
 * Our fills as the daemon journalled them (`{"t":"fill",…}`, in the fills log beside the journal,
 * `<journal>.fills`, and in the journal itself for older files), for the settlement check.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fillsPathOf, parseJournal } from '../engine/index.ts';
import { hashOfOrderId, type OurFill } from '../exchange/index.ts';

/**
 * Every fill from `sinceMs` on.
 * @throws Error (the read's) when the journal cannot be read.
 */
export function readJournalFills(journalPath: string, sinceMs = 0): OurFill[] {
  let text = existsSync(journalPath) ? readFileSync(journalPath, 'utf8') : '';
  if (existsSync(fillsPathOf(journalPath))) text += `\n${readFileSync(fillsPathOf(journalPath), 'utf8')}`;
  const fills: OurFill[] = [];
  for (const record of parseJournal(text)) {
    if (record.t !== 'fill' || record.timeMs < sinceMs) continue;
    const orderHash = hashOfOrderId(record.orderId);
    if (orderHash === undefined) continue;
    fills.push({ orderHash, side: record.side, baseUnits: BigInt(record.qty), quoteUnits: BigInt(record.quote), isMaker: record.maker, timeMs: record.timeMs });
  }
  return fills;
}
