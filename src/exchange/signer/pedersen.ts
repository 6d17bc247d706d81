/**
 * Fast Pedersen hash of two felts, bit-identical to starknet.js / @scure/starknet `pedersen`.
 *
 *   H(a, b) = x( P0 + a_low·P1 + a_high·P2 + b_low·P3 + b_high·P4 )
 *
 * where a_low is the low 248 bits and a_high the top 4 (StarkWare's constants below). The stock
 * implementation adds up to 504 doubled points per call; here each side is split into 10-bit
 * windows with every multiple precomputed (≈ 29k affine points per side), so one full-width side
 * costs 25 mixed additions (24 windows of a_low's bits 0…239, then one 12-bit window that mixes
 * a_low's last 8 bits with a_high) and one inversion finishes.
 *
 * The arithmetic runs in WebAssembly generated at start-up (wasm/module.ts: Montgomery field,
 * tables in wasm memory, ~0.1 s to build both sides); without WebAssembly (or with
 * AKIRA_SIGNER_WASM=0) 12-bit windows run on plain bigints (22 additions, ~1 s of tables). A
 * wasm addition that meets its own point (never seen on real data) is redone on the BigInt path.
 * `chainMany` hashes many chains in lockstep with one inversion per step for all of them.
 *
 * Hashing a SNIP-12 struct is a chain H(H(H(0, t), f1), f2)…, and many arguments are constants
 * (type hashes, token and contract addresses, lengths, short strings). `fixLeft`/`fixRight` turn
 * such a constant into a precomputed partial sum, so a call with one fixed side costs only the
 * other side's windows: that is where most of the order-hash speed comes from.
 */
import { Jacobian, P, WindowTable, type Affine } from './curve.ts';
import { AFFINE_BYTES, FELT_BYTES, Io, JACOBIAN_BYTES, SCALAR_BYTES, WasmCurve, wasmCurve } from './wasm/runtime.ts';

const SHIFT_POINT: Affine = {
  x: 2089986280348253421170679821480865132823066470938446095505822317253594081284n,
  y: 1713931329540660377023406109199410414810705867260802078187082345529207694986n,
};
const P1: Affine = {
  x: 996781205833008774514500082376783249102396023663454813447423147977397232763n,
  y: 1668503676786377725805489344771023921079126552019160156920634619255970485781n,
};
const P2: Affine = {
  x: 2251563274489750535117886426533222435294046428347329203627021249169616184184n,
  y: 1798716007562728905295480679789526322175868328062420237419143593021674992973n,
};
const P3: Affine = {
  x: 2138414695194151160943305727036575959195309218611738193261179310511854807447n,
  y: 113410276730064486255102093846540133784865286929052426931474106396135072156n,
};
const P4: Affine = {
  x: 2379962749567351885752724891227938183011949129833673362440656643086021394946n,
  y: 776496453633298175483985398648758586525933812536653089401905292063708816422n,
};

/**
 * Window width of the wasm tables. Memory against speed: 12-bit windows (21 additions) took
 * 21 MB of wasm memory with the generator's table, resident for the daemon's life; 10-bit
 * windows take 8.8 MB for ~7 % slower order signing (2,408 against 2,587 orders/s, median of
 * three paired runs of `npx tsx bench/run.ts --filter '^signer$'`; RELIABILITY.md "Lean daemon").
 * It must divide 240, where the mixed top window starts.
 */
const WINDOW_BITS = 10;
/** The BigInt path (no WebAssembly): 21 windows of 12 bits (whole hex digits) cover the low 248 bits; the top 4 bits use their own point. */
const BIGINT_BITS = 12;
const BIGINT_WINDOWS = 21;
/** The wasm path's windows of the low point cover bits 0…239; one 12-bit window mixes bits 240…251. */
const WASM_LOW_WINDOWS = 240 / WINDOW_BITS;
const TOP_BITS = 12;
/** Windows covering a value below 2^64. */
const U64_WINDOWS = Math.ceil(64 / WINDOW_BITS);
const LOW_MASK = 2n ** 248n - 1n;

interface SideTable {
  readonly low: WindowTable;
  readonly high: WindowTable;
}

function buildSide(low: Affine, high: Affine): SideTable {
  return { low: new WindowTable(low, BIGINT_BITS, BIGINT_WINDOWS), high: new WindowTable(high, 4, 1) };
}

let leftTable: SideTable | undefined;
let rightTable: SideTable | undefined;

/** The same tables in wasm memory (Montgomery form): low = 21 windows of 12 bits, high = 4 bits. */
interface WasmSide {
  /** 20 windows of 12 bits: bits 0…239 of the low part. */
  readonly low: number;
  /**
   * One 12-bit window over bits 240…251, mixing both points: entry d = (d mod 256)·2^240·low +
   * ⌊d/256⌋·high, so the last 8 low bits and the 4 high bits cost one addition, not two.
   */
  readonly top: number;
}

interface WasmPedersen {
  readonly curve: WasmCurve;
  readonly left: WasmSide;
  readonly right: WasmSide;
  /** The shift point P0, as Montgomery words ready to copy into memory. */
  readonly shift: Uint32Array;
}

let wasmState: WasmPedersen | null | undefined;

function wasmPedersen(): WasmPedersen | undefined {
  if (wasmState === undefined) {
    const curve = wasmCurve();
    if (curve === undefined) wasmState = null;
    else {
      const side = (low: Affine, high: Affine): WasmSide => {
        const lowTable = curve.buildTable(low, WINDOW_BITS, WASM_LOW_WINDOWS);
        // The spare entry after the last window is 2^240·low: the base of the top window.
        const topBase = curve.readAffine(lowTable + WASM_LOW_WINDOWS * (2 ** WINDOW_BITS - 1) * AFFINE_BYTES);
        return { low: lowTable, top: buildTopWindow(curve, topBase, high) };
      };
      wasmState = { curve, left: side(P1, P2), right: side(P3, P4), shift: curve.affineWords(SHIFT_POINT) };
    }
  }
  return wasmState ?? undefined;
}

/** The mixed top window (see WasmSide.top): 255 multiples of 2^240·low and 15 of high, summed pairwise. */
function buildTopWindow(curve: WasmCurve, lowBase: Affine, high: Affine): number {
  const lows = curve.buildTable(lowBase, 8, 1);
  const highs = curve.buildTable(high, 4, 1);
  const entries = 2 ** TOP_BITS - 1;
  const top = curve.alloc((entries + 1) * AFFINE_BYTES);
  const jacs = curve.alloc(entries * (JACOBIAN_BYTES + FELT_BYTES));
  for (let d = 1; d <= entries; d++) {
    const l = d & 0xff;
    const h = d >> 8;
    const jac = jacs + (d - 1) * JACOBIAN_BYTES;
    if (l === 0) curve.fn.setJac(jac, highs + (h - 1) * AFFINE_BYTES);
    else {
      curve.fn.setJac(jac, lows + (l - 1) * AFFINE_BYTES);
      // Different bases (independent points), so the sum never meets its own point.
      if (h > 0) curve.fn.madd(jac, highs + (h - 1) * AFFINE_BYTES);
    }
  }
  if (curve.fn.batchNormalize(top, jacs, entries, jacs + entries * JACOBIAN_BYTES, 1) !== 1) throw new Error('top window hit infinity');
  curve.free(jacs, entries * (JACOBIAN_BYTES + FELT_BYTES));
  curve.free(lows, WasmCurve.tableBytes(8, 1));
  curve.free(highs, WasmCurve.tableBytes(4, 1));
  return top;
}

/** Builds both tables now (~0.2 s on wasm, ~1 s on bigints) instead of on the first hash. */
export function warmPedersen(): void {
  if (wasmPedersen() !== undefined) return;
  left();
  right();
}

function left(): SideTable {
  return (leftTable ??= buildSide(P1, P2));
}

function right(): SideTable {
  return (rightTable ??= buildSide(P3, P4));
}

function checkFelt(value: bigint): void {
  if (value < 0n || value >= P) throw new RangeError(`Pedersen argument must be a felt in [0, P): ${value}`);
}

/** acc += value_low·low + value_high·high. */
function addScalar(acc: Jacobian, value: bigint, table: SideTable): void {
  if (value === 0n) return;
  table.low.addMultiple(acc, value & LOW_MASK);
  table.high.addMultiple(acc, value >> 248n);
}

const U64_MAX = (1n << 64n) - 1n;
const HIGH_START = 1n << 248n;

/** jac += value·side, value already written as a scalar at `scalar`. */
function wasmAddScalar(state: WasmPedersen, jac: number, scalar: number, value: bigint, side: WasmSide): void {
  const fn = state.curve.fn;
  // Values below 2^64 (lengths, salts, small amounts) only need the first 6 windows.
  if (value <= U64_MAX) {
    fn.addMultiple(jac, scalar, side.low, 0, WINDOW_BITS, U64_WINDOWS, 0);
    return;
  }
  // 20 windows of the low point, then bits 240…251 (8 low bits and the 4 high ones) in one.
  fn.addMultiple(jac, scalar, side.low, 0, WINDOW_BITS, WASM_LOW_WINDOWS, 0);
  fn.addMultiple(jac, scalar, side.top, 240, TOP_BITS, 1, 0);
}

/**
 * x(start + a·left + b·right) on the wasm curve, or undefined when an addition degenerated (the
 * caller then takes the BigInt path, which handles doubling and infinity).
 */
function wasmHash(state: WasmPedersen, start: Uint32Array, a: bigint, b: bigint): bigint | undefined {
  const { curve } = state;
  const fn = curve.fn;
  curve.u32.set(start, Io.pointA >> 2);
  fn.setJac(Io.jacA, Io.pointA);
  if (a !== 0n) {
    curve.writeScalar(Io.scalarA, a);
    wasmAddScalar(state, Io.jacA, Io.scalarA, a, state.left);
  }
  if (b !== 0n) {
    curve.writeScalar(Io.scalarB, b);
    wasmAddScalar(state, Io.jacA, Io.scalarB, b, state.right);
  }
  if (fn.affineX(Io.scalarOut, Io.jacA) !== 1) return undefined;
  return curve.readScalar(Io.scalarOut);
}

/** A constant argument folded in advance: P0 plus its side's contribution, as an affine point. */
export interface FixedArgument {
  readonly point: Affine;
  readonly value: bigint;
  /** `point` in the wasm curve's Montgomery form (absent on the BigInt path). */
  readonly words?: Uint32Array;
}

function fixWith(value: bigint, isLeft: boolean): FixedArgument {
  checkFelt(value);
  const state = wasmPedersen();
  if (state !== undefined && value !== 0n) {
    const { curve } = state;
    curve.u32.set(state.shift, Io.pointA >> 2);
    curve.fn.setJac(Io.jacA, Io.pointA);
    curve.writeScalar(Io.scalarA, value);
    wasmAddScalar(state, Io.jacA, Io.scalarA, value, isLeft ? state.left : state.right);
    if (curve.fn.batchNormalize(Io.pointB, Io.jacA, 1, Io.felt, 1) === 1) {
      const words = curve.u32.slice(Io.pointB >> 2, (Io.pointB >> 2) + AFFINE_BYTES / 4);
      return { point: curve.readAffine(Io.pointB), value, words };
    }
  }
  // H's shift point P0 alone for 0, without building the BigInt tables.
  let point = SHIFT_POINT;
  if (value !== 0n) {
    const acc = Jacobian.from(SHIFT_POINT);
    addScalar(acc, value, isLeft ? left() : right());
    point = acc.toAffine();
  }
  return state === undefined ? { point, value } : { point, value, words: state.curve.affineWords(point) };
}

/** Precomputes `a` as the first argument of later `pedersenFixedLeft` calls. */
export function fixLeft(a: bigint): FixedArgument {
  return fixWith(a, true);
}

/** Precomputes `b` as the second argument of later `pedersenFixedRight` calls. */
export function fixRight(b: bigint): FixedArgument {
  return fixWith(b, false);
}

/** H(a, b) on plain bigints only: the reference path, and the fallback when wasm is unavailable. */
export function pedersenBigint(a: bigint, b: bigint): bigint {
  checkFelt(a);
  checkFelt(b);
  const acc = Jacobian.from(SHIFT_POINT);
  addScalar(acc, a, left());
  addScalar(acc, b, right());
  return acc.affineX();
}

/** H(a, b) for two felts. */
export function pedersen(a: bigint, b: bigint): bigint {
  checkFelt(a);
  checkFelt(b);
  const state = wasmPedersen();
  if (state !== undefined) {
    const result = wasmHash(state, state.shift, a, b);
    if (result !== undefined) return result;
  }
  return pedersenBigint(a, b);
}

/** H(a, b) where `fixed = fixLeft(a)`. */
export function pedersenFixedLeft(fixed: FixedArgument, b: bigint): bigint {
  checkFelt(b);
  const state = wasmPedersen();
  if (state !== undefined && fixed.words !== undefined) {
    const result = wasmHash(state, fixed.words, 0n, b);
    if (result !== undefined) return result;
  }
  const acc = Jacobian.from(fixed.point);
  addScalar(acc, b, right());
  return acc.affineX();
}

/** H(a, b) where `fixed = fixRight(b)`. */
export function pedersenFixedRight(a: bigint, fixed: FixedArgument): bigint {
  checkFelt(a);
  const state = wasmPedersen();
  if (state !== undefined && fixed.words !== undefined) {
    const result = wasmHash(state, fixed.words, a, 0n);
    if (result !== undefined) return result;
  }
  const acc = Jacobian.from(fixed.point);
  addScalar(acc, a, left());
  return acc.affineX();
}

/** A chain element: a plain felt, or a constant already folded as a right-hand argument. */
export type ChainElement = bigint | FixedArgument;

/**
 * One chain: acc = prefix, then acc = H(acc, e) for each element (the first step uses the
 * prefix's precomputed left point), as `chainMany` with one chain would.
 */
function chainOne(prefix: FixedArgument, elements: readonly ChainElement[]): bigint {
  let acc: bigint | undefined;
  for (const element of elements) {
    if (acc === undefined) {
      acc = typeof element === 'bigint' ? pedersenFixedLeft(prefix, element) : pedersen(prefix.value, element.value);
    } else {
      acc = typeof element === 'bigint' ? pedersen(acc, element) : pedersenFixedRight(acc, element);
    }
  }
  return acc ?? prefix.value;
}

/** Reusable wasm memory for lockstep chains (grown on demand). */
let batchArea = { ptr: 0, capacity: 0 };
const BATCH_BYTES_PER_CHAIN = 2 * SCALAR_BYTES + JACOBIAN_BYTES + FELT_BYTES;

/**
 * Many chains in lockstep (they may differ in length): step s of every chain is computed, then all
 * their affine x coordinates come out of ONE inversion (Montgomery's trick), and the accumulators
 * stay in wasm memory between steps. Results equal `chainOne` per chain. Orders share one chain
 * structure, so a batch of K orders pays ~15 inversions instead of 15·K.
 */
export function chainMany(prefixes: readonly FixedArgument[], elements: readonly (readonly ChainElement[])[]): bigint[] {
  const count = prefixes.length;
  if (elements.length !== count) throw new RangeError('one element list per prefix');
  const state = wasmPedersen();
  if (state === undefined || count === 0) return prefixes.map((prefix, i) => chainOne(prefix, elements[i]!));
  for (const list of elements) for (const element of list) if (typeof element === 'bigint') checkFelt(element);
  const { curve } = state;
  const fn = curve.fn;
  if (batchArea.capacity < count) {
    const capacity = Math.max(count, 2 * batchArea.capacity, 16);
    batchArea = { ptr: curve.alloc(capacity * BATCH_BYTES_PER_CHAIN), capacity };
  }
  const accs = batchArea.ptr;
  const outs = accs + count * SCALAR_BYTES;
  const jacs = outs + count * SCALAR_BYTES;
  const scratch = jacs + count * JACOBIAN_BYTES;
  const active: number[] = [];
  let steps = 0;
  for (const list of elements) steps = Math.max(steps, list.length);
  for (let step = 0; step < steps; step++) {
    active.length = 0;
    for (let i = 0; i < count; i++) if (elements[i]!.length > step) active.push(i);
    for (let n = 0; n < active.length; n++) {
      const i = active[n]!;
      const jac = jacs + n * JACOBIAN_BYTES;
      const given = elements[i]![step]!;
      // A constant made without wasm words (never expected) is hashed as a plain felt.
      const element = typeof given === 'bigint' || given.words !== undefined ? given : given.value;
      const prefix = prefixes[i]!;
      const words = typeof element === 'bigint' ? (step === 0 ? prefix.words : state.shift) : element.words;
      curve.u32.set(words ?? state.shift, Io.pointA >> 2);
      fn.setJac(jac, Io.pointA);
      if (step === 0) {
        if (typeof element === 'bigint') {
          if (prefix.words === undefined) {
            curve.writeScalar(Io.scalarA, prefix.value);
            wasmAddScalar(state, jac, Io.scalarA, prefix.value, state.left);
          }
        } else if (prefix.value !== 0n) {
          curve.writeScalar(Io.scalarA, prefix.value);
          wasmAddScalar(state, jac, Io.scalarA, prefix.value, state.left);
        }
      } else {
        // The accumulator is a hash: assume full width (zero digits are skipped anyway).
        wasmAddScalar(state, jac, accs + i * SCALAR_BYTES, HIGH_START, state.left);
      }
      if (typeof element === 'bigint' && element !== 0n) {
        curve.writeScalar(Io.scalarB, element);
        wasmAddScalar(state, jac, Io.scalarB, element, state.right);
      }
    }
    if (fn.batchNormalize(outs, jacs, active.length, scratch, 0) !== 1) {
      // Some addition met its own point: finish this step chain by chain, on BigInt where needed.
      for (let n = 0; n < active.length; n++) {
        const i = active[n]!;
        if (fn.affineX(outs + n * SCALAR_BYTES, jacs + n * JACOBIAN_BYTES) === 1) continue;
        const element = elements[i]![step]!;
        const leftValue = step === 0 ? prefixes[i]!.value : curve.readScalar(accs + i * SCALAR_BYTES);
        curve.writeScalar(outs + n * SCALAR_BYTES, pedersenBigint(leftValue, typeof element === 'bigint' ? element : element.value));
      }
    }
    for (let n = 0; n < active.length; n++) fn.copy(accs + active[n]! * SCALAR_BYTES, outs + n * SCALAR_BYTES, SCALAR_BYTES / 4);
  }
  return prefixes.map((prefix, i) => (elements[i]!.length === 0 ? prefix.value : curve.readScalar(accs + i * SCALAR_BYTES)));
}

/** One chain, with the accumulator kept in wasm memory when available. */
export function chainFrom(prefix: FixedArgument, elements: readonly ChainElement[]): bigint {
  return wasmPedersen() === undefined ? chainOne(prefix, elements) : chainMany([prefix], [elements])[0]!;
}

/** starknet.js `computeHashOnElements`: H(…H(H(0, x₁), x₂)…, n). */
export function hashOnElements(elements: readonly bigint[]): bigint {
  let acc = 0n;
  for (const element of elements) acc = pedersen(acc, element);
  return pedersen(acc, BigInt(elements.length));
}
