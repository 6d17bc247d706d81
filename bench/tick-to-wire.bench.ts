/**
 * Tick to wire: from the moment the venue adapter hands a book change to the engine (the WS frame
 * already parsed) to the moment the engine hands the first resulting order to the venue's
 * submit (signed, about to be written to the socket), against the embedded exchange on loopback.
 * A counterparty lifts its best bid by one tick at a time; the bot (ladder, tolerance 0 so every
 * tick requotes, pre-signing ±2 ticks) follows. Figures in ms over 40 book changes, ~10 s.
 * `tick_to_wire.remote.*`: the same with the bot's key in `akira-mm signer serve` (another
 * process, over its Unix socket, pre-signing batches on its two worker threads).
 */
import { createRng, createSilentLogger, type SignedOrder, type Venue, type VenueListener } from '../src/core/index.ts';
import { createLiveVenue } from '../src/exchange/index.ts';
import { feltToHex } from '../src/exchange/wire/fields.ts';
import { startSim } from '../src/sim/index.ts';
import { spawn } from 'node:child_process';
import { AggregatorRegistry, Registry } from 'prom-client';
import {
  Account,
  NO_ACCOUNT_LIMITS,
  NullJournal,
  STARTING_HEALTH,
  combineObservers,
  createEngineMetrics,
  engineSettingsOf,
  startEngines,
  startMetricsServer,
  type EngineObserver,
  type MarketMaker,
  type MetricsServer,
} from '../src/engine/index.ts';
import { registerAccountMetrics } from '../src/cli/account-metrics.ts';
import type { PairConfig } from '../src/config/index.ts';
import { Dashboard } from '../src/ops/dashboard/index.ts';
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

/** The engine's own metrics and the live dashboard over them, served as the daemon serves them. */
interface DashboardRig {
  readonly dashboard: Dashboard;
  readonly url: string;
}

/** A bot quoting on the embedded exchange, a counterparty that moves the book, and the timings between. */
interface Rig {
  /**
   * Makes up to `count` book moves, one every `moveEveryMs`, stopping early once `enough` orders
   * followed; returns the tick-to-wire samples they gave (ms).
   */
  move(count: number, enough: number): Promise<number[]>;
  /** Orders sent pre-signed and not. */
  presignStats(): { readonly hits: number; readonly misses: number };
  /** Present when the rig was opened with a dashboard. */
  readonly dashboard: DashboardRig | undefined;
}

/**
 * Opens the rig, runs `body` on it and closes everything. `totalMoves` book moves are signed up
 * front (the counterparty's signing never runs inside a sample). With `dashboard` the engine also
 * reports to its metrics and the dashboard, served on a loopback port as the daemon serves them.
 */
async function withRig<T>(
  context: BenchContext,
  options: { readonly remote?: boolean; readonly dashboard?: boolean; readonly totalMoves: number; readonly env?: Readonly<Record<string, string>> },
  body: (rig: Rig) => Promise<T>,
): Promise<T> {
  const plan = context.pick(FULL, QUICK);
  // The exchange checks signatures on its own threads, as a remote venue would not share our loop.
  const sim = await startSim({ seed: 0, flow: false, devAccounts: 3, ...(plan.signatureWorkers === undefined ? {} : { signatureWorkers: plan.signatureWorkers }) });
  await sim.signaturesReady();
  const venues: Venue[] = [];
  let engine: MarketMaker | undefined;
  let signerProcess: SignerProcess | undefined;
  let dashboard: Dashboard | undefined;
  let server: MetricsServer | undefined;
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
        ...options.env,
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
    const pairName = 'ETH/USDC';
    // One pair alone on its account, started the one way engines start.
    const account = new Account({
      clock,
      logger: createSilentLogger(),
      venue,
      pairs: [{ name: pairName, base: 'ETH', quote: 'USDC', budgetBaseUnits: undefined, budgetQuoteUnits: undefined }],
      outbound: settings.outbound,
      limits: () => NO_ACCOUNT_LIMITS,
      driftToleranceUnits: settings.driftToleranceUnits,
    });
    let observer: EngineObserver | undefined;
    const slot: { name: string; run: { config: PairConfig }; engine: MarketMaker | undefined } = { name: pairName, run: { config }, engine: undefined };
    if (options.dashboard === true) {
      // As src/cli/daemon.ts wires it for one pair: the engine's metrics, the account's, the
      // dashboard reading both, all on one metrics server.
      const metrics = createEngineMetrics({ pair: pairName, baseDecimals: 18, quoteDecimals: 6, hasReference: false });
      const accountRegistry = new Registry();
      accountRegistry.setDefaultLabels({ pair: pairName });
      registerAccountMetrics(accountRegistry, account, [slot]);
      const watched = new Dashboard({
        clock,
        pairs: [{ name: pairName, base: 'ETH', quote: 'USDC', baseDecimals: 18, quoteDecimals: 6, registry: metrics.registry, labels: { pair: pairName }, status: () => slot.engine?.status() }],
        account: { registry: accountRegistry, labels: { pair: pairName }, haltReason: () => account.haltReason },
      });
      dashboard = watched;
      observer = combineObservers([metrics.observer, watched.observerOf(0)]);
      metrics.bindStatus(() => (slot.engine as MarketMaker).status());
      server = await startMetricsServer({
        host: '127.0.0.1',
        port: 0,
        metrics: async () => AggregatorRegistry.aggregate(await Promise.all([metrics.registry, accountRegistry].map((registry) => registry.getMetricsAsJSON()))).metrics(),
        contentType: accountRegistry.contentType,
        health: () => STARTING_HEALTH,
        routes: watched.routes(),
      });
    }
    [engine] = await startEngines(account, [
      { pairName, venue, strategy: buildStrategy(config), clock, logger: createSilentLogger(), settings, journal: new NullJournal(), ...(observer === undefined ? {} : { observer }) },
    ]);
    slot.engine = engine;
    dashboard?.start();
    // A first book change, so the bot quotes now: the top of book read as the venue starts reaches
    // the engine before it has its pair, and on this still book the next one would be the venue's
    // periodic refresh, 5 s later. One tick up from the best bid, below every measured move.
    await place('buy', 2990n * USDC + 10_000n);
    // Wait for a pre-signed ladder (signed in idle slices on the event loop, as the daemon does).
    for (let waited = 0; raw.presignStats().stored === 0 && waited < 15_000; waited += 100) await sleep(100);
    await sleep(plan.settleMs);
    // One tick (0.01 USDC) higher each time: the mid moves half a tick, the quotes follow.
    const moves: SignedOrder[] = [];
    for (let step = 1; step <= options.totalMoves; step++) moves.push(await counterparty.signOrder({ side: 'buy', priceUnits: 2990n * USDC + BigInt(step) * 20_000n, qtyUnits: ETH / 10n, postOnly: true }));
    const rig: Rig = {
      async move(count, enough) {
        marks.samples = [];
        for (let made = 0; made < count; made++) {
          const next = moves.shift();
          if (next === undefined) throw new Error(`the rig was opened with ${options.totalMoves} moves and all are made`);
          marks.lastIn = undefined;
          await counterparty.submitOrder(next);
          await sleep(plan.moveEveryMs);
          if (marks.samples.length >= enough) break;
        }
        return marks.samples;
      },
      presignStats: () => raw.presignStats(),
      dashboard: dashboard === undefined || server === undefined ? undefined : { dashboard, url: server.url },
    };
    return await body(rig);
  } finally {
    dashboard?.stop();
    await engine?.stop();
    await server?.stop();
    for (const venue of venues) await venue.stop();
    await signerProcess?.stop();
    await sim.stop();
  }
}

async function tickToWire(context: BenchContext, options: { remote?: boolean } = {}): Promise<BenchResult[]> {
  const plan = context.pick(FULL, QUICK);
  return withRig(context, { ...options, totalMoves: plan.moves }, async (rig) => {
    const samples = await rig.move(plan.moves, plan.enoughSamples);
    if (samples.length === 0) throw new Error(`no order followed any of ${plan.moves} book changes`);
    const prefix = options.remote === true ? 'tick_to_wire.remote' : 'tick_to_wire';
    const presign = rig.presignStats();
    return [
      { bench: `${prefix}.p50_ms`, value: percentile(samples, 50), unit: 'ms', baseline: null },
      { bench: `${prefix}.p99_ms`, value: percentile(samples, 99), unit: 'ms', baseline: null },
      // Orders sent pre-signed: what keeps signing (local or remote) out of the tick-to-wire path.
      { bench: `${prefix}.presigned_pct`, value: (100 * presign.hits) / Math.max(1, presign.hits + presign.misses), unit: '%', baseline: null },
    ];
  });
}

/**
 * The dashboard's cost to the engine: book moves in rotating phases on one rig, the dashboard's
 * sampler off, sampling with nobody watching (what a daemon always does), and sampling with a
 * watcher reading `/dashboard/events`. Many short rounds of the three, so the other tenants'
 * bursts on this shared machine fall on all three alike rather than on one phase.
 */
const DASHBOARD_FULL = { rounds: 8, movesPerPhase: 6, enough: Number.POSITIVE_INFINITY, sampleCalls: 200 };
const DASHBOARD_QUICK = { rounds: 1, movesPerPhase: 8, enough: 2, sampleCalls: 5 };

/**
 * A watcher in its own process, as a browser is: it reads the event stream and drops what it
 * reads (the page's drawing costs the browser, not the daemon). The process starts once, before
 * anything is measured; a line `open` on its stdin connects it, `close` disconnects it.
 */
const WATCHER = `
let reading;
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'open') {
    reading = new AbortController();
    fetch(process.argv[1], { signal: reading.signal }).then(async (response) => { for await (const chunk of response.body) void chunk; }).catch(() => undefined);
  } else if (line === 'close') reading?.abort();
});`;

interface Watcher {
  /** Connects and resolves once the dashboard counts the watcher. */
  open(): Promise<void>;
  /** Disconnects and resolves once the dashboard let it go. */
  close(): Promise<void>;
  end(): void;
}

function startWatcher(rig: DashboardRig): Watcher {
  const child = spawn(process.execPath, ['-e', WATCHER, `${rig.url}/dashboard/events`], { stdio: ['pipe', 'ignore', 'inherit'] });
  return {
    async open() {
      child.stdin.write('open\n');
      await until(() => rig.dashboard.watchers === 1, 'the watcher connected');
    },
    async close() {
      child.stdin.write('close\n');
      await until(() => rig.dashboard.watchers === 0, 'the watcher left');
    },
    end: () => void child.kill(),
  };
}

/** Waits (polling) for `condition`, failing after 30 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 30_000) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

/** The median wall time of `calls` dashboard samples, µs (the sampler's timer keeps running beside them). */
async function sampleMicros(dashboard: Dashboard, calls: number): Promise<number> {
  const times: number[] = [];
  for (let call = 0; call < calls; call++) {
    const start = performance.now();
    await dashboard.sample();
    times.push((performance.now() - start) * 1000);
  }
  return percentile(times, 50);
}

/** What one phase of the dashboard bench gathered. */
interface Phase {
  readonly samples: number[];
  hits: number;
  misses: number;
}

async function dashboardCost(context: BenchContext): Promise<BenchResult[]> {
  const plan = context.pick(DASHBOARD_FULL, DASHBOARD_QUICK);
  // A sample on every move: the ask is replaced at every tick it moves (by default it waits until
  // it gave up 10 % of its edge: every second move here), and no caps on what could still fill.
  // Those count the orders whose cancels are not confirmed yet, which on this loaded machine
  // lagged the 4 moves a second by far: after ~20 replacements in a row the open-orders cap (20)
  // gated every placement for ~15 s, and most moves gave no sample. Neither is what this measures.
  const env = { REQUOTE_AGGRESSIVE_TOLERANCE_PCT: '0', RISK_MAX_INVENTORY_BASE: '0', RISK_MAX_TOTAL_NOTIONAL: '0', RISK_MAX_OPEN_ORDERS: '0' };
  return withRig(context, { dashboard: true, totalMoves: plan.rounds * 3 * plan.movesPerPhase, env }, async (rig) => {
    const served = rig.dashboard as DashboardRig;
    const watcher = startWatcher(served);
    try {
      const phases = { off: { samples: [], hits: 0, misses: 0 } as Phase, idle: { samples: [], hits: 0, misses: 0 } as Phase, watched: { samples: [], hits: 0, misses: 0 } as Phase };
      // Presigned orders per phase too: an order signed in the tick's path (a presign miss) costs
      // far more than anything the dashboard does, so a phase's p50 reads with its hit rate.
      const run = async (phase: Phase): Promise<void> => {
        const before = rig.presignStats();
        phase.samples.push(...(await rig.move(plan.movesPerPhase, plan.enough)));
        const after = rig.presignStats();
        phase.hits += after.hits - before.hits;
        phase.misses += after.misses - before.misses;
      };
      for (let round = 0; round < plan.rounds; round++) {
        served.dashboard.stop();
        await run(phases.off);
        served.dashboard.start();
        await run(phases.idle);
        await watcher.open();
        try {
          await run(phases.watched);
        } finally {
          await watcher.close();
        }
      }
      for (const [name, phase] of Object.entries(phases)) if (phase.samples.length === 0) throw new Error(`no order followed a book change with the dashboard ${name}`);
      const idleSample = await sampleMicros(served.dashboard, plan.sampleCalls);
      await watcher.open();
      const watchedSample = await sampleMicros(served.dashboard, plan.sampleCalls);
      await watcher.close();
      const presigned = (phase: Phase): number => (100 * phase.hits) / Math.max(1, phase.hits + phase.misses);
      return [
        { bench: 'tick_to_wire.dashboard.watched_p50_ms', value: percentile(phases.watched.samples, 50), unit: 'ms', baseline: percentile(phases.idle.samples, 50) },
        { bench: 'tick_to_wire.dashboard.watched_p99_ms', value: percentile(phases.watched.samples, 99), unit: 'ms', baseline: percentile(phases.idle.samples, 99) },
        { bench: 'tick_to_wire.dashboard.watched_presigned_pct', value: presigned(phases.watched), unit: '%', baseline: presigned(phases.idle) },
        { bench: 'tick_to_wire.dashboard.idle_p50_ms', value: percentile(phases.idle.samples, 50), unit: 'ms', baseline: percentile(phases.off.samples, 50) },
        { bench: 'tick_to_wire.dashboard.idle_presigned_pct', value: presigned(phases.idle), unit: '%', baseline: presigned(phases.off) },
        { bench: 'dashboard.sample_us', value: watchedSample, unit: 'µs', baseline: idleSample },
      ];
    } finally {
      watcher.end();
    }
  });
}

export const benches: BenchSuite[] = [
  { name: 'tick_to_wire', run: (context) => tickToWire(context) },
  { name: 'tick_to_wire.remote', run: (context) => tickToWire(context, { remote: true }) },
  { name: 'tick_to_wire.dashboard', run: (context) => dashboardCost(context) },
];
