/**
 * `npm run soak -- --hours 24 --speed 1000 [--seed S] [--sample-min M] [--json-only]`: the
 * unchanged engine and ladder strategy against the replay venue on a simulated clock, fed a
 * seeded synthetic market (random-walk mid, a 5-level book refreshed every second, Poisson
 * trades that fill our quotes), for `hours` of simulated time paced at `speed` × real time (or as
 * fast as it goes if slower). Resident set size is sampled every `sample-min` simulated minutes;
 * one line per sample, then one JSON line. The point: memory stays flat over a day of quoting
 * (order tables pruned, journals and markouts bounded).
 *
 * The wall clock is read through the injected `LiveClock`, only for pacing and the figures.
 */
import { parseFlags, type CommandHelp } from '../../src/cli/args.ts';
import { UsageError, runReportingUsage } from '../../src/cli/io.ts';
import { LiveClock, createRng, type TickerRules } from '../../src/core/index.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/engine/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { BacktestSession } from '../../src/backtest/session.ts';
import { getStrategyDefinition } from '../../strategies/index.ts';

const RULES: TickerRules = {
  base: 'ETH',
  quote: 'USDC',
  isEcosystemBook: true,
  priceTick: 10_000n,
  qtyStep: 10n ** 14n,
  minQty: 10n ** 15n,
  baseDecimals: 18,
  quoteDecimals: 6,
};
const BOOK_EVERY_MS = 1_000;
const LEVELS = 5;
const TRADES_PER_SEC = 0.5;

/** One RSS sample. */
export interface SoakSample {
  readonly simHours: number;
  readonly wallS: number;
  readonly rssMb: number;
  readonly heapUsedMb: number;
  readonly fills: number;
  readonly state: string;
}

/** Options of {@link runSoak}. */
export interface SoakOptions {
  readonly hours: number;
  /** Simulated seconds per wall second; Infinity = unpaced. */
  readonly speed: number;
  readonly seed: number;
  readonly sampleEveryMin: number;
  readonly onSample?: (sample: SoakSample) => void;
}

/** The soak's result (also the final JSON line). */
export interface SoakResult {
  readonly hours: number;
  readonly speed: number;
  readonly achievedSpeed: number;
  readonly wallS: number;
  readonly bookUpdates: number;
  readonly trades: number;
  readonly fills: number;
  readonly finalState: string;
  readonly openOrdersAfterStop: number;
  readonly rssStartMb: number;
  readonly rssMaxMb: number;
  readonly rssEndMb: number;
  /** RSS at the end minus RSS after the first simulated hour (warm-up excluded), MB. */
  readonly rssGrowthAfterFirstHourMb: number;
  readonly heapEndMb: number;
  readonly samples: readonly SoakSample[];
}

const mb = (bytes: number): number => Math.round((bytes / 1_048_576) * 10) / 10;

/** Runs a soak; resolves with the figures. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const wall = new LiveClock();
  const wallStart = wall.nowMs();
  const rng = createRng(options.seed).fork('soak');
  const definition = getStrategyDefinition('ladder');
  if (definition === undefined) throw new Error('ladder strategy missing');
  const params = definition.parseParams({ LADDER_LEVELS: '2', LADDER_ORDER_SIZE: '0.05', LADDER_BID_SPREAD_BPS: '4', LADDER_ASK_SPREAD_BPS: '4', LADDER_INVENTORY_SKEW: 'on' });
  if (!params.ok) throw new Error('ladder params invalid');
  const startMs = 1_700_000_000_000;
  const session = new BacktestSession({
    venue: {
      rules: RULES,
      makerFeePbips: 200,
      takerFeePbips: 1000,
      steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
      gasPriceUnits: 10n ** 13n,
      quotePerStrk: 0.5,
      latency: constantLatency(5),
      feedLatencyMs: 1,
      queue: riskAverseQueue,
      initialBase: 100n * 10n ** 18n,
      initialQuote: 200_000n * 10n ** 6n,
    },
    strategy: definition.create(params.params),
    settings: { ...DEFAULT_ENGINE_SETTINGS, reconcileIntervalMs: 30_000, maxOrderAgeMs: 300_000 },
    startMs,
    sampleMs: 3_600_000,
  });
  await session.start();

  const endMs = startMs + options.hours * 3_600_000;
  const sampleEveryMs = options.sampleEveryMin * 60_000;
  const samples: SoakSample[] = [];
  let nextSampleMs = startMs;
  let midTicks = 200_000; // 2000.00 USDC in 0.01 ticks
  let bookUpdates = 0;
  let trades = 0;
  let previousLevels: { bids: number[]; asks: number[] } = { bids: [], asks: [] };
  let rssAfterFirstHour: number | undefined;
  const takeSample = (timeMs: number): void => {
    const memory = process.memoryUsage();
    const status = session.engine.status();
    const sample: SoakSample = {
      simHours: Math.round(((timeMs - startMs) / 3_600_000) * 100) / 100,
      wallS: Math.round((wall.nowMs() - wallStart) / 100) / 10,
      rssMb: mb(memory.rss),
      heapUsedMb: mb(memory.heapUsed),
      fills: session.fills.length,
      state: status.state,
    };
    samples.push(sample);
    if (rssAfterFirstHour === undefined && timeMs - startMs >= 3_600_000) rssAfterFirstHour = memory.rss;
    options.onSample?.(sample);
  };

  for (let timeMs = startMs + BOOK_EVERY_MS; timeMs <= endMs; timeMs += BOOK_EVERY_MS) {
    // Pace: simulated time may not run ahead of speed × wall time.
    if (Number.isFinite(options.speed)) {
      const aheadMs = (timeMs - startMs) / options.speed - (wall.nowMs() - wallStart);
      if (aheadMs > 20) await new Promise<void>((resolve) => wall.setTimeout(resolve, aheadMs));
    }
    await session.advanceTo(timeMs);
    midTicks = Math.max(1_000, midTicks + Math.round((rng.next() - 0.5) * 2 * 60));
    const bids = Array.from({ length: LEVELS }, (_, level) => midTicks - 100 - level * 50);
    const asks = Array.from({ length: LEVELS }, (_, level) => midTicks + 100 + level * 50);
    for (const price of previousLevels.bids) if (!bids.includes(price)) session.depth('buy', price, 0);
    for (const price of previousLevels.asks) if (!asks.includes(price)) session.depth('sell', price, 0);
    for (const price of bids) session.depth('buy', price, 5_000 + rng.int(20_000));
    for (const price of asks) session.depth('sell', price, 5_000 + rng.int(20_000));
    previousLevels = { bids, asks };
    bookUpdates++;
    if (rng.next() < TRADES_PER_SEC * (BOOK_EVERY_MS / 1_000)) {
      const aggressor = rng.next() < 0.5 ? 'buy' : 'sell';
      // Prints through the touch (where our quotes sit), so the queue model fills us.
      session.trade(aggressor, aggressor === 'buy' ? midTicks + 100 : midTicks - 100, 500 + rng.int(2_000));
      trades++;
    }
    session.endOfMessage();
    if (session.needsFlush()) await session.flush();
    if (timeMs >= nextSampleMs) {
      takeSample(timeMs);
      nextSampleMs += sampleEveryMs;
    }
  }
  const status = await session.finish();
  takeSample(endMs);
  const wallS = (wall.nowMs() - wallStart) / 1_000;
  const rssValues = samples.map((sample) => sample.rssMb);
  const endRss = process.memoryUsage();
  return {
    hours: options.hours,
    speed: options.speed,
    achievedSpeed: Math.round((options.hours * 3_600) / wallS),
    wallS: Math.round(wallS * 10) / 10,
    bookUpdates,
    trades,
    fills: session.fills.length,
    finalState: status.state,
    openOrdersAfterStop: session.venue.exchange.restingOrders().length,
    rssStartMb: rssValues[0] ?? 0,
    rssMaxMb: Math.max(...rssValues),
    rssEndMb: mb(endRss.rss),
    rssGrowthAfterFirstHourMb: rssAfterFirstHour === undefined ? 0 : mb(endRss.rss - rssAfterFirstHour),
    heapEndMb: mb(endRss.heapUsed),
    samples,
  };
}

const USAGE = 'npm run soak -- [--hours H] [--speed X|max] [--seed S] [--sample-min M] [--json-only]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'The engine and the ladder strategy against the replay venue on a simulated clock, fed a seeded synthetic market, for H hours of simulated time; the resident set size is sampled on the way (one line per sample, then one JSON line). Exit 0 when the engine stopped with no order left open.',
};

const OPTIONS = {
  hours: { type: 'string', value: 'H', unit: 'simulated hours', default: 24, doc: 'how long to quote' },
  speed: { type: 'string', value: 'X|max', unit: '× real time', default: 1000, doc: 'pace of the simulated clock (max: as fast as it goes)' },
  seed: { type: 'string', value: 'S', default: 1, doc: 'seed of the synthetic market' },
  'sample-min': { type: 'string', value: 'M', unit: 'simulated minutes', default: 60, doc: 'sample the memory this often' },
  'json-only': { type: 'boolean', doc: 'print only the last JSON line, no line per sample' },
} as const;

async function main(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  const hours = Number(values.hours ?? '24');
  const speed = values.speed === 'max' ? Infinity : Number(values.speed ?? '1000');
  const seed = Number(values.seed ?? '1');
  const sampleEveryMin = Number(values['sample-min'] ?? '60');
  if (!(hours > 0) || !(speed > 0) || !Number.isInteger(seed) || !(sampleEveryMin > 0)) {
    throw new UsageError(`--hours, --speed and --sample-min must be positive and --seed an integer\nusage: ${USAGE}`);
  }
  const result = await runSoak({
    hours,
    speed,
    seed,
    sampleEveryMin,
    ...(values['json-only'] === true
      ? {}
      : {
          onSample: (sample: SoakSample) =>
            process.stdout.write(
              `sim ${sample.simHours.toFixed(2).padStart(6)} h  wall ${sample.wallS.toFixed(1).padStart(6)} s  rss ${sample.rssMb.toFixed(1).padStart(6)} MB  heap ${sample.heapUsedMb.toFixed(1).padStart(6)} MB  fills ${sample.fills}  ${sample.state}\n`,
            ),
        }),
  });
  process.stdout.write(`${JSON.stringify({ ...result, samples: result.samples.length })}\n`);
  return result.finalState === 'stopped' && result.openOrdersAfterStop === 0 ? 0 : 1;
}

const isEntryPoint = process.argv[1] !== undefined && /soak\.ts$/.test(process.argv[1]);
if (isEntryPoint) {
  runReportingUsage('soak', process, () => main(process.argv.slice(2))).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`soak: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
