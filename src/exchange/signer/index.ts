/** The signer: SNIP-12 rev 0 hashes of every request, Stark-curve keys, signatures and a signing pool. */
export { createMessageHasher, poseidonWithdrawHash, WITHDRAW_HASH_SCHEMES, type MessageHasher, type WithdrawHashScheme } from './hasher.ts';
export { signHash, verifySignature, verifySignatures, starkKeyOf, publicPointOf, VerifyingKey, CURVE_ORDER } from './ecdsa.ts';
export { generatePrivateKey, describeKeyPair, parsePrivateKey, type KeyPairDescription } from './keys.ts';
export { Signer, type Signed, type SignerOptions } from './signer.ts';
export { SigningPool, type SigningPoolOptions } from './pool.ts';
export { warmPedersen, pedersen, hashOnElements } from './pedersen.ts';
export { typeHash, encodeType } from './types.ts';
export type { StarkSignature } from '../wire/fields.ts';
export { devAccount, devAccounts, type DevAccount } from './dev-accounts.ts';
