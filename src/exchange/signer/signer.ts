/**
 * One account's signer: hashes a request with the chain's fast hasher and signs it with the
 * account's key. The key lives in a private field and the object prints as `<redacted>`, so a
 * signer passed to a logger or an error never leaks it. With a {@link SigningPolicy} it refuses,
 * before hashing, every request the policy forbids (checked on the request values it hashes).
 */
import { inspect } from 'node:util';
import { MmError, type ChainInfo, type Secret } from '../../core/index.ts';
import { fastSignMessageHash, type FastSignChallenge } from '../client/fast-sign.ts';
import type { StarkSignature } from '../wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../wire/requests.ts';
import { signHash, starkKeyOf } from './ecdsa.ts';
import { createMessageHasher, type MessageHasher, type WithdrawHashScheme } from './hasher.ts';
import { parsePrivateKey } from './keys.ts';
import type { SigningPolicy } from './policy.ts';

export interface SignerOptions {
  readonly privateKey: Secret;
  /** The trading account (the `maker` of every request and the SNIP-12 account). */
  readonly account: bigint;
  readonly chain: ChainInfo;
  readonly withdrawHash?: WithdrawHashScheme;
  /** What this signer agrees to sign; none = anything (tests, the embedded exchange's tools). */
  readonly policy?: SigningPolicy;
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
  readonly policy: SigningPolicy | undefined;
  readonly #privateKey: bigint;

  /** @throws SignerError `SIGNER_INVALID_KEY`; MmError `CORE_INVARIANT` when the policy is for another chain or account. */
  constructor(options: SignerOptions) {
    const policy = options.policy;
    if (policy !== undefined && (!isSameChain(policy.chain, options.chain) || policy.spec.account !== options.account)) {
      throw new MmError('CORE_INVARIANT', `the signing policy is for account 0x${policy.spec.account.toString(16)} on ${policy.chain.name}, the signer for 0x${options.account.toString(16)} on ${options.chain.name} (or their contract addresses differ)`);
    }
    this.#privateKey = parsePrivateKey(options.privateKey);
    this.account = options.account;
    this.starkKey = starkKeyOf(this.#privateKey);
    this.hasher = createMessageHasher(options.chain, options.withdrawHash === undefined ? {} : { withdrawHash: options.withdrawHash });
    this.policy = policy;
  }

  #sign<Request extends Signable>(request: Request, hash: bigint): Signed<Request> {
    return { hash, request: { ...request, sign: signHash(hash, this.#privateKey) } };
  }

  /** @throws SigningRefusedError when the policy forbids the order (and every `sign*` below likewise). */
  signOrder(order: OrderRequest): Signed<OrderRequest> {
    this.policy?.enforce('order', this.policy.orderRefusal(order));
    return this.#sign(order, this.hasher.order(order));
  }

  /** Signs many orders, equal to `signOrder` on each but hashed in lockstep (cheaper per order). */
  signOrders(orders: readonly OrderRequest[]): Signed<OrderRequest>[] {
    this.assertOrdersAllowed(orders);
    const hashes = this.hasher.orders(orders);
    return orders.map((order, i) => this.#sign(order, hashes[i]!));
  }

  /**
   * Refuses (logged, counted) the first order of a batch the policy forbids; nothing is signed.
   * @throws SigningRefusedError
   */
  assertOrdersAllowed(orders: readonly OrderRequest[]): void {
    const policy = this.policy;
    if (policy === undefined) return;
    for (const order of orders) policy.enforce('order', policy.orderRefusal(order));
  }

  signCancel(cancel: CancelRequest): Signed<CancelRequest> {
    this.policy?.enforce('cancel', this.policy.cancelRefusal(cancel));
    return this.#sign(cancel, this.hasher.cancel(cancel));
  }

  signCancelAll(cancel: CancelAllRequest): Signed<CancelAllRequest> {
    this.policy?.enforce('cancel-all', this.policy.cancelAllRefusal(cancel));
    return this.#sign(cancel, this.hasher.cancelAll(cancel));
  }

  signWithdraw(withdraw: WithdrawRequest): Signed<WithdrawRequest> {
    this.policy?.enforce('withdraw', this.policy.withdrawRefusal(withdraw));
    return this.#sign(withdraw, this.hasher.withdraw(withdraw));
  }

  signIncreaseNonce(request: IncreaseNonceRequest): Signed<IncreaseNonceRequest> {
    this.policy?.enforce('increase-nonce', this.policy.increaseNonceRefusal(request));
    return this.#sign(request, this.hasher.increaseNonce(request));
  }

  /** Signs the login challenge of `/sign/request_sign_data` (REFERENCE §2.1). */
  signLogin(challenge: bigint): { hash: bigint; signature: StarkSignature } {
    this.policy?.enforce('login', this.policy.loginRefusal(this.account));
    const hash = this.hasher.login(this.account, challenge);
    return { hash, signature: signHash(hash, this.#privateKey) };
  }

  /**
   * Signs the fast-sign message of a challenge (FAST_CANCEL): it buys a key that can only cancel,
   * for an hour (REFERENCE §2.1), so the policy treats it like the login.
   */
  signFastSign(challenge: FastSignChallenge): StarkSignature {
    this.policy?.enforce('fast-sign', this.policy.loginRefusal(this.account));
    return signHash(fastSignMessageHash(this.hasher.chain, this.account, challenge), this.#privateKey);
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

/** Same chain and the same contract constants (what goes into every hash and the fee check). */
export function isSameChain(a: ChainInfo, b: ChainInfo): boolean {
  return a.name === b.name && a.chainId === b.chainId && BigInt(a.executorAddress) === BigInt(b.executorAddress) && BigInt(a.coreAddress) === BigInt(b.coreAddress) && BigInt(a.feeRecipient) === BigInt(b.feeRecipient);
}
