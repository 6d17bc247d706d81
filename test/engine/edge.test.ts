import { describe, expect, it } from 'vitest';
import { filterByEdge, gasCostQuote, keepReplacementsThatPay, quoteEdgeBps, type EdgeContext, type RoundedQuote } from '../../src/engine/index.ts';
import { ETH_USDC, eth, usdc } from './fixtures.ts';

const freeCancels: EdgeContext = {
  rules: ETH_USDC,
  makerFeePbips: 200, // 2 bps
  steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
  gas: { gasPriceUnits: 10n ** 13n, quotePerStrk: 0.5, timeMs: 0 },
  conversionMargin: 0,
};
const paidCancels: EdgeContext = { ...freeCancels, steps: { ...freeCancels.steps, cancel: 100 } };
const bid = (price: number, size: number): RoundedQuote => ({ side: 'buy', priceUnits: usdc(price), qtyUnits: eth(size), level: 0 });
const ask = (price: number, size: number, reference?: number): RoundedQuote => ({ side: 'sell', priceUnits: usdc(price), qtyUnits: eth(size), level: 0, ...(reference === undefined ? {} : { reference }) });

describe('gas-aware edge', () => {
  it('prices gas as steps × gas price × quote per STRK', () => {
    // 100 steps × 1e13 fri = 1e15 fri = 0.001 STRK → 0.0005 USDC
    expect(gasCostQuote(100, paidCancels)).toBeCloseTo(0.0005, 12);
    expect(gasCostQuote(100, { ...paidCancels, gas: undefined })).toBe(0);
  });

  it('takes distance to the reference minus maker fee minus cancel gas, in bps of notional', () => {
    // bid 1998 vs mid 2000: 10 bps − 2 bps fee = 8 bps with free cancels
    expect(quoteEdgeBps(bid(1998, 0.1), 2000, freeCancels)).toBeCloseTo(8, 9);
    // 0.0005 USDC of gas on 199.8 USDC notional ≈ 0.025 bps more
    expect(quoteEdgeBps(bid(1998, 0.1), 2000, paidCancels)).toBeCloseTo(8 - (0.0005 / 199.8) * 1e4, 9);
  });

  it('adds a maker rebate to the edge: a quote 1 bp from the mid earns 1.5 bps with a 0.5 bp rebate', () => {
    const rebate: EdgeContext = { ...freeCancels, makerFeePbips: -50 };
    expect(quoteEdgeBps(bid(1999.8, 0.1), 2000, rebate)).toBeCloseTo(1.5, 9);
    // Kept at MIN_EDGE_BPS=1.2 with the rebate, dropped with the 2 bps fee.
    expect(filterByEdge([bid(1999.8, 0.1)], 2000, 0n, 1.2, rebate)).toHaveLength(1);
    expect(filterByEdge([bid(1999.8, 0.1)], 2000, 0n, 1.2, freeCancels)).toHaveLength(0);
  });

  it('drops quotes whose edge is under the minimum, and everything without a fair price', () => {
    const quotes = [bid(1999.8, 0.1), bid(1998, 0.1)];
    expect(filterByEdge(quotes, 2000, 0n, 1, freeCancels)).toEqual([bid(1998, 0.1)]);
    expect(filterByEdge(quotes, undefined, 0n, 1, freeCancels)).toEqual([]);
  });

  it('measures edge from the quote\'s own reservation price, not the fair price', () => {
    // Long: the strategy's reservation price is 1999; an ask at 2000.2 earns 6 bps − 2 bps fee from it,
    // though it is only 1 bp above the fair 2000.
    expect(quoteEdgeBps(ask(2000.2, 0.1, 1999), 1999, freeCancels)).toBeCloseTo(((2000.2 - 1999) / 1999) * 1e4 - 2, 9);
    expect(filterByEdge([ask(2000.2, 0.1, 1999)], 2000, 0n, 3, freeCancels)).toHaveLength(1);
  });

  it('never drops a quote that reduces inventory for its edge', () => {
    // An ask one tick over the touch, clamped under its fee: no edge at all, but we are long and it sheds.
    const shedding = ask(2000.01, 0.1, 2000.0);
    expect(quoteEdgeBps(shedding, 2000.0, freeCancels)).toBeLessThan(0);
    expect(filterByEdge([shedding], 2000, eth(0.5), 1, freeCancels)).toEqual([shedding]);
    expect(filterByEdge([shedding], 2000, 0n, 1, freeCancels)).toEqual([]);
    expect(filterByEdge([shedding], 2000, -eth(0.5), 1, freeCancels)).toEqual([]);
    expect(filterByEdge([bid(1999.99, 0.1)], 2000, -eth(0.5), 1, freeCancels)).toHaveLength(1);
  });

  it('keeps a live order when replacing it would gain less than the gas of the cancel', () => {
    const live = { orderId: 'a', side: 'buy' as const, priceUnits: usdc(1998), remainingUnits: eth(0.001), filledUnits: 0n, createdAtMs: 0 };
    const diff = { keep: [], cancel: [live], place: [bid(1997.99, 0.001)] };
    expect(keepReplacementsThatPay(diff, 2000, 0, paidCancels)).toEqual({ keep: [live], cancel: [], place: [] });
    expect(keepReplacementsThatPay(diff, 2000, 0, freeCancels)).toEqual({ keep: [], cancel: [live], place: [bid(1997.99, 0.001)] });
  });
});
