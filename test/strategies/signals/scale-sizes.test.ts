import { describe, expect, it } from 'vitest';
import { scaleSizes } from '../../../strategies/index.ts';

describe('scaling quote sizes per side', () => {
  const quotes = [
    { side: 'buy' as const, price: 99.9, size: 2, level: 0 },
    { side: 'sell' as const, price: 100.1, size: 2, level: 0 },
  ];

  it('scales each side by its own factor and leaves a side at 1 as the very same quote', () => {
    const scaled = scaleSizes(quotes, 0.25, 1);
    expect(scaled[0]?.size).toBe(0.5);
    expect(scaled[1]).toBe(quotes[1]);
  });

  it('never grows a size past the strategy\'s: a factor above 1 counts as 1', () => {
    expect(scaleSizes(quotes, 3, 1)).toBe(quotes);
    expect(scaleSizes(quotes, 1.5, 0.5).map((quote) => quote.size)).toEqual([2, 1]);
  });
});
