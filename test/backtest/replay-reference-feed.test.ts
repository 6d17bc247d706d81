/**
 * The backtest's reference market (`backtest --reference`): a recording replayed on the session's
 * manual clock as a `ReferenceFeed`. Messages arrive after the reference latency, a top only while
 * the book is two-sided and not crossed, trades with their aggressor, `stale` after the stale
 * limit without a message and `synchronised` with the next, nothing after `stop()`.
 */
import { describe, expect, it } from 'vitest';
import type { HedgeRecording } from '../../src/backtest/hedge/hedge-recording.ts';
import { ReplayClock } from '../../src/backtest/replay-clock.ts';
import { EventScheduler } from '../../src/backtest/scheduler.ts';
import { ReplayReferenceFeed } from '../../src/backtest/reference/replay-reference-feed.ts';
import { Heard } from '../markets/binance/support.ts';

const DEPTH = 0;
const CLEAR = 1;
const TRADE = 2;
const BUY = 0;
const SELL = 1;

/** A recording in memory: [time ms, kind, side, price ticks (0.01), qty lots (0.001)]. */
function recording(events: readonly (readonly [number, number, number, number, number])[]): HedgeRecording {
  const column = <T extends Float64Array | Uint8Array>(make: new (n: number) => T, index: number): T => {
    const array = new make(events.length);
    events.forEach((event, i) => (array[i] = event[index] as number));
    return array;
  };
  return {
    header: { symbol: 'ETHUSDT', source: 'binance', priceDecimals: 2, qtyDecimals: 3, tick: '0.01', lot: '0.001', records: events.length, market: 'binance:ETHUSDT' },
    rules: { base: 'ETH', quote: 'USDT', isEcosystemBook: false, priceTick: 1n, qtyStep: 1n, minQty: 1n, baseDecimals: 3, quoteDecimals: 2 },
    count: events.length,
    timeMs: column(Float64Array, 0),
    kind: column(Uint8Array, 1),
    side: column(Uint8Array, 2),
    priceTicks: column(Float64Array, 3),
    qtyLots: column(Float64Array, 4),
  };
}

/** What the listener heard, its states as `state:reason@since` for compact assertions. */
const states = (heard: Heard): string[] => heard.statuses.map((status) => `${status.state}:${status.reason ?? ''}@${status.sinceMs}`);

function setUp(events: Parameters<typeof recording>[0]) {
  const clock = new ReplayClock(0);
  const scheduler = new EventScheduler(clock);
  const feed = new ReplayReferenceFeed({ recording: recording(events), clock, scheduler, latencyMs: 50, staleAfterMs: 1_000 });
  const heard = new Heard();
  /** Moves exchange time to `timeMs`: what the session does at each venue event. */
  const to = (timeMs: number): void => {
    feed.scheduleUpTo(timeMs);
    void scheduler.runUntil(timeMs, () => undefined);
  };
  return { clock, feed, heard, to };
}

describe('ReplayReferenceFeed', () => {
  it('delivers each message after its latency, tops while two-sided, trades with their aggressor; stale after the limit, synchronised with the next message', async () => {
    const { clock, feed, heard, to } = setUp([
      [1_000, CLEAR, 0, 0, 0],
      [1_000, DEPTH, BUY, 250_000, 1_000],
      [1_000, DEPTH, SELL, 250_010, 2_000],
      [1_200, TRADE, SELL, 250_000, 100],
      [1_200, DEPTH, BUY, 250_005, 500],
      [5_000, DEPTH, SELL, 250_010, 0],
      [5_000, DEPTH, SELL, 250_020, 1_000],
    ]);
    expect(feed.market).toBe('binance:ETHUSDT');
    await feed.start(heard);
    expect(feed.status()).toMatchObject({ state: 'resyncing', reason: 'starting' });
    to(1_049);
    expect(feed.top()).toBeUndefined();
    to(1_050);
    expect(feed.top()).toMatchObject({ bidPrice: 2500, bidQty: 1, askPrice: 2500.1, askQty: 2, receivedMs: 1_050 });
    expect(feed.status()).toMatchObject({ state: 'synchronised', reason: undefined, lastUpdateMs: 1_050, mid: 2500.05 });
    to(1_250);
    expect(heard.trades).toEqual([{ price: 2500, qty: 0.1, aggressor: 'sell', tradeId: 3, exchangeMs: 1_200, receivedMs: 1_250 }]);
    expect(feed.top()).toMatchObject({ bidPrice: 2500.05, bidQty: 0.5 });
    expect(feed.depth(5)).toMatchObject({ bids: [{ price: 2500.05, qty: 0.5 }, { price: 2500, qty: 1 }], asks: [{ price: 2500.1, qty: 2 }] });
    to(2_249);
    expect(feed.status().state).toBe('synchronised');
    to(2_250);
    expect(feed.status()).toMatchObject({ state: 'stale', reason: 'no-data', sinceMs: 2_250 });
    expect(feed.top()).toBeUndefined();
    expect(feed.depth(5)).toBeUndefined();
    to(5_050);
    expect(feed.status()).toMatchObject({ state: 'synchronised', sinceMs: 5_050 });
    expect(feed.top()).toMatchObject({ askPrice: 2500.2, askQty: 1 });
    expect(states(heard)).toEqual(['resyncing:starting@0', 'synchronised:@1050', 'stale:no-data@2250', 'synchronised:@5050']);
    expect(heard.tops.map((top) => top.receivedMs)).toEqual([1_050, 1_250, 5_050]);
    await feed.stop();
    expect(feed.status()).toMatchObject({ state: 'stopped', reason: 'stopped' });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('reports no top while the book is one-sided or crossed (still starting before the first usable one), and counts the rebuild', async () => {
    const { feed, heard, to } = setUp([
      [1_000, DEPTH, BUY, 250_000, 1_000],
      [1_100, DEPTH, SELL, 250_010, 1_000],
      [1_200, DEPTH, BUY, 250_020, 1_000],
      [1_300, DEPTH, BUY, 250_020, 0],
    ]);
    await feed.start(heard);
    to(1_050);
    expect(feed.top()).toBeUndefined();
    to(1_150);
    expect(feed.top()).toMatchObject({ bidPrice: 2500, askPrice: 2500.1 });
    to(1_250);
    expect(feed.top()).toBeUndefined();
    expect(feed.status()).toMatchObject({ state: 'resyncing', reason: 'crossed-book' });
    expect(feed.status().counters.resyncs).toBe(1);
    to(1_350);
    expect(feed.status().state).toBe('synchronised');
    expect(states(heard).map((state) => state.split('@')[0])).toEqual(['resyncing:starting', 'synchronised:', 'resyncing:crossed-book', 'synchronised:']);
    await feed.stop();
  });
});
