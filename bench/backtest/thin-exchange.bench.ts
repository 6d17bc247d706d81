/**
 * How many recorded reference events per second a thin venue absorbs
 * (`backtest.thin.exchange_events_per_sec`): the Binance ETHUSDT recording as the reference of a
 * `ReplayVenue` over a `ThinExchange` (default taker models, with a share of 0.05 so the takers
 * act often), fed as a backtest feeds it (the recording's event source, time moved on the venue's
 * scheduler, each message closed), with two quotes re-placed around the reference mid every
 * 250 ms of exchange time, as a quoting bot would (no engine: that is `backtest.thin.events_per_sec`,
 * with the CLI's `--venue thin`). Looped until at least 5M events after an unmeasured warm-up of
 * about 1M, the median of three runs. The baseline is the event source alone into a handler that does
 * nothing: what reading and dispatching the recording costs before the thin venue's work.
 */
import { createRecordedEventSource, type RecordedEventHandler } from '../../src/backtest/data/index.ts';
import { constantLatency } from '../../src/backtest/latency.ts';
import { riskAverseQueue } from '../../src/backtest/queue-model.ts';
import { ReplayClock } from '../../src/backtest/replay-clock.ts';
import { ReplayVenue } from '../../src/backtest/replay-venue.ts';
import { ReplayAccount } from '../../src/backtest/account/replay-account.ts';
import { EventScheduler } from '../../src/backtest/scheduler.ts';
import { DEFAULT_THIN_VENUE, LAYERAKIRA_FEES, ThinExchange } from '../../src/backtest/thin/index.ts';
import { createRng, type VenueListener } from '../../src/core/index.ts';
import { percentile, type BenchContext, type BenchResult, type BenchSuite } from '../harness.ts';
import { ETHUSDT_RULES as RULES, withEthusdtReplay } from '../recordings.ts';

const TARGET_EVENTS = 5_000_000;
const WARMUP_EVENTS = 1_000_000;
const MEASURED_RUNS = 3;
/** Our quotes: re-placed this often (exchange time), this far from the reference mid, this size (0.05 ETH). */
const REQUOTE_MS = 250;
const HALF_SPREAD_BPS = 3;
const QUOTE_LOTS = 2_500;

const SILENT: VenueListener = {
  onTopOfBook: () => undefined,
  onTrade: () => undefined,
  onOrderReport: () => undefined,
  onGasQuote: () => undefined,
  onResync: () => undefined,
  onFeedStatus: () => undefined,
};

/** Replays the recording `passes` times into a thin venue with a quoter; returns events and seconds. */
async function runThin(recording: string, passes: number): Promise<{ events: number; seconds: number; fills: number }> {
  const source = createRecordedEventSource([recording], RULES, { passes });
  let clock: ReplayClock | undefined;
  let venue: ReplayVenue | undefined;
  let thin: ThinExchange | undefined;
  let nextQuoteMs = 0;
  let ids: string[] = [];
  let nextId = 1;
  const requote = (exchange: ThinExchange): void => {
    for (const id of ids) exchange.cancel(id);
    ids = [];
    const bid = exchange.reference.bestBidPrice();
    const ask = exchange.reference.bestAskPrice();
    if (bid === undefined || ask === undefined) return;
    const offset = Math.max(1, Math.round(((bid + ask) / 2) * (HALF_SPREAD_BPS / 10_000)));
    const mid = Math.round((bid + ask) / 2);
    for (const [side, price] of [
      ['buy', mid - offset],
      ['sell', mid + offset],
    ] as const) {
      const id = `q${nextId++}`;
      exchange.submit(id, side, price, QUOTE_LOTS, true);
      ids.push(id);
    }
  };
  const handler: RecordedEventHandler = {
    advance(timeMs) {
      if (venue === undefined || clock === undefined) {
        clock = new ReplayClock(timeMs);
        const started = clock;
        venue = new ReplayVenue({
          rules: RULES,
          clock: started,
          makerFeePbips: LAYERAKIRA_FEES.makerPbips,
          takerFeePbips: LAYERAKIRA_FEES.takerPbips,
          steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 },
          gasPriceUnits: 5n * 10n ** 13n,
          quotePerStrk: 0.15,
          latency: constantLatency(25),
          feedLatencyMs: 10,
          queue: riskAverseQueue,
          scheduler: new EventScheduler(started),
          // Room for every fill: the quoter sends straight to the exchange, past the venue's balance checks.
          account: new ReplayAccount(new Map([[RULES.base, 10n ** 30n], [RULES.quote, 10n ** 30n]])),
          exchange: (host) => (thin = new ThinExchange({ ...DEFAULT_THIN_VENUE, rules: RULES, uninformed: { ...DEFAULT_THIN_VENUE.uninformed, share: 0.05 }, rng: createRng(1).fork('thin') }, host)),
        });
        void venue.start(SILENT);
        nextQuoteMs = timeMs;
        return undefined;
      }
      if (timeMs > clock.nowMs()) venue.endOfMessage();
      if (venue.scheduler.hasDueBy(timeMs)) venue.scheduler.runUntil(timeMs, () => undefined);
      else clock.advanceTo(timeMs);
      if (timeMs >= nextQuoteMs && thin !== undefined) {
        requote(thin);
        nextQuoteMs = timeMs + REQUOTE_MS;
      }
      return undefined;
    },
    depth(side, priceTicks, qtyLots) {
      venue?.onDepth(side, priceTicks, qtyLots);
      return undefined;
    },
    clear() {
      venue?.onClear();
      return undefined;
    },
    trade(aggressor, priceTicks, qtyLots) {
      venue?.onTrade(aggressor, priceTicks, qtyLots);
      return undefined;
    },
    gasPrice(gasPriceUnits) {
      venue?.onGasPrice(gasPriceUnits);
      return undefined;
    },
  };
  const start = performance.now();
  const events = await source.replay(handler);
  const seconds = (performance.now() - start) / 1000;
  return { events, seconds, fills: venue?.fills.length ?? 0 };
}

/** The same source into a handler that does nothing. */
async function runSourceAlone(recording: string, passes: number): Promise<{ events: number; seconds: number }> {
  const source = createRecordedEventSource([recording], RULES, { passes });
  let sink = 0;
  const handler: RecordedEventHandler = {
    advance: (timeMs) => void (sink += timeMs > 0 ? 1 : 0),
    depth: () => undefined,
    clear: () => undefined,
    trade: () => undefined,
    gasPrice: () => undefined,
  };
  const start = performance.now();
  const events = await source.replay(handler);
  if (sink === 0) throw new Error('the source delivered no time');
  return { events, seconds: (performance.now() - start) / 1000 };
}

const suite: BenchSuite = {
  name: 'backtest.thin',
  async run(context: BenchContext): Promise<BenchResult[]> {
    return withEthusdtReplay('backtest.thin', context, TARGET_EVENTS, MEASURED_RUNS, async ({ plan, recording, perPass }) => {
      const passes = Math.ceil(plan.targetEvents / perPass);
      // Warm-up, not measured: about 1M events, so V8 has optimised the venue's paths (one pass of
      // the recording, 0.3M events, left the first measured run at half the later ones' rate).
      if (plan.warmup) await runThin(recording, Math.ceil(WARMUP_EVENTS / perPass));
      const rates: number[] = [];
      const baselines: number[] = [];
      for (let i = 0; i < plan.measuredRuns; i++) {
        const measured = await runThin(recording, passes);
        if (measured.events < plan.targetEvents) throw new Error(`replayed only ${measured.events} events`);
        if (measured.fills === 0) throw new Error('the thin venue filled none of the quotes: the bench measures an idle venue');
        rates.push(measured.events / measured.seconds);
        const alone = await runSourceAlone(recording, passes);
        baselines.push(alone.events / alone.seconds);
      }
      return [{ bench: 'backtest.thin.exchange_events_per_sec', value: percentile(rates, 50), unit: 'events/s', baseline: percentile(baselines, 50) }];
    });
  },
};

export const benches: BenchSuite[] = [suite];
