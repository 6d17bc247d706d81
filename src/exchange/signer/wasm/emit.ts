/**
 * A tiny WebAssembly binary emitter: just the opcodes the field arithmetic needs (i32/i64
 * integer ops, loads/stores, locals, calls, block/loop/if/br). The module is generated at start-up
 * from TypeScript, so there is no .wasm blob to ship and no toolchain to install.
 */

export const I32 = 0x7f;
export const I64 = 0x7e;
type ValType = typeof I32 | typeof I64;

/** Opcodes used here (WebAssembly core spec, §5.4). */
export const Op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  call: 0x10,
  drop: 0x1a,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i64Load: 0x29,
  i64Load32U: 0x35,
  i32Store: 0x36,
  i64Store: 0x37,
  i64Store32: 0x3e,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i32GeU: 0x4f,
  i64Eqz: 0x50,
  i64Eq: 0x51,
  i64Ne: 0x52,
  i64LtU: 0x54,
  i64GeU: 0x5a,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Mul: 0x7e,
  i64And: 0x83,
  i64Or: 0x84,
  i64Shl: 0x86,
  i64ShrS: 0x87,
  i64ShrU: 0x88,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
} as const;

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const signBit = (byte & 0x40) !== 0;
    if ((v === 0n && !signBit) || (v === -1n && signBit)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** One function body under construction; instructions are appended by the helpers. */
export class Func {
  readonly name: string;
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
  readonly exported: boolean;
  readonly #locals: ValType[] = [];
  readonly code: number[] = [];
  index = -1;

  constructor(name: string, params: readonly ValType[], results: readonly ValType[], exported: boolean) {
    this.name = name;
    this.params = params;
    this.results = results;
    this.exported = exported;
  }

  /** Declares a local and returns its index. */
  local(type: ValType): number {
    this.#locals.push(type);
    return this.params.length + this.#locals.length - 1;
  }

  op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }

  get(index: number): this {
    return this.op(Op.localGet, ...uleb(index));
  }

  set(index: number): this {
    return this.op(Op.localSet, ...uleb(index));
  }

  tee(index: number): this {
    return this.op(Op.localTee, ...uleb(index));
  }

  i32(value: number): this {
    return this.op(Op.i32Const, ...sleb(BigInt(value | 0)));
  }

  i64(value: bigint): this {
    return this.op(Op.i64Const, ...sleb(BigInt.asIntN(64, value)));
  }

  /** A memory access with a constant byte offset (alignment hint 0: always valid). */
  mem(opcode: number, offset: number): this {
    return this.op(opcode, 0, ...uleb(offset));
  }

  call(target: Func): this {
    if (target.index < 0) throw new Error(`function ${target.name} is not registered`);
    return this.op(Op.call, ...uleb(target.index));
  }

  /** block/loop/if with no result type. */
  open(opcode: typeof Op.block | typeof Op.loop | typeof Op.if): this {
    return this.op(opcode, 0x40);
  }

  br(opcode: typeof Op.br | typeof Op.brIf, depth: number): this {
    return this.op(opcode, ...uleb(depth));
  }

  body(): number[] {
    const groups: number[] = [];
    let count = 0;
    for (let i = 0; i < this.#locals.length; ) {
      let j = i;
      while (j < this.#locals.length && this.#locals[j] === this.#locals[i]) j++;
      groups.push(...uleb(j - i), this.#locals[i]!);
      count++;
      i = j;
    }
    const bytes = [...uleb(count), ...groups, ...this.code, Op.end];
    return [...uleb(bytes.length), ...bytes];
  }
}

function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(text: string): number[] {
  const bytes = [...Buffer.from(text, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
}

/** A module with one imported memory (`env.memory`) and a list of functions. */
export class ModuleBuilder {
  readonly #funcs: Func[] = [];

  func(name: string, params: readonly ValType[], results: readonly ValType[] = [], exported = true): Func {
    const f = new Func(name, params, results, exported);
    f.index = this.#funcs.length;
    this.#funcs.push(f);
    return f;
  }

  build(): Uint8Array {
    const types = this.#funcs.map((f) => [0x60, ...uleb(f.params.length), ...f.params, ...uleb(f.results.length), ...f.results]);
    const imports = [[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]];
    const functions = this.#funcs.map((f) => uleb(f.index));
    const exports = this.#funcs.filter((f) => f.exported).map((f) => [...name(f.name), 0x00, ...uleb(f.index)]);
    const codes = this.#funcs.map((f) => f.body());
    return Uint8Array.from([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, vector(types)),
      ...section(2, vector(imports)),
      ...section(3, vector(functions)),
      ...section(7, vector(exports)),
      ...section(10, vector(codes)),
    ]);
  }
}
