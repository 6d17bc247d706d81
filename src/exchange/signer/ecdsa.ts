/**
 * ECDSA on the Stark curve: keys, signing and verification, bit-identical to starknet.js
 * (`ec.starkCurve`, @scure/starknet) but several times faster:
 * - k·G uses a 10-bit fixed-base window table (26 additions instead of ~250 doublings+additions),
 *   in wasm memory when WebAssembly is available (the same wasm curve as Pedersen);
 * - RFC 6979 nonces use node:crypto's native HMAC-SHA256 with the same DRBG and the same
 *   Stark-specific bits2int truncation as @scure/starknet, so signatures are deterministic and
 *   equal to the reference (tests compare them);
 * - verification keeps a window table per public key, built once (SIGNING-NOTES pitfall 10: never
 *   decompress a key per call), and accepts either y for an x-only stark key, as StarkWare's
 *   reference verifier does. `verifySignatures` checks many at once with shared inversions.
 */
import { createHmac } from 'node:crypto';
import { Jacobian, P, WindowTable, invert, mod, type Affine } from './curve.ts';
import type { StarkSignature } from '../wire/fields.ts';
import { AFFINE_BYTES, FELT_BYTES, Io, JACOBIAN_BYTES, SCALAR_BYTES, WasmCurve, wasmCurve } from './wasm/runtime.ts';

/** The order of the curve's generator. */
export const CURVE_ORDER = 3618502788666131213697322783095070105526743751716087489154079457884512865583n;
/** Signatures' r, inverse s and message hashes must be below 2^251. */
export const MAX_VALUE = 2n ** 251n;
const CURVE_BETA = 3141592653589793238462643383279502884197169399375105820974944592307816406665n;
const GENERATOR: Affine = {
  x: 874739451078007766457464989774322083649278607533249481151382481072868806602n,
  y: 152666792071518830868575557812948353041420400780739481342941381225525861407n,
};

/** The wasm table of k·G: 26 windows of 10 bits cover every scalar below the 252-bit curve order (1.9 MB; 12-bit windows took 6.2 MB, see pedersen.ts WINDOW_BITS). */
const GENERATOR_BITS = 10;
const GENERATOR_WINDOWS = 26;

let generatorTable: WindowTable | undefined;
function generator(): WindowTable {
  // The BigInt path reads whole hex digits: 21 windows of 12 bits cover the 252-bit curve order.
  return (generatorTable ??= new WindowTable(GENERATOR, 12, 21));
}

let wasmGenerator: number | null | undefined;
/** The generator's window table in wasm memory (undefined on the BigInt path). */
function wasmGeneratorTable(curve: WasmCurve | undefined): number | undefined {
  if (curve === undefined) return undefined;
  if (wasmGenerator === undefined) {
    try {
      wasmGenerator = curve.buildTable(GENERATOR, GENERATOR_BITS, GENERATOR_WINDOWS);
    } catch {
      wasmGenerator = null;
    }
  }
  return wasmGenerator ?? undefined;
}

/** Builds the generator table now instead of on the first signature. */
export function warmGenerator(): void {
  if (wasmGeneratorTable(wasmCurve()) === undefined) generator();
}

/** The affine x of k·G (k in [1, n)). */
function generatorX(k: bigint): bigint {
  const curve = wasmCurve();
  const table = wasmGeneratorTable(curve);
  if (curve !== undefined && table !== undefined) {
    curve.writeScalar(Io.scalarA, k);
    const empty = curve.fn.addMultiple(Io.jacA, Io.scalarA, table, 0, GENERATOR_BITS, GENERATOR_WINDOWS, 1);
    if (empty === 0 && curve.fn.affineX(Io.scalarOut, Io.jacA) === 1) return curve.readScalar(Io.scalarOut);
  }
  return multiplyGenerator(k).affineX();
}

function multiplyGenerator(scalar: bigint): Jacobian {
  const acc = Jacobian.infinity();
  generator().addMultiple(acc, scalar);
  return acc;
}

/** @throws RangeError when the key is not in [1, n). */
function checkPrivateKey(privateKey: bigint): void {
  if (privateKey <= 0n || privateKey >= CURVE_ORDER) throw new RangeError('private key must be in [1, curve order)');
}

/** The full public key point of a private key. */
export function publicPointOf(privateKey: bigint): Affine {
  checkPrivateKey(privateKey);
  const curve = wasmCurve();
  const table = wasmGeneratorTable(curve);
  if (curve !== undefined && table !== undefined) {
    curve.writeScalar(Io.scalarA, privateKey);
    if (curve.fn.addMultiple(Io.jacA, Io.scalarA, table, 0, GENERATOR_BITS, GENERATOR_WINDOWS, 1) === 0 && curve.fn.batchNormalize(Io.pointB, Io.jacA, 1, Io.felt, 1) === 1) {
      return curve.readAffine(Io.pointB);
    }
  }
  return multiplyGenerator(privateKey).toAffine();
}

/** The stark key: the public key's x coordinate, which accounts register and the venue knows. */
export function starkKeyOf(privateKey: bigint): bigint {
  return publicPointOf(privateKey).x;
}

function toBytes32(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
}

/** @scure/starknet's bits2int: strip leading zero bytes, keep the top 252 bits. */
function bits2int(bytes: Buffer): bigint {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  if (trimmed.length === 0) return 0n;
  const value = BigInt(`0x${trimmed.toString('hex')}`);
  const delta = trimmed.length * 8 - 252;
  return delta > 0 ? value >> BigInt(delta) : value;
}

/** RFC 6979 HMAC-DRBG over SHA-256, seeded as noble-curves seeds it: int2octets(d) ‖ int2octets(h). */
function* nonces(privateKey: bigint, messageHash: bigint): Generator<bigint> {
  const seed = Buffer.concat([toBytes32(privateKey), toBytes32(messageHash)]);
  let k: Buffer = Buffer.alloc(32, 0);
  let v: Buffer = Buffer.alloc(32, 1);
  const hmac = (...parts: Buffer[]): Buffer => {
    const h = createHmac('sha256', k);
    for (const part of parts) h.update(part);
    return h.digest();
  };
  const reseed = (data: Buffer): void => {
    k = hmac(v, Buffer.from([0]), data);
    v = hmac(v);
    if (data.length === 0) return;
    k = hmac(v, Buffer.from([1]), data);
    v = hmac(v);
  };
  reseed(seed);
  for (;;) {
    v = hmac(v);
    yield bits2int(v);
    reseed(Buffer.alloc(0));
  }
}

/**
 * Signs a message hash (< 2^251) with a private key. Deterministic (RFC 6979), equal to
 * starknet.js `ec.starkCurve.sign`.
 */
export function signHash(messageHash: bigint, privateKey: bigint): StarkSignature {
  checkPrivateKey(privateKey);
  if (messageHash < 0n || messageHash >= MAX_VALUE) throw new RangeError('message hash must be in [0, 2^251)');
  for (const k of nonces(privateKey, messageHash)) {
    if (k <= 0n || k >= CURVE_ORDER) continue;
    const r = mod(generatorX(k), CURVE_ORDER);
    if (r === 0n) continue;
    const e = mod(messageHash + r * privateKey, CURVE_ORDER);
    if (e === 0n) continue; // s would be 0
    // s = e/k and s⁻¹ = k/e from ONE inversion of k·e (k, e ≠ 0 mod the prime n).
    const t = invert((k * e) % CURVE_ORDER, CURVE_ORDER);
    const s = (((t * e) % CURVE_ORDER) * e) % CURVE_ORDER;
    const w = (((t * k) % CURVE_ORDER) * k) % CURVE_ORDER;
    // The Stark verifier needs r and s⁻¹ below 2^251; @scure/starknet throws here, so do we.
    if (r >= MAX_VALUE || w >= MAX_VALUE) throw new RangeError('signature out of the Stark range; change the salt');
    return { r, s };
  }
  throw new Error('unreachable: the nonce generator never ends');
}

/** Both points with this x (x-only stark keys do not say which y), or none when x is off-curve. */
function pointsWithX(x: bigint): Affine[] {
  if (x <= 0n || x >= P) return [];
  const ySquared = mod(x * x * x + x + CURVE_BETA);
  const y = sqrtMod(ySquared);
  if (y === undefined) return [];
  return [{ x, y }, { x, y: mod(-y) }];
}

/** Tonelli–Shanks square root mod P (P ≡ 1 mod 4, so the shortcut formula does not apply). */
function sqrtMod(value: bigint): bigint | undefined {
  if (value === 0n) return 0n;
  if (powMod(value, (P - 1n) / 2n) !== 1n) return undefined;
  let q = P - 1n;
  let s = 0n;
  while ((q & 1n) === 0n) {
    q >>= 1n;
    s++;
  }
  let z = 2n;
  while (powMod(z, (P - 1n) / 2n) !== P - 1n) z++;
  let m = s;
  let c = powMod(z, q);
  let t = powMod(value, q);
  let r = powMod(value, (q + 1n) / 2n);
  while (t !== 1n) {
    let i = 0n;
    let t2 = t;
    while (t2 !== 1n) {
      t2 = (t2 * t2) % P;
      i++;
    }
    const b = powMod(c, 1n << (m - i - 1n));
    m = i;
    c = (b * b) % P;
    t = (t * c) % P;
    r = (r * b) % P;
  }
  return r;
}

function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

/**
 * A public key prepared for many verifications: one window table (8-bit, ~8k points, built once),
 * shared by both candidate y values because the second is the negation of the first.
 */
/** Wasm window tables of verifying keys go back to the allocator when their key is collected. */
const keyTables = new FinalizationRegistry<{ curve: WasmCurve; ptr: number }>(({ curve, ptr }) => curve.free(ptr, KEY_TABLE_BYTES));
const KEY_TABLE_BYTES = WasmCurve.tableBytes(8, 32);
const SUMS = Io.jacs;
const SUM_XS = Io.jacs + 2 * JACOBIAN_BYTES;
const SUM_SCRATCH = SUM_XS + 2 * SCALAR_BYTES;

/**
 * A public key prepared for many verifications: one window table (8-bit, ~8k points, built once),
 * shared by both candidate y values because the second is the negation of the first. The table
 * lives in wasm memory when WebAssembly is available, else in bigints.
 */
export class VerifyingKey {
  readonly starkKey: bigint;
  readonly #table: WindowTable | undefined;
  readonly #wasmTable: number | undefined;
  readonly #point: Affine | undefined;

  constructor(starkKey: bigint) {
    this.starkKey = starkKey;
    const [point] = pointsWithX(starkKey);
    this.#point = point;
    const curve = wasmCurve();
    if (point !== undefined && curve !== undefined && wasmGeneratorTable(curve) !== undefined) {
      this.#wasmTable = curve.buildTable(point, 8, 32, curve.alloc(KEY_TABLE_BYTES));
      keyTables.register(this, { curve, ptr: this.#wasmTable });
      this.#table = undefined;
    } else {
      this.#wasmTable = undefined;
      this.#table = point === undefined ? undefined : new WindowTable(point, 8, 32);
    }
  }

  /**
   * Verifies many (key, hash, signature) triples; equal to `verify` on each. On wasm the s⁻¹ of all
   * signatures come from one inversion mod n, and all u2·Q points, then all candidate sums, are
   * normalised with one field inversion each (Montgomery's trick), instead of three per signature.
   */
  static verifyMany(items: readonly { key: VerifyingKey; hash: bigint; signature: StarkSignature }[]): boolean[] {
    const results = new Array<boolean>(items.length).fill(false);
    const curve = wasmCurve();
    const generatorTable = wasmGeneratorTable(curve);
    // Range checks; what passes goes on to the shared inversion.
    const live: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const { key, hash, signature } = items[i]!;
      const { r, s } = signature;
      if (key.#point === undefined || hash < 0n || hash >= MAX_VALUE || r <= 0n || r >= MAX_VALUE || s <= 0n || s >= CURVE_ORDER) continue;
      live.push(i);
    }
    if (curve === undefined || generatorTable === undefined || live.length < 2) {
      for (const i of live) results[i] = items[i]!.key.verify(items[i]!.hash, items[i]!.signature);
      return results;
    }
    // s⁻¹ mod n for every live signature with one inversion.
    const prefix: bigint[] = new Array<bigint>(live.length);
    let running = 1n;
    for (let n = 0; n < live.length; n++) {
      prefix[n] = running;
      running = (running * items[live[n]!]!.signature.s) % CURVE_ORDER;
    }
    let inverse = invert(running, CURVE_ORDER);
    const ws: bigint[] = new Array<bigint>(live.length);
    for (let n = live.length - 1; n >= 0; n--) {
      const s = items[live[n]!]!.signature.s;
      ws[n] = (inverse * prefix[n]!) % CURVE_ORDER;
      inverse = (inverse * s) % CURVE_ORDER;
    }
    // Scalar multiples on wasm; anything unusual (infinity, a key without a wasm table) goes one by one.
    const fn = curve.fn;
    const slow: number[] = [];
    const batch: { index: number; r: bigint }[] = [];
    const area = verifyArea(curve, live.length);
    for (let n = 0; n < live.length; n++) {
      const index = live[n]!;
      const { key, hash, signature } = items[index]!;
      const w = ws[n]!;
      if (w >= MAX_VALUE) continue;
      const table = key.#wasmTable;
      const u1 = (hash * w) % CURVE_ORDER;
      const u2 = (signature.r * w) % CURVE_ORDER;
      const slot = batch.length;
      const jacA = area.jacA + slot * JACOBIAN_BYTES;
      const jacB = area.jacB + slot * JACOBIAN_BYTES;
      if (table === undefined) {
        slow.push(index);
        continue;
      }
      curve.writeScalar(Io.scalarA, u1);
      if (fn.addMultiple(jacA, Io.scalarA, generatorTable, 0, GENERATOR_BITS, GENERATOR_WINDOWS, 1) !== 0) {
        slow.push(index);
        continue;
      }
      curve.writeScalar(Io.scalarB, u2);
      if (fn.addMultiple(jacB, Io.scalarB, table, 0, 8, 32, 1) !== 0) {
        slow.push(index);
        continue;
      }
      batch.push({ index, r: signature.r });
    }
    const count = batch.length;
    let ok = count > 0 && fn.batchNormalize(area.affB, area.jacB, count, area.scratch, 1) === 1;
    if (ok) {
      curve.u32.fill(0, Io.feltB >> 2, (Io.feltB >> 2) + FELT_BYTES / 4);
      for (let n = 0; n < count; n++) {
        const b = area.affB + n * AFFINE_BYTES;
        const plus = area.sums + 2 * n * JACOBIAN_BYTES;
        const minus = plus + JACOBIAN_BYTES;
        fn.copy(plus, area.jacA + n * JACOBIAN_BYTES, JACOBIAN_BYTES / 4);
        fn.copy(minus, area.jacA + n * JACOBIAN_BYTES, JACOBIAN_BYTES / 4);
        fn.madd(plus, b);
        // −B = (x, 2P − y)
        fn.copy(Io.pointA, b, FELT_BYTES / 4);
        fn.sub2(Io.pointA + FELT_BYTES, Io.feltB, b + FELT_BYTES);
        fn.madd(minus, Io.pointA);
      }
      ok = fn.batchNormalize(area.xs, area.sums, 2 * count, area.scratch, 0) === 1;
    }
    for (let n = 0; n < count; n++) {
      const { index, r } = batch[n]!;
      if (!ok) {
        slow.push(index);
        continue;
      }
      const x1 = curve.readScalar(area.xs + 2 * n * SCALAR_BYTES);
      const x2 = curve.readScalar(area.xs + (2 * n + 1) * SCALAR_BYTES);
      results[index] = x1 % CURVE_ORDER === r || x2 % CURVE_ORDER === r;
    }
    for (const index of slow) results[index] = items[index]!.key.verify(items[index]!.hash, items[index]!.signature);
    return results;
  }

  #bigintTable(): WindowTable | undefined {
    if (this.#table !== undefined || this.#point === undefined) return this.#table;
    return new WindowTable(this.#point, 8, 32);
  }

  /** True when the signature is valid for (x, y) or (x, −y). Never throws. */
  verify(messageHash: bigint, signature: StarkSignature): boolean {
    const { r, s } = signature;
    if (this.#point === undefined) return false;
    if (messageHash < 0n || messageHash >= MAX_VALUE) return false;
    if (r <= 0n || r >= MAX_VALUE || s <= 0n || s >= CURVE_ORDER) return false;
    const w = invert(s, CURVE_ORDER);
    if (w >= MAX_VALUE) return false;
    const u1 = mod(messageHash * w, CURVE_ORDER);
    const u2 = mod(r * w, CURVE_ORDER);
    const fast = this.#wasmTable === undefined ? undefined : this.#verifyWasm(u1, u2, r);
    return fast ?? this.#verifyBigint(u1, u2, r);
  }

  /** The wasm check, or undefined for the rare cases it leaves to the BigInt path (infinity, doubling). */
  #verifyWasm(u1: bigint, u2: bigint, r: bigint): boolean | undefined {
    const curve = wasmCurve();
    const generatorTable = wasmGeneratorTable(curve);
    if (curve === undefined || generatorTable === undefined || this.#wasmTable === undefined) return undefined;
    const fn = curve.fn;
    curve.writeScalar(Io.scalarA, u1);
    if (fn.addMultiple(Io.jacA, Io.scalarA, generatorTable, 0, GENERATOR_BITS, GENERATOR_WINDOWS, 1) !== 0) return undefined;
    curve.writeScalar(Io.scalarB, u2);
    if (fn.addMultiple(Io.jacB, Io.scalarB, this.#wasmTable, 0, 8, 32, 1) !== 0) return undefined;
    // B = u2·Q in affine form; −B has y' = 2P − y (the zero felt lives at Io.feltB).
    if (fn.batchNormalize(Io.pointB, Io.jacB, 1, Io.felt, 1) !== 1) return undefined;
    fn.copy(Io.pointA, Io.pointB, FELT_BYTES / 4);
    curve.u32.fill(0, Io.feltB >> 2, (Io.feltB >> 2) + FELT_BYTES / 4);
    fn.sub2(Io.pointA + FELT_BYTES, Io.feltB, Io.pointB + FELT_BYTES);
    fn.copy(SUMS, Io.jacA, JACOBIAN_BYTES / 4);
    fn.copy(SUMS + JACOBIAN_BYTES, Io.jacA, JACOBIAN_BYTES / 4);
    fn.madd(SUMS, Io.pointB);
    fn.madd(SUMS + JACOBIAN_BYTES, Io.pointA);
    if (fn.batchNormalize(SUM_XS, SUMS, 2, SUM_SCRATCH, 0) !== 1) return undefined;
    return mod(curve.readScalar(SUM_XS), CURVE_ORDER) === r || mod(curve.readScalar(SUM_XS + SCALAR_BYTES), CURVE_ORDER) === r;
  }

  #verifyBigint(u1: bigint, u2: bigint, r: bigint): boolean {
    const table = this.#bigintTable();
    if (table === undefined) return false;
    // R = u1·G ± u2·Q; with Q' = −Q, u2·Q' = −(u2·Q), so both candidates come from two partial sums.
    const a = multiplyGenerator(u1);
    const b = Jacobian.infinity();
    table.addMultiple(b, u2);
    if (b.isInfinity()) return false;
    const bAffine = b.toAffine();
    for (const candidate of [bAffine, { x: bAffine.x, y: mod(-bAffine.y) }]) {
      const sum = new Jacobian(a.x, a.y, a.z);
      sum.addAffine(candidate);
      if (!sum.isInfinity() && mod(sum.affineX(), CURVE_ORDER) === r) return true;
    }
    return false;
  }
}

/** Wasm memory for batch verification, grown on demand. */
interface VerifyArea {
  readonly capacity: number;
  readonly jacA: number;
  readonly jacB: number;
  readonly affB: number;
  readonly sums: number;
  readonly xs: number;
  readonly scratch: number;
}
let verifyAreaCache: VerifyArea | undefined;
function verifyArea(curve: WasmCurve, count: number): VerifyArea {
  if (verifyAreaCache !== undefined && verifyAreaCache.capacity >= count) return verifyAreaCache;
  const capacity = Math.max(count, 2 * (verifyAreaCache?.capacity ?? 0), 16);
  // Scalars first (8-byte aligned), then points and scratch.
  const xs = curve.alloc(capacity * (2 * SCALAR_BYTES + 4 * JACOBIAN_BYTES + AFFINE_BYTES + 2 * FELT_BYTES));
  const jacA = xs + 2 * capacity * SCALAR_BYTES;
  const jacB = jacA + capacity * JACOBIAN_BYTES;
  const sums = jacB + capacity * JACOBIAN_BYTES;
  const affB = sums + 2 * capacity * JACOBIAN_BYTES;
  const scratch = affB + capacity * AFFINE_BYTES;
  verifyAreaCache = { capacity, jacA, jacB, affB, sums, xs, scratch };
  return verifyAreaCache;
}

const verifyingKeys = new Map<bigint, VerifyingKey>();

function verifyingKey(starkKey: bigint): VerifyingKey {
  let key = verifyingKeys.get(starkKey);
  if (key === undefined) {
    if (verifyingKeys.size >= 1024) verifyingKeys.clear();
    key = new VerifyingKey(starkKey);
    verifyingKeys.set(starkKey, key);
  }
  return key;
}

/** Verifies with a per-key cache (bounded: an exchange has few signers per process). */
export function verifySignature(messageHash: bigint, signature: StarkSignature, starkKey: bigint): boolean {
  return verifyingKey(starkKey).verify(messageHash, signature);
}

/** `verifySignature` on many items at once (shared inversions); never throws on bad signatures. */
export function verifySignatures(items: readonly { hash: bigint; signature: StarkSignature; starkKey: bigint }[]): boolean[] {
  return VerifyingKey.verifyMany(items.map((item) => ({ key: verifyingKey(item.starkKey), hash: item.hash, signature: item.signature })));
}

/** A uniformly random private key from a source of random bytes (rejection sampling, no bias). */
export function generatePrivateKey(randomBytes: (size: number) => Uint8Array): bigint {
  for (;;) {
    const bytes = Buffer.from(randomBytes(32));
    const candidate = BigInt(`0x${bytes.toString('hex')}`) >> 4n;
    if (candidate > 0n && candidate < CURVE_ORDER) return candidate;
  }
}
