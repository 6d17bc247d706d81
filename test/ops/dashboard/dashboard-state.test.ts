/**
 * The dashboard's history on a manual clock: bounded rings, samples of the very series /metrics
 * renders (same selectors, same values), the status series no metric carries, and the events the
 * engine's observer reports.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/index.ts';
import { DashboardState, EventRing, SampleRing, STATE_NAMES, type SampleMessage } from '../../../src/ops/dashboard/index.ts';
import { parseMetrics, rig, settle, statusOf } from './support.ts';

describe('the dashboard rings', () => {
  it('keep the newest samples up to their capacity, oldest first, with a gap where a series had no value', () => {
    const ring = new SampleRing(3);
    ring.push(1_000, new Map([['a', 1]]));
    expect(ring.push(2_000, new Map([['a', 2], ['b', 20]]))).toEqual(['b']);
    ring.push(3_000, new Map([['b', 30]]));
    expect(ring.times()).toEqual([1_000, 2_000, 3_000]);
    expect(ring.values('a')).toEqual([1, 2, null]);
    expect(ring.values('b')).toEqual([null, 20, 30]);
    ring.push(4_000, new Map([['a', 4]]));
    ring.push(5_000, new Map([['a', 5]]));
    expect(ring.size).toBe(3);
    expect(ring.times()).toEqual([3_000, 4_000, 5_000]);
    // A lap later the slot of b's 20 holds nothing, not a value from the lap before.
    expect(ring.values('a')).toEqual([null, 4, 5]);
    expect(ring.values('b')).toEqual([30, null, null]);
    expect(ring.latest('a')).toBe(5);
    expect(ring.latest('b')).toBeUndefined();
    expect(ring.values('never')).toEqual([null, null, null]);
  });

  it('keep the last events up to their capacity, oldest first', () => {
    const ring = new EventRing<number>(2);
    expect(ring.toArray()).toEqual([]);
    for (const n of [1, 2, 3]) ring.push(n);
    expect(ring.toArray()).toEqual([2, 3]);
    expect(ring.size).toBe(2);
  });

  it('refuse a capacity that is not a whole number of at least 1, naming it', () => {
    expect(() => new SampleRing(0)).toThrow('sample ring: capacity must be a whole number ≥ 1, got 0');
    expect(() => new EventRing(1.5)).toThrow('event ring: capacity must be a whole number ≥ 1, got 1.5');
  });
});

describe('the dashboard history', () => {
  it('samples on its clock every series of /metrics it shows, keyed by selector, with the value /metrics has', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const r = rig(clock);
    r.status = statusOf();
    r.accountPnl = 1.25;
    r.dashboard.start();
    await settle();
    clock.advance(1_000);
    await settle();
    const snapshot = r.dashboard.snapshot();
    expect(snapshot.seq).toBe(2);
    const pair = snapshot.pairs[0]!;
    expect(pair.timesMs).toEqual([1_700_000_000_000, 1_700_000_001_000]);
    const scraped = parseMetrics(await r.metrics.registry.metrics());
    const metricColumns = pair.columns.filter((column) => column.isMetric);
    expect(metricColumns.length).toBeGreaterThan(25);
    for (const column of metricColumns) {
      expect(scraped.get(column.key), column.key).toBe(column.values.at(-1));
      expect(column.labels['pair']).toBe('ETH/USDC');
    }
    const byKey = new Map(pair.columns.map((column) => [column.key, column.values.at(-1)]));
    expect(byKey.get('akira_mm_pnl_spread_quote{pair="ETH/USDC"}')).toBe(0.9);
    expect(byKey.get('akira_mm_two_sided_uptime_ratio{pair="ETH/USDC"}')).toBe(0.9);
    expect(byKey.get('akira_mm_markout_bps{horizon="1s",pair="ETH/USDC"}')).toBe(1.5);
    // The venue's touch and our best quotes: status series, no metric carries them.
    expect(byKey.get('status_touch_price{side="bid"}')).toBe(2999);
    expect(byKey.get('status_quote_price{side="ask"}')).toBe(3001.5);
    expect(pair.columns.find((column) => column.key === 'status_touch_price{side="bid"}')?.isMetric).toBe(false);
    expect(snapshot.account.columns.find((column) => column.key === 'akira_mm_account_pnl_quote{token="USDC"}')?.values).toEqual([1.25, 1.25]);
    expect(snapshot.intervalMs).toBe(1_000);
  });

  it('shows a pair starting until its engine runs, then its state and why it is paused', async () => {
    const clock = new ManualClock(0);
    const r = rig(clock);
    r.dashboard.start();
    await settle();
    expect(r.dashboard.snapshot().pairs[0]!.state).toEqual({ state: 'starting', reason: null, features: [] });
    r.status = statusOf({ state: 'paused', pauseReason: 'feed down', bids: [], asks: [] });
    clock.advance(1_000);
    await settle();
    const pair = r.dashboard.snapshot().pairs[0]!;
    expect(pair.state).toEqual({ state: 'paused', reason: 'feed down', features: [] });
    const state = pair.columns.find((column) => column.key === 'status_state')!;
    expect(state.values.map((code) => STATE_NAMES[code!])).toEqual(['starting', 'paused']);
    // No quotes resting: our quote series has no value at that sample.
    expect(pair.columns.find((column) => column.key === 'status_quote_price{side="bid"}')).toBeUndefined();
  });

  it("records the engine's fills, pauses and halts at the clock's time, and the account's halt once", async () => {
    const clock = new ManualClock(5_000);
    const r = rig(clock);
    r.status = statusOf();
    const observer = r.dashboard.observerOf(0);
    observer.fill?.(
      { orderId: '0x1', side: 'buy', qtyUnits: 5n * 10n ** 16n, quoteUnits: 150_000_000n, priceUnits: 3_000_000_000n, isMaker: true, timeMs: 1 },
      { baseDeltaUnits: 0n, quoteDeltaUnits: 0n, feeUnits: 0n, feeToken: 'base', feeQuote: 0.03 },
    );
    clock.advance(500);
    observer.paused?.(true, 'dead-man');
    observer.paused?.(false, 'dead-man');
    observer.halted?.('drawdown');
    r.haltReason = 'foreign trade';
    await r.dashboard.sample();
    await r.dashboard.sample();
    const snapshot = r.dashboard.snapshot();
    expect(snapshot.pairs[0]!.events).toEqual([
      { id: 1, kind: 'fill', timeMs: 5_000, side: 'buy', price: 3000, size: 0.05, isMaker: true, feeQuote: 0.03 },
      { id: 2, kind: 'pause', timeMs: 5_500, reason: 'dead-man' },
      { id: 3, kind: 'resume', timeMs: 5_500, reason: 'dead-man' },
      { id: 4, kind: 'halt', timeMs: 5_500, reason: 'drawdown' },
    ]);
    expect(snapshot.account.events).toEqual([{ id: 1, kind: 'halt', timeMs: 5_500, reason: 'foreign trade' }]);
    expect(snapshot.account.state).toEqual({ state: 'halted', reason: 'foreign trade', features: [] });
    expect(() => r.dashboard.observerOf(1)).toThrow('dashboard: no pair #1 (1 pairs)');
  });

  it('holds at most its capacity of samples and events however long it runs', async () => {
    const clock = new ManualClock(0);
    const r = rig(clock, { historySamples: 5, eventsKept: 3 });
    r.status = statusOf();
    r.dashboard.start();
    for (let i = 0; i < 12; i++) {
      r.dashboard.observerOf(0).halted?.(`reason ${i}`);
      clock.advance(1_000);
      await settle();
    }
    const pair = r.dashboard.snapshot().pairs[0]!;
    expect(pair.timesMs).toEqual([8_000, 9_000, 10_000, 11_000, 12_000]);
    expect(pair.columns.every((column) => column.values.length === 5)).toBe(true);
    expect(pair.events.map((event) => (event.kind === 'fill' ? '' : event.reason))).toEqual(['reason 9', 'reason 10', 'reason 11']);
  });

  it('builds sample messages only while someone watches: new series once, events once', async () => {
    const clock = new ManualClock(0);
    const r = rig(clock);
    r.status = statusOf();
    const history = new DashboardState(r.options);
    history.observerOf(0).halted?.('before anyone watched');
    await history.sample();
    const messages: SampleMessage[] = [];
    const unsubscribe = history.subscribe((message) => messages.push(message));
    history.observerOf(0).paused?.(true, 'feed down');
    await history.sample();
    r.status = statusOf({ reference: { market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined, mid: 3001, fair: 3000.9, basisBps: -0.3, divergenceBps: 0.1, ageMs: 40, markouts: { meanBps: [undefined, undefined, undefined], counts: [0, 0, 0] } } });
    await history.sample();
    unsubscribe();
    await history.sample();
    expect(messages.map((message) => message.seq)).toEqual([2, 3]);
    const [first, second] = messages as [SampleMessage, SampleMessage];
    // The series already held were announced by the snapshot; a message names only new ones.
    expect(first.pairs[0]!.columns).toEqual([]);
    expect(first.pairs[0]!.events.map((event) => event.kind)).toEqual(['pause']);
    expect(second.pairs[0]!.events).toEqual([]);
    expect(second.pairs[0]!.state.features).toEqual(['reference']);
    expect(first.pairs[0]!.values['akira_mm_pnl_total_quote{pair="ETH/USDC"}']).toBe(0.75);
    expect(first.account.values['akira_mm_account_pnl_quote{token="USDC"}']).toBe(0);
  });
});
