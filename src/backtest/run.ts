/**
 * Runs one backtest from a recorded event source to a summary: the engine starts once the
 * replayed book has both sides (so its starting balances can be valued), every event is applied
 * in order, and the run ends with the engine's own graceful shutdown (cancel-all).
 */
import { MmError, OrderBook, monotonicMs, numberToUnits, parseUnits, type Strategy } from '../core/index.ts';
import type { EngineSettings, EngineStatus, HedgerSettings } from '../engine/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from './data/index.ts';
import { loadHedgeRecording } from './hedge/hedge-recording.ts';
import type { ReplayVenueOptions, VenueActivity } from './replay-venue.ts';
import { BacktestSession, type FillRecord } from './session.ts';
import type { PathSample } from './stats.ts';
import { summarize, type BacktestSummary } from './summary.ts';

/** The port a recording replays through: declared with the recordings, named here for the runs' callers. */
export type { RecordedEventHandler, RecordedEventSource } from './data/index.ts';

/** Settings of one backtest. */
export interface BacktestOptions {
  readonly source: RecordedEventSource;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  /** Venue settings except the starting balances, which are set from the first mid. */
  readonly venue: Omit<ReplayVenueOptions, 'clock' | 'initialBase' | 'initialQuote'>;
  /** Base tokens held at start; the quote balance is the same value at the first mid. */
  readonly initialBase: number;
  readonly sampleMs?: number;
  /** Hedge every fill on this recorded deep market (the same holdings are held there at start). */
  readonly hedge?: BacktestHedge;
  /** Read this recorded deep market as the reference (FAIR_PRICE=reference|blend, basis, reference pauses). */
  readonly reference?: BacktestReference;
}

/** The reference market of a backtest. */
export interface BacktestReference {
  /** Recordings of the reference market (replay format), back to back, on the venue recording's clock. */
  readonly paths: readonly string[];
  /** From the reference's exchange time to the engine, ms. */
  readonly latencyMs: number;
  /** REFERENCE_STALE_MS: no reference message for this long pauses quoting from it. */
  readonly staleAfterMs: number;
}

/** The hedge venue of a backtest. */
export interface BacktestHedge {
  /** Recordings of the hedge market (replay format), back to back. */
  readonly paths: readonly string[];
  readonly settings: HedgerSettings;
  /** Order latency to the hedge venue, each way, ms. */
  readonly latencyMs: number;
  /** NOTIONAL minimum in the hedge venue's quote token (decimal text; "0" = none). */
  readonly minNotional: string;
}

/** Everything a report needs. */
export interface BacktestResult {
  readonly summary: BacktestSummary;
  readonly samples: readonly PathSample[];
  readonly fills: readonly FillRecord[];
  readonly status: EngineStatus;
  /** Orders and cancels the replay venue received. */
  readonly activity: VenueActivity;
  /** Path sampling period, ms of simulated time. */
  readonly sampleMs: number;
}

/** Replays the source through the engine and summarises. */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const rules = options.venue.rules;
  const sampleMs = options.sampleMs ?? 1_000;
  const wallStart = monotonicMs();
  let session: BacktestSession | undefined;
  // An object's fields, not closure variables: a double in a closure is re-boxed on every write.
  const span = { startMs: 0, lastMs: 0 };
  // The engine starts at the first two-sided book, so that its starting balances can be valued
  // at a real mid; until then depth levels are collected here and handed to the session.
  const pending = new OrderBook();
  const priceScale = Number(rules.priceTick) / 10 ** rules.quoteDecimals;
  const hedgeRecording = options.hedge === undefined ? undefined : await loadHedgeRecording(options.hedge.paths);
  const referenceRecording = options.reference === undefined ? undefined : await loadHedgeRecording(options.reference.paths);

  const ensureStarted = async (timeMs: number): Promise<void> => {
    if (session !== undefined) return;
    const bestBid = pending.bestBidPrice();
    const bestAsk = pending.bestAskPrice();
    if (bestBid === undefined || bestAsk === undefined) return;
    const mid = ((bestBid + bestAsk) / 2) * priceScale;
    const initialBase = numberToUnits(options.initialBase, rules.baseDecimals, 'down');
    const initialQuote = numberToUnits(options.initialBase * mid, rules.quoteDecimals, 'down');
    span.startMs = timeMs;
    const hedge = options.hedge;
    session = new BacktestSession({
      venue: { ...options.venue, initialBase, initialQuote },
      strategy: options.strategy,
      settings: options.settings,
      startMs: timeMs,
      sampleMs,
      ...(hedge === undefined || hedgeRecording === undefined
        ? {}
        : {
            hedge: {
              recording: hedgeRecording,
              settings: hedge.settings,
              latencyMs: hedge.latencyMs,
              initialBaseUnits: numberToUnits(options.initialBase, hedgeRecording.rules.baseDecimals, 'down'),
              initialQuoteUnits: numberToUnits(options.initialBase * mid, hedgeRecording.rules.quoteDecimals, 'down'),
              minNotionalUnits: parseUnits(hedge.minNotional, hedgeRecording.rules.quoteDecimals, { rounding: 'up' }),
            },
          }),
      ...(options.reference === undefined || referenceRecording === undefined
        ? {}
        : { reference: { recording: referenceRecording, latencyMs: options.reference.latencyMs, staleAfterMs: options.reference.staleAfterMs } }),
    });
    await session.start();
    for (const side of ['buy', 'sell'] as const) {
      for (const level of pending.levels(side, -1)) session.depth(side, level.priceTicks, level.qtyLots);
    }
    pending.clear();
    if (session.needsFlush()) await session.flush();
  };

  const settle = async (active: BacktestSession): Promise<void> => {
    if (active.needsFlush()) await active.flush();
  };

  const handler: RecordedEventHandler = {
    advance(timeMs) {
      span.lastMs = timeMs;
      return session?.advanceTo(timeMs);
    },
    depth(side, priceTicks, qtyLots) {
      const active = session;
      if (active === undefined) {
        pending.setLevel(side, priceTicks, qtyLots);
        return ensureStarted(span.lastMs);
      }
      const due = active.runDueNow();
      if (due !== undefined) {
        return due.then(() => {
          active.depth(side, priceTicks, qtyLots);
          return settle(active);
        });
      }
      active.depth(side, priceTicks, qtyLots);
      return active.needsFlush() ? active.flush() : undefined;
    },
    clear() {
      const active = session;
      if (active === undefined) {
        pending.clear();
        return undefined;
      }
      const due = active.runDueNow();
      if (due !== undefined) return due.then(() => active.clear());
      active.clear();
      return undefined;
    },
    trade(aggressor, priceTicks, qtyLots) {
      const active = session;
      if (active === undefined) return undefined;
      const due = active.runDueNow();
      if (due !== undefined) {
        return due.then(() => {
          active.trade(aggressor, priceTicks, qtyLots);
          return settle(active);
        });
      }
      active.trade(aggressor, priceTicks, qtyLots);
      return active.needsFlush() ? active.flush() : undefined;
    },
    gasPrice(gasPriceUnits) {
      const active = session;
      if (active === undefined) return undefined;
      const due = active.runDueNow();
      if (due !== undefined) return due.then(() => active.gasPrice(gasPriceUnits));
      active.gasPrice(gasPriceUnits);
      return undefined;
    },
  };

  const events = await options.source.replay(handler);
  const finished = session;
  if (finished === undefined) {
    throw new MmError('BACKTEST_NO_BOOK', 'the recording never showed both sides of the book; nothing to backtest');
  }
  const status = await finished.finish();
  const wallSeconds = (monotonicMs() - wallStart) / 1000;
  const summary = summarize({
    events,
    status,
    samples: finished.samples,
    fills: finished.fills,
    sampleMs,
    wallSeconds,
    startMs: span.startMs,
    endMs: span.lastMs,
    referencePauses: finished.referenceFeed === undefined ? undefined : finished.referencePauses,
  });
  return {
    summary,
    samples: finished.samples,
    fills: finished.fills,
    status,
    activity: finished.venue.orderActivity(),
    sampleMs,
  };
}
