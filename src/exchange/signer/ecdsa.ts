/**
 * ECDSA on the Stark curve: keys, signing and verification, bit-identical to starknet.js
 * (`ec.starkCurve`, @scure/starknet) but several times faster:
 * - k·G uses a 12-bit fixed-base window table (21 additions instead of ~250 doublings+additions);
 * - RFC 6979 nonces use node:crypto's native HMAC-SHA256 with the same DRBG and the same
 *   Stark-specific bits2int truncation as @scure/starknet, so signatures are deterministic and
 *   equal to the reference (tests compare them);
 * - verification keeps a window table per public key, built once (SIGNING-NOTES pitfall 10: never
 *   decompress a key per call), and accepts either y for an x-only stark key, as StarkWare's
 *   reference verifier does.
 */
import { createHmac } from 'node:crypto';
import { Jacobian, P, WindowTable, invert, mod, type Affine } from './curve.ts';
import type { StarkSignature } from '../wire/fields.ts';
import { FELT_BYTES, Io, JACOBIAN_BYTES, SCALAR_BYTES, WasmCurve, wasmCurve } from './wasm/runtime.ts';

/** The order of the curve's generator. */
export const CURVE_ORDER = 3618502788666131213697322783095070105526743751716087489154079457884512865583n;
/** Signatures' r, inverse s and message hashes must be below 2^251. */
export const MAX_VALUE = 2n ** 251n;
const CURVE_BETA = 3141592653589793238462643383279502884197169399375105820974944592307816406665n;
const GENERATOR: Affine = {
  x: 874739451078007766457464989774322083649278607533249481151382481072868806602n,
  y: 152666792071518830868575557812948353041420400780739481342941381225525861407n,
};

let generatorTable: WindowTable | undefined;
function generator(): WindowTable {
  // 21 windows of 12 bits cover every scalar below the 252-bit curve order.
  return (generatorTable ??= new WindowTable(GENERATOR, 12, 21));
}

let wasmGenerator: number | null | undefined;
/** The generator's 12-bit window table in wasm memory (undefined on the BigInt path). */
function wasmGeneratorTable(curve: WasmCurve | undefined): number | undefined {
  if (curve === undefined) return undefined;
  if (wasmGenerator === undefined) {
    try {
      wasmGenerator = curve.buildTable(GENERATOR, 12, 21);
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
    const empty = curve.fn.addMultiple(Io.jacA, Io.scalarA, table, 0, 12, 21, 1);
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
    if (curve.fn.addMultiple(Io.jacA, Io.scalarA, table, 0, 12, 21, 1) === 0 && curve.fn.batchNormalize(Io.pointB, Io.jacA, 1, Io.felt, 1) === 1) {
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
    const s = mod(invert(k, CURVE_ORDER) * mod(messageHash + r * privateKey, CURVE_ORDER), CURVE_ORDER);
    if (s === 0n) continue;
    // The Stark verifier needs r and s⁻¹ below 2^251; @scure/starknet throws here, so do we.
    if (r >= MAX_VALUE || invert(s, CURVE_ORDER) >= MAX_VALUE) throw new RangeError('signature out of the Stark range; change the salt');
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
    if (fn.addMultiple(Io.jacA, Io.scalarA, generatorTable, 0, 12, 21, 1) !== 0) return undefined;
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

const verifyingKeys = new Map<bigint, VerifyingKey>();

/** Verifies with a per-key cache (bounded: an exchange has few signers per process). */
export function verifySignature(messageHash: bigint, signature: StarkSignature, starkKey: bigint): boolean {
  let key = verifyingKeys.get(starkKey);
  if (key === undefined) {
    if (verifyingKeys.size >= 1024) verifyingKeys.clear();
    key = new VerifyingKey(starkKey);
    verifyingKeys.set(starkKey, key);
  }
  return key.verify(messageHash, signature);
}

/** A uniformly random private key from a source of random bytes (rejection sampling, no bias). */
export function generatePrivateKey(randomBytes: (size: number) => Uint8Array): bigint {
  for (;;) {
    const bytes = Buffer.from(randomBytes(32));
    const candidate = BigInt(`0x${bytes.toString('hex')}`) >> 4n;
    if (candidate > 0n && candidate < CURVE_ORDER) return candidate;
  }
}
