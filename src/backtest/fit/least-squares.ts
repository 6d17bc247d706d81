/**
 * Linear least squares with an intercept, for `akira-mm fit`: β̂ minimises
 *
 *   Σᵢ (yᵢ − β₀ − Σⱼ βⱼ xᵢⱼ)² + λ · n · Σⱼ≥₁ βⱼ²
 *
 * (ordinary least squares at λ = 0; ridge above it, the intercept never penalised; λ is per
 * sample, so its meaning does not change with the data's length). Solved by the normal equations
 * with the features centred (the intercept then falls out) and Gaussian elimination with partial
 * pivoting: a handful of columns, where a library would be more code to carry than this.
 */

/** A fitted linear model. */
export interface LinearFit {
  readonly intercept: number;
  /** One coefficient per feature column. */
  readonly coefficients: number[];
}

/**
 * Fits `y ≈ intercept + Σ coefficientⱼ · xⱼ`.
 * @param rows one row of feature values per sample.
 * @throws RangeError with fewer samples than columns + 1, rows of unequal width, or a singular
 *   system (a feature constant over the samples, or two that are proportional) at λ = 0.
 */
export function fitLinear(rows: readonly (readonly number[])[], y: readonly number[], lambda = 0): LinearFit {
  const n = rows.length;
  const k = rows[0]?.length ?? 0;
  if (n !== y.length) throw new RangeError(`${n} rows of features but ${y.length} targets`);
  if (n < k + 2) throw new RangeError(`${n} samples are too few to fit ${k} coefficients and an intercept`);
  if (!(lambda >= 0) || !Number.isFinite(lambda)) throw new RangeError(`lambda must be ≥ 0, got ${lambda}`);
  const means = new Array<number>(k).fill(0);
  let meanY = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i] as readonly number[];
    if (row.length !== k) throw new RangeError(`row ${i} has ${row.length} values, not ${k}`);
    for (let j = 0; j < k; j++) means[j] = (means[j] as number) + (row[j] as number) / n;
    meanY += (y[i] as number) / n;
  }
  // Centred normal equations: (XcᵀXc + λnI) β = Xcᵀ yc.
  const a = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (let i = 0; i < n; i++) {
    const row = rows[i] as readonly number[];
    const yc = (y[i] as number) - meanY;
    for (let p = 0; p < k; p++) {
      const xp = (row[p] as number) - (means[p] as number);
      const line = a[p] as number[];
      for (let q = p; q < k; q++) line[q] = (line[q] as number) + xp * ((row[q] as number) - (means[q] as number));
      line[k] = (line[k] as number) + xp * yc;
    }
  }
  for (let p = 0; p < k; p++) {
    const line = a[p] as number[];
    line[p] = (line[p] as number) + lambda * n;
    for (let q = 0; q < p; q++) line[q] = (a[q] as number[])[p] as number;
  }
  const coefficients = solve(a, k);
  let intercept = meanY;
  for (let j = 0; j < k; j++) intercept -= (coefficients[j] as number) * (means[j] as number);
  return { intercept, coefficients };
}

/** The prediction of `fit` for one row. */
export function predict(fit: LinearFit, row: readonly number[]): number {
  let value = fit.intercept;
  for (let j = 0; j < fit.coefficients.length; j++) value += (fit.coefficients[j] as number) * (row[j] as number);
  return value;
}

/**
 * R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)² of `fit` on these samples (ȳ their own mean): negative out of
 * sample when the model does worse than the mean. NaN when y does not vary.
 */
export function rSquared(fit: LinearFit, rows: readonly (readonly number[])[], y: readonly number[]): number {
  let meanY = 0;
  for (const value of y) meanY += value / y.length;
  let residual = 0;
  let total = 0;
  for (let i = 0; i < y.length; i++) {
    const actual = y[i] as number;
    residual += (actual - predict(fit, rows[i] as readonly number[])) ** 2;
    total += (actual - meanY) ** 2;
  }
  return total > 0 ? 1 - residual / total : Number.NaN;
}

/** Pearson correlation of two equally long series; NaN when either does not vary. */
export function correlation(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += (x[i] as number) / n;
    my += (y[i] as number) / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** Solves the k × (k+1) augmented system in place (partial pivoting). */
function solve(a: number[][], k: number): number[] {
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let row = col + 1; row < k; row++) if (Math.abs((a[row] as number[])[col] as number) > Math.abs((a[pivot] as number[])[col] as number)) pivot = row;
    const scale = Math.max(1e-300, ...a.map((line) => Math.abs(line[col] as number)));
    if (Math.abs((a[pivot] as number[])[col] as number) <= 1e-12 * scale) throw new RangeError(`the features are collinear (column ${col} adds nothing): drop one, or fit with a ridge λ > 0`);
    [a[col], a[pivot]] = [a[pivot] as number[], a[col] as number[]];
    const line = a[col] as number[];
    for (let row = col + 1; row < k; row++) {
      const other = a[row] as number[];
      const factor = (other[col] as number) / (line[col] as number);
      for (let q = col; q <= k; q++) other[q] = (other[q] as number) - factor * (line[q] as number);
    }
  }
  const beta = new Array<number>(k).fill(0);
  for (let row = k - 1; row >= 0; row--) {
    const line = a[row] as number[];
    let sum = line[k] as number;
    for (let q = row + 1; q < k; q++) sum -= (line[q] as number) * (beta[q] as number);
    beta[row] = sum / (line[row] as number);
  }
  return beta;
}
