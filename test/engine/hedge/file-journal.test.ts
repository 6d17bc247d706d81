import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileHedgeJournal, type HedgeJournalRecord } from '../../../src/engine/index.ts';

const fill = (orderId: string): HedgeJournalRecord => ({ t: 'fill', orderId, cum: '5', qty: '5', delta: '5', timeMs: 1 });

describe('the hedge journal file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const journalPath = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'hedge-journal-'));
    dirs.push(dir);
    return join(dir, 'pair.hedge');
  };

  it('reads its records back from the file, after a reopen too, holding none in memory', () => {
    const path = journalPath();
    const journal = new FileHedgeJournal(path);
    journal.append(fill('a'));
    journal.append(fill('b'));
    expect(journal.records()).toEqual([fill('a'), fill('b')]);
    journal.close();
    const reopened = new FileHedgeJournal(path);
    expect(reopened.records()).toEqual([fill('a'), fill('b')]);
    reopened.close();
  });

  it('ends a line torn by a crash before the next record, so no record after it is lost', () => {
    const path = journalPath();
    const journal = new FileHedgeJournal(path);
    journal.append(fill('a'));
    journal.close();
    appendFileSync(path, '{"t":"fill","orderId":"to');
    const reopened = new FileHedgeJournal(path);
    reopened.append(fill('c'));
    expect(reopened.records()).toEqual([fill('a'), fill('c')]);
    reopened.close();
    expect(readFileSync(path, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(3);
  });
});
