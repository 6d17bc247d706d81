/**
 * The SNIP-12 revision 0 types of LayerAkira (SPEC §3, REFERENCE §2.4), member order exactly as
 * the contracts declare them, and their type hashes. A type hash is starknet_keccak of the rev 0
 * type encoding: the primary type, then every referenced struct sorted by name, no spaces or
 * quotes. Tests pin each hash to the contract's own constant, because a one-letter change here
 * would only ever show up as FAILED_SIGN_CHECK from the venue (SIGNING-NOTES pitfall 2).
 */
import { keccak_256 } from '@noble/hashes/sha3';

export type Members = readonly (readonly [name: string, type: string])[];

export const TYPES: Readonly<Record<string, Members>> = {
  StarkNetDomain: [['name', 'felt'], ['version', 'felt'], ['chainId', 'felt']],
  u256: [['low', 'felt'], ['high', 'felt']],
  GasFee: [['gas_per_action', 'felt'], ['fee_token', 'felt'], ['max_gas_price', 'u256'], ['r0', 'u256'], ['r1', 'u256']],
  FixedFee: [['recipient', 'felt'], ['maker_pbips', 'felt'], ['taker_pbips', 'felt']],
  OrderFee: [['trade_fee', 'FixedFee'], ['router_fee', 'FixedFee'], ['integrator_fee', 'FixedFee'], ['apply_to_receipt_amount', 'bool'], ['gas_fee', 'GasFee']],
  Quantity: [['base_qty', 'u256'], ['quote_qty', 'u256'], ['base_asset', 'u256']],
  Constraints: [
    ['number_of_swaps_allowed', 'felt'],
    ['duration_valid', 'felt'],
    ['created_at', 'felt'],
    ['stp', 'felt'],
    ['nonce', 'felt'],
    ['min_receive_amount', 'u256'],
    ['router_signer', 'felt'],
  ],
  OrderFlags: [
    ['full_fill_only', 'bool'],
    ['best_level_only', 'bool'],
    ['post_only', 'bool'],
    ['is_sell_side', 'bool'],
    ['is_market_order', 'bool'],
    ['to_ecosystem_book', 'bool'],
    ['external_funds', 'bool'],
  ],
  Order: [
    ['maker', 'felt'],
    ['price', 'u256'],
    ['qty', 'Quantity'],
    ['base', 'felt'],
    ['quote', 'felt'],
    ['fee', 'OrderFee'],
    ['constraints', 'Constraints'],
    ['salt', 'felt'],
    ['flags', 'OrderFlags'],
    ['exchange', 'felt'],
    ['source', 'felt'],
    ['sign_scheme', 'felt'],
  ],
  Withdraw: [
    ['maker', 'felt'],
    ['token', 'felt'],
    ['amount', 'u256'],
    ['salt', 'felt'],
    ['gas_fee', 'GasFee'],
    ['receiver', 'felt'],
    ['exchange', 'felt'],
    ['sign_scheme', 'felt'],
  ],
  OnchainCancelAll: [['maker', 'felt'], ['new_nonce', 'felt'], ['gas_fee', 'GasFee'], ['sign_scheme', 'felt']],
  CancelOrder: [['maker', 'felt'], ['order_hash', 'felt'], ['salt', 'felt'], ['sign_scheme', 'felt']],
  Ticker: [['base', 'felt'], ['quote', 'felt'], ['to_ecosystem_book', 'bool']],
  CancelAllOrders: [['maker', 'felt'], ['salt', 'felt'], ['ticker', 'Ticker'], ['sign_scheme', 'felt']],
  Message: [['welcome', 'string'], ['to', 'string'], ['exchange', 'string']],
};

export type TypeName = keyof typeof TYPES & string;

function dependencies(types: Readonly<Record<string, Members>>, type: string, found: Set<string>): void {
  const members = types[type];
  if (found.has(type) || members === undefined) return;
  found.add(type);
  for (const [, memberType] of members) dependencies(types, memberType, found);
}

/**
 * The rev 0 encoding of a type in a types table: `Order(maker:felt,…)Constraints(…)…`, the
 * primary type first, then its dependencies sorted by name (JS default sort, like starknet.js).
 */
export function encodeType(type: string, types: Readonly<Record<string, Members>> = TYPES): string {
  const found = new Set<string>();
  dependencies(types, type, found);
  found.delete(type);
  const encode = (name: string): string => `${name}(${(types[name] ?? []).map(([member, memberType]) => `${member}:${memberType}`).join(',')})`;
  return [type, ...[...found].sort()].map(encode).join('');
}

const typeHashes = new Map<string, bigint>();

/** The low 250 bits of keccak-256: Starknet's `starknet_keccak`, the selector and type-hash function. */
const MASK_250 = (1n << 250n) - 1n;

/** starknet_keccak of an ASCII string (what starknet.js's `hash.starknetKeccak` computes). */
export function starknetKeccak(text: string): bigint {
  return BigInt(`0x${Buffer.from(keccak_256(Buffer.from(text, 'utf8'))).toString('hex')}`) & MASK_250;
}

/** starknet_keccak of the type's encoding (cached). */
export function typeHash(type: string): bigint {
  let value = typeHashes.get(type);
  if (value === undefined) {
    if (TYPES[type] === undefined) throw new Error(`unknown SNIP-12 type ${type}`);
    value = starknetKeccak(encodeType(type));
    typeHashes.set(type, value);
  }
  return value;
}
