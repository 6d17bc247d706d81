import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '../../../src/core/index.ts';
import {
  CURVE_ORDER,
  STARKLI_SCRYPT,
  decryptKeystore,
  decryptStarkKeystore,
  encryptKeystore,
  encryptStarkKeystore,
} from '../../../src/exchange/signer/index.ts';
import {
  ETH_KEYSTORE_CRATE_KEYSTORE,
  ETH_KEYSTORE_CRATE_PASSWORD,
  ETH_KEYSTORE_CRATE_SECRET,
  SPEC_PASSWORD,
  SPEC_PBKDF2_KEYSTORE,
  SPEC_SCRYPT_KEYSTORE,
  SPEC_SECRET,
} from './keystore-vectors.ts';

const FAST = { n: 1024, r: 8, p: 1 };
const STARK_KEY = 0x0144e9410ea008c67331a1024ea64f9235f5454a67325cc43f347b7d9bb09697n;

/** A deterministic byte source, so a written keystore is the same every run. */
function counterBytes(seed: number): (size: number) => Uint8Array {
  let next = seed;
  return (size) => Uint8Array.from({ length: size }, () => next++ & 0xff);
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('Web3 Secret Storage v3 keystores', () => {
  it('decrypts the format\'s published scrypt test vector (n = 2^18, r = 1, p = 8)', async () => {
    expect(hexOf(await decryptKeystore(JSON.stringify(SPEC_SCRYPT_KEYSTORE), SPEC_PASSWORD))).toBe(SPEC_SECRET);
  });

  it('decrypts the format\'s published PBKDF2 test vector', async () => {
    expect(hexOf(await decryptKeystore(JSON.stringify(SPEC_PBKDF2_KEYSTORE), SPEC_PASSWORD))).toBe(SPEC_SECRET);
  });

  it('decrypts the eth-keystore crate\'s own test keystore (starkli\'s KDF parameters, tab-indented, fields reordered)', async () => {
    expect(hexOf(await decryptKeystore(ETH_KEYSTORE_CRATE_KEYSTORE, ETH_KEYSTORE_CRATE_PASSWORD))).toBe(ETH_KEYSTORE_CRATE_SECRET);
  });

  it('writes exactly the JSON layout starkli writes: compact, crypto/id/version, lowercase hex without 0x', async () => {
    const text = await encryptStarkKeystore(STARK_KEY, 'pw', { scrypt: STARKLI_SCRYPT, randomBytes: counterBytes(1) });
    const json = JSON.parse(text) as { crypto: Record<string, unknown> & { kdfparams: Record<string, unknown>; cipherparams: { iv: string } }; id: string; version: number };
    expect(text).toBe(JSON.stringify(json));
    expect(Object.keys(json)).toEqual(['crypto', 'id', 'version']);
    expect(Object.keys(json.crypto)).toEqual(['cipher', 'cipherparams', 'ciphertext', 'kdf', 'kdfparams', 'mac']);
    expect(Object.keys(json.crypto.kdfparams)).toEqual(['dklen', 'n', 'p', 'r', 'salt']);
    expect(json.crypto).toMatchObject({ cipher: 'aes-128-ctr', kdf: 'scrypt', kdfparams: { dklen: 32, n: 8192, p: 1, r: 8 } });
    expect(json.crypto['ciphertext']).toMatch(/^[0-9a-f]{64}$/);
    expect(json.crypto['mac']).toMatch(/^[0-9a-f]{64}$/);
    expect(json.crypto.cipherparams.iv).toMatch(/^[0-9a-f]{32}$/);
    expect(json.crypto.kdfparams['salt']).toMatch(/^[0-9a-f]{64}$/);
    expect(json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(json.version).toBe(3);
  });

  it('stores the Stark key as 32 big-endian bytes and reads it back', async () => {
    const small = 0x1234n;
    const text = await encryptStarkKeystore(small, 'pw', { scrypt: FAST, randomBytes });
    expect(hexOf(await decryptKeystore(text, 'pw'))).toBe(small.toString(16).padStart(64, '0'));
    expect(await decryptStarkKeystore(text, 'pw')).toBe(small);
    expect(await decryptStarkKeystore(await encryptStarkKeystore(CURVE_ORDER - 1n, 'pässwörd', { scrypt: FAST, randomBytes }), 'pässwörd')).toBe(CURVE_ORDER - 1n);
  });

  it('never writes the same salt, IV or ciphertext twice for the same key and password', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => encryptStarkKeystore(STARK_KEY, 'pw', { scrypt: FAST, randomBytes })));
    expect(a).not.toBe(b);
  });

  it('refuses a wrong password with one sentence and no key material', async () => {
    const text = await encryptStarkKeystore(STARK_KEY, 'right', { scrypt: FAST, randomBytes });
    const error = await errorOf(decryptStarkKeystore(text, 'wrong'));
    expect(hasErrorCode(error, 'SIGNER_KEYSTORE_WRONG_PASSWORD')).toBe(true);
    expect((error as Error).message).toBe('wrong password (or the keystore was altered: its MAC does not match)');
  });

  it('refuses a keystore whose ciphertext was altered, as it refuses a wrong password', async () => {
    const json = JSON.parse(await encryptStarkKeystore(STARK_KEY, 'pw', { scrypt: FAST, randomBytes })) as { crypto: { ciphertext: string } };
    json.crypto.ciphertext = `${json.crypto.ciphertext.slice(0, -2)}${json.crypto.ciphertext.endsWith('00') ? '01' : '00'}`;
    expect(hasErrorCode(await errorOf(decryptStarkKeystore(JSON.stringify(json), 'pw')), 'SIGNER_KEYSTORE_WRONG_PASSWORD')).toBe(true);
  });

  it.each([
    ['not JSON', 'hello', 'the file is not JSON'],
    ['another version', JSON.stringify({ ...SPEC_PBKDF2_KEYSTORE, version: 1 }), 'version'],
    ['another cipher', JSON.stringify({ ...SPEC_PBKDF2_KEYSTORE, crypto: { ...SPEC_PBKDF2_KEYSTORE.crypto, cipher: 'aes-128-cbc' } }), 'crypto.cipher'],
    ['an unknown KDF', JSON.stringify({ ...SPEC_PBKDF2_KEYSTORE, crypto: { ...SPEC_PBKDF2_KEYSTORE.crypto, kdf: 'argon2' } }), 'crypto.kdf'],
    ['a short IV', JSON.stringify({ ...SPEC_PBKDF2_KEYSTORE, crypto: { ...SPEC_PBKDF2_KEYSTORE.crypto, cipherparams: { iv: '00' } } }), 'crypto.cipherparams.iv'],
    ['a MAC that is not hex', JSON.stringify({ ...SPEC_PBKDF2_KEYSTORE, crypto: { ...SPEC_PBKDF2_KEYSTORE.crypto, mac: 'zz' } }), 'crypto.mac'],
    ['a scrypt n that is not a power of two', JSON.stringify({ ...SPEC_SCRYPT_KEYSTORE, crypto: { ...SPEC_SCRYPT_KEYSTORE.crypto, kdfparams: { ...SPEC_SCRYPT_KEYSTORE.crypto.kdfparams, n: 1000 } } }), 'crypto.kdfparams.n'],
    ['scrypt asking for more than 1 GiB', JSON.stringify({ ...SPEC_SCRYPT_KEYSTORE, crypto: { ...SPEC_SCRYPT_KEYSTORE.crypto, kdfparams: { ...SPEC_SCRYPT_KEYSTORE.crypto.kdfparams, n: 2 ** 24, r: 8 } } }), '1 GiB'],
    ['no crypto section', JSON.stringify({ version: 3, id: 'x' }), 'crypto is missing'],
  ])('refuses %s, naming what is wrong', async (_name, text, named) => {
    const error = await errorOf(decryptKeystore(text, 'pw'));
    expect(hasErrorCode(error, 'SIGNER_KEYSTORE_INVALID')).toBe(true);
    expect((error as Error).message).toContain(named);
  });

  it('refuses a keystore that decrypts to something that is not a Stark key, without showing it', async () => {
    const error = await errorOf(decryptStarkKeystore(JSON.stringify(SPEC_PBKDF2_KEYSTORE), SPEC_PASSWORD));
    expect(hasErrorCode(error, 'SIGNER_INVALID_KEY')).toBe(true);
    expect((error as Error).message).not.toContain(SPEC_SECRET.slice(0, 12));
  });

  it('refuses to write with scrypt parameters it could not read back', async () => {
    const error = await errorOf(encryptKeystore(Buffer.alloc(32, 1), 'pw', { scrypt: { n: 1000, r: 8, p: 1 }, randomBytes }));
    expect(hasErrorCode(error, 'SIGNER_KEYSTORE_INVALID')).toBe(true);
  });
});
