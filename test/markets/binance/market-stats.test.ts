/**
 * The Binance double's statistics of the replayed trades, exactly: the trade tape's aggregates,
 * 5-minute average and day, klines from its minute candles, the 24 h ticker's figures, and the
 * microsecond forms of answers and events.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/index.ts';
import { klineRows, parseInterval, parseTimeZone, type KlineInterval } from '../../../src/markets/binance/server/klines.ts';
import { MarketService } from '../../../src/markets/binance/server/market-service.ts';
import { restParams } from '../../../src/markets/binance/server/order-requests.ts';
import { answerInUnit, eventInUnit, parseTimeUnit, timeParamMs } from '../../../src/markets/binance/server/time-unit.ts';
import { TradeTape, type TradeEvent } from '../../../src/markets/binance/server/trade-tape.ts';

const T0 = Date.UTC(2024, 7, 8, 0, 0, 0);
const MINUTE = 60_000;
const units = (text: string): bigint => BigInt(Math.round(Number(text) * 1e8));

let nextId = 1;
function trade(timeMs: number, price: string, qty: string, options: { buyerIsMaker?: boolean; recordedTradeMs?: number } = {}): TradeEvent {
  return { tradeId: nextId++, price, qty, tradeMs: timeMs, recordedTradeMs: options.recordedTradeMs ?? timeMs, buyerIsMaker: options.buyerIsMaker ?? false };
}

function interval(text: string): KlineInterval {
  const parsed = parseInterval(text);
  if ('code' in parsed) throw new Error(parsed.msg);
  return parsed;
}

describe('the trade tape', () => {
  it('aggregates consecutive trades of one taker order at one price, closed by the next other message', () => {
    nextId = 100;
    const tape = new TradeTape();
    expect(tape.add(trade(T0, '2000.00000000', '0.10000000', { recordedTradeMs: 5 }))).toBeUndefined();
    expect(tape.add(trade(T0, '2000.00000000', '0.20000000', { recordedTradeMs: 5 }))).toBeUndefined();
    // Another price: the first aggregate closes with both trades.
    expect(tape.add(trade(T0, '2000.01000000', '0.30000000', { recordedTradeMs: 5 }))).toEqual({ id: 1, price: units('2000'), qty: units('0.3'), firstId: 100, lastId: 101, timeMs: T0, isBuyerMaker: false });
    // Same price, another side: closes too.
    expect(tape.add(trade(T0, '2000.01000000', '0.40000000', { recordedTradeMs: 5, buyerIsMaker: true }))?.id).toBe(2);
    expect(tape.flush()).toMatchObject({ id: 3, firstId: 103, lastId: 103 });
    expect(tape.flush()).toBeUndefined();
    expect(tape.aggregates().map((aggregate) => aggregate.id)).toEqual([1, 2, 3]);
    expect(tape.recent(2).map((item) => item.id)).toEqual([102, 103]);
  });

  it('averages the last 5 minutes by volume, and keeps the last price when none traded in them', () => {
    const tape = new TradeTape();
    tape.add(trade(T0, '1000.00000000', '1.00000000'));
    tape.add(trade(T0 + 4 * MINUTE, '2000.00000000', '1.00000000'));
    tape.add(trade(T0 + 4 * MINUTE, '3000.00000000', '2.00000000'));
    // (1000 + 2000 + 6000) / 4
    expect(tape.averagePrice(T0 + 4 * MINUTE)).toEqual({ price: units('2250'), closeMs: T0 + 4 * MINUTE });
    // The first trade leaves the window 5 minutes after it: (2000 + 6000) / 3, rounded down.
    expect(tape.averagePrice(T0 + 5 * MINUTE)?.price).toBe(266_666_666_666n);
    expect(tape.averagePrice(T0 + 10 * MINUTE)).toEqual({ price: units('3000'), closeMs: T0 + 4 * MINUTE });
  });

  it('sums the day from whole minutes and knows the last price before it', () => {
    nextId = 1;
    const tape = new TradeTape();
    tape.add(trade(T0 - 2 * MINUTE, '900.00000000', '5.00000000'));
    tape.add(trade(T0 + 30_000, '1000.00000000', '1.00000000'));
    tape.add(trade(T0 + 61_000, '1100.00000000', '2.00000000'));
    tape.add(trade(T0 + 62_000, '950.00000000', '1.00000000'));
    const now = T0 + 86_400_000 + 45_000;
    // The day opens at the minute 24 h before now: T0; the trade before it is its previous close.
    expect(tape.day(now)).toEqual({
      stats: { openMs: T0, open: units('1000'), high: units('1100'), low: units('950'), close: units('950'), volume: units('4'), quoteVolume: units('4150'), firstId: 2, lastId: 4, count: 3 },
      closeBefore: units('900'),
    });
    expect(tape.day(now + 2 * 86_400_000).stats).toBeUndefined();
  });
});

describe('klines from minute candles', () => {
  const tape = new TradeTape();
  tape.add(trade(T0 + 10_000, '100.00000000', '1.00000000'));
  tape.add(trade(T0 + 20_000, '110.00000000', '1.00000000', { buyerIsMaker: true }));
  tape.add(trade(T0 + 3 * MINUTE + 5_000, '90.00000000', '2.00000000'));
  const query = { offsetMs: 0, startTime: undefined, endTime: undefined, limit: 500, nowMs: T0 + 4 * MINUTE + 1 };

  it('prints one row per interval, quiet ones at the previous close with no volume, the open one included', () => {
    const rows = klineRows(tape.candles(), { ...query, interval: interval('1m') });
    expect(rows.map((row) => [row[0] - T0, row[1], row[4], row[5], row[8]])).toEqual([
      [0, '100.00000000', '110.00000000', '2.00000000', 2],
      [MINUTE, '110.00000000', '110.00000000', '0.00000000', 0],
      [2 * MINUTE, '110.00000000', '110.00000000', '0.00000000', 0],
      [3 * MINUTE, '90.00000000', '90.00000000', '2.00000000', 1],
      [4 * MINUTE, '90.00000000', '90.00000000', '0.00000000', 0],
    ]);
    expect(rows[0]).toEqual([T0, '100.00000000', '110.00000000', '100.00000000', '110.00000000', '2.00000000', T0 + MINUTE - 1, '210.00000000', 2, '1.00000000', '100.00000000', '0']);
    const fives = klineRows(tape.candles(), { ...query, interval: interval('5m') });
    expect(fives.map((row) => [row[0], row[2], row[3], row[5], row[8]])).toEqual([[T0, '110.00000000', '90.00000000', '4.00000000', 3]]);
    expect(klineRows(tape.candles(), { ...query, interval: interval('1m'), limit: 2 }).map((row) => row[0] - T0)).toEqual([3 * MINUTE, 4 * MINUTE]);
    expect(klineRows(tape.candles(), { ...query, interval: interval('1m'), startTime: T0 + MINUTE, limit: 2 }).map((row) => row[0] - T0)).toEqual([MINUTE, 2 * MINUTE]);
  });

  it('starts weeks on Mondays, months on the 1st, and moves bounds by the time zone', () => {
    // 2024-08-08 was a Thursday: its week began on Monday 2024-08-05.
    expect(interval('1w').start(T0)).toBe(Date.UTC(2024, 7, 5));
    expect(interval('1M').start(T0)).toBe(Date.UTC(2024, 7, 1));
    expect(interval('1M').next(Date.UTC(2024, 0, 1))).toBe(Date.UTC(2024, 1, 1));
    expect(interval('1M').next(Date.UTC(2024, 1, 1))).toBe(Date.UTC(2024, 2, 1));
    expect(parseTimeZone('5:45')).toBe(5 * 3_600_000 + 45 * MINUTE);
    expect(parseTimeZone('-1')).toBe(-3_600_000);
    expect(parseTimeZone('15')).toMatchObject({ code: -1100 });
    const days = klineRows(tape.candles(), { ...query, interval: interval('1d'), offsetMs: 8 * 3_600_000 });
    expect(days.map((row) => [row[0], row[6]])).toEqual([[T0 - 8 * 3_600_000, T0 + 16 * 3_600_000 - 1]]);
    expect(parseInterval('1s')).toMatchObject({ code: -1020, msg: 'This operation is not supported.' });
    expect(parseInterval('2m')).toMatchObject({ code: -1120, msg: 'Invalid interval.' });
  });
});

describe('the 24 h ticker', () => {
  it('prints the change, its percent rounded to 3 places, the volume-weighted price and the previous close', () => {
    nextId = 1;
    const tape = new TradeTape();
    tape.add(trade(T0 - MINUTE, '2.00000000', '1.00000000'));
    tape.add(trade(T0 + 86_400_000, '3.00000000', '1.00000000'));
    tape.add(trade(T0 + 86_400_000 + 1_000, '2.96000000', '2.00000000'));
    const clock = new ManualClock(T0 + 86_400_000 + 2_000);
    const book = { lastUpdateId: 1, bids: [['2.99000000', '1.00000000'] as const], asks: [['3.01000000', '4.00000000'] as const] };
    const market = new MarketService({ symbol: 'ETHUSDT', rules: { tickSize: '0.00000001', stepSize: '0.00000001' }, tape, snapshot: () => book }, clock, { wait: () => Promise.resolve() });
    const answer = market.dayTicker(restParams(new URLSearchParams({ symbol: 'ETHUSDT' })));
    expect(answer).toMatchObject({
      status: 200,
      body: {
        priceChange: '-0.04000000',
        // -0.04 / 3 × 100 = -1.3333…
        priceChangePercent: '-1.333',
        // (3 + 2 × 2.96) / 3, rounded down.
        weightedAvgPrice: '2.97333333',
        prevClosePrice: '2.00000000',
        lastPrice: '2.96000000',
        lastQty: '2.00000000',
        bidPrice: '2.99000000',
        askQty: '4.00000000',
        openPrice: '3.00000000',
        volume: '3.00000000',
        quoteVolume: '8.92000000',
        firstId: 2,
        lastId: 3,
        count: 2,
      },
    });
    clock.advance(3 * 86_400_000);
    expect(market.dayTicker(restParams(new URLSearchParams({ symbol: 'ETHUSDT', type: 'MINI' })))).toMatchObject({ body: { openPrice: '0.00000000', firstId: -1, lastId: -1, count: 0 } });
    expect(market.dayTicker(restParams(new URLSearchParams({ symbol: 'ETHUSDT', type: 'HALF' })))).toMatchObject({ code: -1100 });
  });
});

describe('time units', () => {
  it('reads every spelling Binance accepts and times in ms or µs', () => {
    expect([parseTimeUnit(undefined), parseTimeUnit('microsecond'), parseTimeUnit('MILLISECOND'), parseTimeUnit('Microsecond')]).toEqual(['MILLISECOND', 'MICROSECOND', 'MILLISECOND', undefined]);
    expect([timeParamMs(1_723_075_200_000), timeParamMs(1_723_075_200_000_123)]).toEqual([1_723_075_200_000, 1_723_075_200_000]);
  });

  it('prints the time fields of answers, kline rows and events in µs, and leaves ids alone', () => {
    expect(answerInUnit({ serverTime: 5, orderId: 7, fills: [{ time: 2 }] }, 'MICROSECOND')).toEqual({ serverTime: 5_000, orderId: 7, fills: [{ time: 2_000 }] });
    expect(answerInUnit([[1, 'o', 'h', 'l', 'c', 'v', 2, 'q', 3, 'b', 'B', '0']], 'MICROSECOND')).toEqual([[1_000, 'o', 'h', 'l', 'c', 'v', 2_000, 'q', 3, 'b', 'B', '0']]);
    expect(eventInUnit({ e: 'depthUpdate', E: 1, U: 2, u: 3 }, 'MICROSECOND')).toEqual({ e: 'depthUpdate', E: 1_000, U: 2, u: 3 });
    expect(eventInUnit({ e: 'outboundAccountPosition', E: 1, u: 3 }, 'MICROSECOND')).toEqual({ e: 'outboundAccountPosition', E: 1_000, u: 3_000 });
    expect(eventInUnit({ e: 'trade', E: 1, T: 2, t: 9 }, 'MILLISECOND')).toEqual({ e: 'trade', E: 1, T: 2, t: 9 });
  });
});
