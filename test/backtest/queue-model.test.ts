import { describe, expect, it } from 'vitest';
import { logQueue, parseQueueModel, powerQueue, riskAverseQueue } from '../../src/backtest/queue-model.ts';

describe('queue models', () => {
  it('risk-averse: cancellations come from behind, so the front only shrinks to the level size', () => {
    expect(riskAverseQueue.onLevelChange(5, 10, 8, 0)).toBe(5);
    expect(riskAverseQueue.onLevelChange(5, 10, 3, 0)).toBe(3);
    expect(riskAverseQueue.onLevelChange(5, 10, 12, 0)).toBe(5);
  });

  it('power: with n large, a cancel is taken mostly from the back (the longer part)', () => {
    // front 2, back 8, 4 cancelled: p = 8^3/(8^3+2^3) ≈ 0.985 → front − 0.015·4 ≈ 1.94
    expect(powerQueue(3).onLevelChange(2, 10, 6, 0)).toBeCloseTo(2 - (1 - 512 / 520) * 4, 9);
    // front 8, back 2: p = 8/520 → most of the cancel comes from the front
    expect(powerQueue(3).onLevelChange(8, 10, 6, 0)).toBeCloseTo(8 - (1 - 8 / 520) * 4 + Math.min(2 - (8 / 520) * 4, 0), 9);
  });

  it('does not count twice a drop that trades already took from the front', () => {
    // level 10 → 6 of which 4 were trades: no cancel left to attribute
    expect(powerQueue(2).onLevelChange(3, 10, 6, 4)).toBe(3);
    expect(logQueue.onLevelChange(3, 10, 6, 4)).toBe(3);
  });

  it('log: splits by log(1+x) and never puts the front above the level', () => {
    const p = Math.log1p(6) / (Math.log1p(6) + Math.log1p(4));
    expect(logQueue.onLevelChange(4, 10, 7, 0)).toBeCloseTo(Math.min(4 - (1 - p) * 3 + Math.min(6 - p * 3, 0), 7), 9);
    expect(logQueue.onLevelChange(9, 10, 2, 0)).toBeLessThanOrEqual(2);
  });

  it('parses the CLI names and refuses others', () => {
    expect(parseQueueModel('risk-averse')?.name).toBe('risk-averse');
    expect(parseQueueModel('power:3')?.name).toBe('power:3');
    expect(parseQueueModel('log')?.name).toBe('log');
    expect(parseQueueModel('power:0')).toBeUndefined();
    expect(parseQueueModel('fifo')).toBeUndefined();
  });
});
