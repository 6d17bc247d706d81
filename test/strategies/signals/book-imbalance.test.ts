import { describe, expect, it } from 'vitest';
import { bookImbalance } from '../../../strategies/index.ts';

const level = (size: number, price = 100): { price: number; qty: number } => ({ price, qty: size });

describe('multi-level book imbalance', () => {
  it('is (b − a)/(b + a) of the touch with one level', () => {
    expect(bookImbalance({ bids: [level(3)], asks: [level(1)] }, { levels: 1, decay: 0.5 })).toBeCloseTo(0.5, 12);
  });

  it('weighs level i by decay^i over N levels and ignores deeper ones', () => {
    const depth = { bids: [level(1), level(4), level(100)], asks: [level(1), level(0), level(0)] };
    // level 0: 1 − 1 = 0 over 2; level 1 (w 0.5): 4 − 0 over 4 → (0 + 2) / (2 + 2)
    expect(bookImbalance(depth, { levels: 2, decay: 0.5 })).toBeCloseTo(0.5, 12);
    // with every level alike: (0 + 4 + 100) / (2 + 4 + 100)
    expect(bookImbalance(depth, { levels: 3, decay: 1 })).toBeCloseTo(104 / 106, 12);
  });

  it('is +1 with only bids, −1 with only asks, 0 on an empty book', () => {
    expect(bookImbalance({ bids: [level(2)], asks: [] }, { levels: 5, decay: 0.5 })).toBe(1);
    expect(bookImbalance({ bids: [], asks: [level(2)] }, { levels: 5, decay: 0.5 })).toBe(-1);
    expect(bookImbalance({ bids: [], asks: [] }, { levels: 5, decay: 0.5 })).toBe(0);
  });

  it('counts a negative or non-finite size as nothing', () => {
    expect(bookImbalance({ bids: [level(-5)], asks: [level(Number.NaN)] }, { levels: 1, decay: 0.5 })).toBe(0);
  });
});
