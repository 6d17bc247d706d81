/**
 * The comparison of `akira-mm parity` on sessions made by hand: fills matched one to one by side,
 * price and nearest time (each used once), and each unmatched fill's cause read from the other
 * side's orders; the PnL parts and markouts measured from the fills and the mid alike for both.
 */
import { describe, expect, it } from 'vitest';
import { compareSessions, midAt, readSessionTrace, type MidSeries, type SessionTrace, type TraceFill, type TraceOrder } from '../../../src/backtest/parity/index.ts';

const TICK = 0.01;
const TOLERANCE = { timeMs: 1_000, ticks: 0, tick: TICK };
/** A flat mid of 100 from 0 to 200 s, 101 from 200 s on. */
const MIDS: MidSeries = { timesMs: [0, 200_000], mids: [100, 101] };

function order(orderId: string, side: 'buy' | 'sell', price: number, sentMs: number, doneMs?: number): TraceOrder {
  return { orderId, side, price, qty: 1, sentMs, ackMs: sentMs, accepted: true, doneMs };
}

function fill(orderId: string, side: 'buy' | 'sell', price: number, timeMs: number, feeQuote = 0.01): TraceFill {
  return { orderId, side, price, qty: 1, timeMs, feeQuote, maker: true };
}

function session(orders: TraceOrder[], fills: TraceFill[]): SessionTrace {
  return { pair: 'ETH/USDC', orders, fills, startMs: 0, endMs: 300_000, ackLatenciesMs: orders.map(() => 0) };
}

describe('parity comparison', () => {
  it('matches by side, price and the nearest time, each fill once, and names the cause of the rest', () => {
    const live = session(
      [order('a', 'buy', 99.9, 1_000, 10_500), order('b', 'sell', 100.1, 1_000), order('c', 'buy', 99.5, 50_000, 60_001), order('d', 'buy', 98, 100_000, 100_500)],
      [fill('a', 'buy', 99.9, 10_000), fill('c', 'buy', 99.5, 60_000), fill('d', 'buy', 98, 100_400)],
    );
    const backtest = session(
      // a at 99.9 filled 300 ms later; b rests at 100.1 the whole time and fills; c's twin rests at 99.5 but is not hit; 99.6 is a tick off d's price, placed long before
      [order('A', 'buy', 99.9, 1_000, 10_400), order('B', 'sell', 100.1, 1_000), order('C', 'buy', 99.5, 40_000), order('E', 'buy', 98.01, 90_000)],
      [fill('A', 'buy', 99.9, 10_300), fill('B', 'sell', 100.1, 150_000)],
    );
    const result = compareSessions(live, backtest, MIDS, TOLERANCE);
    expect(result.matched).toBe(1);
    expect(result.matchedShare).toEqual({ live: 1 / 3, backtest: 1 / 2 });
    expect(result.matchedOffset.meanMs).toBe(300);
    const causes = result.unmatched.map((entry) => [entry.side, entry.fill.orderId, entry.cause]);
    expect(causes).toEqual([
      ['live', 'c', 'queue-position'],
      ['live', 'd', 'fees'],
      // live's b rested at 100.1 from 1 s on, never filled
      ['backtest', 'B', 'queue-position'],
    ]);
    expect(result.live.orders).toEqual({ buy: 3, sell: 1 });
    expect(result.backtest.fills).toEqual({ buy: 1, sell: 1 });
  });

  it('calls a fill latency when the other side had the order at another moment, unseen when it had none near', () => {
    const live = session([order('a', 'buy', 99.9, 5_000, 8_000), order('z', 'sell', 105, 1_000)], [fill('a', 'buy', 99.9, 7_900), fill('z', 'sell', 105, 20_000)]);
    const backtest = session([order('A', 'buy', 99.9, 8_400)], []);
    const result = compareSessions(live, backtest, MIDS, TOLERANCE);
    expect(result.unmatched.map((entry) => [entry.fill.orderId, entry.cause, entry.offsetMs])).toEqual([
      ['a', 'latency', 500],
      ['z', 'unseen', undefined],
    ]);
  });

  it('splits PnL into spread, inventory and fees from the fills and the mid, and marks out at 1 s, 10 s and 60 s', () => {
    // Bought 1 at 99.9 with the mid at 100; the mid is 101 from 200 s, the end.
    const live = session([order('a', 'buy', 99.9, 0)], [fill('a', 'buy', 99.9, 190_000, 0.02)]);
    const result = compareSessions(live, session([], []), MIDS, TOLERANCE);
    expect(result.live.pnl.spread).toBeCloseTo(0.1, 9);
    expect(result.live.pnl.inventory).toBeCloseTo(1, 9);
    expect(result.live.pnl.fees).toBeCloseTo(0.02, 9);
    expect(result.live.pnl.total).toBeCloseTo(0.1 + 1 - 0.02, 9);
    expect(result.live.markoutsBps['1s']).toBeCloseTo((0.1 / 99.9) * 10_000, 6);
    expect(result.live.markoutsBps['60s']).toBeCloseTo((1.1 / 99.9) * 10_000, 6);
    expect(result.backtest.ordersPerFill).toBeNull();
    expect(midAt(MIDS, 199_999)).toBe(100);
  });

  it('reads a journal: orders with their acks and ends, fills with fees, the measured latency', () => {
    const lines = [
      { t: 'owner', venue: 'http://x', account: '0x1', version: 2 },
      { t: 'start', timeMs: 1_000, pair: 'ETH/USDC' },
      { t: 'intent', orderId: '0xa', side: 'buy', price: '99900000', qty: '1000000000000000000', timeMs: 1_000, pair: 'ETH/USDC' },
      { t: 'ack', orderId: '0xa', outcome: 'accepted', timeMs: 1_080, pair: 'ETH/USDC' },
      { t: 'fill', orderId: '0xa', side: 'buy', price: '99900000', qty: '1000000000000000000', quote: '99900000', fee: '19980', feeToken: 'quote', feeQuote: 0.01998, maker: true, timeMs: 5_000, atMs: 5_010, pair: 'ETH/USDC' },
      { t: 'done', orderId: '0xa', status: 'FILLED', timeMs: 5_010, pair: 'ETH/USDC' },
      { t: 'intent', orderId: '0xb', side: 'sell', price: '100100000', qty: '1000000000000000000', timeMs: 2_000, pair: 'STRK/USDC' },
      { t: 'stop', timeMs: 9_000, pair: 'ETH/USDC' },
    ];
    const trace = readSessionTrace(lines.map((line) => JSON.stringify(line)).join('\n'), 'ETH/USDC', { baseDecimals: 18, quoteDecimals: 6 });
    expect(trace.orders).toEqual([{ orderId: '0xa', side: 'buy', price: 99.9, qty: 1, sentMs: 1_000, ackMs: 1_080, accepted: true, doneMs: 5_010 }]);
    expect(trace.fills).toEqual([{ orderId: '0xa', side: 'buy', timeMs: 5_000, price: 99.9, qty: 1, feeQuote: 0.01998, maker: true }]);
    expect(trace.ackLatenciesMs).toEqual([80]);
    expect([trace.startMs, trace.endMs]).toEqual([1_000, 9_000]);
  });
});
