import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Side, TickerRules } from '../../../src/core/index.ts';
import { KIND, SIDE_BUY, SIDE_SELL } from '../../../src/backtest/data/format.ts';
import { createRecordedEventSource } from '../../../src/backtest/data/source.ts';
import { parseUtcTime, recordingSpan, shareWindow, timeWindow, windowedSource } from '../../../src/backtest/data/window.ts';
import { RecordingWriter } from '../../../src/backtest/data/writer.ts';
import type { RecordedEventHandler } from '../../../src/backtest/run.ts';
import { tempDir } from './fixtures.ts';

const dir = tempDir('window');
const RULES: TickerRules = { base: 'ETH', quote: 'USDT', isEcosystemBook: true, priceTick: 10_000n, qtyStep: 10n ** 14n, minQty: 10n ** 14n, baseDecimals: 18, quoteDecimals: 6 };
const MS = 1_000_000n;

/** Ten seconds, 1000 to 1010 s: a book built in the first seconds, trades and changes after. */
const path = ((): string => {
  const file = join(dir, 'ten-seconds.data');
  const writer = new RecordingWriter(file, { symbol: 'ETHUSDT', source: 'test', priceDecimals: 8, qtyDecimals: 8 });
  const at = (s: number): bigint => BigInt(s) * 1_000n * MS;
  writer.append({ kind: KIND.clear, exchNs: at(1_000), localNs: 1n });
  writer.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: at(1_000), localNs: 1n, price: 268_380_000_000, qty: 100_000_000 });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, exchNs: at(1_000), localNs: 1n, price: 268_390_000_000, qty: 100_000_000 });
  writer.append({ kind: KIND.trade, side: SIDE_SELL, exchNs: at(1_002), localNs: 2n, price: 268_380_000_000, qty: 10_000 });
  writer.append({ kind: KIND.gasPrice, exchNs: at(1_003), localNs: 3n, aux1: 7n });
  // Before the window: a level added, one removed, the bid changed.
  writer.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: at(1_004), localNs: 4n, price: 268_370_000_000, qty: 200_000_000 });
  writer.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: at(1_004), localNs: 4n, price: 268_380_000_000, qty: 0 });
  writer.append({ kind: KIND.trade, side: SIDE_BUY, exchNs: at(1_006), localNs: 6n, price: 268_390_000_000, qty: 10_000 });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, exchNs: at(1_007), localNs: 7n, price: 268_400_000_000, qty: 50_000_000 });
  writer.append({ kind: KIND.trade, side: SIDE_SELL, exchNs: at(1_009), localNs: 9n, price: 268_370_000_000, qty: 10_000 });
  writer.append({ kind: KIND.depth, side: SIDE_SELL, exchNs: at(1_010), localNs: 10n, price: 268_390_000_000, qty: 0 });
  writer.close();
  return file;
})();

function recorder(): { handler: RecordedEventHandler; events: string[] } {
  const events: string[] = [];
  let t = Number.NaN;
  const handler: RecordedEventHandler = {
    advance: (time: number) => {
      t = time;
      return undefined;
    },
    depth: (side: Side, price: number, qty: number) => void events.push(`${t / 1000} depth ${side} ${price} ${qty}`),
    clear: () => void events.push(`${t / 1000} clear`),
    trade: (side: Side | undefined, price: number, qty: number) => void events.push(`${t / 1000} trade ${side ?? '?'} ${price} ${qty}`),
    gasPrice: (units: bigint) => void events.push(`${t / 1000} gas ${units}`),
  };
  return { handler, events };
}

describe('a time window of a recording', () => {
  it('spans from the first record to the last, and shares of it are times within it', () => {
    const span = recordingSpan([path]);
    expect(span).toEqual({ firstMs: 1_000_000, lastMs: 1_010_000 });
    expect(shareWindow(span, 0.5, 1)).toEqual({ fromMs: 1_005_000, toMs: 1_010_000 });
    expect(shareWindow(span, 0, 0.25)).toEqual({ fromMs: 1_000_000, toMs: 1_002_500 });
    expect(() => shareWindow(span, 0.5, 0.5)).toThrow(RangeError);
  });

  it('starts with the book as it stood at the window, the last gas price, and none of the trades before it', async () => {
    const { handler, events } = recorder();
    const source = windowedSource(createRecordedEventSource([path], RULES), shareWindow(recordingSpan([path]), 0.5, 1));
    const count = await source.replay(handler);
    expect(events).toEqual([
      '1006 depth buy 268370 20000',
      '1006 depth sell 268390 10000',
      '1006 gas 7',
      '1006 trade buy 268390 1',
      '1007 depth sell 268400 5000',
      '1009 trade sell 268370 1',
      '1010 depth sell 268390 0',
    ]);
    expect(count).toBe(events.length);
  });

  it('stops at the end of the window, the records after it unread', async () => {
    const { handler, events } = recorder();
    const source = windowedSource(createRecordedEventSource([path], RULES), shareWindow(recordingSpan([path]), 0, 0.5));
    expect(await source.replay(handler)).toBe(7);
    expect(events).toEqual([
      '1000 clear',
      '1000 depth buy 268380 10000',
      '1000 depth sell 268390 10000',
      '1002 trade sell 268380 1',
      '1003 gas 7',
      '1004 depth buy 268370 20000',
      '1004 depth buy 268380 0',
    ]);
  });

  it('waits for what the handler returns before the next event', async () => {
    const order: string[] = [];
    const slow = (label: string): Promise<void> => new Promise((resolve) => void Promise.resolve().then(() => { order.push(label); resolve(); }));
    const handler: RecordedEventHandler = {
      advance: () => undefined,
      depth: (side) => slow(`depth ${side}`),
      clear: () => undefined,
      trade: (side) => slow(`trade ${side ?? '?'}`),
      gasPrice: () => slow('gas'),
    };
    await windowedSource(createRecordedEventSource([path], RULES), shareWindow(recordingSpan([path]), 0.5, 1)).replay(handler);
    expect(order).toEqual(['depth buy', 'depth sell', 'gas', 'trade buy', 'depth sell', 'trade sell', 'depth sell']);
  });

  it('cuts by exchange time: a bound left out is the span\'s own, and a window reaching outside the span is refused with both in UTC', () => {
    const span = recordingSpan([path]);
    expect(timeWindow(span, { fromMs: 1_006_000 })).toEqual({ fromMs: 1_006_000, toMs: 1_010_000 });
    expect(timeWindow(span, { toMs: 1_004_500 })).toEqual({ fromMs: 1_000_000, toMs: 1_004_500 });
    expect(timeWindow(span)).toEqual({ fromMs: 1_000_000, toMs: 1_010_000 });
    const spans = 'the recording spans 1970-01-01T00:16:40.000Z → 1970-01-01T00:16:50.000Z';
    expect(() => timeWindow(span, { fromMs: 999_999 })).toThrow(`the window 1970-01-01T00:16:39.999Z → 1970-01-01T00:16:50.000Z reaches outside the recording: ${spans}`);
    expect(() => timeWindow(span, { toMs: 1_010_001 })).toThrow(/reaches outside the recording/);
    expect(() => timeWindow(span, { fromMs: 1_011_000 })).toThrow(/reaches outside the recording/);
    expect(() => timeWindow(span, { fromMs: 1_005_000, toMs: 1_005_000 })).toThrow(/is empty: its start must come before its end/);
  });

  it('starts trading at a time inside the recording on the book as it stood then, as a share at the same time does', async () => {
    const byTime = recorder();
    const byShare = recorder();
    await windowedSource(createRecordedEventSource([path], RULES), timeWindow(recordingSpan([path]), { fromMs: 1_005_000 })).replay(byTime.handler);
    await windowedSource(createRecordedEventSource([path], RULES), shareWindow(recordingSpan([path]), 0.5, 1)).replay(byShare.handler);
    expect(byTime.events[0]).toBe('1006 depth buy 268370 20000');
    expect(byTime.events).toEqual(byShare.events);
  });

  it.each([
    ['2024-07-24T16:00:00Z', Date.UTC(2024, 6, 24, 16)],
    ['2024-07-24T16:00:00', Date.UTC(2024, 6, 24, 16)],
    ['2024-07-24 16:00', Date.UTC(2024, 6, 24, 16)],
    ['2024-07-24', Date.UTC(2024, 6, 24)],
    ['2024-07-24T16:00:00.25Z', Date.UTC(2024, 6, 24, 16, 0, 0, 250)],
    ['2024-07-24T18:00+02:00', Date.UTC(2024, 6, 24, 16)],
    ['2024-07-24T11:30:00-0430', Date.UTC(2024, 6, 24, 16)],
  ])('reads %s as UTC (a time without a zone too, whatever the machine\'s zone)', (text, ms) => {
    expect(parseUtcTime(text)).toBe(ms);
  });

  it.each(['2024-02-30T00:00:00Z', '2024-07-24T24:00:00Z', '24/07/2024', '1721836800000', '2024-07-24T16:00:00Q', ''])('refuses %j, naming it', (text) => {
    expect(() => parseUtcTime(text)).toThrow(`${text} is not a UTC time: expected ISO 8601`);
  });
});
