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

/** Account `index` of `seed`: key = SHA-256("akira-mm dev <seed>/<index>") reduced into the curve order. */
export function devAccount(seed: number, index: number): DevAccount {
  const digest = createHash('sha256').update(`akira-mm dev ${seed}/${index}`).digest('hex');
  const privateKey = (BigInt(`0x${digest}`) % (CURVE_ORDER - 1n)) + 1n;
  const starkKey = starkKeyOf(privateKey);
  return { index, address: pedersen(ADDRESS_SALT, starkKey), privateKey, starkKey };
}

/** The first `count` development accounts of a seed. */
export function devAccounts(seed: number, count: number): DevAccount[] {
  return Array.from({ length: count }, (_, index) => devAccount(seed, index));
}
