import { describe, expect, it } from 'vitest';
import { Ledger, feeOnReceipt, type FillIncrement } from '../../src/engine/index.ts';
import { eth, usdc } from './fixtures.ts';

const options = { baseDecimals: 18, quoteDecimals: 6, makerFeePbips: 200, takerFeePbips: 1000 };
let orders = 0;
const fill = (side: 'buy' | 'sell', size: number, price: number, isMaker = true): FillIncrement => ({
  orderId: `order-${++orders}`,
  side,
  qtyUnits: eth(size),
  quoteUnits: (eth(size) * usdc(price)) / 10n ** 18n,
  priceUnits: usdc(price),
  isMaker,
  timeMs: 0,
});

describe('feeOnReceipt', () => {
  it('charges ⌈amount × pbips / 10^6⌉ and nothing at 0 pbips', () => {
    expect(feeOnReceipt(1_000_000n, 1000)).toBe(1_000n);
    expect(feeOnReceipt(1_000_001n, 1000)).toBe(1_001n);
    expect(feeOnReceipt(1n, 1)).toBe(1n);
    expect(feeOnReceipt(123n, 0)).toBe(0n);
  });

  it('credits a maker rebate (negative pbips) rounded towards zero: never more than the exact rebate, at most one unit less', () => {
    expect(feeOnReceipt(1_000_000n, -500)).toBe(-500n);
    // 1,000,001 × 500 / 10^6 = 500.0005: the venue credits 500, not 501.
    expect(feeOnReceipt(1_000_001n, -500)).toBe(-500n);
    expect(feeOnReceipt(1_999n, -500)).toBe(0n);
    expect(feeOnReceipt(2_000n, -500)).toBe(-1n);
  });
});

describe('Ledger', () => {
  it('charges each trade\'s fee rounded on its own, even when a REST read merged two trades and their reports come late', () => {
    const ledger = new Ledger(options);
    ledger.reset(eth(1), usdc(10_000));
    // Two maker sells of one order, 3.000003 and 6.000003 USDC received: the venue charged 61 + 121 = 182 units.
    const merged: FillIncrement = { orderId: 'o', side: 'sell', qtyUnits: 3_002n, quoteUnits: 9_000_006n, priceUnits: usdc(3000), isMaker: true, timeMs: 0 };
    const first = ledger.applyFill(merged);
    expect(first.feeUnits).toBe(feeOnReceipt(9_000_006n, 200));
    const trade = (qty: bigint, quote: bigint, endQty: bigint, endQuote: bigint) => ({ orderId: 'o', side: 'sell' as const, isMaker: true, qtyUnits: qty, quoteUnits: quote, cumulativeQtyUnits: endQty, cumulativeQuoteUnits: endQuote });
    const late = [ledger.applyLateTrade(trade(2_001n, 6_000_003n, 3_002n, 9_000_006n)), ledger.applyLateTrade(trade(1_001n, 3_000_003n, 1_001n, 3_000_003n))];
    const charged = first.feeUnits + late.reduce((sum, effect) => sum + (effect?.feeUnits ?? 0n), 0n);
    expect(charged).toBe(feeOnReceipt(3_000_003n, 200) + feeOnReceipt(6_000_003n, 200));
    expect(ledger.balances().quoteUnits).toBe(usdc(10_000) + 9_000_006n - charged);
  });

  it('moves balances exactly: a maker buy receives base minus the fee and pays quote', () => {
    const ledger = new Ledger(options);
    ledger.reset(eth(1), usdc(10_000));
    const effect = ledger.applyFill(fill('buy', 0.5, 2000));
    expect(effect.feeToken).toBe('base');
    expect(effect.feeUnits).toBe((eth(0.5) * 200n + 999_999n) / 1_000_000n);
    expect(ledger.balances()).toEqual({ baseUnits: eth(1.5) - effect.feeUnits, quoteUnits: usdc(9_000) });
  });

  it('credits a maker rebate to the balance it is received in, and counts it as a negative fee', () => {
    const ledger = new Ledger({ ...options, makerFeePbips: -100 });
    ledger.reset(eth(1), usdc(10_000));
    const buy = ledger.applyFill(fill('buy', 0.5, 2000));
    // 1 bp of 0.5 ETH = 0.00005 ETH credited.
    expect(buy).toMatchObject({ feeToken: 'base', feeUnits: -(eth(0.5) / 10_000n) });
    const sell = ledger.applyFill(fill('sell', 0.5, 2000));
    expect(sell).toMatchObject({ feeToken: 'quote', feeUnits: -usdc(0.1) });
    expect(ledger.balances()).toEqual({ baseUnits: eth(1) + eth(0.5) / 10_000n, quoteUnits: usdc(10_000.1) });
    expect(ledger.pnl(2000).feesPaid).toBeCloseTo(-0.2, 9);
  });

  it('a taker sell pays the taker fee in quote, from what it receives', () => {
    const ledger = new Ledger(options);
    ledger.reset(eth(1), usdc(0));
    const effect = ledger.applyFill(fill('sell', 1, 2000, false));
    expect(effect).toMatchObject({ feeToken: 'quote', feeUnits: usdc(2) });
    expect(ledger.balances()).toEqual({ baseUnits: 0n, quoteUnits: usdc(1998) });
    expect(ledger.pnl(2000).takerFills).toBe(1);
  });

  it('realises the round trip of a buy then a sell at a higher price, fees included', () => {
    const ledger = new Ledger({ ...options, makerFeePbips: 0 });
    ledger.reset(0n, usdc(10_000));
    ledger.applyFill(fill('buy', 1, 2000));
    expect(ledger.pnl(2010).unrealized).toBeCloseTo(10, 6);
    ledger.applyFill(fill('sell', 1, 2010));
    const pnl = ledger.pnl(2010);
    expect(pnl.realized).toBeCloseTo(10, 6);
    expect(pnl.unrealized).toBe(0);
    expect(pnl.position).toBe(0);
    expect(pnl.fills).toBe(2);
    expect(pnl.volumeBase).toBeCloseTo(2, 9);
  });

  it('keeps the average cost across adds and flips the basis when the position reverses', () => {
    const ledger = new Ledger({ ...options, makerFeePbips: 0 });
    ledger.reset(eth(10), usdc(100_000));
    ledger.applyFill(fill('buy', 1, 2000));
    ledger.applyFill(fill('buy', 1, 2100));
    expect(ledger.pnl(2050).averageCost).toBeCloseTo(2050, 6);
    ledger.applyFill(fill('sell', 3, 2200));
    const pnl = ledger.pnl(2200);
    expect(pnl.realized).toBeCloseTo(300, 6);
    expect(pnl.position).toBeCloseTo(-1, 9);
    expect(pnl.averageCost).toBeCloseTo(2200, 6);
  });

  it('heals to the venue balances and reports the drift it found', () => {
    const ledger = new Ledger(options);
    ledger.reset(eth(1), usdc(100));
    expect(ledger.heal(eth(1) + 3n, usdc(100) - 1n)).toEqual({ baseDrift: 3n, quoteDrift: -1n });
    expect(ledger.balances()).toEqual({ baseUnits: eth(1) + 3n, quoteUnits: usdc(100) - 1n });
  });
});
