import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/core/index.ts';

describe('editDistance', () => {
  it('counts an insertion, a deletion, a substitution and a swap of neighbours as one edit each', () => {
    expect(editDistance('duration', 'duration')).toBe(0);
    expect(editDistance('durration', 'duration')).toBe(1);
    expect(editDistance('duation', 'duration')).toBe(1);
    expect(editDistance('diration', 'duration')).toBe(1);
    expect(editDistance('backtset', 'backtest')).toBe(1);
    expect(editDistance('', 'run')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('closestName', () => {
  it('names the nearest candidate within the allowed distance, the first one on a tie', () => {
    expect(closestName('papr', ['paper', 'preflight', 'record'], 1)).toBe('paper');
    expect(closestName('ab', ['aa', 'bb'], 1)).toBe('aa');
    expect(closestName('GAS_PRICE_MULTIPLER', ['GAS_PRICE_MULTIPLIER', 'GAS_PRICE_MARGIN'], 3)).toBe('GAS_PRICE_MULTIPLIER');
  });

  it('names none when every candidate is further than the allowed distance', () => {
    expect(closestName('frobnicate', ['paper', 'run'], 3)).toBeUndefined();
    expect(closestName('x', ['h'], 0)).toBeUndefined();
    expect(closestName('run', [], 3)).toBeUndefined();
  });
});
