/**
 * Message hashes of every signed request (SPEC §3): SNIP-12 revision 0 over the Pedersen hash,
 *
 *   msgHash   = chain("StarkNet Message", domainHash, account, structHash)
 *   structHash = chain(typeHash, field₁, …, fieldₙ)      chain(xs) = H(…H(H(0, x₁), x₂)…, n)
 *
 * with account = the maker. The result is bit-identical to starknet.js `typedData.getMessageHash`
 * (a property test holds us to it), but an order costs a few hundred point additions instead of
 * ~25,000: every constant part of a chain (type hash + maker prefix, token and contract addresses,
 * short strings, lengths) is folded into a precomputed Pedersen argument once, and sub-structs
 * that repeat between quotes (fees, flags, quantity, constraints) are memoised by value.
 */
import type { ChainInfo, TokenInfo } from '../../core/index.ts';
import { starknetJs } from '../chain/starknet-js.ts';
import { shortStringToFelt } from '../wire/fields.ts';
import type {
  CancelAllRequest,
  CancelRequest,
  FixedFee,
  GasFee,
  IncreaseNonceRequest,
  OrderConstraints,
  OrderFee,
  OrderFlags,
  OrderRequest,
  WithdrawRequest,
} from '../wire/requests.ts';
import { ORDER_FLAG_KEYS } from '../wire/requests.ts';
import { chainFrom, chainMany, fixLeft, fixRight, pedersen, type ChainElement, type FixedArgument } from './pedersen.ts';
import { typeHash } from './types.ts';

/** How withdraws are hashed: SNIP-12 (default) or the seed document's legacy Poseidon (SPEC §1). */
export type WithdrawHashScheme = 'snip12' | 'poseidon';
export const WITHDRAW_HASH_SCHEMES: readonly WithdrawHashScheme[] = ['snip12', 'poseidon'];

/** Hashes of one chain's signed requests. */
export interface MessageHasher {
  readonly chain: ChainInfo;
  order(order: OrderRequest): bigint;
  /**
   * Hashes of many orders, equal to `order` on each: the orders are hashed in lockstep so each
   * Pedersen step of all of them shares one field inversion (much cheaper per order in bursts).
   */
  orders(orders: readonly OrderRequest[]): bigint[];
  cancel(cancel: CancelRequest): bigint;
  cancelAll(cancel: CancelAllRequest): bigint;
  withdraw(withdraw: WithdrawRequest): bigint;
  increaseNonce(request: IncreaseNonceRequest): bigint;
  /** The login message (REFERENCE §2.1) for this trading account and server challenge. */
  login(account: bigint, challenge: bigint): bigint;
}

/** A chain element: a plain felt, or a constant already folded as a right-hand argument. */
type Element = ChainElement;

const U128 = 2n ** 128n;
const STARKNET_MESSAGE = shortStringToFelt('StarkNet Message');
const LOGIN_WELCOME = shortStringToFelt('Sign in to LayerAkira');
const LOGIN_TO = shortStringToFelt('\tChallenge:');
const DOMAIN_NAME = shortStringToFelt('LayerAkira Exchange');
const DOMAIN_VERSION = shortStringToFelt('0.0.1');

/** A small bounded memo: cleared when full, which is cheap and keeps memory flat. */
class Memo<K, V> {
  readonly #map = new Map<K, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: K, make: () => V): V {
    let value = this.#map.get(key);
    if (value === undefined) {
      if (this.#map.size >= this.#limit) this.#map.clear();
      value = make();
      this.#map.set(key, value);
    }
    return value;
  }
}

const fixedRights = new Memo<bigint, FixedArgument>(4096);
/** A constant right-hand argument, computed once per value. */
function fixed(value: bigint): FixedArgument {
  return fixedRights.get(value, () => fixRight(value));
}

const typePrefixes = new Map<string, FixedArgument>();
/** H(0, typeHash) as a fixed left argument: where every struct chain starts. */
function typePrefix(type: string): FixedArgument {
  let prefix = typePrefixes.get(type);
  if (prefix === undefined) {
    prefix = fixLeft(pedersen(0n, typeHash(type)));
    typePrefixes.set(type, prefix);
  }
  return prefix;
}

function structHash(type: string, fields: readonly Element[]): bigint {
  // The chain's length counts the type hash too.
  return chainFrom(typePrefix(type), [...fields, fixed(BigInt(fields.length + 1))]);
}

const u256Memo = new Memo<bigint, bigint>(8192);
function u256Hash(value: bigint): bigint {
  return u256Memo.get(value, () => structHash('u256', [value % U128, fixed(value / U128)]));
}

function boolFelt(value: boolean): FixedArgument {
  return fixed(value ? 1n : 0n);
}

function address(token: TokenInfo): FixedArgument {
  return fixed(BigInt(token.address));
}

function shortString(text: string): FixedArgument {
  return fixed(shortStringToFelt(text));
}

function fixedFeeHash(fee: FixedFee): bigint {
  return structHash('FixedFee', [fee.recipient, fixed(BigInt(fee.makerPbips)), fixed(BigInt(fee.takerPbips))]);
}

function gasFeeHash(gas: GasFee): bigint {
  return structHash('GasFee', [
    fixed(BigInt(gas.gasPerAction)),
    address(gas.feeToken),
    u256Hash(gas.maxGasPrice),
    u256Hash(gas.conversionRate[0]),
    u256Hash(gas.conversionRate[1]),
  ]);
}

const feeMemo = new Memo<string, FixedArgument>(256);
function orderFeeHash(fee: OrderFee): FixedArgument {
  const { tradeFee: t, routerFee: r, integratorFee: i, gasFee: g } = fee;
  const key = [
    t.recipient, t.makerPbips, t.takerPbips, r.recipient, r.makerPbips, r.takerPbips, i.recipient, i.makerPbips, i.takerPbips,
    fee.applyToReceiptAmount, g.gasPerAction, g.feeToken.address, g.maxGasPrice, g.conversionRate[0], g.conversionRate[1],
  ].join(',');
  return feeMemo.get(key, () =>
    fixRight(
      structHash('OrderFee', [fixedFeeHash(t), fixedFeeHash(r), fixedFeeHash(i), boolFelt(fee.applyToReceiptAmount), gasFeeHash(g)]),
    ),
  );
}

const flagsMemo = new Memo<number, FixedArgument>(128);
function orderFlagsHash(flags: OrderFlags): FixedArgument {
  let mask = 0;
  ORDER_FLAG_KEYS.forEach(([, name], bit) => {
    if (flags[name]) mask |= 1 << bit;
  });
  return flagsMemo.get(mask, () => fixRight(structHash('OrderFlags', ORDER_FLAG_KEYS.map(([, name]) => boolFelt(flags[name])))));
}

const quantityMemo = new Memo<string, FixedArgument>(1024);
function quantityHash(baseQty: bigint, quoteQty: bigint, baseAsset: bigint): Element {
  return quantityMemo.get(`${baseQty},${quoteQty},${baseAsset}`, () =>
    fixRight(structHash('Quantity', [u256Hash(baseQty), u256Hash(quoteQty), u256Hash(baseAsset)])),
  );
}

const constraintsMemo = new Memo<string, FixedArgument>(1024);
function constraintsHash(c: OrderConstraints): Element {
  const key = `${c.numberOfSwapsAllowed},${c.durationValid},${c.createdAt},${c.stp},${c.nonce},${c.minReceiveAmount},${c.routerSigner}`;
  return constraintsMemo.get(key, () =>
    fixRight(
      structHash('Constraints', [
        fixed(BigInt(c.numberOfSwapsAllowed)),
        fixed(BigInt(c.durationValid)),
        BigInt(c.createdAt),
        fixed(BigInt(c.stp)),
        BigInt(c.nonce),
        u256Hash(c.minReceiveAmount),
        fixed(c.routerSigner),
      ]),
    ),
  );
}

/** Creates the hasher of one chain. Cheap after the first one: the Pedersen tables are shared. */
export function createMessageHasher(chain: ChainInfo, options: { withdrawHash?: WithdrawHashScheme } = {}): MessageHasher {
  const domainHash = structHash('StarkNetDomain', [DOMAIN_NAME, DOMAIN_VERSION, BigInt(chain.chainId)]);
  const messageStart = pedersen(pedersen(0n, STARKNET_MESSAGE), domainHash);
  const accountPrefixes = new Memo<bigint, FixedArgument>(1024);
  /** H(H(H(0, "StarkNet Message"), domain), account) as a fixed left argument, per account. */
  const accountPrefix = (account: bigint): FixedArgument => accountPrefixes.get(account, () => fixLeft(pedersen(messageStart, account)));
  const messageHash = (account: bigint, struct: bigint): bigint => chainFrom(accountPrefix(account), [struct, fixed(4n)]);

  const makerPrefixes = new Memo<bigint, FixedArgument>(1024);
  /** H(H(0, typeHash(Order)), maker): the constant head of every order of this maker. */
  const orderPrefix = (maker: bigint): FixedArgument =>
    makerPrefixes.get(maker, () => fixLeft(pedersen(typePrefix('Order').value, maker)));
  const executor = fixed(BigInt(chain.executorAddress));
  const core = fixed(BigInt(chain.coreAddress));
  const withdrawScheme = options.withdrawHash ?? 'snip12';

  const orderElements = (order: OrderRequest): Element[] => [
      u256Hash(order.price),
      quantityHash(order.baseQty, order.quoteQty, 10n ** BigInt(order.base.decimals)),
      address(order.base),
      address(order.quote),
      orderFeeHash(order.fee),
      constraintsHash(order.constraints),
      order.salt,
      orderFlagsHash(order.flags),
      executor,
      shortString(order.source),
      shortString(order.signScheme),
      fixed(13n),
    ];
  const orderStructHash = (order: OrderRequest): bigint => chainFrom(orderPrefix(order.maker), orderElements(order));
  const fourElements = fixed(4n);
  const ordersHash = (orders: readonly OrderRequest[]): bigint[] => {
    const structs = chainMany(
      orders.map((order) => orderPrefix(order.maker)),
      orders.map(orderElements),
    );
    return chainMany(
      orders.map((order) => accountPrefix(order.maker)),
      structs.map((struct) => [struct, fourElements]),
    );
  };

  return {
    chain,
    order: (order) => messageHash(order.maker, orderStructHash(order)),
    orders: ordersHash,
    cancel: (cancel) =>
      messageHash(cancel.maker, structHash('CancelOrder', [cancel.maker, cancel.orderHash, cancel.salt, shortString(cancel.signScheme)])),
    cancelAll: (cancel) => {
      const ticker = structHash('Ticker', [address(cancel.base), address(cancel.quote), boolFelt(cancel.toEcosystemBook)]);
      return messageHash(cancel.maker, structHash('CancelAllOrders', [cancel.maker, cancel.salt, ticker, shortString(cancel.signScheme)]));
    },
    withdraw: (withdraw) => (withdrawScheme === 'poseidon' ? poseidonWithdrawHash(withdraw) : snipWithdrawHash(withdraw)),
    increaseNonce: (request) =>
      messageHash(
        request.maker,
        structHash('OnchainCancelAll', [request.maker, BigInt(request.newNonce), gasFeeHash(request.gasFee), shortString(request.signScheme)]),
      ),
    login: (account, challenge) =>
      messageHash(account, structHash('Message', [fixed(LOGIN_WELCOME), fixed(LOGIN_TO), challenge])),
  };

  function snipWithdrawHash(withdraw: WithdrawRequest): bigint {
    return messageHash(
      withdraw.maker,
      structHash('Withdraw', [
        withdraw.maker,
        address(withdraw.token),
        u256Hash(withdraw.amount),
        withdraw.salt,
        gasFeeHash(withdraw.gasFee),
        withdraw.receiver,
        core,
        shortString(withdraw.signScheme),
      ]),
    );
  }
}

/**
 * The seed document's withdraw hash (REFERENCE §2.5): Poseidon over the struct's Cairo
 * serialisation, u256 as (low, high). Every input is already a range-checked felt, which matters
 * because Poseidon silently reduces values ≥ P (SIGNING-NOTES pitfall 7).
 */
export function poseidonWithdrawHash(withdraw: WithdrawRequest): bigint {
  const gas = withdraw.gasFee;
  const split = (value: bigint): bigint[] => [value % U128, value / U128];
  const felts = [
    withdraw.maker,
    BigInt(withdraw.token.address),
    ...split(withdraw.amount),
    withdraw.salt,
    BigInt(gas.gasPerAction),
    BigInt(gas.feeToken.address),
    ...split(gas.maxGasPrice),
    ...split(gas.conversionRate[0]),
    ...split(gas.conversionRate[1]),
    withdraw.receiver,
  ];
  return BigInt(starknetJs().hash.computePoseidonHashOnElements(felts));
}
