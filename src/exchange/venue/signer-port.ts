/**
 * What the live venue needs from the signer (`src/exchange/signer`): one hash-and-sign call per
 * request kind, and optionally a worker pool for bursts. Declared here as a port so the venue is
 * tested with a stand-in and the signer can change inside without touching the venue.
 */
import type { LoginSigner } from '../client/auth.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../wire/requests.ts';
import type { SignedRequest } from './presign-cache.ts';

/** Hashes (SNIP-12 rev 0) and signs each request kind; the result carries `sign`. */
export interface VenueSigner extends LoginSigner {
  signOrder(order: OrderRequest): SignedRequest<OrderRequest>;
  signCancel(cancel: CancelRequest): SignedRequest<CancelRequest>;
  signCancelAll(cancel: CancelAllRequest): SignedRequest<CancelAllRequest>;
  signWithdraw(withdraw: WithdrawRequest): SignedRequest<WithdrawRequest>;
  signIncreaseNonce(request: IncreaseNonceRequest): SignedRequest<IncreaseNonceRequest>;
}

/** Signs many orders off the event loop (the signer's `SigningPool`). */
export interface BatchOrderSigner {
  signOrders(orders: OrderRequest[]): Promise<SignedRequest<OrderRequest>[]>;
  close(): Promise<void> | void;
}
