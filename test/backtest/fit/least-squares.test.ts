import { describe, expect, it } from 'vitest';
import { correlation, fitLinear, predict, rSquared } from '../../../src/backtest/fit/least-squares.ts';

/** y = 0.5 + 2·x₁ − 3·x₂ exactly, over a grid that keeps the two columns apart. */
function exactSamples(): { rows: number[][]; y: number[] } {
  const rows: number[][] = [];
  const y: number[] = [];
  for (let a = 0; a < 10; a++) {
    for (let b = 0; b < 7; b++) {
      const x1 = a / 3;
      const x2 = Math.sin(a + b * 1.7);
      rows.push([x1, x2]);
      y.push(0.5 + 2 * x1 - 3 * x2);
    }
  }
  return { rows, y };
}

describe('least squares with an intercept', () => {
  it('recovers the coefficients of an exact linear relation and scores R² = 1 on it', () => {
    const { rows, y } = exactSamples();
    const fit = fitLinear(rows, y);
    expect(fit.intercept).toBeCloseTo(0.5, 9);
    expect(fit.coefficients[0]).toBeCloseTo(2, 9);
    expect(fit.coefficients[1]).toBeCloseTo(-3, 9);
    expect(rSquared(fit, rows, y)).toBeCloseTo(1, 12);
    expect(predict(fit, [1, 0])).toBeCloseTo(2.5, 9);
  });

  it('shrinks the coefficients towards 0 under a ridge penalty, leaving the intercept free', () => {
    const { rows, y } = exactSamples();
    const ols = fitLinear(rows, y);
    const ridge = fitLinear(rows, y, 1);
    expect(Math.abs(ridge.coefficients[0] as number)).toBeLessThan(Math.abs(ols.coefficients[0] as number));
    expect(Math.abs(ridge.coefficients[1] as number)).toBeLessThan(Math.abs(ols.coefficients[1] as number));
    // One column, x centred: β = Σxy / (Σx² + λn) exactly.
    const x = [-1, 0, 1, 2];
    const yy = [1, 2, 3, 4.5];
    const mx = 0.5;
    const my = 2.625;
    const sxy = x.reduce((s, v, i) => s + (v - mx) * ((yy[i] as number) - my), 0);
    const sxx = x.reduce((s, v) => s + (v - mx) ** 2, 0);
    expect(fitLinear(x.map((v) => [v]), yy, 0.5).coefficients[0]).toBeCloseTo(sxy / (sxx + 0.5 * 4), 12);
  });

  it('scores a model that does worse than the mean below 0 out of sample', () => {
    const rows = [[0], [1], [2], [3]];
    expect(rSquared({ intercept: 0, coefficients: [-1] }, rows, [0, 1, 2, 3])).toBeLessThan(0);
  });

  it('refuses collinear features, too few samples and rows of unequal width, naming the problem', () => {
    const rows = [[1, 2], [2, 4], [3, 6], [4, 8], [5, 10]];
    expect(() => fitLinear(rows, [1, 2, 3, 4, 5])).toThrow(/collinear/);
    expect(() => fitLinear([[1], [2]], [1, 2])).toThrow(/too few/);
    expect(() => fitLinear([[1], [2, 3], [3], [4]], [1, 2, 3, 4])).toThrow(/row 1 has 2 values, not 1/);
  });

  it('correlates perfectly with a positive multiple and not at all with a constant', () => {
    expect(correlation([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(correlation([1, 2, 3], [5, 5, 5])).toBeNaN();
  });
});
