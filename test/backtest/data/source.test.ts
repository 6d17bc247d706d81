import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Side, TickerRules } from '../../../src/core/index.ts';
import { KIND, SIDE_BUY, SIDE_NONE, SIDE_SELL } from '../../../src/backtest/data/format.ts';
import { createRecordedEventSource } from '../../../src/backtest/data/source.ts';
import { copyOnReceiveClock } from '../../../src/backtest/data/receive-clock.ts';
import { readRecordingHeader } from '../../../src/backtest/data/reader.ts';
import { RecordingWriter } from '../../../src/backtest/data/writer.ts';
import type { RecordedEventHandler } from '../../../src/backtest/run.ts';
import { tempDir } from './fixtures.ts';

const dir = tempDir('source');
/** ETH/USDT on LayerAkira: 0.01 USDT tick (6 decimals), 0.0001 ETH step (18 decimals). */
const RULES: TickerRules = { base: 'ETH', quote: 'USDT', isEcosystemBook: true, priceTick: 10_000n, qtyStep: 10n ** 14n, minQty: 10n ** 14n, baseDecimals: 18, quoteDecimals: 6 };
const MS = 1_000_000n;

function recording(name: string, write: (writer: RecordingWriter) => void): string {
  const path = join(dir, name);
  const writer = new RecordingWriter(path, { symbol: 'ETHUSDT', source: 'test', priceDecimals: 8, qtyDecimals: 8 });
  write(writer);
  writer.close();
  return path;
}

function recorder(): { handler: RecordedEventHandler; events: string[] } {
  const events: string[] = [];
  let t = Number.NaN;
  const handler: RecordedEventHandler = {
    advance: (time: number) => {
      expect(time).toBeGreaterThan(Number.isNaN(t) ? -Infinity : t);
      t = time;
      return undefined;
    },
    depth: (side: Side, price: number, qty: number) => void events.push(`${t} depth ${side} ${price} ${qty}`),
    clear: () => void events.push(`${t} clear`),
    trade: (side: Side | undefined, price: number, qty: number) => void events.push(`${t} trade ${side ?? '?'} ${price} ${qty}`),
    gasPrice: (units: bigint) => void events.push(`${t} gas ${units}`),
  };
  return { handler, events };
}

describe('recorded event source', () => {
  const path = recording('basic.data', (w) => {
    w.append({ kind: KIND.clear, exchNs: 1_000n * MS, localNs: 1n });
    w.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: 1_000n * MS, localNs: 1n, price: 268_380_000_000, qty: 302_920_000 });
    w.append({ kind: KIND.bbo, exchNs: 1_001n * MS, localNs: 2n, price: 268_380_000_000, qty: 10_000, aux1: 268_381_000_000, aux2: 10_000 });
    // A trade stamped earlier than the depth before it (another stream's clock): time holds.
    w.append({ kind: KIND.trade, side: SIDE_SELL, exchNs: 999n * MS, localNs: 3n, price: 268_381_000_000, qty: 10_000 });
    w.append({ kind: KIND.trade, side: SIDE_NONE, exchNs: 1_002n * MS, localNs: 4n, price: 268_381_000_000, qty: 10_000 });
    w.append({ kind: KIND.gasPrice, exchNs: 1_003n * MS, localNs: 5n, aux1: 1_234_456_788_907_878_798n });
    w.append({ kind: KIND.depth, side: SIDE_SELL, exchNs: 1_004n * MS, localNs: 6n, price: 268_381_000_000, qty: 0 });
  });

  it('delivers records as ticks and lots of the rules, in receive order, at exchange time that never goes back', async () => {
    const { handler, events } = recorder();
    const count = await createRecordedEventSource([path], RULES).replay(handler);
    expect(events).toEqual([
      '1000 clear',
      '1000 depth buy 268380 30292',
      '1000 trade sell 268381 1',
      '1002 trade ? 268381 1',
      '1003 gas 1234456788907878798',
      '1004 depth sell 268381 0',
    ]);
    // The venue's BBO record is not an event of the replay.
    expect(count).toBe(6);
  });

  it('replays the files again for several passes, each after the last, and reports progress', async () => {
    const { handler, events } = recorder();
    const progress: number[] = [];
    const count = await createRecordedEventSource([path], RULES, { passes: 2, onProgress: (done, total) => progress.push(done / total) }).replay(handler);
    expect(count).toBe(12);
    expect(events[6]).toBe('1005 clear');
    expect(events[11]).toBe('1009 depth sell 268381 0');
    expect(progress).toEqual([0.5, 1]);
  });

  it('refuses rules whose tick or lot does not divide the recording', () => {
    expect(() => createRecordedEventSource([path], { ...RULES, priceTick: 50_000n })).toThrow(/recorded prices step by 0.01, which is not a multiple of the tick 0.05/);
    expect(() => createRecordedEventSource([path], { ...RULES, qtyStep: 10n ** 15n })).toThrow(/recorded sizes step by 0.0001, which is not a multiple of the lot 0.001/);
    expect(() => createRecordedEventSource([], RULES)).toThrow(/no recording/);
  });

  it("reads a reference market's sizes in fractions of a coarser lot (--venue thin), its prices still on the tick", async () => {
    const coarse = { ...RULES, qtyStep: 10n ** 15n };
    const { handler, events } = recorder();
    await createRecordedEventSource([path], coarse, { fractionalLots: true }).replay(handler);
    // 3.0292 ETH and 0.0001 ETH in lots of 0.001.
    expect(events).toContain('1000 depth buy 268380 3029.2');
    expect(events).toContain('1000 trade sell 268381 0.1');
    expect(() => createRecordedEventSource([path], { ...coarse, priceTick: 50_000n }, { fractionalLots: true })).toThrow(/not a multiple of the tick 0.05/);
  });

  it('replays a copy on the receive clock at its receive times, whole ms, in file order', async () => {
    const stamped = recording('stamped.data', (w) => {
      w.append({ kind: KIND.depth, side: SIDE_BUY, exchNs: 5_000n * MS, localNs: 1_000n * MS + 600_000n, price: 268_380_000_000, qty: 10_000 });
      w.append({ kind: KIND.trade, side: SIDE_SELL, exchNs: 4_990n * MS, localNs: 1_002n * MS + 999_999n, price: 268_381_000_000, qty: 10_000 });
    });
    const copy = join(dir, 'stamped-receive.data');
    copyOnReceiveClock(stamped, copy);
    const { handler, events } = recorder();
    await createRecordedEventSource([copy], RULES).replay(handler);
    expect(events).toEqual(['1000 depth buy 268380 1', '1002 trade sell 268381 1']);
    expect(readRecordingHeader(copy)).toEqual(readRecordingHeader(stamped));
  });
});
