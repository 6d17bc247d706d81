import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AccountJournal, JournalOwnerError, parseJournal, unresolvedFromRecords } from '../../src/engine/index.ts';

const schedule = (callback: () => void): void => callback();
const OWNER = { venue: 'https://api.layerakira.xyz', account: '0x0123' };

function journalPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'akira-journal-')), 'nested', 'journal.jsonl');
}

describe('AccountJournal', () => {
  it('lists orders that were sent and never finished, across a reopen', () => {
    const path = journalPath();
    const journal = AccountJournal.open(path, OWNER, { schedule }).forPair('ETH/USDC');
    journal.append({ t: 'intent', orderId: '0xa', side: 'buy', price: '2000000000', qty: '100', timeMs: 1 });
    journal.append({ t: 'intent', orderId: '0xb', side: 'sell', price: '2001000000', qty: '100', timeMs: 2 });
    journal.append({ t: 'intent', orderId: '0xc', side: 'sell', price: '2002000000', qty: '100', timeMs: 3 });
    journal.append({ t: 'ack', orderId: '0xb', outcome: 'rejected', timeMs: 4 });
    journal.append({ t: 'cancel', orderId: '0xc', timeMs: 5 });
    journal.close();
    // A crash mid-write leaves a torn last line; it must not hide the records before it.
    appendFileSync(path, '{"t":"done","orderId":"0x');
    const reopened = AccountJournal.open(path, OWNER, { schedule }).forPair('ETH/USDC');
    expect(reopened.unresolvedOrders()).toEqual([
      { orderId: '0xa', side: 'buy', priceUnits: 2_000_000_000n, qtyUnits: 100n, sentAtMs: 1, cancelRequested: false },
      { orderId: '0xc', side: 'sell', priceUnits: 2_002_000_000n, qtyUnits: 100n, sentAtMs: 3, cancelRequested: true },
    ]);
    reopened.append({ t: 'done', orderId: '0xa', status: 'FILLED', timeMs: 6 });
    reopened.compact();
    // The compacted file keeps its owner, the unresolved order and that its cancel was already requested.
    expect(readFileSync(path, 'utf8').split('\n')[0]).toContain('"t":"owner"');
    expect(parseJournal(readFileSync(path, 'utf8')).map((record) => record.t)).toEqual(['intent', 'cancel']);
    expect(reopened.unresolvedOrders().map((order) => order.orderId)).toEqual(['0xc']);
    reopened.close();
    expect(AccountJournal.open(path, OWNER, { schedule }).forPair('ETH/USDC').unresolvedOrders()).toEqual([
      { orderId: '0xc', side: 'sell', priceUnits: 2_002_000_000n, qtyUnits: 100n, sentAtMs: 3, cancelRequested: true },
    ]);
  });

  it('keeps every pair of the account in one file and hands each pair only its own orders', () => {
    const path = journalPath();
    const file = AccountJournal.open(path, OWNER, { schedule });
    const eth = file.forPair('ETH/USDC');
    const strk = file.forPair('STRK/USDC');
    eth.append({ t: 'intent', orderId: '0x1', side: 'buy', price: '1', qty: '1', timeMs: 1 });
    strk.append({ t: 'intent', orderId: '0x2', side: 'sell', price: '1', qty: '1', timeMs: 2 });
    strk.append({ t: 'intent', orderId: '0x3', side: 'sell', price: '1', qty: '1', timeMs: 3 });
    strk.append({ t: 'done', orderId: '0x3', status: 'CANCELLED', timeMs: 4 });
    expect(eth.unresolvedOrders().map((order) => order.orderId)).toEqual(['0x1']);
    expect(strk.unresolvedOrders().map((order) => order.orderId)).toEqual(['0x2']);
    eth.compact();
    // The file stays open until the last pair closes its view.
    eth.close();
    strk.append({ t: 'done', orderId: '0x2', status: 'FILLED', timeMs: 5 });
    strk.close();
    const reopened = AccountJournal.open(path, OWNER, { schedule });
    expect(reopened.pairsWithUnresolvedOrders()).toEqual(['ETH/USDC']);
    expect(reopened.forPair('STRK/USDC').unresolvedOrders()).toEqual([]);
    expect(parseJournal(readFileSync(path, 'utf8')).every((record) => record.pair !== undefined)).toBe(true);
  });

  it('refuses a journal of another venue or account, or one that names no owner, saying whose it is', () => {
    const path = journalPath();
    AccountJournal.open(path, OWNER, { schedule }).forPair('ETH/USDC').close();
    // The same owner written differently (trailing slash, padded account) is the same owner.
    expect(() => AccountJournal.open(path, { venue: 'https://API.layerakira.xyz/', account: `0x${'0'.repeat(60)}0123` }, { schedule }).close()).not.toThrow();
    expect(() => AccountJournal.open(path, { ...OWNER, venue: 'https://api-testnet.layerakira.xyz' }, { schedule })).toThrow(/belongs to account 0x0123 on https:\/\/api.layerakira.xyz, not to 0x0123 on https:\/\/api-testnet/);
    expect(() => AccountJournal.open(path, { ...OWNER, account: '0x999' }, { schedule })).toThrow(JournalOwnerError);
    const legacy = journalPath();
    AccountJournal.open(legacy, OWNER, { schedule }).close();
    writeFileSync(legacy, '{"t":"intent","orderId":"0xa","side":"buy","price":"1","qty":"1","timeMs":1}\n');
    expect(() => AccountJournal.open(legacy, OWNER, { schedule })).toThrow(/names no venue or account/);
  });

  it('stays small over a long run: finished orders leave memory and, every compactEvery appends, the file', () => {
    const path = journalPath();
    const journal = AccountJournal.open(path, OWNER, { schedule, compactEvery: 100 }).forPair('ETH/USDC');
    for (let i = 0; i < 5_000; i++) {
      const orderId = `0x${i.toString(16)}`;
      journal.append({ t: 'intent', orderId, side: 'buy', price: '1', qty: '1', timeMs: i });
      journal.append({ t: 'ack', orderId, outcome: 'accepted', timeMs: i });
      if (i < 4_998) journal.append({ t: 'done', orderId, status: 'CANCELLED', timeMs: i });
    }
    expect(journal.unresolvedOrders().map((order) => order.orderId)).toEqual(['0x1386', '0x1387']);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).length).toBeLessThan(120);
    journal.close();
    expect(AccountJournal.open(path, OWNER, { schedule }).forPair('ETH/USDC').unresolvedOrders().map((order) => order.orderId)).toEqual(['0x1386', '0x1387']);
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
