/**
 * Tick to wire: from the moment the venue adapter hands a book change to the engine (the WS frame
 * already parsed) to the moment the engine hands the first resulting order to the venue's
 * submit (signed, about to be written to the socket), against the embedded exchange on loopback.
 * A counterparty lifts its best bid by one tick at a time; the bot (ladder, tolerance 0 so every
 * tick requotes, pre-signing ±2 ticks) follows. Figures in ms over 40 book changes, ~10 s.
 * `tick_to_wire.remote.*`: the same with the bot's key in `akira-mm signer serve` (another
 * process, over its Unix socket, pre-signing batches on its two worker threads).
 */
import { createRng, createSilentLogger, type Venue, type VenueListener } from '../src/core/index.ts';
import { createLiveVenue } from '../src/exchange/index.ts';
import { feltToHex } from '../src/exchange/wire/fields.ts';
import { startSim } from '../src/sim/index.ts';
import { Account, NO_ACCOUNT_LIMITS, NullJournal, engineSettingsOf, startEngines, type MarketMaker } from '../src/engine/index.ts';
import { buildStrategy } from '../src/cli/daemon.ts';
import { validatePairEnv } from '../src/cli/pair-config.ts';
import { LiveClock } from '../src/core/index.ts';
import { devVenueConfig, QUIET_LISTENER } from '../test/integration/support.ts';
import { RemoteSigner } from '../src/exchange/signer/index.ts';
import { percentile, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';
import { spawnSigner, type SignerProcess } from './remote-signer.ts';

const USDC = 1_000_000n;
const ETH = 10n ** 18n;
/**
 * Book changes this far apart: a change requotes at most one order (a cancel and a placement),
 * so 250 ms keeps the bot within its default outbound budget (ORDER_RATE_LIMIT_PER_S=10) and the
 * figure is the engine's path, not the budget's queue (one change per 80 ms made the budget hold
 * orders back ~20 ms).
 */
const MOVE_EVERY_MS = 250;

/**
 * A measuring run makes every move; a quick one stops once a few orders followed (at most all the
 * moves), at a faster pace, with the exchange checking signatures inline (no verifier threads to
 * build) and no settling time.
 */
interface Plan {
  readonly moves: number;
  readonly enoughSamples: number;
  readonly moveEveryMs: number;
  readonly signatureWorkers: number | undefined;
  readonly settleMs: number;
}
const FULL: Plan = { moves: 40, enoughSamples: Number.POSITIVE_INFINITY, moveEveryMs: MOVE_EVERY_MS, signatureWorkers: undefined, settleMs: 300 };
const QUICK: Plan = { moves: 20, enoughSamples: 3, moveEveryMs: 100, signatureWorkers: 0, settleMs: 0 };
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Wraps a venue to time book events in and orders out. */
function timed(venue: Venue, marks: { lastIn: number | undefined; samples: number[] }): Venue {
  return new Proxy(venue, {
    get(target, property, receiver) {
      if (property === 'start') {
        return (listener: VenueListener) =>
          target.start({
            ...listener,
            onTopOfBook: (top) => {
              marks.lastIn ??= performance.now();
              listener.onTopOfBook(top);
            },
          });
      }
      if (property === 'submitOrder') {
        return (order: Parameters<Venue['submitOrder']>[0]) => {
          if (marks.lastIn !== undefined) {
            marks.samples.push(performance.now() - marks.lastIn);
            marks.lastIn = undefined;
          }
          return target.submitOrder(order);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function tickToWire(context: BenchContext, options: { remote?: boolean } = {}): Promise<BenchResult[]> {
  const plan = context.pick(FULL, QUICK);
  // The exchange checks signatures on its own threads, as a remote venue would not share our loop.
  const sim = await startSim({ seed: 0, flow: false, devAccounts: 3, ...(plan.signatureWorkers === undefined ? {} : { signatureWorkers: plan.signatureWorkers }) });
  await sim.signaturesReady();
  const venues: Venue[] = [];
  let engine: MarketMaker | undefined;
  let signerProcess: SignerProcess | undefined;
  try {
    const bot = sim.accounts[0]!;
    const connection = (index: number, workers: number) =>
      createLiveVenue(devVenueConfig(sim, index, workers), { clock: new LiveClock(), rng: createRng(index + 1), logger: createSilentLogger() });
    const counterparty = connection(1, 0);
    venues.push(counterparty);
    await counterparty.start(QUIET_LISTENER);
    const place = async (side: 'buy' | 'sell', priceUnits: bigint): Promise<void> => {
      await counterparty.submitOrder(await counterparty.signOrder({ side, priceUnits, qtyUnits: ETH / 10n, postOnly: true }));
    };
    await place('buy', 2990n * USDC);
    await place('sell', 3010n * USDC);

    const config = validatePairEnv(
      {
        EXCHANGE_HTTP_URL: sim.httpUrl,
        EXCHANGE_WS_URL: sim.wsUrl,
        TRADING_ACCOUNT: feltToHex(bot.address),
        SIGNER_PRIVATE_KEY: feltToHex(bot.privateKey!),
        BASE: 'ETH',
        QUOTE: 'USDC',
        METRICS_PORT: '0',
        LADDER_LEVELS: '1',
        LADDER_ORDER_SIZE: '0.05',
        REQUOTE_TOLERANCE_TICKS: '0',
        PRESIGN_TICKS: '2',
      },
      'bench',
    );
    const marks = { lastIn: undefined as number | undefined, samples: [] as number[] };
    let raw = connection(0, 0);
    if (options.remote === true) {
      signerProcess = await spawnSigner({ privateKey: bot.privateKey!, account: bot.address, workers: context.pick(2, 1), settle: !context.quick });
      const remote = await RemoteSigner.connect({ socketPath: signerProcess.socketPath, chain: sim.chain, account: bot.address, clock: new LiveClock(), logger: createSilentLogger() });
      raw = createLiveVenue(devVenueConfig(sim, 0, 2), { clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger(), signer: { signer: remote, batchSigner: remote } });
    }
    const venue = timed(raw, marks);
    venues.push(venue);
    const settings = engineSettingsOf(config.keys, { baseDecimals: 18, quoteDecimals: 6 });
    const clock = new LiveClock();
    // One pair alone on its account, started the one way engines start.
    const account = new Account({
      clock,
      logger: createSilentLogger(),
      venue,
      pairs: [{ name: 'ETH/USDC', base: 'ETH', quote: 'USDC', budgetBaseUnits: undefined, budgetQuoteUnits: undefined }],
      outbound: settings.outbound,
      limits: () => NO_ACCOUNT_LIMITS,
      driftToleranceUnits: settings.driftToleranceUnits,
    });
    [engine] = await startEngines(account, [{ pairName: 'ETH/USDC', venue, strategy: buildStrategy(config), clock, logger: createSilentLogger(), settings, journal: new NullJournal() }]);
    // A first book change, so the bot quotes now: the top of book read as the venue starts reaches
    // the engine before it has its pair, and on this still book the next one would be the venue's
    // periodic refresh, 5 s later. One tick up from the best bid, below every measured move.
    await place('buy', 2990n * USDC + 10_000n);
    // Wait for a pre-signed ladder (signed in idle slices on the event loop, as the daemon does).
    for (let waited = 0; raw.presignStats().stored === 0 && waited < 15_000; waited += 100) await sleep(100);
    await sleep(plan.settleMs);
    marks.samples.length = 0;
    // One tick (0.01 USDC) higher each time: the mid moves half a tick, the quotes follow.
    // The counterparty's orders are signed up front, so its signing never runs inside a sample.
    const moves = [];
    for (let step = 1; step <= plan.moves; step++) moves.push(await counterparty.signOrder({ side: 'buy', priceUnits: 2990n * USDC + BigInt(step) * 20_000n, qtyUnits: ETH / 10n, postOnly: true }));
    for (const move of moves) {
      marks.lastIn = undefined;
      await counterparty.submitOrder(move);
      await sleep(plan.moveEveryMs);
      if (marks.samples.length >= plan.enoughSamples) break;
    }
    const samples = marks.samples;
    if (samples.length === 0) throw new Error(`no order followed any of ${moves.length} book changes`);
    const prefix = options.remote === true ? 'tick_to_wire.remote' : 'tick_to_wire';
    const presign = raw.presignStats();
    return [
      { bench: `${prefix}.p50_ms`, value: percentile(samples, 50), unit: 'ms', baseline: null },
      { bench: `${prefix}.p99_ms`, value: percentile(samples, 99), unit: 'ms', baseline: null },
      // Orders sent pre-signed: what keeps signing (local or remote) out of the tick-to-wire path.
      { bench: `${prefix}.presigned_pct`, value: (100 * presign.hits) / Math.max(1, presign.hits + presign.misses), unit: '%', baseline: null },
    ];
  } finally {
    await engine?.stop();
    for (const venue of venues) await venue.stop();
    await signerProcess?.stop();
    await sim.stop();
  }
}

export const benches: BenchSuite[] = [
  { name: 'tick_to_wire', run: (context) => tickToWire(context) },
  { name: 'tick_to_wire.remote', run: (context) => tickToWire(context, { remote: true }) },
];
