/**
 * One account's signer: hashes a request with the chain's fast hasher and signs it with the
 * account's key. The key lives in a private field and the object prints as `<redacted>`, so a
 * signer passed to a logger or an error never leaks it.
 */
import { inspect } from 'node:util';
import type { ChainInfo, Secret } from '../../core/index.ts';
import type { StarkSignature } from '../wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../wire/requests.ts';
import { signHash, starkKeyOf } from './ecdsa.ts';
import { createMessageHasher, type MessageHasher, type WithdrawHashScheme } from './hasher.ts';
import { parsePrivateKey } from './keys.ts';

export interface SignerOptions {
  readonly privateKey: Secret;
  /** The trading account (the `maker` of every request and the SNIP-12 account). */
  readonly account: bigint;
  readonly chain: ChainInfo;
  readonly withdrawHash?: WithdrawHashScheme;
}

/** A request with its message hash and signature filled in. */
export interface Signed<Request> {
  readonly hash: bigint;
  readonly request: Request;
}

type Signable = { readonly sign?: StarkSignature };

export class Signer {
  readonly account: bigint;
  readonly starkKey: bigint;
  readonly hasher: MessageHasher;
  readonly #privateKey: bigint;

  constructor(options: SignerOptions) {
    this.#privateKey = parsePrivateKey(options.privateKey);
    this.account = options.account;
    this.starkKey = starkKeyOf(this.#privateKey);
    this.hasher = createMessageHasher(options.chain, options.withdrawHash === undefined ? {} : { withdrawHash: options.withdrawHash });
  }

  #sign<Request extends Signable>(request: Request, hash: bigint): Signed<Request> {
    return { hash, request: { ...request, sign: signHash(hash, this.#privateKey) } };
  }

  signOrder(order: OrderRequest): Signed<OrderRequest> {
    return this.#sign(order, this.hasher.order(order));
  }

  /** Signs many orders, equal to `signOrder` on each but hashed in lockstep (cheaper per order). */
  signOrders(orders: readonly OrderRequest[]): Signed<OrderRequest>[] {
    const hashes = this.hasher.orders(orders);
    return orders.map((order, i) => this.#sign(order, hashes[i]!));
  }

  signCancel(cancel: CancelRequest): Signed<CancelRequest> {
    return this.#sign(cancel, this.hasher.cancel(cancel));
  }

  signCancelAll(cancel: CancelAllRequest): Signed<CancelAllRequest> {
    return this.#sign(cancel, this.hasher.cancelAll(cancel));
  }

  signWithdraw(withdraw: WithdrawRequest): Signed<WithdrawRequest> {
    return this.#sign(withdraw, this.hasher.withdraw(withdraw));
  }

  signIncreaseNonce(request: IncreaseNonceRequest): Signed<IncreaseNonceRequest> {
    return this.#sign(request, this.hasher.increaseNonce(request));
  }

  /** Signs the login challenge of `/sign/request_sign_data` (REFERENCE §2.1). */
  signLogin(challenge: bigint): { hash: bigint; signature: StarkSignature } {
    const hash = this.hasher.login(this.account, challenge);
    return { hash, signature: signHash(hash, this.#privateKey) };
  }

  toString(): string {
    return `Signer(account 0x${this.account.toString(16)}, key <redacted>)`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
