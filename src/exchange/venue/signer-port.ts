/**
 * What the live venue needs from the signer (`src/exchange/signer`): one hash-and-sign call per
 * request kind, and optionally a worker pool for bursts. Declared here as a port so the venue is
 * tested with a stand-in and the signer can change inside without touching the venue.
 *
 * Two implementations: the in-process `Signer` (+ `SigningPool`), which answers at once, and the
 * `RemoteSigner`, which asks `akira-mm signer serve` over a Unix socket and answers with a
 * promise; so every call may return either, and the venue awaits them. Either may refuse
 * (`SigningRefusedError`, code `SIGNER_REFUSED`, when the signing policy forbids a request) or,
 * remote only, fail (`SignerError` `SIGNER_UNAVAILABLE`).
 */
import type { LoginSigner } from '../client/auth.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../wire/requests.ts';
import type { SignedRequest } from './presign-cache.ts';

/** A value now (in-process signer) or later (remote signer). */
export type MaybePromise<T> = T | Promise<T>;

/** Hashes (SNIP-12 rev 0) and signs each request kind; the result carries `sign`. */
export interface VenueSigner extends LoginSigner {
  signOrder(order: OrderRequest): MaybePromise<SignedRequest<OrderRequest>>;
  signCancel(cancel: CancelRequest): MaybePromise<SignedRequest<CancelRequest>>;
  signCancelAll(cancel: CancelAllRequest): MaybePromise<SignedRequest<CancelAllRequest>>;
  signWithdraw(withdraw: WithdrawRequest): MaybePromise<SignedRequest<WithdrawRequest>>;
  signIncreaseNonce(request: IncreaseNonceRequest): MaybePromise<SignedRequest<IncreaseNonceRequest>>;
}

/** Signs many orders off the event loop (the signer's `SigningPool`, or the remote signer). */
export interface BatchOrderSigner {
  signOrders(orders: OrderRequest[]): Promise<SignedRequest<OrderRequest>[]>;
  /**
   * Whether the key holder's policy would sign this order. Pre-signing is speculative, so it
   * skips what would be refused instead of asking (a refusal is a security event). Absent = yes.
   */
  allows?(order: OrderRequest): boolean;
  close(): Promise<void> | void;
}
