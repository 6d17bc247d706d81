import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOnReceipt } from '../../src/engine/index.ts';
import { OrderFees } from '../../src/engine/order-fees.ts';

const PBIPS = { maker: 250, taker: 1_000 };

/** An order's trades: base and quote amounts, and the cumulative amounts after each. */
function trades(sizes: readonly { qty: number; quote: number }[]) {
  let qty = 0n;
  let quote = 0n;
  return sizes.map((size) => {
    qty += BigInt(size.qty);
    quote += BigInt(size.quote);
    return { qtyUnits: BigInt(size.qty), quoteUnits: BigInt(size.quote), endQtyUnits: qty, endQuoteUnits: quote, isMaker: true };
  });
}

describe('fees per trade, whatever order the reports arrive in', () => {
  it('charges ceil(a) + ceil(b) when a REST read merged two trades and their stream reports come late', () => {
    const fees = new OrderFees(PBIPS);
    const [a, b] = trades([
      { qty: 1_001, quote: 3_000_003 },
      { qty: 2_001, quote: 6_000_003 },
    ]);
    // The heal read the order over REST: both trades as one increment, no trade named.
    const merged = fees.onFill('o', 'sell', 3_002n, 9_000_006n, true, undefined);
    expect(merged).toBe(feeOnReceipt(9_000_006n, 250));
    // Then the stream's reports arrive, older than what we know: each splits the stretch.
    const late = fees.onLateTrade('o', b!) + fees.onLateTrade('o', a!);
    expect(merged + late).toBe(feeOnReceipt(3_000_003n, 250) + feeOnReceipt(6_000_003n, 250));
    expect(merged + late).toBe(merged + 1n);
    // Repeats change nothing.
    expect(fees.onLateTrade('o', a!)).toBe(0n);
  });

  it.each([
    ['a fee', PBIPS],
    ['a maker rebate', { maker: -250, taker: 1_000 }],
  ])('ends at the venue\'s fee (every trade rounded on its own) for any arrival order, merges and repeats, with %s', (_name, pbips) => {
    const size = fc.record({ qty: fc.integer({ min: 1, max: 10_000 }), quote: fc.integer({ min: 1, max: 50_000_000 }) });
    fc.assert(
      fc.property(fc.array(size, { minLength: 1, maxLength: 8 }), fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), fc.array(fc.nat(), { maxLength: 20 }), (sizes, side, shuffle) => {
        const all = trades(sizes);
        const fees = new OrderFees(pbips);
        // Reports in a shuffled order; each may or may not be the newest (only the newest moves the fill).
        const order = all.map((trade, i) => ({ trade, key: shuffle[i] ?? i }));
        order.sort((x, y) => x.key - y.key);
        let known = 0n;
        let knownQuote = 0n;
        let charged = 0n;
        for (const { trade } of order) {
          if (trade.endQtyUnits > known) {
            charged += fees.onFill('o', side, trade.endQtyUnits - known, trade.endQuoteUnits - knownQuote, true, trade);
            known = trade.endQtyUnits;
            knownQuote = trade.endQuoteUnits;
          } else {
            charged += fees.onLateTrade('o', trade);
          }
        }
        const venue = all.reduce((sum, trade) => sum + feeOnReceipt(side === 'buy' ? trade.qtyUnits : trade.quoteUnits, pbips.maker), 0n);
        expect(charged).toBe(venue);
      }),
      { numRuns: 500 },
    );
  });

  it('credits each fill\'s rebate as it comes, and takes back the part a late trade\'s own rounding removes', () => {
    const fees = new OrderFees({ maker: -250, taker: 1_000 });
    const [a, b] = trades([
      { qty: 1_001, quote: 3_000_003 },
      { qty: 2_001, quote: 6_000_003 },
    ]);
    const merged = fees.onFill('o', 'sell', 3_002n, 9_000_006n, true, undefined);
    expect(merged).toBe(-2_250n); // ⌊9,000,006 × 250 / 10^6⌋ = 2,250 credited
    const late = fees.onLateTrade('o', b!) + fees.onLateTrade('o', a!);
    // Each trade on its own: 750 + 1,500 = 2,250 — the same here; a split never credits more.
    expect(merged + late).toBe(feeOnReceipt(3_000_003n, -250) + feeOnReceipt(6_000_003n, -250));
    expect(late).toBeGreaterThanOrEqual(0n);
  });
});
