/**
 * The instantiated field/curve module and its memory: a bump allocator (with a free list for
 * blocks given back), bigint ⇄ memory conversions and window-table construction. One instance per
 * thread, created on first use; `wasmCurve()` returns undefined when WebAssembly is unavailable
 * (or AKIRA_SIGNER_WASM=0), and every caller then takes the pure-BigInt path.
 */
import { Jacobian, type Affine } from '../curve.ts';
import { AFFINE_BYTES, Addr, FELT_BYTES, HEAP_START, JACOBIAN_BYTES, P, R, SCALAR_BYTES, generateModule } from './module.ts';

type Ptr = number;

/** The module's exports (pointers are byte offsets into memory). */
export interface CurveExports {
  mul(r: Ptr, a: Ptr, b: Ptr): void;
  sqr(r: Ptr, a: Ptr): void;
  add(r: Ptr, a: Ptr, b: Ptr): void;
  sub2(r: Ptr, a: Ptr, b: Ptr): void;
  sub4(r: Ptr, a: Ptr, b: Ptr): void;
  sub8(r: Ptr, a: Ptr, b: Ptr): void;
  condSubP(r: Ptr): void;
  copy(dst: Ptr, src: Ptr, words: number): void;
  canon(r: Ptr, a: Ptr): void;
  toMont(r: Ptr, a: Ptr): void;
  isZero(a: Ptr): number;
  sqrN(r: Ptr, n: number): void;
  inv(r: Ptr, a: Ptr): void;
  setJac(j: Ptr, q: Ptr): void;
  madd(j: Ptr, q: Ptr): void;
  addMultiple(j: Ptr, scalar: Ptr, table: Ptr, bitOffset: number, bits: number, windows: number, empty: number): number;
  fromScalar(r: Ptr, s: Ptr): void;
  toScalar(s: Ptr, a: Ptr): void;
  affineX(s: Ptr, j: Ptr): number;
  batchNormalize(out: Ptr, jacs: Ptr, n: number, scratch: Ptr, mode: number): number;
  multiples(jacs: Ptr, base: Ptr, twoBase: Ptr, n: number): void;
}

/** Fixed exchange slots for the TypeScript side (inside Addr.io … HEAP_START). */
export const Io = {
  scalarA: Addr.io,
  scalarB: Addr.io + 64,
  scalarOut: Addr.io + 128,
  felt: Addr.io + 192,
  feltB: Addr.io + 256,
  pointA: Addr.io + 320,
  pointB: Addr.io + 448,
  jacA: Addr.io + 576,
  jacB: Addr.io + 768,
  jacs: Addr.io + 1024,
} as const;

const PAGE = 65536;

/** The slice of the WebAssembly JS API used here (the project's TS lib has no DOM/wasm types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}

function wasmApi(): WasmApi {
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) throw new Error('WebAssembly is not available');
  return api;
}
const M64 = (1n << 64n) - 1n;

export class WasmCurve {
  readonly fn: CurveExports;
  readonly memory: WasmMemory;
  #heap = HEAP_START;
  #buffer: ArrayBuffer;
  #u32: Uint32Array;
  #u64: BigUint64Array;
  readonly #free = new Map<number, Ptr[]>();
  #scratch: Ptr = 0;
  #scratchBytes = 0;

  constructor() {
    const api = wasmApi();
    this.memory = new api.Memory({ initial: 4 });
    const module = new api.Module(generateModule());
    const instance = new api.Instance(module, { env: { memory: this.memory } });
    this.fn = instance.exports as unknown as CurveExports;
    this.#buffer = this.memory.buffer;
    this.#u32 = new Uint32Array(this.#buffer);
    this.#u64 = new BigUint64Array(this.#buffer);
    this.#writeLimbs(Addr.r2, (R * R) % P);
    this.#writeLimbs(Addr.onePlain, 1n);
    this.#writeLimbs(Addr.oneMont, R % P);
  }

  get u32(): Uint32Array {
    if (this.#buffer !== this.memory.buffer) this.#refresh();
    return this.#u32;
  }

  get u64(): BigUint64Array {
    if (this.#buffer !== this.memory.buffer) this.#refresh();
    return this.#u64;
  }

  #refresh(): void {
    this.#buffer = this.memory.buffer;
    this.#u32 = new Uint32Array(this.#buffer);
    this.#u64 = new BigUint64Array(this.#buffer);
  }

  #writeLimbs(ptr: Ptr, value: bigint): void {
    const u32 = this.u32;
    let v = value;
    for (let i = 0; i < 9; i++) {
      u32[(ptr >> 2) + i] = Number(v & 0x1fffffffn);
      v >>= 29n;
    }
  }

  /** Allocates `bytes` (8-byte aligned), reusing a freed block of the same size when there is one. */
  alloc(bytes: number): Ptr {
    const size = (bytes + 7) & ~7;
    const reused = this.#free.get(size)?.pop();
    if (reused !== undefined) return reused;
    const ptr = this.#heap;
    this.#heap += size;
    const needed = this.#heap - this.memory.buffer.byteLength;
    if (needed > 0) this.memory.grow(Math.ceil(needed / PAGE));
    return ptr;
  }

  /** Gives a block back for a later alloc of the same size. */
  free(ptr: Ptr, bytes: number): void {
    const size = (bytes + 7) & ~7;
    let list = this.#free.get(size);
    if (list === undefined) this.#free.set(size, (list = []));
    list.push(ptr);
  }

  /** A reusable scratch block of at least `bytes` (valid until the next call). */
  scratch(bytes: number): Ptr {
    if (bytes > this.#scratchBytes) {
      this.#scratch = this.alloc(bytes);
      this.#scratchBytes = bytes;
    }
    return this.#scratch;
  }

  /** Writes 0 ≤ value < 2^256 as a scalar (4 u64 words + zero pad). */
  writeScalar(ptr: Ptr, value: bigint): void {
    const u64 = this.u64;
    const i = ptr >> 3;
    if (value <= M64) {
      u64[i] = value;
      u64[i + 1] = 0n;
      u64[i + 2] = 0n;
      u64[i + 3] = 0n;
    } else {
      u64[i] = value & M64;
      u64[i + 1] = (value >> 64n) & M64;
      u64[i + 2] = (value >> 128n) & M64;
      u64[i + 3] = value >> 192n;
    }
    u64[i + 4] = 0n;
  }

  readScalar(ptr: Ptr): bigint {
    const u64 = this.u64;
    const i = ptr >> 3;
    return (((((u64[i + 3]! << 64n) | u64[i + 2]!) << 64n) | u64[i + 1]!) << 64n) | u64[i]!;
  }

  /** Writes a felt (0 ≤ value < 2^256) in Montgomery form. */
  writeFelt(ptr: Ptr, value: bigint): void {
    this.writeScalar(Io.scalarOut, value);
    this.fn.fromScalar(ptr, Io.scalarOut);
    this.fn.toMont(ptr, ptr);
  }

  /** The canonical value of a Montgomery-form felt. */
  readFelt(ptr: Ptr): bigint {
    this.fn.canon(Io.felt, ptr);
    this.fn.toScalar(Io.scalarOut, Io.felt);
    return this.readScalar(Io.scalarOut);
  }

  writeAffine(ptr: Ptr, point: Affine): void {
    this.writeFelt(ptr, point.x);
    this.writeFelt(ptr + FELT_BYTES, point.y);
  }

  readAffine(ptr: Ptr): Affine {
    return { x: this.readFelt(ptr), y: this.readFelt(ptr + FELT_BYTES) };
  }

  /** The 18 words of an affine point in Montgomery form, to copy into memory later. */
  affineWords(point: Affine): Uint32Array {
    this.writeAffine(Io.pointA, point);
    return this.u32.slice(Io.pointA >> 2, (Io.pointA >> 2) + 18);
  }

  /** Bytes of a window table (one spare entry: construction writes the next window's base there). */
  static tableBytes(bits: number, windows: number): number {
    return (windows * (2 ** bits - 1) + 1) * AFFINE_BYTES;
  }

  /**
   * Every multiple d·2^(bits·w)·base, d = 1 … 2^bits − 1, w < windows, as affine points in
   * Montgomery form: one madd per point and one inversion per window.
   */
  buildTable(base: Affine, bits: number, windows: number, into?: Ptr): Ptr {
    const entries = 2 ** bits - 1;
    const table = into ?? this.alloc(WasmCurve.tableBytes(bits, windows));
    const count = entries + 1;
    const jacs = this.scratch(count * (JACOBIAN_BYTES + FELT_BYTES));
    const felts = jacs + count * JACOBIAN_BYTES;
    let windowBase = base;
    for (let w = 0; w < windows; w++) {
      const doubled = Jacobian.from(windowBase);
      doubled.double();
      this.writeAffine(Io.pointA, windowBase);
      this.writeAffine(Io.pointB, doubled.toAffine());
      this.fn.multiples(jacs, Io.pointA, Io.pointB, count);
      // Entry `entries` is 2^bits·windowBase: the first entry of the next window (or the spare).
      if (this.fn.batchNormalize(table + w * entries * AFFINE_BYTES, jacs, count, felts, 1) !== 1) {
        throw new Error('window table hit the point at infinity');
      }
      if (w + 1 < windows) windowBase = this.readAffine(table + (w + 1) * entries * AFFINE_BYTES);
    }
    return table;
  }
}

let instance: WasmCurve | null | undefined;

/** This thread's wasm curve, or undefined when WebAssembly cannot be used (BigInt fallback). */
export function wasmCurve(): WasmCurve | undefined {
  if (instance === undefined) {
    if (process.env['AKIRA_SIGNER_WASM'] === '0') instance = null;
    else {
      try {
        instance = new WasmCurve();
      } catch {
        instance = null;
      }
    }
  }
  return instance ?? undefined;
}

export { SCALAR_BYTES, JACOBIAN_BYTES, AFFINE_BYTES, FELT_BYTES };
