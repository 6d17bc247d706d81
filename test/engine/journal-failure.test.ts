/**
 * The engine does not trade without its journal (issue 13 item 2, "the journal's disk full"): a
 * write that fails with ENOSPC cancels everything and halts with a reason that says so, and the
 * placement whose intent could not be written is never sent. And a shutdown against a venue that
 * no longer answers ends within SHUTDOWN_TIMEOUT_MS, naming the orders that may still rest.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredQuote, MarketView, Strategy } from '../../src/core/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../src/backtest/session.ts';
import { DEFAULT_ENGINE_SETTINGS, type Journal, type JournaledOrder, type JournalRecord } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const fixed: Strategy = {
  name: 'fixed',
  quote: (view: MarketView): DesiredQuote[] =>
    view.fair === undefined
      ? []
      : [
          { side: 'buy', price: view.fair - 0.5, size: 0.1, level: 0 },
          { side: 'sell', price: view.fair + 0.5, size: 0.1, level: 0 },
        ],
};

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

function session(journal: FillingJournal | undefined, shutdownTimeoutMs = 10_000): BacktestSession {
  return new BacktestSession({
    venue: {
      rules: ETH_USDC,
      makerFeePbips: 0,
      takerFeePbips: 0,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: 10n ** 13n,
      quotePerStrk: 0.5,
      latency: constantLatency(5),
      feedLatencyMs: 0,
      queue: riskAverseQueue,
      initialBase: eth(1),
      initialQuote: usdc(5_000),
    },
    strategy: fixed,
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 0, maxOrderAgeMs: 0, presignTicks: 0, shutdownTimeoutMs },
    startMs: 0,
    ...(journal === undefined ? {} : { journal }),
  });
}

async function book(s: BacktestSession, t: number, bid: number, ask: number): Promise<void> {
  await s.advanceTo(t);
  s.clear();
  s.depth('buy', Math.round(bid * 100), 10_000);
  s.depth('sell', Math.round(ask * 100), 10_000);
  s.endOfMessage();
  if (s.needsFlush()) await s.flush();
}

describe('the journal on a full disk', () => {
  it('cancels everything and halts, saying why, and never sends the order it could not journal', async () => {
    const journal = new FillingJournal();
    const s = session(journal);
    const submitted: string[] = [];
    const submit = s.venue.submitOrder.bind(s.venue);
    s.venue.submitOrder = (order) => {
      submitted.push(order.orderId);
      return submit(order);
    };
    await s.start();
    await book(s, 100, 1999, 2001);
    await book(s, 200, 1999, 2001);
    expect(s.venue.exchange.restingOrders()).toHaveLength(2);
    const placedBefore = submitted.length;
    journal.isFull = true;
    // The fair price moves: the engine wants new quotes, and their intents cannot be written.
    for (let t = 300; t <= 2_000; t += 100) await book(s, t, 1995, 1997);
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
    const s = session(undefined, 4_000);
    await s.start();
    await book(s, 100, 1999, 2001);
    await book(s, 200, 1999, 2001);
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
