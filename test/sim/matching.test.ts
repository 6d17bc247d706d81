import { describe, expect, it } from 'vitest';
import { ALICE, BOB, engineHarness, nonceRequest, order, units, withdrawRequest } from './fixtures.ts';

const GAS = 40_000_000_000_000n; // default gas price, fri per step

describe('matching engine', () => {
  it('fills a resting bid with another account’s crossing sell at the maker price, fees rounded up, taker gas charged', async () => {
    const h = engineHarness();
    const bid = h.place(order({ maker: ALICE, side: 'buy', price: '3000', qty: '0.5' }));
    await h.settle();
    expect(h.ledger.get(ALICE, 'USDC').locked).toBe(units('USDC', '1500'));
    const sell = h.place(order({ maker: BOB, side: 'sell', price: '2990', qty: '0.5', market: false, postOnly: false }));
    await h.settle();
    expect(bid.status).toBe('FILLED');
    expect(sell.status).toBe('FILLED');
    // Maker buys 0.5 ETH for 1500 USDC, pays 200 pbips on the ETH it receives.
    const makerFee = (units('ETH', '0.5') * 200n + 999_999n) / 1_000_000n;
    expect(h.ledger.get(ALICE, 'ETH').free).toBe(units('ETH', '100.5') - makerFee);
    expect(h.ledger.get(ALICE, 'USDC')).toEqual({ free: units('USDC', '998500'), locked: 0n });
    // Taker sells at the maker's 3000, pays 1000 pbips on 1500 USDC and 150 steps of gas in STRK.
    expect(h.ledger.get(BOB, 'USDC').free).toBe(units('USDC', '1001500') - units('USDC', '1.5'));
    expect(h.ledger.get(BOB, 'STRK')).toEqual({ free: units('STRK', '1000000') - 150n * GAS, locked: 0n });
    expect(sell.gasPaid).toBe(150n * GAS);
    expect(h.recorder.trades).toHaveLength(1);
    expect(h.recorder.trades[0]?.price).toBe(units('USDC', '3000'));
    expect(h.ledger.totals('USDC').fees).toBe(units('USDC', '1.5'));
    expect(h.ledger.totals('ETH').fees).toBe(makerFee);
  });

  it('gives time priority to the earlier of two bids at one price', async () => {
    const h = engineHarness();
    const first = h.place(order({ maker: ALICE, price: '3000', qty: '1' }));
    const second = h.place(order({ maker: BOB, price: '3000', qty: '1' }));
    await h.settle();
    h.place(order({ maker: BOB, side: 'sell', price: '3000', qty: '1', postOnly: false, stp: 0 }));
    await h.settle();
    expect(first.status).toBe('FILLED');
    expect(second.status).toBe('OPEN');
  });

  it('refuses a post-only order that would cross as NOT_PROCESSED / FAILED_VALIDATION and never fills it', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '1' }));
    const crossing = h.place(order({ maker: BOB, side: 'buy', price: '3001', qty: '1', postOnly: true }));
    await h.settle();
    expect(crossing.status).toBe('NOT_PROCESSED');
    expect(crossing.matcherResult).toBe('FAILED_VALIDATION');
    expect(crossing.filledBase).toBe(0n);
    expect(h.ledger.get(BOB, 'USDC').locked).toBe(0n);
  });

  it('partially fills a maker and keeps the rest resting as PARTIALLY_FILLED', async () => {
    const h = engineHarness();
    const ask = h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '2' }));
    h.place(order({ maker: BOB, side: 'buy', price: '3000', qty: '0.5', postOnly: false }));
    await h.settle();
    expect(ask.status).toBe('PARTIALLY_FILLED');
    expect(ask.filledBase).toBe(units('ETH', '0.5'));
    expect(ask.lockedSpend).toBe(units('ETH', '1.5'));
    expect(h.recorder.statusesOf(ask.hash)).toEqual(['OPEN', 'PARTIALLY_FILLED']);
  });

  it('closes a full-fill-only taker without fills when the book cannot fill all of it', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.5' }));
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3100', qty: '1', postOnly: false, fullFillOnly: true }));
    await h.settle();
    expect(taker.status).toBe('CLOSED');
    expect(taker.matcherResult).toBe('NOT_ENOUGH_LIQUIDITY');
    expect(taker.filledBase).toBe(0n);
    expect(h.ledger.get(BOB, 'USDC').locked).toBe(0n);
    expect(h.ledger.get(BOB, 'STRK').locked).toBe(0n);
  });

  it('keeps a best-level-only taker on the first price level', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.5' }));
    h.place(order({ maker: ALICE, side: 'sell', price: '3001', qty: '0.5' }));
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3100', qty: '1', market: true, bestLevelOnly: true }));
    await h.settle();
    expect(taker.filledBase).toBe(units('ETH', '0.5'));
    expect(taker.status).toBe('CLOSED');
  });

  it('stops a market order at its protection price with SLIPPAGE', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.5' }));
    h.place(order({ maker: ALICE, side: 'sell', price: '3100', qty: '0.5' }));
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3050', qty: '1', market: true }));
    await h.settle();
    expect(taker.filledBase).toBe(units('ETH', '0.5'));
    expect(taker.status).toBe('CLOSED');
    expect(taker.matcherResult).toBe('SLIPPAGE');
  });

  it('buys with a quote amount only (market order by quote_qty)', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '1' }));
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3000', quoteQty: '300', market: true }));
    await h.settle();
    expect(taker.filledBase).toBe(units('ETH', '0.1'));
    expect(taker.filledQuote).toBe(units('USDC', '300'));
    expect(taker.status).toBe('FILLED');
  });

  it('stops at the swap limit with HIT_SWAPS_LIMIT', async () => {
    const h = engineHarness();
    for (let i = 0; i < 3; i++) h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.1' }));
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3000', qty: '0.3', market: true, swaps: 2 }));
    await h.settle();
    expect(taker.swaps).toBe(2);
    expect(taker.matcherResult).toBe('HIT_SWAPS_LIMIT');
    expect(taker.gasPaid).toBe(2n * 150n * GAS);
  });

  it('applies self-trade prevention: EXPIRE_MAKER removes the own maker and trades on; EXPIRE_TAKER ends the taker', async () => {
    const h = engineHarness();
    const own = h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.5' }));
    const other = h.place(order({ maker: BOB, side: 'sell', price: '3001', qty: '0.5' }));
    const taker = h.place(order({ maker: ALICE, side: 'buy', price: '3100', qty: '0.5', postOnly: false, stp: 2 }));
    await h.settle();
    expect(own.status).toBe('EXPIRED');
    expect(other.status).toBe('FILLED');
    expect(taker.status).toBe('FILLED');

    const own2 = h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '0.5' }));
    const taker2 = h.place(order({ maker: ALICE, side: 'buy', price: '3100', qty: '0.5', postOnly: false, stp: 1 }));
    await h.settle();
    expect(own2.status).toBe('OPEN');
    expect(taker2.status).toBe('EXPIRED');
  });

  it('expires a resting order once created_at + duration_valid has passed', async () => {
    const h = engineHarness();
    const bid = h.place(order({ maker: ALICE, durationSec: 10 }));
    await h.settle();
    h.clock.advance(9_000);
    h.engine.sweepExpired();
    expect(bid.status).toBe('OPEN');
    h.clock.advance(1_000);
    h.engine.sweepExpired();
    expect(bid.status).toBe('EXPIRED');
    expect(h.ledger.get(ALICE, 'USDC').locked).toBe(0n);
  });

  it('applies increase-nonce after its delay, expiring older orders, charging nonce gas and reporting it', async () => {
    const h = engineHarness();
    const old = h.place(order({ maker: ALICE, nonce: 0 }));
    const fresh = h.place(order({ maker: ALICE, nonce: 1, price: '2999' }));
    await h.settle();
    h.engine.acceptIncreaseNonce(nonceRequest(ALICE, 1), 77n);
    await h.settle();
    expect(h.engine.nonceOf(ALICE)).toBe(0);
    expect(old.status).toBe('OPEN');
    h.clock.advance(h.settings.nonceDelayMs);
    await h.settle();
    expect(h.engine.nonceOf(ALICE)).toBe(1);
    expect(old.status).toBe('EXPIRED');
    expect(fresh.status).toBe('OPEN');
    expect(h.ledger.totals('STRK').gas).toBe(100n * GAS);
    expect(h.recorder.reports.at(-1)?.result).toMatchObject({ source: 'increase_nonce', new_nonce: 1 });
    expect(() => h.place(order({ maker: ALICE, nonce: 0 }))).toThrow(/WRONG_NONCE/);
  });

  it('refuses an order the account cannot fund with NOT_ENOUGH_BALANCE and locks nothing', () => {
    const h = engineHarness();
    expect(() => h.place(order({ maker: ALICE, side: 'sell', qty: '101' }))).toThrow(/NOT_ENOUGH_BALANCE/);
    expect(h.ledger.get(ALICE, 'ETH').locked).toBe(0n);
  });

  it('cancels one order, and all of an account’s orders in one book', async () => {
    const h = engineHarness();
    const a = h.place(order({ maker: ALICE, price: '2990' }));
    const b = h.place(order({ maker: ALICE, price: '2980' }));
    const c = h.place(order({ maker: ALICE, base: 'STRK', quote: 'USDC', price: '0.5', qty: '10' }));
    await h.settle();
    h.engine.acceptCancel({ maker: ALICE, orderHash: a.hash, salt: 1n, signScheme: 'ecdsa curve' }, 501n);
    expect(a.cancelScheduled).toBe(true);
    await h.settle();
    expect(a.status).toBe('CANCELLED');
    expect(() => h.engine.acceptCancel({ maker: BOB, orderHash: b.hash, salt: 2n, signScheme: 'ecdsa curve' }, 502n)).toThrow(/NOT_THIS_CLIENT_ORDER/);
    const eth = h.engine.market('ETH', 'USDC', true);
    if (eth === undefined) throw new Error('market');
    h.engine.acceptCancelAll({ maker: ALICE, salt: 3n, base: eth.base, quote: eth.quote, toEcosystemBook: true, signScheme: 'ecdsa curve' }, 503n);
    await h.settle();
    expect(b.status).toBe('CANCELLED');
    expect(c.status).toBe('OPEN');
    expect(h.ledger.get(ALICE, 'USDC').locked).toBe(units('USDC', '5'));
  });

  it('withdraws: the amount leaves the venue, gas is charged at the current price', async () => {
    const h = engineHarness();
    h.engine.acceptWithdraw(withdrawRequest(ALICE, 'USDC', '100'), 900n);
    await h.settle();
    expect(h.ledger.get(ALICE, 'USDC')).toEqual({ free: units('USDC', '999900'), locked: 0n });
    expect(h.ledger.get(ALICE, 'STRK')).toEqual({ free: units('STRK', '1000000') - 150n * GAS, locked: 0n });
    expect(h.ledger.totals('USDC').withdrawn).toBe(units('USDC', '100'));
    // Withdrawing the gas token itself: the user receives amount − gas.
    h.engine.acceptWithdraw(withdrawRequest(BOB, 'STRK', '10'), 901n);
    await h.settle();
    expect(h.ledger.totals('STRK').withdrawn).toBe(units('STRK', '10') - 150n * GAS);
  });

  it('charges fees on the spent amount when apply_to_receipt_amount is false', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '1', feeOnReceipt: false }));
    h.place(order({ maker: BOB, side: 'buy', price: '3000', qty: '1', postOnly: false, feeOnReceipt: false }));
    await h.settle();
    // Maker spends 1 ETH and pays 200 pbips of it; taker spends 3000 USDC plus 1000 pbips.
    expect(h.ledger.get(ALICE, 'ETH').free).toBe(units('ETH', '99') - units('ETH', '0.0002'));
    expect(h.ledger.get(BOB, 'USDC').free).toBe(units('USDC', '997000') - units('USDC', '3'));
    expect(h.ledger.get(BOB, 'USDC').locked).toBe(0n);
  });

  it('converts taker gas into a non-STRK fee token with the order’s conversion rate', async () => {
    const h = engineHarness();
    h.place(order({ maker: ALICE, side: 'sell', price: '3000', qty: '1' }));
    // 1 STRK = 0.5 USDC.
    const rate = [10n ** 18n, 500_000n] as const;
    const taker = h.place(order({ maker: BOB, side: 'buy', price: '3000', qty: '1', postOnly: false, feeToken: 'USDC', conversionRate: rate }));
    await h.settle();
    const expected = (150n * GAS * 500_000n) / 10n ** 18n;
    expect(taker.gasPaid).toBe(expected);
    expect(h.ledger.totals('USDC').gas).toBe(expected);
  });
});
