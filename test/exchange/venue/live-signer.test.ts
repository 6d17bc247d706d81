/**
 * The live venue with the real signer (SNIP-12 hashes, Stark ECDSA, the worker pool) against a
 * loopback venue that hashes every body it receives with the same SNIP-12 hasher and verifies
 * the signature: what we sign is exactly what the venue reads from the JSON we send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRng, createSilentLogger, ManualClock, Secret, type OrderReport, type VenueListener } from '../../../src/core/index.ts';
import { createLiveVenue, type LiveVenue } from '../../../src/exchange/index.ts';
import { devAccount } from '../../../src/exchange/signer/index.ts';
import { LoopbackVenue } from '../support/loopback-venue.ts';
import { drive, eventually } from '../support/helpers.ts';

const dev = devAccount(7, 0);
const intent = { side: 'sell' as const, priceUnits: 3001_000000n, qtyUnits: 2n * 10n ** 17n, postOnly: true };

let loopback: LoopbackVenue | undefined;
let live: LiveVenue | undefined;

afterEach(async () => {
  await live?.stop();
  await loopback?.stop();
  live = undefined;
  loopback = undefined;
});

async function setup(signingWorkers: number) {
  loopback = await new LoopbackVenue({ account: dev.address, starkKey: dev.starkKey, verify: true }).start();
  const clock = new ManualClock(1_700_000_000_000);
  live = createLiveVenue(
    {
      httpUrl: loopback.httpUrl,
      wsUrl: loopback.wsUrl,
      chain: 'mainnet',
      tradingAccount: `0x${dev.address.toString(16)}`,
      signerPrivateKey: new Secret(`0x${dev.privateKey.toString(16)}`),
      base: 'ETH',
      quote: 'USDC',
      ecosystemBook: true,
      feeToken: 'STRK',
      gasPriceMultiplier: 1.25,
      gasRefreshS: 30,
      conversionMarginBps: 50,
      orderTtlS: 3600,
      withdrawHash: 'snip12',
      signingWorkers,
    },
    { clock, rng: createRng(11), logger: createSilentLogger() },
  );
  const reports: OrderReport[] = [];
  const listener: VenueListener = {
    onTopOfBook: () => undefined,
    onTrade: () => undefined,
    onOrderReport: (report) => reports.push(report),
    onGasQuote: () => undefined,
    onResync: () => undefined,
    onFeedStatus: () => undefined,
  };
  await drive(clock, live.start(listener), 0);
  return { venue: loopback, live, clock, reports };
}

describe('live venue with the real signer', () => {
  it('logs in, places, cancels, cancels all and raises the nonce with signatures the venue verifies', async () => {
    const { venue, live, clock, reports } = await setup(0);
    const signed = await drive(clock, live.signOrder(intent), 0);
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'accepted', orderId: signed.orderId });
    // The venue stored the order under the SNIP-12 hash it computed from our JSON: our id.
    expect(venue.orders.has(signed.orderId.slice(2))).toBe(true);
    venue.fill(signed.orderId.slice(2), '0.05', '0.05', 'PARTIALLY_FILLED', '3001');
    await eventually(() => reports.length === 1);
    expect(reports[0]).toMatchObject({ orderId: signed.orderId, side: 'sell', filledQtyUnits: 5n * 10n ** 16n, lastFillPriceUnits: 3001_000000n });
    expect(await drive(clock, live.cancelOrder(signed.orderId), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.cancelAll(), 0)).toEqual({ kind: 'accepted' });
    expect(await drive(clock, live.increaseNonce(), 0)).toEqual({ kind: 'accepted' });
    expect(venue.nonce).toBe(4);
  });

  it('sends orders pre-signed on worker threads that the venue accepts', async () => {
    const { venue, live, clock } = await setup(1);
    live.prepareOrders([intent]);
    await eventually(() => live.presignStats().size === 1, { timeoutMs: 10_000 });
    const signed = await drive(clock, live.signOrder(intent), 0);
    expect(live.presignStats()).toMatchObject({ size: 0, hits: 1 });
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'accepted', orderId: signed.orderId });
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });

  it('without worker threads pre-signs on the event loop one order per turn, and the venue accepts them', async () => {
    const { venue, live, clock } = await setup(0);
    const neighbours = [intent, { ...intent, priceUnits: intent.priceUnits + 10_000n }, { ...intent, priceUnits: intent.priceUnits + 20_000n }];
    live.prepareOrders(neighbours);
    // Nothing is signed in the call itself: each signature waits for a turn of the event loop.
    expect(live.presignStats().size).toBe(0);
    await eventually(() => live.presignStats().size === 3, { clock, stepMs: 0 });
    const signed = await drive(clock, live.signOrder(neighbours[1]!), 0);
    expect(live.presignStats()).toMatchObject({ size: 2, hits: 1 });
    expect(await drive(clock, live.submitOrder(signed), 0)).toEqual({ kind: 'accepted', orderId: signed.orderId });
    expect(venue.seen('POST /place_order')).toHaveLength(1);
  });
});
