/**
 * Stark-curve point arithmetic on plain bigints, just enough for the fast Pedersen hash: affine
 * table points, a Jacobian accumulator with mixed additions (7M + 4S, no doubling on the hot
 * path) and batch normalisation with one inversion. The curve is y² = x³ + x + β over
 * P = 2^251 + 17·2^192 + 1 (REFERENCE §2.4; the same constants as @scure/starknet).
 *
 * Not constant-time: it only ever sees public data (message fields), never private keys.
 */
export const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
export const CURVE_ALPHA = 1n;

/** An affine point; never the point at infinity (tables and prefixes cannot contain it). */
export interface Affine {
  readonly x: bigint;
  readonly y: bigint;
}

/** A mutable Jacobian point (x = X/Z², y = Y/Z³); `infinity` when Z = 0. */
export class Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;

  constructor(x: bigint, y: bigint, z: bigint) {
    this.x = x;
    this.y = y;
    this.z = z;
  }

  static from(point: Affine): Jacobian {
    return new Jacobian(point.x, point.y, 1n);
  }

  static infinity(): Jacobian {
    return new Jacobian(1n, 1n, 0n);
  }

  isInfinity(): boolean {
    return this.z === 0n;
  }

  /** this += q (affine). */
  addAffine(q: Affine): void {
    this.add(q.x, q.y);
  }

  /** this += (qx, qy). Handles doubling and inverse points, which tables make vanishingly rare. */
  add(qx: bigint, qy: bigint): void {
    if (this.z === 0n) {
      this.x = qx;
      this.y = qy;
      this.z = 1n;
      return;
    }
    const z1z1 = (this.z * this.z) % P;
    const u2 = (qx * z1z1) % P;
    const s2 = (((qy * this.z) % P) * z1z1) % P;
    const h = u2 - this.x;
    const r = s2 - this.y;
    // u2 is in [0, P) and X in (−P, P), so h ≡ 0 only as 0 or P: no division needed to check.
    if (h === 0n || h === P) {
      if (r % P === 0n) this.double();
      else this.z = 0n;
      return;
    }
    const hh = (h * h) % P;
    const hhh = (hh * h) % P;
    const v = (this.x * hh) % P;
    const x3 = (r * r - hhh - 2n * v) % P;
    this.y = (r * (v - x3) - this.y * hhh) % P;
    this.x = x3;
    this.z = (this.z * h) % P;
  }

  /** this = 2·this (dbl-2007-bl for a = 1). Only reached when an addition meets its own point. */
  double(): void {
    if (this.z === 0n) return;
    const xx = (this.x * this.x) % P;
    const yy = (this.y * this.y) % P;
    const yyyy = (yy * yy) % P;
    const zz = (this.z * this.z) % P;
    const s = (2n * ((this.x + yy) ** 2n - xx - yyyy)) % P;
    const m = (3n * xx + CURVE_ALPHA * ((zz * zz) % P)) % P;
    const x3 = (m * m - 2n * s) % P;
    const y3 = (m * (s - x3) - 8n * yyyy) % P;
    const z3 = ((this.y + this.z) ** 2n - yy - zz) % P;
    this.x = x3;
    this.y = y3;
    this.z = z3;
  }

  /** Affine x coordinate in [0, P). */
  affineX(): bigint {
    const zInv = invert(this.z);
    return mod((this.x * ((zInv * zInv) % P)) % P);
  }

  toAffine(): Affine {
    const zInv = invert(this.z);
    const zInv2 = (zInv * zInv) % P;
    return { x: mod(this.x * zInv2), y: mod(((this.y * zInv2) % P) * zInv) };
  }
}

export function mod(value: bigint, modulus: bigint = P): bigint {
  const result = value % modulus;
  return result < 0n ? result + modulus : result;
}

/**
 * Modular inverse by the extended Euclidean algorithm (faster than Fermat with bigints). Plain
 * temporaries rather than array destructuring: this runs once per Pedersen hash.
 */
export function invert(value: bigint, modulus: bigint = P): bigint {
  let a = mod(value, modulus);
  if (a === 0n) throw new RangeError('cannot invert zero');
  let b = modulus;
  let x = 1n;
  let y = 0n;
  while (b !== 0n) {
    const q = a / b;
    const nextB = a - q * b;
    a = b;
    b = nextB;
    const nextY = x - q * y;
    x = y;
    y = nextY;
  }
  return mod(x, modulus);
}

/** Normalises many Jacobian points with a single inversion (Montgomery's trick). */
export function batchToAffine(points: readonly Jacobian[]): Affine[] {
  const prefix: bigint[] = new Array<bigint>(points.length);
  let running = 1n;
  for (let i = 0; i < points.length; i++) {
    prefix[i] = running;
    running = (running * points[i]!.z) % P;
  }
  let inverse = invert(running);
  const out: Affine[] = new Array<Affine>(points.length);
  for (let i = points.length - 1; i >= 0; i--) {
    const point = points[i]!;
    const zInv = (inverse * prefix[i]!) % P;
    inverse = (inverse * point.z) % P;
    const zInv2 = (zInv * zInv) % P;
    out[i] = { x: mod(point.x * zInv2), y: mod(((point.y * zInv2) % P) * zInv) };
  }
  return out;
}

/**
 * Every multiple d·2^(b·w)·base (d = 1 … 2^b − 1) of a fixed point, window by window, so that
 * value·base costs one mixed addition per non-zero b-bit digit of value. b is a multiple of 4 so
 * digits are read straight off the hex string.
 */
export class WindowTable {
  readonly #xs: bigint[] = [];
  readonly #ys: bigint[] = [];
  readonly #hexPerWindow: number;
  readonly #entries: number;
  readonly #windows: number;

  constructor(base: Affine, bits: number, windows: number) {
    this.#hexPerWindow = bits / 4;
    this.#entries = 2 ** bits - 1;
    this.#windows = windows;
    let windowBase = base;
    for (let w = 0; w < windows; w++) {
      const points: Jacobian[] = [];
      const acc = Jacobian.from(windowBase);
      points.push(new Jacobian(acc.x, acc.y, acc.z));
      for (let d = 2; d <= this.#entries + 1; d++) {
        acc.addAffine(windowBase);
        points.push(new Jacobian(acc.x, acc.y, acc.z));
      }
      // The last point is 2^b·windowBase: the next window's base.
      const affine = batchToAffine(points);
      for (let d = 0; d < this.#entries; d++) {
        this.#xs.push(affine[d]!.x);
        this.#ys.push(affine[d]!.y);
      }
      windowBase = affine[this.#entries]!;
    }
  }

  /** acc += value·base, for 0 ≤ value < 2^(bits·windows). */
  addMultiple(acc: Jacobian, value: bigint): void {
    if (value === 0n) return;
    const hex = value.toString(16);
    const step = this.#hexPerWindow;
    if (hex.length > step * this.#windows) throw new RangeError('scalar too large for this table');
    for (let w = 0, end = hex.length; end > 0; w++, end -= step) {
      const digit = Number.parseInt(hex.slice(Math.max(0, end - step), end), 16);
      if (digit === 0) continue;
      const index = w * this.#entries + digit - 1;
      acc.add(this.#xs[index]!, this.#ys[index]!);
    }
  }
}
