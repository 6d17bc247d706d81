/**
 * Units that carry across instruments: order sizes as a quote notional (`*_ORDER_NOTIONAL`), and
 * k per bp of price. One pair file, two books that differ by a factor of 24 in price and in the
 * tick's share of it (ETH/USDT-like and BTC/USDT-like): the same notional and the same distances
 * in bps on both.
 */
import { describe, expect, it } from 'vitest';
import type { MarketView, StrategyDefinition } from '../../src/core/index.ts';
import { AVELLANEDA_STOIKOV, GLFT, LADDER, XEMM, createXemm } from '../../strategies/index.ts';
import { makeHedgeView, makeInventory, makeView, parseOrThrow } from './fixtures.ts';

const DEFINITIONS: readonly (readonly [string, StrategyDefinition<unknown>])[] = [
  ['LADDER', LADDER],
  ['AS', AVELLANEDA_STOIKOV],
  ['GLFT', GLFT],
  ['XEMM', XEMM],
];

/** A book at `price` with a one-tick spread, σ of 1.5 bp per √s and an arrival fit of 3/s, 0.6 per bp. */
function bookAt(price: number, lotSize: number): MarketView {
  const tick = 0.01;
  return makeView({
    bestBid: price,
    bestAsk: price + tick,
    tickSize: tick,
    lotSize,
    minSize: lotSize,
    volatility: price * 1.5e-4,
    arrival: { a: 3, kPerBps: 0.6 },
    makerFee: 0.0001,
  });
}

const ETH = bookAt(2_500, 0.0001);
const BTC = bookAt(60_000, 0.00001);

const distanceBps = (price: number, view: MarketView): number => (Math.abs(price - (view.fair as number)) / (view.fair as number)) * 10_000;

describe('order sizes in quote notional', () => {
  it.each(DEFINITIONS)('%s: refuses a file that sets both the size and the notional, naming both', (prefix, definition) => {
    const result = definition.parseParams({ [`${prefix}_ORDER_SIZE`]: '0.05', [`${prefix}_ORDER_NOTIONAL`]: '130' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ key: `${prefix}_ORDER_NOTIONAL`, value: '130' });
    expect(result.issues[0]?.allowed).toContain(`${prefix}_ORDER_SIZE=0.05`);
    expect(result.issues[0]?.allowed).toContain('not both');
    // `off` is "not set": the size key stays in effect.
    expect(definition.parseParams({ [`${prefix}_ORDER_SIZE`]: '0.05', [`${prefix}_ORDER_NOTIONAL`]: 'off' }).ok).toBe(true);
  });

  it.each(DEFINITIONS)('%s: tells the engine its notional instead of a base size', (prefix, definition) => {
    const strategy = definition.create(parseOrThrow(definition, { [`${prefix}_ORDER_NOTIONAL`]: '130' }));
    expect([strategy.orderSize, strategy.orderNotional]).toEqual([undefined, 130]);
    const bySize = definition.create(parseOrThrow(definition, {}));
    expect(bySize.orderNotional).toBeUndefined();
    expect(bySize.orderSize).toBeGreaterThan(0);
  });

  const CARRY: readonly (readonly [string, StrategyDefinition<unknown>, Record<string, string>])[] = [
    ['ladder', LADDER, { LADDER_ORDER_NOTIONAL: '130', LADDER_LEVELS: '2', LADDER_LEVEL_NOTIONAL_INCREMENT: '65', LADDER_INVENTORY_SKEW: 'on' }],
    ['avellaneda-stoikov', AVELLANEDA_STOIKOV, { AS_ORDER_NOTIONAL: '130', AS_GAMMA: '0.02' }],
    ['glft', GLFT, { GLFT_ORDER_NOTIONAL: '130', GLFT_GAMMA: '0.02' }],
  ];

  it.each(CARRY)('%s: one pair file quotes the same notional, and the same bps from the fair price, on ETH and on BTC', (_name, definition, env) => {
    const strategy = definition.create(parseOrThrow(definition, env));
    // Flat, and long by about 260 USDT of base: the skew must carry too.
    for (const longQuote of [0, 260]) {
      const [eth, btc] = [ETH, BTC].map((view) => strategy.quote(view, makeInventory({ base: 1 + longQuote / (view.fair as number), targetBase: 1 })));
      expect(eth?.length).toBeGreaterThan(0);
      expect(btc?.length).toBe(eth?.length);
      for (let i = 0; i < (eth?.length ?? 0); i++) {
        const [a, b] = [eth?.[i], btc?.[i]];
        if (a === undefined || b === undefined) throw new Error('missing quote');
        expect([b.side, b.level]).toEqual([a.side, a.level]);
        // Notional within a lot of what was asked (0.0001 ETH ≈ 0.25 USDT, 0.00001 BTC ≈ 0.6 USDT).
        expect(Math.abs(a.size * a.price - b.size * b.price)).toBeLessThan(1);
        // Distances within a hundredth of a bp (the lots round Δ a little differently).
        expect(distanceBps(b.price, BTC)).toBeCloseTo(distanceBps(a.price, ETH), 2);
      }
    }
  });

  it('the old base size does not carry: 0.05 base quotes 24 times the notional on BTC', () => {
    const strategy = LADDER.create(parseOrThrow(LADDER, { LADDER_ORDER_SIZE: '0.05' }));
    const [eth, btc] = [ETH, BTC].map((view) => strategy.quote(view, makeInventory())[0]);
    expect(((btc?.size ?? 0) * (btc?.price ?? 0)) / ((eth?.size ?? 0) * (eth?.price ?? 1))).toBeCloseTo(24, 1);
  });

  it('rounds each ladder level down to the lot once, the skew applied before the rounding', () => {
    const strategy = LADDER.create(parseOrThrow(LADDER, { LADDER_ORDER_NOTIONAL: '100', LADDER_LEVELS: '3', LADDER_LEVEL_NOTIONAL_INCREMENT: '50', LADDER_INVENTORY_SKEW: 'on', LADDER_INVENTORY_RANGE_BASE: '1' }));
    const view = makeView({ bestBid: 3000, bestAsk: 3000.02, lotSize: 0.001, minSize: 0.001 });
    // Long 0.25 of a range of 1: bids ×0.75, asks ×1.25. Level i: (100 + 50 i)/3000.01 ETH.
    const quotes = strategy.quote(view, makeInventory({ base: 1.25, targetBase: 1 }));
    const sizes = (side: 'buy' | 'sell'): number[] => quotes.filter((q) => q.side === side).map((q) => q.size);
    expect(sizes('buy')).toEqual([0.024, 0.037, 0.049]); // 0.75 × (100, 150, 200) / 3000.01, down to 0.001
    expect(sizes('sell')).toEqual([0.041, 0.062, 0.083]); // 1.25 × …
  });

  it('does not quote a side whose notional buys less than the minimum size, rather than more than asked', () => {
    const tiny = { lotSize: 0.001, minSize: 0.01 };
    const view = makeView({ bestBid: 3000, bestAsk: 3000.02, ...tiny });
    // 20 USDT at 3000 is 0.00666 ETH, under the 0.01 minimum.
    expect(LADDER.create(parseOrThrow(LADDER, { LADDER_ORDER_NOTIONAL: '20' })).quote(view, makeInventory())).toEqual([]);
    const model = AVELLANEDA_STOIKOV.create(parseOrThrow(AVELLANEDA_STOIKOV, { AS_ORDER_NOTIONAL: '20' }));
    expect(model.quote(view, makeInventory())).toEqual([]);
    const explained = (model as unknown as { explain: (v: MarketView, i: ReturnType<typeof makeInventory>) => { sizeSkipped?: string } | undefined }).explain(view, makeInventory());
    expect(explained?.sizeSkipped).toBe('below-minimum');
    expect(GLFT.create(parseOrThrow(GLFT, { GLFT_ORDER_NOTIONAL: '20' })).quote(view, makeInventory())).toEqual([]);
    // 40 USDT buys 0.013 ETH: quoted.
    expect(LADDER.create(parseOrThrow(LADDER, { LADDER_ORDER_NOTIONAL: '40' })).quote(view, makeInventory()).map((q) => q.size)).toEqual([0.013, 0.013]);
  });

  it('xemm turns its notional into base tokens at the hedge book\'s mid', () => {
    const view = makeView({ lotSize: 0.001, minSize: 0.001, hedge: makeHedgeView(2000) });
    const quotes = createXemm(parseOrThrow(XEMM, { XEMM_ORDER_NOTIONAL: '1000' })).quote(view, makeInventory());
    expect(quotes.map((q) => q.size)).toEqual([0.5, 0.5]);
  });

  it('refuses both level increments of the ladder', () => {
    const result = LADDER.parseParams({ LADDER_LEVEL_SIZE_INCREMENT: '0.01', LADDER_LEVEL_NOTIONAL_INCREMENT: '20' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.key)).toEqual(['LADDER_LEVEL_NOTIONAL_INCREMENT']);
  });
});
