import { describe, expect, it } from 'vitest';
import { ReferenceMove, staleSide } from '../../../strategies/index.ts';

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
    expect(staleSide(2.1, 2)).toBe('sell');
    expect(staleSide(-2.1, 2)).toBe('buy');
    expect(staleSide(2, 2)).toBeUndefined();
    expect(staleSide(50, 0)).toBeUndefined();
  });
});
