/**
 * The live venue with a signer that answers later (the remote signer's shape) and one that
 * refuses or is unreachable: a refusal is a rejected order for the engine (never an exception in
 * its quoting loop), and pre-signing never asks for what the signer would refuse.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRng, createSilentLogger, ManualClock } from '../../../src/core/index.ts';
import { RestClient } from '../../../src/exchange/client/index.ts';
import { SignerError, SigningRefusedError } from '../../../src/exchange/signer/index.ts';
import { LiveVenue, type BatchOrderSigner, type SignedRequest, type VenueSigner } from '../../../src/exchange/venue/index.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../../../src/exchange/wire/requests.ts';
import { LoopbackVenue } from '../support/loopback-venue.ts';
import { ACCOUNT, CHAIN, drive, eventually } from '../support/helpers.ts';
import { FakeSigner } from '../support/fake-signer.ts';
import { QUIET_LISTENER } from '../../integration/support.ts';

const intent = { side: 'buy' as const, priceUnits: 2999_990000n, qtyUnits: 10n ** 17n, postOnly: true };
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

let loopback: LoopbackVenue | undefined;
let live: LiveVenue | undefined;

afterEach(async () => {
  await live?.stop();
  await loopback?.stop();
  live = undefined;
  loopback = undefined;
});

async function setup() {
  loopback = await new LoopbackVenue().start();
  const clock = new ManualClock(1_700_000_123_456);
  const signer = new PolicySigner();
  const logger = createSilentLogger();
  const rest = new RestClient({ baseUrl: loopback.httpUrl, chain: CHAIN, account: ACCOUNT, signer, clock, rng: createRng(1), logger });
  live = new LiveVenue(
    {
      chain: CHAIN,
      account: ACCOUNT,
      pair: { base: 'ETH', quote: 'USDC' },
      ecosystemBook: true,
      feeToken: 'STRK',
      gasPriceMultiplier: 1.25,
      gasRefreshMs: 30_000,
      conversionMarginBps: 50,
      orderTtlS: 3600,
      wsUrl: loopback.wsUrl,
    },
    { rest, signer, batchSigner: signer, clock, rng: createRng(9), logger },
  );
  await drive(clock, live.start(QUIET_LISTENER), 0);
  return { venue: loopback, live, clock, signer };
}

describe('live venue with a signer that answers later, refuses, or is gone', () => {
  it('logs in, places, cancels, cancels all and raises the nonce through a signer that answers with promises', async () => {
    const { live, clock, signer } = await setup();
    expect(signer.inner.calls.login).toBe(1);
    const signed = await drive(clock, live.signOrder(intent), 0);
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'accepted', orderId: signed.orderId });
    expect(await drive(clock, live.cancelOrder(signed.orderId), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual({ kind: 'accepted' });
  });

  it('turns a refused order into a rejected placement with the reason, and sends nothing', async () => {
    const { venue, live, clock } = await setup();
    const signed = await drive(clock, live.signOrder({ ...intent, priceUnits: 3100_000000n }), 0);
    const outcome = await drive(clock, live.submitOrder(signed), 0);
    expect(outcome).toEqual({ kind: 'rejected', orderId: signed.orderId, reason: 'SIGNER_REFUSED: signing refused (notional): over the limit', signerError: 'SIGNER_REFUSED' });
    expect(venue.seen('POST /place_order')).toHaveLength(0);
  });

  it('answers cancels and cancel-all with a rejection while the signer is unreachable, then recovers', async () => {
    const { live, clock, signer } = await setup();
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
    const { live, signer } = await setup();
    live.prepareOrders([intent, { ...intent, priceUnits: 3000_010000n }, { ...intent, priceUnits: 2999_980000n }]);
    await eventually(() => live.presignStats().stored === 2);
    expect(signer.batches).toHaveLength(1);
    expect(signer.batches[0]!.map((order) => order.price)).toEqual([2999_990000n, 2999_980000n]);
  });
});
