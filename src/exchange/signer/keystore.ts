/**
 * Encrypted keystores in the Web3 Secret Storage Definition v3 format, exactly as starkli reads
 * and writes them (starkli → starknet-rs `SigningKey::save_as_keystore` → the `eth-keystore`
 * crate): the Stark private key as 32 big-endian bytes, encrypted with AES-128-CTR under the
 * first 16 bytes of a scrypt-derived key, and a MAC = keccak-256(derived[16..32] ‖ ciphertext).
 * The JSON is `{"crypto":{"cipher","cipherparams":{"iv"},"ciphertext","kdf","kdfparams":{"dklen",
 * "n","p","r","salt"},"mac"},"id","version":3}` with lowercase hex without `0x`, which is what
 * serde writes for `eth_keystore::EthKeystore`; reading also accepts PBKDF2 (the format's other
 * KDF), `0x`-prefixed hex and the capitalised `Crypto` some old wallets wrote.
 *
 * Crypto choices: scrypt and keccak-256 come from `@noble/hashes` (already in the tree through
 * starknet.js). Node's own scrypt (OpenSSL) was not used because it enforces RFC 7914's
 * N < 2^(16·r), which the format's published test vector (n = 2^18, r = 1, p = 8) and other real
 * keystores break and which the Rust `scrypt` crate behind starkli does not enforce; OpenSSL has
 * no keccak-256 either (only SHA3-256, whose padding differs). AES-128-CTR, PBKDF2-HMAC-SHA256,
 * the constant-time MAC comparison and random bytes are node:crypto (OpenSSL).
 */
import { createCipheriv, createDecipheriv, pbkdf2 as nodePbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { scryptAsync } from '@noble/hashes/scrypt';
import { keccak_256 } from '@noble/hashes/sha3';
import { z } from 'zod';
import { CURVE_ORDER } from './ecdsa.ts';
import { SignerError } from './errors.ts';

/** scrypt cost parameters. Memory is 128 · r · n bytes. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/**
 * What `keys new/import --keystore` writes by default: geth's "standard" scrypt (n = 2^18,
 * r = 8, p = 1: 256 MiB and about 2 s to unlock here). starkli writes n = 2^13 (8 MiB, ~50 ms);
 * it reads either, as does this module.
 */
export const DEFAULT_SCRYPT: ScryptParams = { n: 2 ** 18, r: 8, p: 1 };
/** The parameters starkli (eth-keystore) writes. */
export const STARKLI_SCRYPT: ScryptParams = { n: 2 ** 13, r: 8, p: 1 };

/** Largest scrypt memory a keystore may ask for (1 GiB, @noble/hashes' own limit). */
const MAX_SCRYPT_MEMORY = 2 ** 30;
const DKLEN = 32;

const hex = (length?: number) =>
  z
    .string()
    .regex(/^(0x)?([0-9a-fA-F]{2})*$/, 'must be hex')
    .transform((text) => Buffer.from(text.replace(/^0x/, ''), 'hex'))
    .refine((bytes) => length === undefined || bytes.length === length, `must be ${length ?? 0} bytes of hex`);

const positiveInteger = z.number().int().positive();

const scryptParamsSchema = z.object({
  dklen: z.literal(DKLEN),
  n: positiveInteger.refine((n) => n >= 2 && (n & (n - 1)) === 0, 'must be a power of two'),
  r: positiveInteger,
  p: positiveInteger,
  salt: hex(),
});

const pbkdf2ParamsSchema = z.object({
  dklen: z.literal(DKLEN),
  c: positiveInteger,
  prf: z.literal('hmac-sha256'),
  salt: hex(),
});

const cryptoSchema = z.discriminatedUnion('kdf', [
  z.object({ kdf: z.literal('scrypt'), kdfparams: scryptParamsSchema }),
  z.object({ kdf: z.literal('pbkdf2'), kdfparams: pbkdf2ParamsSchema }),
]).and(
  z.object({
    cipher: z.literal('aes-128-ctr'),
    cipherparams: z.object({ iv: hex(16) }),
    ciphertext: hex().refine((bytes) => bytes.length > 0, 'must not be empty'),
    mac: hex(32),
  }),
);

const keystoreSchema = z.object({
  version: z.literal(3),
  crypto: cryptoSchema.optional(),
  Crypto: cryptoSchema.optional(),
});

type KeystoreCrypto = z.infer<typeof cryptoSchema>;

/** Options of {@link encryptKeystore}. */
export interface EncryptOptions {
  /** Default {@link DEFAULT_SCRYPT}. */
  readonly scrypt?: ScryptParams;
  /** Source of the salt, IV and UUID (node:crypto `randomBytes` in production; seeded in tests). */
  readonly randomBytes: (size: number) => Uint8Array;
}

/**
 * Encrypts `secret` into keystore JSON (compact, as serde writes it).
 * @throws SignerError `SIGNER_KEYSTORE_INVALID` for scrypt parameters that are not allowed.
 */
export async function encryptKeystore(secret: Uint8Array, password: string, options: EncryptOptions): Promise<string> {
  const params = options.scrypt ?? DEFAULT_SCRYPT;
  checkScryptParams(params);
  const salt = Buffer.from(options.randomBytes(32));
  const iv = Buffer.from(options.randomBytes(16));
  const derived = await scryptAsync(password, salt, { N: params.n, r: params.r, p: params.p, dkLen: DKLEN, maxmem: MAX_SCRYPT_MEMORY + 1024 });
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  const keystore = {
    crypto: {
      cipher: 'aes-128-ctr',
      cipherparams: { iv: iv.toString('hex') },
      ciphertext: ciphertext.toString('hex'),
      kdf: 'scrypt',
      kdfparams: { dklen: DKLEN, n: params.n, p: params.p, r: params.r, salt: salt.toString('hex') },
      mac: Buffer.from(mac(derived, ciphertext)).toString('hex'),
    },
    id: uuidV4(options.randomBytes(16)),
    version: 3,
  };
  derived.fill(0);
  return JSON.stringify(keystore);
}

/**
 * Decrypts keystore JSON into the secret bytes.
 * @throws SignerError `SIGNER_KEYSTORE_INVALID` when the text is not a v3 keystore we can read
 *   (naming the field), `SIGNER_KEYSTORE_WRONG_PASSWORD` when the MAC does not match.
 */
export async function decryptKeystore(text: string, password: string): Promise<Uint8Array> {
  const crypto = parseKeystore(text);
  const derived = await deriveKey(crypto, password);
  const expected = mac(derived, crypto.ciphertext);
  if (!timingSafeEqual(expected, crypto.mac)) {
    derived.fill(0);
    throw new SignerError('SIGNER_KEYSTORE_WRONG_PASSWORD', 'wrong password (or the keystore was altered: its MAC does not match)');
  }
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), crypto.cipherparams.iv);
  const secret = Buffer.concat([decipher.update(crypto.ciphertext), decipher.final()]);
  derived.fill(0);
  return secret;
}

/** Encrypts a Stark private key as starkli does: 32 big-endian bytes. */
export function encryptStarkKeystore(privateKey: bigint, password: string, options: EncryptOptions): Promise<string> {
  const bytes = Buffer.from(privateKey.toString(16).padStart(64, '0'), 'hex');
  return encryptKeystore(bytes, password, options).finally(() => bytes.fill(0));
}

/**
 * Decrypts a keystore holding a Stark private key (up to 32 big-endian bytes, as starkli writes).
 * @throws SignerError as {@link decryptKeystore}, and `SIGNER_INVALID_KEY` when the decrypted
 *   bytes are not a Stark private key (an Ethereum keystore, say): the bytes are never shown.
 */
export async function decryptStarkKeystore(text: string, password: string): Promise<bigint> {
  const bytes = await decryptKeystore(text, password);
  const value = bytes.length === 0 || bytes.length > 32 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  bytes.fill(0);
  if (value <= 0n || value >= CURVE_ORDER) {
    throw new SignerError('SIGNER_INVALID_KEY', 'the keystore decrypts, but not to a Stark private key in [1, curve order) (an Ethereum key?)');
  }
  return value;
}

function parseKeystore(text: string): KeystoreCrypto {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SignerError('SIGNER_KEYSTORE_INVALID', 'not a keystore: the file is not JSON');
  }
  const parsed = keystoreSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined || issue.path.length === 0 ? 'the file' : issue.path.join('.');
    throw new SignerError('SIGNER_KEYSTORE_INVALID', `not a Web3 Secret Storage v3 keystore we can read: ${path}: ${issue?.message ?? 'invalid'}`);
  }
  const crypto = parsed.data.crypto ?? parsed.data.Crypto;
  if (crypto === undefined) throw new SignerError('SIGNER_KEYSTORE_INVALID', 'not a Web3 Secret Storage v3 keystore we can read: crypto is missing');
  if (crypto.kdf === 'scrypt') checkScryptParams(crypto.kdfparams);
  return crypto;
}

function checkScryptParams(params: ScryptParams): void {
  const { n, r, p } = params;
  const powerOfTwo = Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;
  if (!powerOfTwo || !Number.isInteger(r) || r < 1 || !Number.isInteger(p) || p < 1 || 128 * r * (n + p) > MAX_SCRYPT_MEMORY) {
    throw new SignerError('SIGNER_KEYSTORE_INVALID', `scrypt n=${n} r=${r} p=${p} is not allowed: n a power of two, r and p ≥ 1, at most 1 GiB (128·r·(n+p) bytes)`);
  }
}

async function deriveKey(crypto: KeystoreCrypto, password: string): Promise<Buffer> {
  if (crypto.kdf === 'scrypt') {
    const { n, r, p, salt } = crypto.kdfparams;
    return Buffer.from(await scryptAsync(password, salt, { N: n, r, p, dkLen: DKLEN, maxmem: MAX_SCRYPT_MEMORY + 1024 }));
  }
  const { c, salt } = crypto.kdfparams;
  return promisify(nodePbkdf2)(password, salt, c, DKLEN, 'sha256');
}

function mac(derived: Uint8Array, ciphertext: Uint8Array): Buffer {
  const input = Buffer.concat([derived.subarray(16, 32), ciphertext]);
  return Buffer.from(keccak_256(input));
}

/** An RFC 4122 version 4 UUID from 16 random bytes. */
function uuidV4(random: Uint8Array): string {
  const bytes = Buffer.from(random.subarray(0, 16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
