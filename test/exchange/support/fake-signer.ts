/**
 * A stand-in signer for client and venue tests until the real signer (src/exchange/signer) is
 * merged: it "hashes" a request as SHA-256 of its JSON body (signature fields left out) and
 * signs with a fixed signature. The loopback venue hashes bodies the same way, so the two agree
 * on hashes exactly as the real signer and the embedded exchange will.
 */
import { createHash } from 'node:crypto';
import type { StarkSignature } from '../../../src/exchange/wire/fields.ts';
import {
  formatCancelAllBody,
  formatCancelBody,
  formatIncreaseNonceBody,
  formatOrderBody,
  formatWithdrawBody,
  type CancelAllRequest,
  type CancelRequest,
  type IncreaseNonceRequest,
  type OrderRequest,
  type WithdrawRequest,
} from '../../../src/exchange/wire/requests.ts';
import type { BatchOrderSigner, SignedRequest, VenueSigner } from '../../../src/exchange/venue/index.ts';

export const FAKE_SIGNATURE: StarkSignature = { r: 0x1111n, s: 0x2222n };
export const FAKE_STARK_KEY = 0x5eedn;

/** The fake hash of a POST body: SHA-256 of its JSON without signatures, as a 248-bit felt. */
export function fakeHash(body: Record<string, unknown>): bigint {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (key !== 'sign' && key !== 'router_sign') rest[key] = value;
  const digest = createHash('sha256').update(JSON.stringify(rest)).digest('hex');
  return BigInt(`0x${digest.slice(0, 62)}`);
}

function signed<T>(request: T, format: (request: T) => Record<string, unknown>): SignedRequest<T> {
  const withSign = { ...request, sign: FAKE_SIGNATURE };
  return { hash: fakeHash(format(withSign)), request: withSign };
}

/** A signer whose hashes the loopback venue reproduces. */
export class FakeSigner implements VenueSigner {
  readonly starkKey = FAKE_STARK_KEY;
  readonly calls = { login: 0, order: 0, cancel: 0, cancelAll: 0, withdraw: 0, nonce: 0 };

  signLogin(challenge: bigint): { hash: bigint; signature: StarkSignature } {
    this.calls.login++;
    return { hash: challenge, signature: { r: challenge, s: 7n } };
  }

  signOrder(order: OrderRequest): SignedRequest<OrderRequest> {
    this.calls.order++;
    return signed(order, formatOrderBody);
  }

  signCancel(cancel: CancelRequest): SignedRequest<CancelRequest> {
    this.calls.cancel++;
    return signed(cancel, formatCancelBody);
  }

  signCancelAll(cancel: CancelAllRequest): SignedRequest<CancelAllRequest> {
    this.calls.cancelAll++;
    return signed(cancel, formatCancelAllBody);
  }

  signWithdraw(withdraw: WithdrawRequest): SignedRequest<WithdrawRequest> {
    this.calls.withdraw++;
    return signed(withdraw, formatWithdrawBody);
  }

  signIncreaseNonce(request: IncreaseNonceRequest): SignedRequest<IncreaseNonceRequest> {
    this.calls.nonce++;
    return signed(request, formatIncreaseNonceBody);
  }
}

/** A batch signer over the fake signer (the SigningPool's shape). */
export class FakeBatchSigner implements BatchOrderSigner {
  batches = 0;
  constructor(private readonly signer: FakeSigner) {}

  async signOrders(orders: OrderRequest[]): Promise<SignedRequest<OrderRequest>[]> {
    this.batches++;
    return orders.map((order) => this.signer.signOrder(order));
  }

  close(): void {}
}
