import fc from 'fast-check';
import { ec, hash } from 'starknet';
import { describe, expect, it, vi } from 'vitest';
import { Jacobian } from '../../../src/exchange/signer/curve.ts';
import {
  chainMany,
  fixLeft,
  fixRight,
  pedersen,
  pedersenBigint,
  pedersenFixedLeft,
  pedersenFixedRight,
  type ChainElement,
} from '../../../src/exchange/signer/pedersen.ts';
import { P } from '../../../src/exchange/signer/wasm/module.ts';
import { Io, WasmCurve, wasmCurve } from '../../../src/exchange/signer/wasm/runtime.ts';
import { parseOrderBody } from '../../../src/exchange/wire/requests.ts';
import { referenceOrderHash } from '../../../src/exchange/signer/reference.ts';
import { MAINNET, orderBody } from './fixtures.ts';

const curve = wasmCurve();
if (curve === undefined) throw new Error('WebAssembly should be available in the test runtime');
const mod = (value: bigint): bigint => ((value % P) + P) % P;
function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const EDGES = [0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, 2n ** 128n, 2n ** 192n - 1n, 2n ** 248n, 2n ** 251n, 2n ** 251n - 1n];
const felts = fc.oneof(fc.constantFrom(...EDGES), fc.bigInt({ min: 0n, max: P - 1n }));
const A = Io.jacs;
const B = A + 64;
const C = B + 64;

describe('wasm field arithmetic equals BigInt', () => {
  it('mul, sqr, add, sub and inversion on random and edge values', () => {
    fc.assert(
      fc.property(felts, felts, (a, b) => {
        curve.writeFelt(A, a);
        curve.writeFelt(B, b);
        curve.fn.mul(C, A, B);
        expect(curve.readFelt(C)).toBe(mod(a * b));
        curve.fn.sqr(C, A);
        expect(curve.readFelt(C)).toBe(mod(a * a));
        curve.fn.add(C, A, B);
        expect(curve.readFelt(C)).toBe(mod(a + b));
        for (const sub of [curve.fn.sub2, curve.fn.sub4, curve.fn.sub8]) {
          sub(C, A, B);
          expect(curve.readFelt(C)).toBe(mod(a - b));
        }
        curve.fn.inv(C, A);
        expect(curve.readFelt(C)).toBe(a === 0n ? 0n : powMod(a, P - 2n));
        expect(curve.fn.isZero(A)).toBe(a === 0n ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('every edge pair, including products of the largest values', () => {
    for (const a of EDGES) {
      for (const b of EDGES) {
        curve.writeFelt(A, a);
        curve.writeFelt(B, b);
        curve.fn.mul(C, A, B);
        expect(curve.readFelt(C)).toBe(mod(a * b));
      }
    }
  });

  it('scalars round-trip through memory', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (value) => {
        curve.writeScalar(Io.scalarA, value);
        expect(curve.readScalar(Io.scalarA)).toBe(value);
      }),
    );
  });

  it('window tables and mixed additions match BigInt point arithmetic', () => {
    const G = {
      x: 874739451078007766457464989774322083649278607533249481151382481072868806602n,
      y: 152666792071518830868575557812948353041420400780739481342941381225525861407n,
    };
    // A separate instance: tables and scratch of the shared one are left alone.
    const scratch = new WasmCurve();
    const table = scratch.buildTable(G, 4, 3);
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 12n - 1n }), (k) => {
        const reference = Jacobian.infinity();
        for (let i = 0n; i < k; i++) reference.addAffine(G);
        scratch.writeScalar(Io.scalarA, k);
        expect(scratch.fn.addMultiple(Io.jacA, Io.scalarA, table, 0, 4, 3, 1)).toBe(0);
        expect(scratch.fn.affineX(Io.scalarOut, Io.jacA)).toBe(1);
        expect(scratch.readScalar(Io.scalarOut)).toBe(reference.affineX());
      }),
      { numRuns: 30 },
    );
  });
});

describe('Pedersen on wasm equals the BigInt path and starknet.js', () => {
  const pedersenArgs = fc.oneof(fc.constantFrom(0n, 1n, P - 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 248n - 1n, 2n ** 248n), fc.bigInt({ min: 0n, max: P - 1n }));

  it('plain, fixed-left and fixed-right calls', () => {
    fc.assert(
      fc.property(pedersenArgs, pedersenArgs, (a, b) => {
        const reference = pedersenBigint(a, b);
        expect(pedersen(a, b)).toBe(reference);
        expect(pedersenFixedLeft(fixLeft(a), b)).toBe(reference);
        expect(pedersenFixedRight(a, fixRight(b))).toBe(reference);
      }),
      { numRuns: 60 },
    );
    for (let i = 0; i < 5; i++) {
      const a = mod(BigInt(hash.starknetKeccak(`a${i}`)));
      const b = mod(BigInt(hash.starknetKeccak(`b${i}`)));
      expect(pedersen(a, b)).toBe(BigInt(hash.computePedersenHash(a, b)));
    }
  });

  it('falls back to BigInt when an addition degenerates (a point meets itself)', () => {
    // Real inputs essentially never make an addition meet its own point, so force one: P0 + P0.
    // The wasm side must report it (Z ≡ 0) rather than return a wrong x.
    const shift = fixLeft(0n);
    expect(shift.point).toEqual({
      x: 2089986280348253421170679821480865132823066470938446095505822317253594081284n,
      y: 1713931329540660377023406109199410414810705867260802078187082345529207694986n,
    });
    curve.writeAffine(Io.pointA, shift.point);
    curve.fn.setJac(Io.jacA, Io.pointA);
    curve.fn.madd(Io.jacA, Io.pointA);
    expect(curve.fn.affineX(Io.scalarOut, Io.jacA)).toBe(0);
  });
});

describe('lockstep chains', () => {
  it('equal sequential chains, for chains of different lengths and element kinds', () => {
    const element = fc.oneof(
      fc.bigInt({ min: 0n, max: P - 1n }).map((v): ChainElement => v),
      fc.bigInt({ min: 0n, max: 2n ** 64n }).map((v): ChainElement => fixRight(v)),
      fc.constantFrom<ChainElement>(0n, 1n, fixRight(0n), fixRight(P - 1n)),
    );
    const chain = fc.record({ prefix: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: P - 1n })), elements: fc.array(element, { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(chain, { maxLength: 5 }), (chains) => {
        const prefixes = chains.map((c) => fixLeft(c.prefix));
        const expected = chains.map((c) => {
          let acc = c.prefix;
          for (const e of c.elements) acc = pedersenBigint(acc, typeof e === 'bigint' ? e : e.value);
          return acc;
        });
        expect(chainMany(prefixes, chains.map((c) => c.elements))).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('rejects a non-felt element like the sequential path', () => {
    expect(() => chainMany([fixLeft(1n)], [[P]])).toThrow(RangeError);
  });
});

describe('pure-BigInt fallback', () => {
  it('hashes and signs like starknet.js when WebAssembly is switched off', async () => {
    vi.stubEnv('AKIRA_SIGNER_WASM', '0');
    vi.resetModules();
    try {
      const runtime = await import('../../../src/exchange/signer/wasm/runtime.ts');
      expect(runtime.wasmCurve()).toBeUndefined();
      const signer = await import('../../../src/exchange/signer/index.ts');
      const order = parseOrderBody(orderBody({ salt: '777' }), MAINNET);
      const orderHash = signer.createMessageHasher(MAINNET).order(order);
      expect(orderHash).toBe(referenceOrderHash(order, MAINNET));
      const key = 0x1234567n;
      const signature = signer.signHash(orderHash, key);
      const reference = ec.starkCurve.sign(`0x${orderHash.toString(16)}`, `0x${key.toString(16)}`);
      expect([signature.r, signature.s]).toEqual([reference.r, reference.s]);
      expect(signer.verifySignature(orderHash, signature, signer.starkKeyOf(key))).toBe(true);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  }, 30_000);
});
