/**
 * Deterministic development accounts, like starknet-devnet's predeployed ones: the embedded
 * exchange funds them, paper mode trades with them, and the shipped pair files name account 0 of
 * seed 0, so `akira-mm sim` and `akira-mm run --env config/ETH-USDC.env` meet without setup.
 * They are public knowledge: never fund them on a real chain.
 */
import { createHash } from 'node:crypto';
import { CURVE_ORDER, starkKeyOf } from './ecdsa.ts';
import { pedersen } from './pedersen.ts';
import { shortStringToFelt } from '../wire/fields.ts';

export interface DevAccount {
  readonly index: number;
  /** Trading account address (a felt). */
  readonly address: bigint;
  readonly privateKey: bigint;
  readonly starkKey: bigint;
}

const ADDRESS_SALT = shortStringToFelt('akira-mm dev account');

/** The private key of account `index` of `seed`: SHA-256("akira-mm dev <seed>/<index>") reduced into the curve order. */
function devPrivateKey(seed: number, index: number): bigint {
  const digest = createHash('sha256').update(`akira-mm dev ${seed}/${index}`).digest('hex');
  return (BigInt(`0x${digest}`) % (CURVE_ORDER - 1n)) + 1n;
}

/** Account `index` of `seed` (key from {@link devPrivateKey}). */
export function devAccount(seed: number, index: number): DevAccount {
  const privateKey = devPrivateKey(seed, index);
  const starkKey = starkKeyOf(privateKey);
  return { index, address: pedersen(ADDRESS_SALT, starkKey), privateKey, starkKey };
}

/** The first `count` development accounts of a seed. */
export function devAccounts(seed: number, count: number): DevAccount[] {
  return Array.from({ length: count }, (_, index) => devAccount(seed, index));
}

/** How many accounts of seed 0 count as public (`akira-mm sim` prints and funds the first few). */
const PUBLIC_DEV_ACCOUNTS = 16;

/**
 * True for the private key of one of the first 16 development accounts of seed 0: the keys the
 * shipped pair files and `akira-mm sim` (default seed) use. They are public knowledge, so a file
 * holding one holds no secret (the file-permission check lets it be world-readable).
 */
export function isPublicDevelopmentKey(privateKey: bigint): boolean {
  for (let index = 0; index < PUBLIC_DEV_ACCOUNTS; index++) if (devPrivateKey(0, index) === privateKey) return true;
  return false;
}
