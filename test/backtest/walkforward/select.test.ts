import { describe, expect, it } from 'vitest';
import { DEFAULT_OBJECTIVE, checkObjective, objectiveValue, rankByObjective, selectCell } from '../../../src/backtest/walkforward/select.ts';

/** A training cell's summary with only the figures the choice reads. */
const cell = (fills: number, pnl: number, interval: [number, number] | null = null, drawdown = 1): { fills: number } =>
  ({ fills, pnl_quote: pnl, pnl_quote_ci95: interval, max_drawdown_quote: drawdown, pnl_per_notional_bps: fills === 0 ? null : pnl }) as { fills: number };

describe('what a training span chooses', () => {
  it('chooses the best PnL by default among cells with enough fills', () => {
    expect(DEFAULT_OBJECTIVE).toBe('pnl_quote');
    // The cell that barely traded (PnL 0.5 on 3 fills) would win without the floor.
    const grid = [cell(40, -0.2), cell(3, 0.5), cell(25, 0.1), cell(60, -1)];
    expect(selectCell(grid, 'pnl_quote', 20)).toEqual({ ok: true, index: 2, value: 0.1, eligible: 3 });
    expect(selectCell(grid, 'pnl_quote', 0)).toMatchObject({ ok: true, index: 1 });
  });

  it('breaks a tie with the first cell in grid order', () => {
    expect(selectCell([cell(30, 0.2), cell(30, 0.4), cell(50, 0.4)], 'pnl_quote', 20)).toMatchObject({ index: 1 });
  });

  it('minimises what is a cost and maximises an interval\'s lower bound', () => {
    const grid = [cell(30, 1, [-2, 4], 3), cell(30, 0.5, [0.1, 0.9], 0.5), cell(30, 0.8, null, 2)];
    expect(selectCell(grid, 'max_drawdown_quote', 20)).toMatchObject({ index: 1 });
    expect(selectCell(grid, 'pnl_quote_ci95_low', 20)).toMatchObject({ index: 1, value: 0.1, eligible: 2 });
    expect(objectiveValue(grid[2] as object, 'pnl_quote_ci95_low')).toBeNull();
    expect(rankByObjective(grid, 'pnl_quote_ci95_low')).toEqual([1, 0, 2]);
  });

  it('says why nothing can be chosen: too few fills, or no value of the objective', () => {
    const quiet = selectCell([cell(3, 1), cell(12, 2)], 'pnl_quote', 20);
    expect(quiet.ok).toBe(false);
    expect(!quiet.ok && quiet.reason).toMatch(/no cell of the 2 traded --min-fills 20 times on the training span \(the most: 12\)/);
    const noInterval = selectCell([cell(30, 1)], 'pnl_quote_ci95_low', 20);
    expect(!noInterval.ok && noInterval.reason).toMatch(/has a value of pnl_quote_ci95_low/);
  });

  it('refuses an objective it does not know, naming those it does', () => {
    expect(() => checkObjective('pnl')).toThrow(/--objective pnl is not a figure a walk-forward maximises \(allowed: pnl_quote, .*pnl_quote_ci95_low/);
    expect(checkObjective('sharpe')).toBe('sharpe');
  });
});
