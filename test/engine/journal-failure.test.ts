/**
 * The engine does not trade without its journal (issue 13 item 2, "the journal's disk full"): a
 * write that fails with ENOSPC cancels everything and halts with a reason that says so, and the
 * placement whose intent could not be written is never sent. And a shutdown against a venue that
 * no longer answers ends within SHUTDOWN_TIMEOUT_MS, naming the orders that may still rest.
 */
import { describe, expect, it } from 'vitest';
import type { Journal, JournaledOrder, JournalRecord } from '../../src/engine/index.ts';
import { quotingSession, setBook } from './session.ts';

/** A journal on a disk that fills up when told. */
class FillingJournal implements Journal {
  readonly written: JournalRecord[] = [];
  isFull = false;

  append(record: JournalRecord): void {
    if (this.isFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    this.written.push(record);
  }

  unresolvedOrders(): JournaledOrder[] {
    return [];
  }

  compact(): void {}

  close(): void {}
}

describe('the journal on a full disk', () => {
  it('cancels everything and halts, saying why, and never sends the order it could not journal', async () => {
    const journal = new FillingJournal();
    const s = quotingSession({}, { journal });
    const submitted: string[] = [];
    const submit = s.venue.submitOrder.bind(s.venue);
    s.venue.submitOrder = (order) => {
      submitted.push(order.orderId);
      return submit(order);
    };
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);
    const placedBefore = submitted.length;
    journal.isFull = true;
    // The fair price moves: the engine wants new quotes, and their intents cannot be written.
    for (let t = 300; t <= 2_000; t += 100) await setBook(s, t, 1995, 1997);
    const status = s.engine.status();
    expect(status.state).toBe('halted');
    expect(status.haltReason?.code).toBe('JOURNAL_FAILED');
    expect(status.haltReason?.message).toContain('ENOSPC');
    expect(status.haltReason?.message).toContain('journal');
    expect(s.venue.exchange.restingOrders()).toEqual([]);
    // Nothing was placed once the journal failed: every order the exchange saw has an intent.
    expect(submitted).toHaveLength(placedBefore);
    const intents = journal.written.flatMap((record) => (record.t === 'intent' ? [record.orderId] : []));
    expect(intents).toEqual(submitted);
    await s.finish();
  });
});

describe('a shutdown the venue does not answer', () => {
  it('ends within SHUTDOWN_TIMEOUT_MS and names the orders that may still rest', async () => {
    const s = quotingSession({ shutdownTimeoutMs: 4_000 });
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 200, 1999, 2001);
    const resting = s.venue.exchange.restingOrders().map((order) => order.orderId).sort();
    expect(resting).toHaveLength(2);
    // The venue goes dark: every request hangs.
    const hang = (): Promise<never> => new Promise<never>(() => undefined);
    s.venue.cancelAll = hang;
    s.venue.fetchOpenOrders = hang;
    s.venue.fetchOrder = hang;
    s.venue.stop = hang;
    let outcome: Awaited<ReturnType<typeof s.engine.stop>> | undefined;
    let endedAtMs: number | undefined;
    const stopAtMs = s.clock.nowMs();
    void s.engine.stop().then((result) => {
      outcome = result;
      endedAtMs = s.clock.nowMs();
    });
    for (let t = stopAtMs + 100; t <= stopAtMs + 6_000 && outcome === undefined; t += 100) {
      await s.advanceTo(t);
      for (let i = 0; i < 20; i++) await Promise.resolve();
    }
    // It waited for the venue as long as it could (SHUTDOWN_TIMEOUT_MS less the exit's reserve), no longer.
    expect(endedAtMs).toBeDefined();
    expect((endedAtMs ?? Infinity) - stopAtMs).toBeGreaterThanOrEqual(3_000);
    expect((endedAtMs ?? Infinity) - stopAtMs).toBeLessThanOrEqual(4_000);
    expect(outcome?.confirmed).toBe(false);
    expect([...(outcome?.ordersThatMayRest ?? [])].sort()).toEqual(resting);
  });
});
