import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/index.ts';

describe('createRng', () => {
  it('repeats exactly for the same seed and differs for another', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    const seqB = Array.from({ length: 5 }, () => b.next());
    const seqC = Array.from({ length: 5 }, () => c.next());
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
  });

  it('draws uniforms in [0, 1) with the right mean, and normals with mean 0 and variance 1', () => {
    const rng = createRng(7);
    let sum = 0;
    let normalSum = 0;
    let normalSquares = 0;
    const n = 50_000;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      const z = rng.normal();
      normalSum += z;
      normalSquares += z * z;
    }
    expect(sum / n).toBeCloseTo(0.5, 2);
    expect(normalSum / n).toBeCloseTo(0, 1);
    expect(normalSquares / n).toBeCloseTo(1, 1);
  });

  it('draws exponentials with mean 1/rate and integers within range', () => {
    const rng = createRng(9);
    let total = 0;
    for (let i = 0; i < 20_000; i++) total += rng.exponential(4);
    expect(total / 20_000).toBeCloseTo(0.25, 1);
    for (let i = 0; i < 1_000; i++) {
      const k = rng.int(6);
      expect(Number.isInteger(k) && k >= 0 && k < 6).toBe(true);
    }
  });

  it('draws bigints below 2^bits and forks independent, repeatable streams', () => {
    const rng = createRng(1);
    for (let i = 0; i < 100; i++) expect(rng.bigint(120) < 2n ** 120n).toBe(true);
    const f1 = createRng(5).fork('flow');
    const f2 = createRng(5).fork('flow');
    const g = createRng(5).fork('faults');
    expect(f1.next()).toBe(f2.next());
    expect(createRng(5).fork('flow').next()).not.toBe(g.next());
  });
});
