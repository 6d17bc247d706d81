import { describe, expect, it } from 'vitest';
import { ReferenceMove, SideHold, laggingSide, staleSide } from '../../../strategies/index.ts';

describe('the reference move since our quotes were set', () => {
  it('reads 0 until quotes were set, then the move of the reference mid since, in bps', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    expect(move.valueBps()).toBe(0);
    move.onQuotesSet();
    move.onReferenceMid(2000.4);
    expect(move.valueBps()).toBeCloseTo(2, 9);
    move.onQuotesSet();
    expect(move.valueBps()).toBe(0);
    move.onReferenceMid(1999.4);
    expect(move.valueBps()).toBeCloseTo(10_000 * (1999.4 / 2000.4 - 1), 9);
  });

  it('reads 0 while the reference has no mid, and keeps the mid the quotes were set at through it', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    move.onQuotesSet();
    move.onReferenceMid(undefined);
    move.onQuotesSet();
    expect(move.valueBps()).toBe(0);
    move.onReferenceMid(2002);
    expect(move.valueBps()).toBeCloseTo(10, 9);
  });
});

describe('the side a reference move leaves stale', () => {
  it('is the asks after a rise and the bids after a fall past the threshold, none under it or while off', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    move.onQuotesSet();
    move.onReferenceMid(2000.42);
    expect(staleSide(move, 2)).toBe('sell');
    expect(staleSide(move, 2.2)).toBeUndefined();
    expect(staleSide(move, 0)).toBeUndefined();
    move.onReferenceMid(1999.58);
    expect(staleSide(move, 2)).toBe('buy');
  });

  it('counts each side from when that side was set: a bid replaced after the rise does not make the asks fresh', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    move.onQuotesSet();
    move.onReferenceMid(2000.6);
    move.onQuotesSet('buy');
    expect(move.valueBps()).toBe(0);
    expect(move.sideValueBps('buy')).toBe(0);
    expect(move.sideValueBps('sell')).toBeCloseTo(3, 9);
    expect(staleSide(move, 2)).toBe('sell');
    move.onQuotesSet('sell');
    expect(staleSide(move, 2)).toBeUndefined();
  });
});

describe('a side the fair price has not followed the reference through', () => {
  it('lags by the reference\'s move minus the fair price\'s since the side was set', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    move.onFair(2001);
    move.onQuotesSet();
    // The reference rises 3 bp; a fair price off a lagging venue has moved 1 bp.
    move.onReferenceMid(2000.6);
    move.onFair(2001 * 1.0001);
    expect(move.sideLagBps('sell')).toBeCloseTo(2, 9);
    expect(laggingSide(move, 1.5)).toBe('sell');
    expect(laggingSide(move, 2.5)).toBeUndefined();
    expect(laggingSide(move, 0)).toBeUndefined();
    // A fair price that followed (priced off the reference) does not lag, whatever its basis.
    move.onFair(2001 * 1.0003);
    expect(move.sideLagBps('sell')).toBeCloseTo(0, 9);
    expect(laggingSide(move, 1.5)).toBeUndefined();
  });

  it('reads the bids as lagging after a fall the fair price did not follow', () => {
    const move = new ReferenceMove();
    move.onReferenceMid(2000);
    move.onFair(2000);
    move.onQuotesSet('buy');
    move.onReferenceMid(1999.4);
    expect(move.sideLagBps('buy')).toBeCloseTo(-3, 9);
    expect(laggingSide(move, 2)).toBe('buy');
  });
});

describe('how long a lagging side is left out', () => {
  it('holds it from when it began to lag for at most the hold, and lets it go at once when it stops lagging', () => {
    const hold = new SideHold();
    expect(hold.held('sell', 1_000, 0)).toBe('sell');
    expect(hold.held('sell', 1_000, 999)).toBe('sell');
    expect(hold.held('sell', 1_000, 1_000)).toBeUndefined();
    expect(hold.held(undefined, 1_000, 1_200)).toBeUndefined();
    expect(hold.held('sell', 1_000, 1_300)).toBe('sell');
    // The other side beginning to lag starts its own hold.
    expect(hold.held('buy', 1_000, 2_200)).toBe('buy');
    expect(hold.held('buy', 0, 2_200)).toBeUndefined();
  });
});
