/**
 * Seeded randomness (STYLE.md: no `Math.random()` in logic). sfc32 seeded through splitmix32:
 * fast, 128-bit state, and the same sequence on every platform for the same seed, so
 * simulations and backtests repeat exactly.
 */

/** A seeded source of random numbers. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** Exponential with the given rate (mean 1/rate). */
  exponential(rate: number): number;
  /** Uniform bigint in [0, 2^bits). */
  bigint(bits: number): bigint;
  /** An independent generator derived from this one's next outputs and a label. */
  fork(label: string): Rng;
}

/** Creates a generator from a 32-bit integer seed (other numbers are folded into 32 bits). */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const splitmix = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return new Sfc32(splitmix(), splitmix(), splitmix(), splitmix());
}

class Sfc32 implements Rng {
  private spareNormal: number | undefined;

  constructor(
    private a: number,
    private b: number,
    private c: number,
    private d: number,
  ) {
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  next(): number {
    return this.nextUint32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  normal(): number {
    if (this.spareNormal !== undefined) {
      const spare = this.spareNormal;
      this.spareNormal = undefined;
      return spare;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  }

  exponential(rate: number): number {
    let u = 0;
    while (u === 0) u = this.next();
    return -Math.log(u) / rate;
  }

  bigint(bits: number): bigint {
    let value = 0n;
    let remaining = bits;
    while (remaining > 0) {
      const take = Math.min(32, remaining);
      const chunk = BigInt(this.nextUint32() >>> (32 - take));
      value = (value << BigInt(take)) | chunk;
      remaining -= take;
    }
    return value;
  }

  fork(label: string): Rng {
    let hash = this.nextUint32();
    for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return createRng(hash);
  }

  private nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }
}
