import { describe, expect, it } from 'vitest';
import { formatAmount, formatBps, formatDuration, formatPercent, formatUtc } from '../../src/backtest/format.ts';
import { HOUR_MS, sharpeHorizon, sharpeRatio, type PathSample } from '../../src/backtest/stats.ts';

describe('human formatting of backtest figures', () => {
  it('writes durations in the largest sensible units', () => {
    expect(formatDuration(650_386)).toBe('10 min 50 s');
    expect(formatDuration(49_082)).toBe('49.1 s');
    expect(formatDuration(18_276_319)).toBe('5 h 4 min 36 s');
    expect(formatDuration(3 * 86_400_000 + 3_600_000)).toBe('3 d 1 h 0 min');
    expect(formatDuration(250)).toBe('250 ms');
  });

  it('writes instants as UTC date-times and amounts with their token', () => {
    expect(formatUtc(1_723_161_255_423)).toBe('2024-08-08 23:54:15.423 UTC');
    expect(formatAmount(0.01339084032, 'USDT')).toBe('0.0133908 USDT');
    expect(formatAmount(61_234.5678, 'USDT')).toBe('61,234.57 USDT');
    expect(formatAmount(-0.2557280042, 'USDT')).toBe('−0.255728 USDT');
    expect(formatAmount(0, 'ETH')).toBe('0 ETH');
  });

  it('writes shares as percentages, keeping two digits of a small one, and bps with two decimals', () => {
    expect(formatPercent(0.943)).toBe('94.3 %');
    expect(formatPercent(1 / 2992)).toBe('0.033 %');
    expect(formatPercent(null)).toBe('–');
    expect(formatBps(-8.779254863)).toBe('−8.78 bps');
  });
});

describe('Sharpe ratio', () => {
  const path = (changes: number[]): PathSample[] => {
    let pnl = 0;
    return [0, ...changes].map((change, i) => ({ timeMs: i * 1_000, mid: 1, bid: undefined, ask: undefined, inventory: 0, pnl: (pnl += change) }));
  };

  it('is stated per hour from 1 s changes by √3600, never annualised', () => {
    const samples = path([1, 2, 1, 2, 1, 2]);
    const perSample = 1.5 / 0.5;
    expect(sharpeRatio(samples, 1_000, HOUR_MS)).toBeCloseTo(perSample * 60, 9);
    expect(sharpeRatio(path([0, 0, 0]), 1_000, HOUR_MS)).toBe(0);
  });

  it('uses a day as its horizon only for runs of three days and more', () => {
    expect(sharpeHorizon(11 * 60_000)).toBe('hour');
    expect(sharpeHorizon(3 * 86_400_000)).toBe('day');
  });
});
