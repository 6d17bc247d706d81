import { describe, expect, it } from 'vitest';
import { renderSweepReportHtml } from '../../src/backtest/report/sweep-html.ts';
import { againstBest, checkRankBy, formatSweepTable, rankCells, type SweepSummary } from '../../src/backtest/sweep.ts';

/** A cell's summary with only the figures ranking reads (the table prints '–' for the others). */
const cell = (pnl: number, perNotional: number | null, interval: [number, number] | null, drawdown = 1): SweepSummary =>
  ({ pnl_quote: pnl, pnl_quote_ci95: null, pnl_per_notional_bps: perNotional, pnl_per_notional_bps_ci95: interval, max_drawdown_quote: drawdown }) as unknown as SweepSummary;

const summaries = [cell(5, 1, [-1, 3]), cell(2, 4, [3, 5], 0.5), cell(9, null, null, 3), cell(7, 2, [0.5, 3.5], 2)];

describe('sweep ranking', () => {
  it('ranks by the chosen figure, best first, cells without it last, PnL by default', () => {
    expect(rankCells(summaries)).toEqual([2, 3, 0, 1]);
    expect(rankCells(summaries, 'pnl_per_notional_bps')).toEqual([1, 3, 0, 2]);
    // A drawdown is better lower.
    expect(rankCells(summaries, 'max_drawdown_quote')).toEqual([1, 0, 3, 2]);
  });

  it('shows the figure\'s 95 % interval and whether each cell overlaps the best cell\'s interval', () => {
    const { text } = formatSweepTable(['SPREAD'], [{ SPREAD: '1' }, { SPREAD: '2' }, { SPREAD: '3' }, { SPREAD: '4' }], summaries, 'pnl_per_notional_bps');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^#\s+SPREAD\s+pnl_per_notional_bps \[95 % interval\]\s+vs #1\s+pnl_quote/);
    expect(lines[1]).toMatch(/^1\s+2\s+4 \[3, 5\]\s+2/);
    expect(lines[2]).toMatch(/^2\s+4\s+2 \[0\.5, 3\.5\]\s+overlaps/);
    expect(lines[3]).toMatch(/^3\s+1\s+1 \[-1, 3\]\s+overlaps/);
    expect(lines[4]).toMatch(/^4\s+3\s+–\s+9/);
    expect(againstBest([3, 5], [-1, 2.9])).toBe('apart');
  });

  it('refuses a figure it cannot rank by, naming the ones allowed', () => {
    expect(() => checkRankBy('pnl', false)).toThrow(/--rank-by pnl is not a figure a sweep ranks by \(allowed: pnl_quote, pnl_per_notional_bps/);
    expect(() => checkRankBy('markout_10s_bps', true)).toThrow(/an account sweep/);
    expect(checkRankBy('sharpe', false)).toBe('sharpe');
  });

  it('ranks the report\'s table by the same figure, with the intervals', () => {
    const html = renderSweepReportHtml({ title: 't', context: [], axes: [{ key: 'SPREAD', values: ['1', '2', '3', '4'] }], cells: [{ SPREAD: '1' }, { SPREAD: '2' }, { SPREAD: '3' }, { SPREAD: '4' }], summaries, rankBy: 'pnl_per_notional_bps' });
    expect(html).toContain('Every cell, best pnl_per_notional_bps first (4 cells)');
    expect(html).toContain('<tr><td>1</td><td>2</td><td>[3, 5]</td><td></td>');
    expect(html).toContain('<tr><td>2</td><td>4</td><td>[0.5, 3.5]</td><td>overlaps</td>');
  });
});
