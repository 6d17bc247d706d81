/**
 * A session's whole journal (issue 32: `paper --journal FILE`, `run --keep-journal`): with
 * `keepHistory` nothing is compacted away, fills included, while the orders the journal cannot tell
 * are finished stay what recovery reads; without it a compaction keeps only those.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountJournal, parseJournal, type JournalRecord } from '../../src/engine/index.ts';

const OWNER = { venue: 'http://127.0.0.1:1', account: '0x1' };
const RECORDS: JournalRecord[] = [
  { t: 'start', timeMs: 1 },
  { t: 'intent', orderId: '0xa', side: 'buy', price: '100', qty: '5', timeMs: 2 },
  { t: 'ack', orderId: '0xa', outcome: 'accepted', timeMs: 3 },
  { t: 'fill', orderId: '0xa', side: 'buy', price: '100', qty: '5', quote: '500', fee: '1', feeToken: 'quote', feeQuote: 0.000001, maker: true, timeMs: 4, atMs: 4 },
  { t: 'done', orderId: '0xa', status: 'FILLED', timeMs: 4 },
  { t: 'intent', orderId: '0xb', side: 'sell', price: '101', qty: '5', timeMs: 5 },
  { t: 'stop', timeMs: 6 },
];

function written(keepHistory: boolean): ReturnType<typeof parseJournal> {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-journal-history-')), 'a.journal');
  const journal = AccountJournal.open(path, OWNER, { schedule: () => undefined, compactEvery: 3, keepHistory });
  const view = journal.forPair('ETH/USDC');
  for (const record of RECORDS) view.append(record);
  expect(view.unresolvedOrders().map((order) => order.orderId)).toEqual(['0xb']);
  view.compact();
  view.close();
  return parseJournal(readFileSync(path, 'utf8'));
}

describe('a journal that keeps its history', () => {
  it('keeps every record, fills included, through compactions; recovery still sees only the open order', () => {
    const kept = written(true);
    expect(kept.map((record) => record.t)).toEqual(RECORDS.map((record) => record.t));
    expect(kept.every((record) => record.pair === 'ETH/USDC')).toBe(true);
  });

  it('is compacted to the open orders without it', () => {
    expect(written(false).map((record) => [record.t, 'orderId' in record ? record.orderId : undefined])).toEqual([['intent', '0xb']]);
  });
});
