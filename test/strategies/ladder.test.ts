import { describe, expect, it } from 'vitest';
import { LADDER, computeSkewRatios, computeTotalLadderSize, createLadder, explainLadder } from '../../strategies/index.ts';
import type { DesiredQuote, InventoryView } from '../../src/core/index.ts';
import { makeInventory, makeView, parseOrThrow } from './fixtures.ts';

const byLevel = (quotes: DesiredQuote[], side: 'buy' | 'sell'): DesiredQuote[] =>
  quotes.filter((q) => q.side === side).sort((x, y) => x.level - y.level);

describe('hummingbot inventory skew ratios', () => {
  it('scales sizes 0–2× across the inventory band', () => {
    expect(computeSkewRatios(4, 4, 3)).toEqual({ bid: 1, ask: 1 });
    // Below target: lower edge max(4 − 3, 0) = 1; base 2 → bid = 1 + (4 − 2)/3 = 1.6667
    expect(computeSkewRatios(2, 4, 3).bid).toBeCloseTo(1.666666667, 9);
    expect(computeSkewRatios(2, 4, 3).ask).toBeCloseTo(0.333333333, 9);
    // Above target: base 5.5 → bid = 1 − 1.5/3 = 0.5
    expect(computeSkewRatios(5.5, 4, 3)).toEqual({ bid: 0.5, ask: 1.5 });
    // Past either edge: clamped
    expect(computeSkewRatios(0, 4, 3)).toEqual({ bid: 2, ask: 0 });
    expect(computeSkewRatios(9, 4, 3)).toEqual({ bid: 0, ask: 2 });
    // Lower edge floored at 0 as in hummingbot: target 1, range 3 → band below is [0, 1]; base 0.5 → 1.5
    expect(computeSkewRatios(0.5, 1, 3)).toEqual({ bid: 1.5, ask: 0.5 });
  });

  it('sizes the default range as the total of both ladders', () => {
    // 2·(3·1 + 3·2/2·0.5) = 2·(3 + 1.5) = 9
    expect(computeTotalLadderSize(1, 0.5, 3)).toBe(9);
  });
});

describe('ladder strategy', () => {
  const view = makeView({ bestBid: 1999.99, bestAsk: 2000.01 });

  it('quotes the same as explainLadder for any sequence of views, reusing its answer while the inputs it reads stay put', () => {
    const params = parseOrThrow(LADDER, { LADDER_LEVELS: '2', LADDER_INVENTORY_SKEW: 'on', LADDER_PRICE_SKEW_BPS: '5', LADDER_PING_PONG: 'on', LADDER_PRICE_SOURCE: 'microprice' });
    const ladder = createLadder(params);
    const views = [
      makeView({ bestBid: 1999.99, bestAsk: 2000.01, bestBidSize: 1, bestAskSize: 1, microprice: 2000 }),
      makeView({ bestBid: 1999.99, bestAsk: 2000.01, bestBidSize: 3, bestAskSize: 1, microprice: 2000 }),
      makeView({ bestBid: 1999.99, bestAsk: 2000.01, bestBidSize: 3, bestAskSize: 1, microprice: 2000.005 }),
      makeView({ bestBid: 1999.98, bestAsk: 2000.01, microprice: 2000 }),
    ];
    const inventories = [
      makeInventory(),
      makeInventory({ base: 1.2 }),
      makeInventory({ base: 1.2, lastFill: { side: 'buy', price: 2000, timeMs: 1 } }),
      makeInventory({ base: 1.2, lastFill: { side: 'sell', price: 2000, timeMs: 2 } }),
    ];
    for (const view of views) {
      for (const inventory of [...inventories, ...inventories]) {
        expect(ladder.quote(view, inventory)).toEqual(explainLadder(params, view, inventory)?.quotes ?? []);
      }
      expect(ladder.quote(view, inventories[0] as InventoryView)).toBe(ladder.quote(view, inventories[0] as InventoryView));
    }
  });

  it('around the fair price, keeps its answer when only the mid or the microprice moved (it reads neither)', () => {
    const ladder = createLadder(parseOrThrow(LADDER));
    const first = ladder.quote(makeView({ fair: 2000, microprice: 2000 }), makeInventory());
    const sizesMoved = makeView({ fair: 2000, microprice: 2000.004, bestBid: 1999.98 });
    expect(ladder.quote(sizesMoved, makeInventory())).toBe(first);
    expect(first).toEqual(explainLadder(parseOrThrow(LADDER), sizesMoved, makeInventory())?.quotes);
    expect(ladder.quote(makeView({ fair: 2000.01, microprice: 2000.004 }), makeInventory())).not.toEqual(first);
  });

  it('defaults to one 0.01 level 0.5 bps plus costs either side of the fair price', () => {
    const quotes = createLadder(parseOrThrow(LADDER)).quote(view, makeInventory());
    // fair 2000 → 2000·(1 − 0.00005) = 1999.9, 2000·1.00005 = 2000.1 (no fee, no gas)
    expect(quotes).toHaveLength(2);
    expect(byLevel(quotes, 'buy')[0]).toMatchObject({ size: 0.01, level: 0, reference: 2000 });
    expect(byLevel(quotes, 'buy')[0]?.price).toBeCloseTo(1999.9, 9);
    expect(byLevel(quotes, 'sell')[0]?.price).toBeCloseTo(2000.1, 9);
    // A 1 bp maker fee (0.2) and 0.002 quote of gas per fill (0.2 per base at 0.01) widen each side by 0.4.
    const costly = createLadder(parseOrThrow(LADDER)).quote(makeView({ bestBid: 1999.99, bestAsk: 2000.01, makerFee: 0.0001, gasPerFill: 0.002 }), makeInventory());
    expect(byLevel(costly, 'buy')[0]?.price).toBeCloseTo(1999.5, 9);
    expect(byLevel(costly, 'sell')[0]?.price).toBeCloseTo(2000.5, 9);
  });

  it('widens every spread by LADDER_VOL_SPREAD_MULTIPLE × σ in bps, and rebuilds when σ moves only while it reads it', () => {
    // σ 0.2 quote tokens per √s at 2000 is 1 bp per √s: a multiple of 3 adds 3 bp to each 0.5 bp spread.
    const params = parseOrThrow(LADDER, { LADDER_VOL_SPREAD_MULTIPLE: '3', LADDER_LEVELS: '2' });
    const ladder = createLadder(params);
    const calm = ladder.quote(makeView({ bestBid: 1999.99, bestAsk: 2000.01, volatility: 0 }), makeInventory());
    expect(byLevel(calm, 'buy')[0]?.price).toBeCloseTo(1999.9, 9);
    const moving = makeView({ bestBid: 1999.99, bestAsk: 2000.01, volatility: 0.2 });
    const wide = ladder.quote(moving, makeInventory());
    expect(byLevel(wide, 'buy')[0]?.price).toBeCloseTo(2000 * (1 - 3.5e-4), 9);
    expect(byLevel(wide, 'sell')[0]?.price).toBeCloseTo(2000 * (1 + 3.5e-4), 9);
    // Level 1 keeps its 10 bp spacing on top.
    expect(byLevel(wide, 'buy')[1]?.price).toBeCloseTo(2000 * (1 - 13.5e-4), 9);
    expect(explainLadder(params, moving, makeInventory())?.volSpreadBps).toBeCloseTo(3, 9);
    expect(ladder.internals?.(moving, makeInventory())?.signals?.['volSpreadBps']).toBeCloseTo(3, 9);
    // Off (the default), σ changes nothing and the answer is reused.
    const fixed = createLadder(parseOrThrow(LADDER));
    const first = fixed.quote(makeView({ bestBid: 1999.99, bestAsk: 2000.01, volatility: 0 }), makeInventory());
    expect(fixed.quote(moving, makeInventory())).toBe(first);
    expect(fixed.internals?.(moving, makeInventory())?.signals).not.toHaveProperty('volSpreadBps');
  });

  it('prices and sizes levels with spreads, spacing, increment and both skews as computed by hand', () => {
    const params = parseOrThrow(LADDER, {
      LADDER_BID_SPREAD_BPS: '10',
      LADDER_ASK_SPREAD_BPS: '20',
      LADDER_LEVELS: '2',
      LADDER_LEVEL_SPACING_BPS: '5',
      LADDER_ORDER_SIZE: '1',
      LADDER_LEVEL_SIZE_INCREMENT: '0.5',
      LADDER_INVENTORY_SKEW: 'on',
      LADDER_INVENTORY_RANGE_BASE: '4',
      LADDER_PRICE_SKEW_BPS: '10',
    });
    // base 6, target 4, range 4 → ratio 0.5; sizes bid ×0.5, ask ×1.5
    // centre = 2000·(1 − 0.5·10/10⁴) = 1999
    // bid0 = 1999·0.999 = 1997.001   ask0 = 1999·1.002 = 2002.998
    // bid1 = 1999·0.9985 = 1996.0015 ask1 = 1999·1.0025 = 2003.9975
    // sizes: bid0 0.5, ask0 1.5, bid1 1.5·0.5 = 0.75, ask1 1.5·1.5 = 2.25
    const quotes = createLadder(params).quote(view, makeInventory({ base: 6, targetBase: 4 }));
    const bids = byLevel(quotes, 'buy');
    const asks = byLevel(quotes, 'sell');
    expect(bids.map((q) => q.price)).toEqual([expect.closeTo(1997.001, 9), expect.closeTo(1996.0015, 9)]);
    expect(asks.map((q) => q.price)).toEqual([expect.closeTo(2002.998, 9), expect.closeTo(2003.9975, 9)]);
    expect(bids.map((q) => q.size)).toEqual([0.5, 0.75]);
    expect(asks.map((q) => q.size)).toEqual([1.5, 2.25]);
  });

  it('quotes only sells at or above the ceiling and only buys at or below the floor', () => {
    const params = parseOrThrow(LADDER, { LADDER_PRICE_CEILING: '2000', LADDER_PRICE_FLOOR: '1500' });
    expect(createLadder(params).quote(view, makeInventory()).map((q) => q.side)).toEqual(['sell']);
    const low = makeView({ bestBid: 1499.99, bestAsk: 1500.01 });
    expect(createLadder(params).quote(low, makeInventory()).map((q) => q.side)).toEqual(['buy']);
    const inside = makeView({ bestBid: 1799.99, bestAsk: 1800.01 });
    expect(createLadder(params).quote(inside, makeInventory())).toHaveLength(2);
  });

  it('ping-pongs: after a buy fill only asks, after a sell fill only bids', () => {
    const strategy = createLadder(parseOrThrow(LADDER, { LADDER_PING_PONG: 'on', LADDER_LEVELS: '2' }));
    const afterBuy = strategy.quote(view, makeInventory({ lastFill: { side: 'buy', price: 1998, timeMs: 1 } }));
    expect(afterBuy.map((q) => q.side)).toEqual(['sell', 'sell']);
    const afterSell = strategy.quote(view, makeInventory({ lastFill: { side: 'sell', price: 2002, timeMs: 1 } }));
    expect(afterSell.map((q) => q.side)).toEqual(['buy', 'buy']);
    expect(strategy.quote(view, makeInventory())).toHaveLength(4);
  });

  it('drops quotes closer to the mid than the minimum spread', () => {
    const params = parseOrThrow(LADDER, {
      LADDER_BID_SPREAD_BPS: '10',
      LADDER_ASK_SPREAD_BPS: '10',
      LADDER_LEVELS: '3',
      LADDER_LEVEL_SPACING_BPS: '10',
      LADDER_MIN_SPREAD_BPS: '15',
    });
    // Levels at 10, 20, 30 bps: level 0 is inside 15 bps and goes.
    const quotes = createLadder(params).quote(view, makeInventory());
    expect(byLevel(quotes, 'buy').map((q) => q.level)).toEqual([1, 2]);
    expect(byLevel(quotes, 'sell').map((q) => q.level)).toEqual([1, 2]);
  });

  it('lets the price skew push a bid through the book: the engine clamps it, in ticks, and its edge is measured from the skewed centre', () => {
    const params = parseOrThrow(LADDER, {
      LADDER_BID_SPREAD_BPS: '10',
      LADDER_INVENTORY_SKEW: 'on',
      LADDER_INVENTORY_RANGE_BASE: '1',
      LADDER_PRICE_SKEW_BPS: '100',
      LADDER_MIN_SPREAD_BPS: '-1000',
    });
    // Short a full range: centre = 2000·1.01 = 2020, bid = 2020·0.999 = 2017.98 (above the best ask).
    // The size skew is full too: bids ×2, asks ×0 (so no ask at all).
    const quotes = createLadder(params).quote(view, makeInventory({ base: 0, targetBase: 5 }));
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({ side: 'buy', size: 0.02 });
    expect(quotes[0]?.price).toBeCloseTo(2017.98, 9);
    expect(quotes[0]?.reference).toBeCloseTo(2020, 9);
  });

  it('quotes nothing without a two-sided, uncrossed book', () => {
    const strategy = createLadder(parseOrThrow(LADDER));
    expect(strategy.quote(makeView({ bestAsk: undefined }), makeInventory())).toEqual([]);
    expect(strategy.quote(makeView({ bestBid: undefined, bestAsk: undefined }), makeInventory())).toEqual([]);
    expect(strategy.quote(makeView({ bestBid: 2001, bestAsk: 2000 }), makeInventory())).toEqual([]);
  });
});

describe('ladder with spreads below a tick', () => {
  it('keeps its bid and ask at least a tick apart instead of locking them', () => {
    const strategy = createLadder(parseOrThrow(LADDER, { LADDER_BID_SPREAD_BPS: '1e-300', LADDER_ASK_SPREAD_BPS: '0' }));
    const quotes = strategy.quote(makeView({ bestBid: 1999, bestAsk: 2001 }), makeInventory());
    const bid = quotes.find((q) => q.side === 'buy')?.price ?? Number.NaN;
    const ask = quotes.find((q) => q.side === 'sell')?.price ?? Number.NaN;
    expect(ask - bid).toBeCloseTo(0.01, 9);
  });
});
