import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/index.ts';
import { TokenBucket, rankActions, type Action, type ExecutionContext, type LiveQuote, type RoundedQuote } from '../../src/engine/index.ts';
import { eth, usdc } from './fixtures.ts';

const budget = { ratePerS: 10, burst: 20, reservedForCancels: 2 };

describe('the outbound token bucket', () => {
  it('lets a burst through, then the sustained rate, in tiers: deep levels stop first, the front next, risk-reducing cancels last', () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket(budget, clock);
    let back = 0;
    while (bucket.tryTake('back')) back++;
    expect(back).toBe(13); // stops at the reserve (2) plus a quarter of the bucket (5)
    let front = 0;
    while (bucket.tryTake('front')) front++;
    expect(front).toBe(5); // stops at the reserve kept for risk-reducing cancels
    expect(bucket.tryTake('risk')).toBe(true);
    expect(bucket.tryTake('risk')).toBe(true);
    expect(bucket.tryTake('risk')).toBe(false);
    // The front waits for the reserve to refill first: 3 tokens at 10/s; risk for one.
    expect(bucket.msUntilAvailable('front')).toBe(300);
    expect(bucket.msUntilAvailable('risk')).toBe(100);
    expect(bucket.msUntilAvailable('back')).toBe(800);
    clock.advanceTo(1_000);
    let more = 0;
    while (bucket.tryTake('front')) more++;
    expect(more).toBe(8); // 10 refilled, 2 kept for cancels
  });

  it('lets a refresh (two tokens) go whole or not at all', () => {
    const bucket = new TokenBucket({ ratePerS: 10, burst: 4, reservedForCancels: 1 }, new ManualClock(0));
    expect(bucket.tryTake('front', 2)).toBe(true);
    expect(bucket.tryTake('front', 2)).toBe(false);
    expect(bucket.available()).toBe(2);
  });

  it('never lets more than burst + rate·t actions through in any window', () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket(budget, clock);
    let sent = 0;
    for (let ms = 0; ms <= 10_000; ms += 7) {
      clock.advanceTo(ms);
      while (bucket.tryTake(ms % 3 === 0 ? 'back' : ms % 3 === 1 ? 'front' : 'risk')) sent++;
    }
    expect(sent).toBeLessThanOrEqual(20 + 10 * 10);
    expect(sent).toBeGreaterThanOrEqual(10 * 10);
  });

  it('lets safety actions through whatever the budget, paying the debt back later', () => {
    const clock = new ManualClock(0);
    const bucket = new TokenBucket({ ...budget, burst: 1, reservedForCancels: 0 }, clock);
    expect(bucket.tryTake('risk')).toBe(true);
    bucket.takeAnyway();
    expect(bucket.available()).toBe(-1);
    clock.advanceTo(150);
    expect(bucket.tryTake('risk')).toBe(false);
    clock.advanceTo(200);
    expect(bucket.tryTake('risk')).toBe(true);
  });

  it('is unlimited at rate 0', () => {
    const bucket = new TokenBucket({ ...budget, ratePerS: 0 }, new ManualClock(0));
    for (let i = 0; i < 1_000; i++) expect(bucket.tryTake('back')).toBe(true);
  });
});

describe('action priorities', () => {
  const live = (id: string, side: 'buy' | 'sell', price: number): LiveQuote => ({ orderId: id, side, priceUnits: usdc(price), remainingUnits: eth(0.1), filledUnits: 0n, createdAtMs: 0 });
  const quote = (side: 'buy' | 'sell', price: number, level: number): RoundedQuote => ({ side, priceUnits: usdc(price), qtyUnits: eth(0.1), level });
  const context = (positionEth: number): ExecutionContext => ({
    holdings: { baseUnits: eth(1 + positionEth), targetUnits: eth(1), quoteUnits: usdc(10_000) },
    limits: { maxInventoryDeviationUnits: 0n, maxOrderNotionalUnits: 0n, maxTotalNotionalUnits: 0n, maxOpenOrders: 0, priceBandFraction: 0, maxDrawdownQuote: 0 },
    touch: { bestBidUnits: usdc(2000), bestAskUnits: usdc(2000.1) },
  });

  it('cancels an order more aggressive than anything its side wants first, then refreshes level by level, each cancel with its replacement', () => {
    const plans = [
      {
        side: 'buy' as const,
        // The bid at 2000 is above every bid now wanted (1999 at best): it is a risk, it goes first.
        diff: { keep: [], cancel: [live('b-risky', 'buy', 2000), live('b-stale', 'buy', 1994)], place: [quote('buy', 1995, 1), quote('buy', 1999, 0)] },
        wanted: [quote('buy', 1999, 0), quote('buy', 1995, 1)],
      },
      { side: 'sell' as const, diff: { keep: [], cancel: [live('s-stale', 'sell', 2003)], place: [quote('sell', 2000.2, 0)] }, wanted: [quote('sell', 2000.2, 0)] },
    ];
    const describe = (a: Action): string => `${a.group}:${a.cancel?.orderId ?? '-'}>${a.place === undefined ? '-' : `${a.place.side}${a.place.level}`}`;
    // Level 0 of both sides before level 1; the stale bid is paired with the nearest replacement.
    expect(rankActions(plans, context(0.3)).map(describe)).toEqual(['0:b-risky>-', '1:s-stale>sell0', '1:b-stale>buy0', '1:->buy1']);
  });

  it('treats every cancel of a side that wants nothing as risk-reducing, and cancels of unwanted passive orders as the last thing', () => {
    const plans = [
      { side: 'buy' as const, diff: { keep: [], cancel: [live('b', 'buy', 1990)], place: [] }, wanted: [] },
      { side: 'sell' as const, diff: { keep: [], cancel: [live('s', 'sell', 2010)], place: [] }, wanted: [quote('sell', 2001, 0)] },
    ];
    expect(rankActions(plans, context(0)).map((a) => [a.group, a.cancel?.orderId])).toEqual([
      [0, 'b'],
      [2, 's'],
    ]);
  });
});
