/**
 * The live venue with a signer that answers later (the remote signer's shape) and one that
 * refuses or is unreachable: a refusal is a rejected order for the engine (never an exception in
 * its quoting loop), and pre-signing never asks for what the signer would refuse.
 */
import { describe, expect, it } from 'vitest';
import { SignerError, SigningRefusedError } from '../../../src/exchange/signer/index.ts';
import type { BatchOrderSigner, SignedRequest, VenueSigner } from '../../../src/exchange/venue/index.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../../../src/exchange/wire/requests.ts';
import { drive, eventually } from '../support/helpers.ts';
import { FakeSigner } from '../support/fake-signer.ts';
import { intent, setup, stopAfterEach } from '../support/live-setup.ts';

/** Orders priced above this are refused by the stand-in policy (3,000 USDC). */
const PRICE_LIMIT = 3000_000000n;

/** The remote signer's shape over the fake signer: every answer a promise; refuses like a policy. */
class PolicySigner implements VenueSigner, BatchOrderSigner {
  readonly inner = new FakeSigner();
  readonly starkKey = this.inner.starkKey;
  readonly batches: OrderRequest[][] = [];
  isReachable = true;

  signLogin(challenge: bigint) {
    return Promise.resolve(this.inner.signLogin(challenge));
  }

  async signOrder(order: OrderRequest): Promise<SignedRequest<OrderRequest>> {
    this.#check();
    if (order.price > PRICE_LIMIT) throw new SigningRefusedError({ kind: 'notional', reason: 'over the limit' });
    return this.inner.signOrder(order);
  }

  async signOrders(orders: OrderRequest[]): Promise<SignedRequest<OrderRequest>[]> {
    this.batches.push(orders);
    return Promise.all(orders.map((order) => this.signOrder(order)));
  }

  allows(order: OrderRequest): boolean {
    return order.price <= PRICE_LIMIT;
  }

  async signCancel(cancel: CancelRequest): Promise<SignedRequest<CancelRequest>> {
    this.#check();
    return this.inner.signCancel(cancel);
  }

  async signCancelAll(cancel: CancelAllRequest): Promise<SignedRequest<CancelAllRequest>> {
    this.#check();
    return this.inner.signCancelAll(cancel);
  }

  async signWithdraw(withdraw: WithdrawRequest): Promise<SignedRequest<WithdrawRequest>> {
    throw new SigningRefusedError({ kind: 'withdraw', reason: `never to ${withdraw.receiver}` });
  }

  async signIncreaseNonce(request: IncreaseNonceRequest): Promise<SignedRequest<IncreaseNonceRequest>> {
    this.#check();
    return this.inner.signIncreaseNonce(request);
  }

  close(): void {}

  #check(): void {
    if (!this.isReachable) throw new SignerError('SIGNER_UNAVAILABLE', 'the signer closed the connection');
  }
}

stopAfterEach();

/** The live venue on a loopback exchange, signing through a {@link PolicySigner}. */
async function custodySetup() {
  const signer = new PolicySigner();
  const { venue, live, clock } = await setup({ signer });
  return { venue, live, clock, signer };
}

describe('live venue with a signer that answers later, refuses, or is gone', () => {
  it('logs in, places, cancels, cancels all and raises the nonce through a signer that answers with promises', async () => {
    const { live, clock, signer } = await custodySetup();
    expect(signer.inner.calls.login).toBe(1);
    const signed = await drive(clock, live.signOrder(intent), 0);
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'accepted', orderId: signed.orderId });
    expect(await drive(clock, live.cancelOrder(signed.orderId), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual({ kind: 'accepted' });
  });

  it('turns a refused order into a rejected placement with the reason, and sends nothing', async () => {
    const { venue, live, clock } = await custodySetup();
    const signed = await drive(clock, live.signOrder({ ...intent, priceUnits: 3100_000000n }), 0);
    const outcome = await drive(clock, live.submitOrder(signed), 0);
    expect(outcome).toEqual({ kind: 'rejected', orderId: signed.orderId, reason: 'SIGNER_REFUSED: signing refused (notional): over the limit', signerError: 'SIGNER_REFUSED' });
    expect(venue.seen('POST /place_order')).toHaveLength(0);
  });

  it('answers cancels and cancel-all with a rejection while the signer is unreachable, then recovers', async () => {
    const { live, clock, signer } = await custodySetup();
    const signed = await drive(clock, live.signOrder(intent), 0);
    await drive(clock, live.submitOrder(signed), 0);
    signer.isReachable = false;
    const unavailable = { kind: 'rejected', reason: 'SIGNER_UNAVAILABLE: the signer closed the connection', signerError: 'SIGNER_UNAVAILABLE' };
    expect(await drive(clock, live.cancelOrder(signed.orderId), 0)).toEqual(unavailable);
    expect(await drive(clock, live.cancelAll(), 0)).toEqual(unavailable);
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual(unavailable);
    signer.isReachable = true;
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
  });

  it('pre-signs only what the signer allows: a speculative order it would refuse is never asked for', async () => {
    const { live, signer } = await custodySetup();
    live.prepareOrders([intent, { ...intent, priceUnits: 3000_010000n }, { ...intent, priceUnits: 2999_980000n }]);
    await eventually(() => live.presignStats().stored === 2);
    expect(signer.batches).toHaveLength(1);
    expect(signer.batches[0]!.map((order) => order.price)).toEqual([2999_990000n, 2999_980000n]);
  });
});
