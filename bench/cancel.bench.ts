/**
 * The cancel round trip, with and without FAST_CANCEL (issue 11 item 5): from `cancelOrder()` on
 * the live venue to its outcome, against the embedded exchange on loopback (signatures verified on
 * its worker threads, like a venue that checks them off its event loop). Each cancel follows its
 * order's placement at once, so no cancel signature was prepared in idle time: the signed path
 * signs in the call and the venue verifies; the fast path sends the fast-sign key and neither
 * happens. Orders are placed untimed; one sample per cancel; p50 and p99 of each.
 */
import { LiveClock, createRng, createSilentLogger } from '../src/core/index.ts';
import { createLiveVenue, type LiveVenue } from '../src/exchange/index.ts';
import { NO_RATE_LIMIT, startSim, type SimHandle } from '../src/sim/index.ts';
import { QUIET_LISTENER, devVenueConfig } from '../test/integration/support.ts';
import { percentile, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';

/** Cancels timed per path, after untimed ones. */
type Counts = { readonly cancels: number; readonly warmup: number };

async function cancelTimes(sim: SimHandle, fastCancel: boolean, counts: Counts): Promise<number[]> {
  const venue: LiveVenue = createLiveVenue({ ...devVenueConfig(sim, fastCancel ? 1 : 0, 0), fastCancel }, { clock: new LiveClock(), rng: createRng(3), logger: createSilentLogger() });
  await venue.start(QUIET_LISTENER);
  try {
    const times: number[] = [];
    for (let i = 0; i < counts.warmup + counts.cancels; i++) {
      const signed = await venue.signOrder({ side: 'buy', priceUnits: BigInt(1000 + (i % 500)) * 1_000_000n, qtyUnits: 10n ** 15n, postOnly: true });
      const placed = await venue.submitOrder(signed);
      if (placed.kind !== 'accepted') throw new Error(`order refused: ${JSON.stringify(placed)}`);
      const start = performance.now();
      const outcome = await venue.cancelOrder(signed.orderId);
      const elapsed = performance.now() - start;
      if (outcome.kind !== 'accepted') throw new Error(`cancel refused: ${JSON.stringify(outcome)}`);
      if (i >= counts.warmup) times.push(elapsed);
    }
    const stats = venue.cancelStats();
    if ((fastCancel ? stats.signedCancels : stats.fastCancels) !== 0) throw new Error(`wrong cancel path: ${JSON.stringify(stats)}`);
    return times;
  } finally {
    await venue.stop();
  }
}

const cancelSuite: BenchSuite = {
  name: 'cancel',
  async run(context: BenchContext): Promise<BenchResult[]> {
    const counts = context.pick<Counts>({ cancels: 300, warmup: 30 }, { cancels: 4, warmup: 1 });
    // Quick: signatures checked inline, which spares the verifier threads' table build (~1.5 s).
    const sim = await startSim({ flow: false, devAccounts: 2, seed: 0, signatureWorkers: context.pick(2, 0), settings: { rateLimit: NO_RATE_LIMIT } });
    try {
      await sim.signaturesReady();
      const signed = await cancelTimes(sim, false, counts);
      const fast = await cancelTimes(sim, true, counts);
      return [
        { bench: 'cancel.round_trip.signed_p50_ms', value: percentile(signed, 50), unit: 'ms', baseline: null },
        { bench: 'cancel.round_trip.fast_p50_ms', value: percentile(fast, 50), unit: 'ms', baseline: percentile(signed, 50) },
        { bench: 'cancel.round_trip.signed_p99_ms', value: percentile(signed, 99), unit: 'ms', baseline: null },
        { bench: 'cancel.round_trip.fast_p99_ms', value: percentile(fast, 99), unit: 'ms', baseline: percentile(signed, 99) },
      ];
    } finally {
      await sim.stop();
    }
  },
};

/** The cancel round-trip benchmark. */
export const benches: BenchSuite[] = [cancelSuite];
