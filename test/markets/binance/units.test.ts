/**
 * The Binance client's pure parts: decimal parsing, frame parsing, Binance's book-sync rules, and
 * which top the market state reports.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSilentLogger, depthWithinBps, referenceMicroprice, referenceMid, type ReferenceTop } from '../../../src/core/index.ts';
import {
  BinanceMarketState,
  DepthSync,
  FULL_SCALE,
  formatScaled,
  parseScaled,
  parseStreamFrame,
  parseSymbolInfo,
  type DepthDiff,
} from '../../../src/markets/binance/index.ts';
import { Heard } from './support.ts';

const diff = (first: number, last: number, bids: [number, number][] = [], asks: [number, number][] = []): DepthDiff => ({
  firstUpdateId: first,
  lastUpdateId: last,
  eventMs: 0,
  bids: bids.map(([price, qty]) => ({ price, qty })),
  asks: asks.map(([price, qty]) => ({ price, qty })),
  receivedMs: 0,
});
const snapshot = (lastUpdateId: number, bids: [number, number][], asks: [number, number][]) => ({
  lastUpdateId,
  bids: bids.map(([price, qty]) => ({ price, qty })),
  asks: asks.map(([price, qty]) => ({ price, qty })),
  receivedMs: 0,
});

describe('Binance decimals', () => {
  it('parses decimal text into exact scaled integers and prints it back with 8 places', () => {
    expect(parseScaled('2683.80000000', 2)).toBe(268_380);
    expect(parseScaled('2683.8', 8)).toBe(268_380_000_000);
    expect(parseScaled('0.00000000', 8)).toBe(0);
    expect(parseScaled('12', 0)).toBe(12);
    expect(formatScaled(268_380, 2)).toBe('2683.80000000');
    expect(formatScaled(5, 8)).toBe('0.00000005');
    for (const bad of ['', '.5', '5.', '-1', '1e5', '1.001', ' 1', '1,5', 'abc']) expect(parseScaled(bad, 2)).toBeUndefined();
    expect(parseScaled('99999999999.99999999', 8)).toBeUndefined();
  });

  it('round-trips every scaled value through its text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), fc.integer({ min: 0, max: 8 }), (value, decimals) => {
        expect(parseScaled(formatScaled(value, decimals), decimals)).toBe(value);
      }),
    );
  });
});

describe('Binance frames', () => {
  const text = (stream: string, data: unknown): string => JSON.stringify({ stream, data });

  it('parses depth, bookTicker, trade, shutdown and replies, combined or raw', () => {
    const depth = parseStreamFrame(text('ethusdt@depth@100ms', { e: 'depthUpdate', E: 5, s: 'ETHUSDT', U: 10, u: 12, b: [['1.5', '2']], a: [] }), 'ETHUSDT', FULL_SCALE, 7);
    expect(depth).toEqual({ type: 'depth', diff: { firstUpdateId: 10, lastUpdateId: 12, eventMs: 5, bids: [{ price: 150_000_000, qty: 200_000_000 }], asks: [], receivedMs: 7 } });
    const rawTicker = parseStreamFrame('{"u":3,"s":"ETHUSDT","b":"1.00000000","B":"2","a":"1.01","A":"3"}', 'ETHUSDT', FULL_SCALE, 0);
    expect(rawTicker).toMatchObject({ type: 'ticker', ticker: { updateId: 3, bidPrice: 100_000_000, askPrice: 101_000_000 } });
    expect(parseStreamFrame(text('ethusdt@trade', { e: 'trade', E: 2, s: 'ETHUSDT', t: 9, p: '1', q: '1', T: 1, m: true, M: true }), 'ETHUSDT', FULL_SCALE, 0)).toMatchObject({
      type: 'trade',
      trade: { tradeId: 9, buyerIsMaker: true, tradeMs: 1 },
    });
    expect(parseStreamFrame(text('!serverShutdown', { e: 'serverShutdown', E: 4 }), 'ETHUSDT', FULL_SCALE, 0)).toEqual({ type: 'shutdown', eventMs: 4 });
    expect(parseStreamFrame('{"result":null,"id":1}', 'ETHUSDT', FULL_SCALE, 0)).toEqual({ type: 'response', id: 1, result: null });
    expect(parseStreamFrame('{"code":2,"msg":"Invalid request","id":5}', 'ETHUSDT', FULL_SCALE, 0)).toEqual({ type: 'error', id: 5, code: 2, message: 'Invalid request' });
    expect(parseStreamFrame(text('ethusdt@kline_1m', { e: 'kline' }), 'ETHUSDT', FULL_SCALE, 0)).toEqual({ type: 'other', stream: 'ethusdt@kline_1m' });
  });

  it('names what is wrong in a malformed frame', () => {
    const cases: [string, RegExp][] = [
      ['nope', /not JSON/],
      [text('ethusdt@depth@100ms', { e: 'depthUpdate', E: 1, s: 'ETHUSDT', U: 5, u: 4, b: [], a: [] }), /U is after u/],
      [text('ethusdt@depth@100ms', { e: 'depthUpdate', E: 1, s: 'ETHUSDT', U: 1, u: 4, b: [['x', '1']], a: [] }), /b\[0\]/],
      [text('ethusdt@bookTicker', { u: 1, s: 'BTCUSDT', b: '1', B: '1', a: '1', A: '1' }), /symbol is not ETHUSDT/],
      [text('ethusdt@trade', { e: 'trade', E: 1, s: 'ETHUSDT', t: 1, p: '1', q: '1', T: 1, m: 'yes' }), /field m/],
    ];
    for (const [frame, message] of cases) expect(() => parseStreamFrame(frame, 'ETHUSDT', FULL_SCALE, 0)).toThrow(message);
  });

  it("parses a symbol's rules at Binance's 8 places unless its largest quantity would not fit", () => {
    const info = (step: string, maxQty: string) => ({
      symbols: [{ symbol: 'XUSDT', status: 'TRADING', baseAsset: 'X', quoteAsset: 'USDT', filters: [{ filterType: 'PRICE_FILTER', tickSize: '0.01000000', maxPrice: '1000000.00000000' }, { filterType: 'LOT_SIZE', stepSize: step, maxQty }] }],
    });
    expect(parseSymbolInfo(info('0.00010000', '9000.00000000'), 'XUSDT').scale).toEqual({ priceDecimals: 8, qtyDecimals: 8 });
    expect(parseSymbolInfo(info('1.00000000', '92141578.00000000'), 'XUSDT').scale).toEqual({ priceDecimals: 8, qtyDecimals: 7 });
    expect(() => parseSymbolInfo({ symbols: [] }, 'XUSDT')).toThrow(/no entry for XUSDT/);
  });
});

describe("Binance's local order book rules", () => {
  it('buffers until a snapshot, drops what the snapshot holds, bridges, and applies in sequence', () => {
    const applied: number[] = [];
    const sync = new DepthSync({ onDiff: (d) => applied.push(d.lastUpdateId) });
    expect(sync.onDiff(diff(8, 10, [[100, 1]]))).toBe('buffered');
    expect(sync.onDiff(diff(11, 14, [[101, 2]]))).toBe('buffered');
    expect(sync.applySnapshot(snapshot(12, [[100, 5]], [[103, 1]]))).toBe('synced');
    expect(applied).toEqual([14]);
    expect(sync.book.bestBid()).toEqual({ priceTicks: 101, qtyLots: 2 });
    expect(sync.onDiff(diff(13, 14))).toBe('old');
    expect(sync.onDiff(diff(15, 15, [], [[103, 0], [104, 1]]))).toBe('applied');
    expect(sync.book.bestAsk()).toEqual({ priceTicks: 104, qtyLots: 1 });
    expect(sync.onDiff(diff(17, 18))).toBe('gap');
    expect(sync.state).toBe('lost');
    expect(sync.onDiff(diff(19, 20))).toBe('ignored');
  });

  it('asks for another snapshot when it is older than the first buffered diff, and accepts one that bridges exactly', () => {
    const sync = new DepthSync();
    sync.onDiff(diff(20, 25));
    expect(sync.applySnapshot(snapshot(18, [[1, 1]], [[2, 1]]))).toBe('too-old');
    expect(sync.state).toBe('buffering');
    expect(sync.applySnapshot(snapshot(19, [[1, 1]], [[2, 1]]))).toBe('synced');
    expect(sync.lastUpdateId).toBe(25);
  });

  it('discards a book that crosses, from a snapshot or a diff', () => {
    const sync = new DepthSync();
    expect(sync.applySnapshot(snapshot(5, [[10, 1]], [[10, 1]]))).toBe('crossed');
    sync.reset();
    sync.applySnapshot(snapshot(5, [[10, 1]], [[11, 1]]));
    expect(sync.onDiff(diff(6, 6, [[12, 1]]))).toBe('crossed');
    expect(sync.state).toBe('lost');
  });
});

describe('Binance market state', () => {
  const frame = (stream: string, data: unknown): string => JSON.stringify({ stream, data });
  const ticker = (u: number, bid: string, ask: string): string => frame('ethusdt@bookTicker', { u, s: 'ETHUSDT', b: bid, B: '1', a: ask, A: '2' });
  const depthFrame = (first: number, last: number, bids: string[][], asks: string[][]): string => frame('ethusdt@depth@100ms', { e: 'depthUpdate', E: 1, s: 'ETHUSDT', U: first, u: last, b: bids, a: asks });

  function state(): { market: BinanceMarketState; heard: Heard; now: { ms: number } } {
    const now = { ms: 1_000 };
    const market = new BinanceMarketState({ market: 'binance:ETHUSDT', symbol: 'ETHUSDT', scale: FULL_SCALE, depth: true, staleAfterMs: 5_000, logger: createSilentLogger(), nowMs: () => now.ms });
    const heard = new Heard();
    market.setListener(heard);
    market.connected();
    return { market, heard, now };
  }

  it('reports the newer of bookTicker and the rebuilt book, by update id, only once synchronised', () => {
    const { market, heard } = state();
    expect(market.handleText(ticker(5, '10', '11'), 1)).toBe('none');
    expect(market.handleText(depthFrame(4, 6, [['10', '1']], []), 2)).toBe('fetch-snapshot');
    expect(market.top()).toBeUndefined();
    expect(heard.tops).toEqual([]);
    market.applySnapshot({ lastUpdateId: 6, bids: [{ price: 1_000_000_000, qty: 100_000_000 }], asks: [{ price: 1_200_000_000, qty: 100_000_000 }], receivedMs: 3 });
    expect(market.top()).toMatchObject({ source: 'book', updateId: 6, bidPrice: 10, askPrice: 12 });
    market.handleText(ticker(7, '10.5', '11'), 4);
    expect(market.top()).toMatchObject({ source: 'ticker', updateId: 7, bidPrice: 10.5, askPrice: 11 });
    market.handleText(depthFrame(7, 9, [['10.7', '1']], [['11.5', '1']]), 5);
    expect(market.top()).toMatchObject({ source: 'book', updateId: 9, bidPrice: 10.7, askPrice: 11.5 });
    // An older ticker changes nothing; a crossed one is not a price.
    market.handleText(ticker(8, '10', '11'), 6);
    market.handleText(ticker(10, '12', '11'), 6);
    expect(market.top()).toMatchObject({ source: 'book', updateId: 9 });
    expect(heard.tops.map((top) => `${top.source}:${top.updateId}`)).toEqual(['book:6', 'ticker:7', 'book:9']);
  });

  it('goes stale without updates, and drops its top until data comes back', () => {
    const { market, heard, now } = state();
    market.handleText(depthFrame(1, 1, [], []), 1);
    market.applySnapshot({ lastUpdateId: 1, bids: [{ price: 100, qty: 1 }], asks: [{ price: 200, qty: 1 }], receivedMs: 1_000 });
    now.ms = 6_001;
    market.checkStale();
    expect(market.status()).toMatchObject({ state: 'stale', reason: 'no-data', mid: undefined });
    expect(market.top()).toBeUndefined();
    market.handleText(ticker(2, '0.000001', '0.000002'), 6_002);
    expect(market.status().state).toBe('synchronised');
    expect(heard.statuses.map((s) => s.state)).toEqual(['synchronised', 'stale', 'synchronised']);
  });

  it('never lets a listener that throws break the feed', () => {
    const { market } = state();
    market.setListener({
      onTop: () => {
        throw new Error('engine bug');
      },
      onTrade: () => undefined,
      onStatus: () => undefined,
    });
    market.handleText(depthFrame(1, 1, [], []), 1);
    expect(() => market.applySnapshot({ lastUpdateId: 1, bids: [{ price: 100, qty: 1 }], asks: [{ price: 200, qty: 1 }], receivedMs: 1 })).not.toThrow();
    expect(market.top()).toBeDefined();
  });
});

describe('reference price helpers', () => {
  const top: ReferenceTop = { bidPrice: 100, bidQty: 3, askPrice: 101, askQty: 1, updateId: 1, source: 'ticker', receivedMs: 0, exchangeMs: undefined };

  it('computes the mid, the size-weighted microprice and the depth near the mid', () => {
    expect(referenceMid(top)).toBe(100.5);
    // More bid size: the next move is likelier up, so the microprice leans to the ask.
    expect(referenceMicroprice(top)).toBeCloseTo(100.75, 10);
    expect(referenceMicroprice({ ...top, bidQty: 0, askQty: 0 })).toBe(100.5);
    const depth = { bids: [{ price: 100, qty: 1 }, { price: 99.9, qty: 2 }, { price: 99, qty: 5 }], asks: [{ price: 101, qty: 1 }, { price: 102, qty: 4 }], updateId: 1, receivedMs: 0 };
    expect(depthWithinBps(depth, 100)).toEqual({ bidQty: 3, askQty: 1 });
  });
});
