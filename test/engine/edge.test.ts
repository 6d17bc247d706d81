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

describe('gas-aware edge', () => {
  it('prices gas as steps × gas price × quote per STRK', () => {
    // 100 steps × 1e13 fri = 1e15 fri = 0.001 STRK → 0.0005 USDC
    expect(gasCostQuote(100, paidCancels)).toBeCloseTo(0.0005, 12);
    expect(gasCostQuote(100, { ...paidCancels, gas: undefined })).toBe(0);
  });

  it('takes distance to mid minus maker fee minus cancel gas, in bps of notional', () => {
    // bid 1998 vs mid 2000: 10 bps − 2 bps fee = 8 bps with free cancels
    expect(quoteEdgeBps(bid(1998, 0.1), 2000, freeCancels)).toBeCloseTo(8, 9);
    // 0.0005 USDC of gas on 199.8 USDC notional ≈ 0.025 bps more
    expect(quoteEdgeBps(bid(1998, 0.1), 2000, paidCancels)).toBeCloseTo(8 - (0.0005 / 199.8) * 1e4, 9);
  });

  it('drops quotes whose edge is under the minimum, and everything without a mid', () => {
    const quotes = [bid(1999.8, 0.1), bid(1998, 0.1)];
    expect(filterByEdge(quotes, 2000, 1, freeCancels)).toEqual([bid(1998, 0.1)]);
    expect(filterByEdge(quotes, undefined, 1, freeCancels)).toEqual([]);
  });

  it('keeps a live order when replacing it would gain less than the gas of the cancel', () => {
    const live = { orderId: 'a', side: 'buy' as const, priceUnits: usdc(1998), remainingUnits: eth(0.001), createdAtMs: 0 };
    const diff = { keep: [], cancel: [live], place: [bid(1997.99, 0.001)] };
    expect(keepReplacementsThatPay(diff, 2000, 0, paidCancels)).toEqual({ keep: [live], cancel: [], place: [] });
    expect(keepReplacementsThatPay(diff, 2000, 0, freeCancels)).toEqual({ keep: [], cancel: [live], place: [bid(1997.99, 0.001)] });
  });
});
