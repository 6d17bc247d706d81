/** The signer: SNIP-12 rev 0 hashes of every request, Stark-curve keys, signatures and a signing pool. */
export { createMessageHasher, poseidonWithdrawHash, WITHDRAW_HASH_SCHEMES, type MessageHasher, type WithdrawHashScheme } from './hasher.ts';
export { signHash, verifySignature, verifySignatures, starkKeyOf, publicPointOf, VerifyingKey, CURVE_ORDER } from './ecdsa.ts';
export { generatePrivateKey, describeKeyPair, parsePrivateKey, type KeyPairDescription } from './keys.ts';
export { Signer, type Signed, type SignerOptions } from './signer.ts';
export { SigningPool, type SigningPoolOptions } from './pool.ts';
export { warmPedersen, pedersen, hashOnElements } from './pedersen.ts';
export { typeHash, encodeType } from './types.ts';
export type { StarkSignature } from '../wire/fields.ts';
export { devAccount, devAccounts, isPublicDevelopmentKey, type DevAccount } from './dev-accounts.ts';
export { SignerError, type SignerErrorCode } from './errors.ts';
export { SigningPolicy, SigningRefusedError, type AllowedPairSpec, type SigningPolicySpec } from './policy.ts';
export { REFUSAL_KINDS, type Refusal, type RefusalKind, type SignedKind } from './refusal.ts';
export { SigningAudit, type RefusalListener } from './audit.ts';
export {
  DEFAULT_SCRYPT,
  STARKLI_SCRYPT,
  decryptKeystore,
  decryptStarkKeystore,
  encryptKeystore,
  encryptStarkKeystore,
  type EncryptOptions,
  type ScryptParams,
} from './keystore.ts';
export { RemoteSigner, type RemoteSignerOptions } from './remote/client.ts';
export { SignerServer, type SignerServerOptions } from './remote/server.ts';
