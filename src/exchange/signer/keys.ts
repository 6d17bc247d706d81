/**
 * Private keys as the rest of the bot sees them: parsed once from a `Secret`, described for
 * `akira-mm keys new`, and never printed by accident (errors about a bad key never show it).
 */
import { MmError, type Secret } from '../../core/index.ts';
import { CURVE_ORDER, publicPointOf } from './ecdsa.ts';

export { generatePrivateKey } from './ecdsa.ts';

/** Parses a private key from 0x-hex or decimal text. The message never contains the key. */
export function parsePrivateKey(secret: Secret): bigint {
  const text = secret.reveal().trim();
  let value: bigint | undefined;
  if (/^0x[0-9a-fA-F]{1,64}$/.test(text) || /^[0-9]{1,78}$/.test(text)) value = BigInt(text);
  if (value === undefined || value <= 0n || value >= CURVE_ORDER) {
    throw new MmError('SIGNER_INVALID_KEY', 'the private key <redacted> is not a 0x-hex or decimal number in [1, Stark curve order)');
  }
  return value;
}

/** A key pair as users copy it: hex strings, the stark key unpadded like starknet.js `getStarkKey`. */
export interface KeyPairDescription {
  readonly privateKey: string;
  readonly publicKey: string;
  readonly fullPublicKey: string;
}

export function describeKeyPair(privateKey: bigint): KeyPairDescription {
  const point = publicPointOf(privateKey);
  return {
    privateKey: `0x${privateKey.toString(16).padStart(64, '0')}`,
    publicKey: `0x${point.x.toString(16)}`,
    fullPublicKey: `0x04${point.x.toString(16).padStart(64, '0')}${point.y.toString(16).padStart(64, '0')}`,
  };
}
