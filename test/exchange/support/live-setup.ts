/**
 * A live venue (fake signer) on a loopback exchange, recording everything it tells the engine:
 * the set-up shared by the live-venue tests.
 */
import { afterEach, expect } from 'vitest';
import { createRng, createSilentLogger, ManualClock, type OrderReport, type ResyncReason, type VenueAlert, type VenueListener, type BestBidOffer, type VenueTrade, type GasQuote } from '../../../src/core/index.ts';
import { RestClient } from '../../../src/exchange/client/index.ts';
import { WireAnomalyCounter } from '../../../src/exchange/wire/anomalies.ts';
import { LiveVenue, type BatchOrderSigner, type LiveVenueSettings, type VenueSigner } from '../../../src/exchange/venue/index.ts';
import { LoopbackVenue } from './loopback-venue.ts';
import { ACCOUNT, CHAIN, drive } from './helpers.ts';
import { FakeBatchSigner, FakeSigner } from './fake-signer.ts';

export const START_MS = 1_700_000_123_456;
export const intent = { side: 'buy' as const, priceUnits: 2999_990000n, qtyUnits: 10n ** 17n, postOnly: true };

export interface Recorded {
  tops: BestBidOffer[];
  trades: VenueTrade[];
  reports: OrderReport[];
  gas: GasQuote[];
  resyncs: ResyncReason[];
  feed: boolean[];
  alerts: VenueAlert[];
}

let loopback: LoopbackVenue | undefined;
let live: LiveVenue | undefined;

/** Stops what `setup` started; call from the test file's top level. */
export function stopAfterEach(): void {
  afterEach(async () => {
    await live?.stop();
    await loopback?.stop();
    live = undefined;
    loopback = undefined;
  });
}

/** `signer`: one that stands for the fake (it signs and pre-signs; a remote signer's shape, say). */
export async function setup(options: { batch?: boolean; settings?: Partial<LiveVenueSettings>; signer?: VenueSigner & BatchOrderSigner } = {}) {
  loopback = await new LoopbackVenue().start();
  const clock = new ManualClock(START_MS);
  const signer = new FakeSigner();
  const logger = createSilentLogger();
  const anomalies = new WireAnomalyCounter(logger);
  const venueSigner = options.signer ?? signer;
  const batchSigner = options.signer ?? (options.batch === true ? new FakeBatchSigner(signer) : undefined);
  const rest = new RestClient({ baseUrl: loopback.httpUrl, chain: CHAIN, account: ACCOUNT, signer: venueSigner, clock, rng: createRng(1), logger, anomalies: anomalies.sink });
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
      ...options.settings,
    },
    { rest, signer: venueSigner, clock, rng: createRng(9), logger, anomalies, ...(batchSigner === undefined ? {} : { batchSigner }) },
  );
  const recorded: Recorded = { tops: [], trades: [], reports: [], gas: [], resyncs: [], feed: [], alerts: [] };
  const listener: VenueListener = {
    onTopOfBook: (top) => recorded.tops.push(top),
    onTrade: (trade) => recorded.trades.push(trade),
    onOrderReport: (report) => recorded.reports.push(report),
    onGasQuote: (quote) => recorded.gas.push(quote),
    onResync: (reason) => recorded.resyncs.push(reason),
    onFeedStatus: (isUp) => recorded.feed.push(isUp),
    onVenueAlert: (alert) => recorded.alerts.push(alert),
  };
  const info = await drive(clock, live.start(listener), 0);
  return { venue: loopback, live, clock, signer, recorded, info };
}

export async function placed(venue: LiveVenue, clock: ManualClock, order = intent): Promise<string> {
  const signed = await drive(clock, venue.signOrder(order), 0);
  const outcome = await drive(clock, venue.submitOrder(signed), 0);
  expect(outcome).toEqual({ kind: 'accepted', orderId: signed.orderId });
  return signed.orderId;
}
