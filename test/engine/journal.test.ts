import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileJournal, parseJournal, unresolvedFromRecords } from '../../src/engine/index.ts';

const schedule = (callback: () => void): void => callback();

describe('FileJournal', () => {
  it('lists orders that were sent and never finished, across a reopen', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'akira-journal-')), 'journal.jsonl');
    const journal = new FileJournal(path, { schedule });
    journal.append({ t: 'intent', orderId: '0xa', side: 'buy', price: '2000000000', qty: '100', timeMs: 1 });
    journal.append({ t: 'intent', orderId: '0xb', side: 'sell', price: '2001000000', qty: '100', timeMs: 2 });
    journal.append({ t: 'intent', orderId: '0xc', side: 'sell', price: '2002000000', qty: '100', timeMs: 3 });
    journal.append({ t: 'ack', orderId: '0xb', outcome: 'rejected', timeMs: 4 });
    journal.append({ t: 'cancel', orderId: '0xc', timeMs: 5 });
    journal.close();
    // A crash mid-write leaves a torn last line; it must not hide the records before it.
    appendFileSync(path, '{"t":"done","orderId":"0x');
    const reopened = new FileJournal(path, { schedule });
    expect(reopened.unresolvedOrders()).toEqual([
      { orderId: '0xa', side: 'buy', priceUnits: 2_000_000_000n, qtyUnits: 100n, sentAtMs: 1, cancelRequested: false },
      { orderId: '0xc', side: 'sell', priceUnits: 2_002_000_000n, qtyUnits: 100n, sentAtMs: 3, cancelRequested: true },
    ]);
    reopened.append({ t: 'done', orderId: '0xa', status: 'FILLED', timeMs: 6 });
    reopened.compact();
    // The compacted file keeps the unresolved order and that its cancel was already requested.
    expect(parseJournal(readFileSync(path, 'utf8')).map((record) => record.t)).toEqual(['intent', 'cancel']);
    expect(reopened.unresolvedOrders().map((order) => order.orderId)).toEqual(['0xc']);
    reopened.close();
    expect(new FileJournal(path, { schedule }).unresolvedOrders()).toEqual([
      { orderId: '0xc', side: 'sell', priceUnits: 2_002_000_000n, qtyUnits: 100n, sentAtMs: 3, cancelRequested: true },
    ]);
  });

  it('stays small over a long run: finished orders leave memory and, every compactEvery appends, the file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'akira-journal-')), 'journal.jsonl');
    const journal = new FileJournal(path, { schedule, compactEvery: 100 });
    for (let i = 0; i < 5_000; i++) {
      const orderId = `0x${i.toString(16)}`;
      journal.append({ t: 'intent', orderId, side: 'buy', price: '1', qty: '1', timeMs: i });
      journal.append({ t: 'ack', orderId, outcome: 'accepted', timeMs: i });
      if (i < 4_998) journal.append({ t: 'done', orderId, status: 'CANCELLED', timeMs: i });
    }
    expect(journal.unresolvedOrders().map((order) => order.orderId)).toEqual(['0x1386', '0x1387']);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThan(120);
    journal.close();
    expect(new FileJournal(path, { schedule }).unresolvedOrders().map((order) => order.orderId)).toEqual(['0x1386', '0x1387']);
  });

  it('forgets an order once a terminal record follows its intent', () => {
    expect(
      unresolvedFromRecords([
        { t: 'intent', orderId: '0x1', side: 'buy', price: '1', qty: '1', timeMs: 0 },
        { t: 'ack', orderId: '0x1', outcome: 'accepted', timeMs: 1 },
        { t: 'done', orderId: '0x1', status: 'CANCELLED', timeMs: 2 },
      ]),
    ).toEqual([]);
  });
});
