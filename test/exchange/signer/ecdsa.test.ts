import fc from 'fast-check';
import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { Secret } from '../../../src/core/index.ts';
import {
  CURVE_ORDER,
  Signer,
  SigningPool,
  describeKeyPair,
  generatePrivateKey,
  parsePrivateKey,
  signHash,
  starkKeyOf,
  verifySignature,
} from '../../../src/exchange/signer/index.ts';
import { parseOrderBody } from '../../../src/exchange/wire/requests.ts';
import { MAINNET, MAKER, orderBody } from './fixtures.ts';

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const privateKeys = fc.bigInt({ min: 1n, max: CURVE_ORDER - 1n });
const messageHashes = fc.bigInt({ min: 0n, max: 2n ** 251n - 1n });

describe('Stark-curve ECDSA', () => {
  it('signs exactly like starknet.js (RFC 6979, same truncation)', () => {
    fc.assert(
      fc.property(privateKeys, messageHashes, (key, hash) => {
        const ours = signHash(hash, key);
        const reference = ec.starkCurve.sign(hex(hash), hex(key));
        expect([ours.r, ours.s]).toEqual([reference.r, reference.s]);
      }),
      { numRuns: 40 },
    );
  });

  it('derives the stark key and full public key like starknet.js', () => {
    fc.assert(
      fc.property(privateKeys, (key) => {
        expect(starkKeyOf(key)).toBe(BigInt(ec.starkCurve.getStarkKey(hex(key))));
        const described = describeKeyPair(key);
        expect(described.fullPublicKey).toBe(`0x${Buffer.from(ec.starkCurve.getPublicKey(hex(key), false)).toString('hex')}`);
      }),
      { numRuns: 20 },
    );
  });

  it('verifies its own and starknet.js signatures with an x-only key, and rejects tampering', () => {
    fc.assert(
      fc.property(privateKeys, messageHashes, (key, hash) => {
        const starkKey = starkKeyOf(key);
        const reference = ec.starkCurve.sign(hex(hash), hex(key));
        expect(verifySignature(hash, { r: reference.r, s: reference.s }, starkKey)).toBe(true);
        expect(verifySignature((hash + 1n) % 2n ** 251n, { r: reference.r, s: reference.s }, starkKey)).toBe(false);
        expect(verifySignature(hash, { r: reference.r, s: reference.s }, starkKeyOf((key % (CURVE_ORDER - 2n)) + 1n) + 0n)).toBe(
          (key % (CURVE_ORDER - 2n)) + 1n === key,
        );
      }),
      { numRuns: 20 },
    );
  });

  it('returns false instead of throwing on out-of-range signatures and off-curve keys', () => {
    const key = 12345n;
    const starkKey = starkKeyOf(key);
    expect(verifySignature(1n, { r: 2n ** 251n, s: 1n }, starkKey)).toBe(false);
    expect(verifySignature(1n, { r: 1n, s: 0n }, starkKey)).toBe(false);
    expect(verifySignature(2n ** 251n, signHash(1n, key), starkKey)).toBe(false);
    expect(verifySignature(1n, signHash(1n, key), 0n)).toBe(false);
    expect(verifySignature(0n, signHash(0n, key), starkKey)).toBe(true);
  });

  it('generates keys in range from any random bytes', () => {
    let counter = 0;
    const bytes = (size: number): Uint8Array => Uint8Array.from({ length: size }, () => (counter++ * 37) & 0xff);
    const key = generatePrivateKey(bytes);
    expect(key > 0n && key < CURVE_ORDER).toBe(true);
    expect(generatePrivateKey(() => new Uint8Array(32).fill(0x7f))).toBeLessThan(CURVE_ORDER);
  });
});

describe('Signer', () => {
  const secret = new Secret('0x1234abcd');

  it('never prints its key', () => {
    const signer = new Signer({ privateKey: secret, account: BigInt(MAKER), chain: MAINNET });
    for (const text of [String(signer), JSON.stringify({ signer }), inspect(signer), inspect({ signer }, { depth: 5 })]) {
      expect(text).not.toContain('1234abcd');
      expect(text).not.toContain(String(0x1234abcd));
    }
  });

  it('rejects a bad key without echoing it', () => {
    for (const bad of ['0xzz12', 'hello-key', CURVE_ORDER.toString(), '0x' + 'f'.repeat(64)]) {
      expect(() => parsePrivateKey(new Secret(bad))).toThrow(/<redacted>/);
      try {
        parsePrivateKey(new Secret(bad));
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
    expect(() => parsePrivateKey(new Secret('0'))).toThrow(/<redacted>/);
  });

  it('signs an order whose signature verifies against the stark key', () => {
    const signer = new Signer({ privateKey: secret, account: BigInt(MAKER), chain: MAINNET });
    const { hash, request } = signer.signOrder(parseOrderBody(orderBody(), MAINNET));
    expect(verifySignature(hash, request.sign!, signer.starkKey)).toBe(true);
    const login = signer.signLogin(42n);
    expect(verifySignature(login.hash, login.signature, signer.starkKey)).toBe(true);
  });

  it('signs a burst on worker threads with the same result as inline', async () => {
    const pool = new SigningPool({ privateKey: secret, account: BigInt(MAKER), chain: MAINNET, size: 2 });
    try {
      await pool.ready();
      const orders = Array.from({ length: 6 }, (_, i) => parseOrderBody(orderBody({ salt: String(1000 + i) }), MAINNET));
      const signed = await pool.signOrders(orders);
      expect(signed.map((s) => s.hash)).toEqual(orders.map((o) => pool.signer.signOrder(o).hash));
      expect(signed.map((s) => s.request.sign)).toEqual(orders.map((o) => pool.signer.signOrder(o).request.sign));
    } finally {
      await pool.close();
    }
  }, 60_000);
});
