/**
 * Runs one backtest of N ≥ 1 pairs on one account (one pair is an account of one) from recorded
 * event sources to summaries: every recording replays on one clock (merged in time order), the
 * engines start once every replayed book has both sides (so the starting balances can be valued
 * at real mids), every event is applied in order, and the run ends with the engines' own graceful
 * shutdown (cancel-all).
 */
import { MmError, OrderBook, monotonicMs, numberToUnits, parseUnits, type Side, type Strategy } from '../core/index.ts';
import type { EngineObserver, EngineSettings, HedgerSettings, Journal } from '../engine/index.ts';
import type { RecordedEventHandler, RecordedEventSource } from './data/index.ts';
import { replayMergedByTime } from './account/merge-by-time.ts';
import { accountTokens, summarizeAccount, type AccountSummary } from './account-summary.ts';
import { loadHedgeRecording, type HedgeRecording } from './hedge/hedge-recording.ts';
import type { PairReplay, SessionPair } from './pair-replay.ts';
import type { ReplayVenue, ReplayVenueOptions } from './replay-venue.ts';
import { BacktestSession, type SessionOptions } from './session.ts';
import type { BootstrapOptions } from './error-bars.ts';
import { summarize } from './summary.ts';
import { ThinExchange, summarizeThinFills } from './thin/index.ts';
import type { PairResult } from './pair-result.ts';

/** The port a recording replays through: declared with the recordings, named here for the runs' callers. */
export type { RecordedEventHandler, RecordedEventSource } from './data/index.ts';

/** One pair of a backtest. */
export interface PairBacktest {
  readonly source: RecordedEventSource;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  /** Venue settings: the market, fees, gas, latencies, queue model. */
  readonly venue: Omit<ReplayVenueOptions, 'clock' | 'scheduler' | 'account'>;
  /** Base tokens held at start; the quote balance is the same value at the first mid. */
  readonly initialBase: number;
  /** Hedge every fill on this recorded deep market (the same holdings are held there at start). */
  readonly hedge?: BacktestHedge;
  /** Read this recorded deep market as the reference (FAIR_PRICE=reference|blend, basis, reference pauses). */
  readonly reference?: BacktestReference;
  /** What the pair may lock of the account (BUDGET_BASE / BUDGET_QUOTE), base units; undefined = an even share. */
  readonly budgetBaseUnits?: bigint;
  readonly budgetQuoteUnits?: bigint;
  readonly observer?: EngineObserver;
  /** The engine's journal (`akira-mm parity` reads the backtest's orders and fills from it, as from a live session's); default none. */
  readonly journal?: Journal;
}

/** Settings of one backtest: its first pair, and the account's other pairs. */
export interface BacktestOptions extends PairBacktest {
  readonly sampleMs?: number;
  /** The account's other pairs (`backtest --env A --env B`): one clock, one account. */
  readonly otherPairs?: readonly PairBacktest[];
  /**
   * The account's quote balance at the start, quote tokens (the pairs share their quote token).
   * Undefined = every pair's `initialBase` valued at its first mid, together.
   */
  readonly initialQuote?: number;
  /** The account-wide limits, from the balances at start (`auto` values depend on them); default off. */
  readonly limits?: SessionOptions['limits'];
  /** How the summary's error bars are drawn (`--bootstrap-block-ms`, `--bootstrap-samples`, `--seed`); default BOOTSTRAP_DEFAULTS. */
  readonly bootstrap?: BootstrapOptions;
  /** Called once the account started (every engine quotes): tests move balances behind the pairs' backs here. */
  readonly onStart?: (session: BacktestSession) => void;
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

export type { PairResult } from './pair-result.ts';

/** A backtest's results: the first pair's at the top (a one-pair run reads as it always has), every pair's, and the account's. */
export interface BacktestResult extends PairResult {
  /** Each pair's result, by name (`BASE/QUOTE`), in the order given. */
  readonly pairs: ReadonlyMap<string, PairResult>;
  readonly account: AccountSummary;
  /** The account's balances at the start and the end, base units (exact). */
  readonly startBalances: ReadonlyMap<string, bigint>;
  readonly endBalances: ReadonlyMap<string, bigint>;
}

/** A pair's replay before the account starts: its book, collected until it shows both sides. */
interface PendingPair {
  readonly spec: PairBacktest;
  readonly book: OrderBook;
  readonly hedge: HedgeRecording | undefined;
  readonly reference: HedgeRecording | undefined;
}

/** Replays every pair's source through its engine on one account and summarises. */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const specs: readonly PairBacktest[] = [options, ...(options.otherPairs ?? [])];
  const decimals = accountTokens(specs.map((spec) => ({ name: `${spec.venue.rules.base}/${spec.venue.rules.quote}`, rules: spec.venue.rules })));
  const sampleMs = options.sampleMs ?? 1_000;
  const wallStart = monotonicMs();
  let session: BacktestSession | undefined;
  // An object's fields, not closure variables: a double in a closure is re-boxed on every write.
  const span = { startMs: 0, lastMs: 0 };
  // The engines start at the first moment every book is two-sided, so that the starting balances
  // can be valued at real mids; until then depth levels are collected here and handed over.
  const pending: PendingPair[] = [];
  for (const spec of specs) {
    pending.push({
      spec,
      book: new OrderBook(),
      hedge: spec.hedge === undefined ? undefined : await loadHedgeRecording(spec.hedge.paths),
      reference: spec.reference === undefined ? undefined : await loadHedgeRecording(spec.reference.paths),
    });
  }
  let startBalances: ReadonlyMap<string, bigint> = new Map();

  const ensureStarted = async (): Promise<void> => {
    if (session !== undefined) return;
    const mids = pending.map(midOf);
    if (mids.some((mid) => mid === undefined)) return;
    span.startMs = span.lastMs;
    const pairs = sessionPairs(pending, mids as number[], options.initialQuote);
    startBalances = accountBalances(pairs);
    const started = new BacktestSession({
      ...(pairs[0] as SessionPair),
      otherPairs: pairs.slice(1),
      startMs: span.lastMs,
      sampleMs,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
    session = started;
    await started.start();
    started.pairs.forEach((pair, i) => {
      const book = (pending[i] as PendingPair).book;
      for (const side of ['buy', 'sell'] as const) for (const level of book.levels(side, -1)) pair.depth(side, level.priceTicks, level.qtyLots);
      book.clear();
    });
    options.onStart?.(started);
    if (started.needsFlush()) await started.flush();
  };

  const handlers = pending.map((pair, i) => handlerOf(pair, i));
  const events =
    handlers.length === 1
      ? [await options.source.replay(handlers[0] as RecordedEventHandler)]
      : await replayMergedByTime(specs.map((spec, i) => ({ source: spec.source, handler: handlers[i] as RecordedEventHandler })));
  const finished = session as BacktestSession | undefined;
  if (finished === undefined) {
    throw new MmError(
      'BACKTEST_NO_BOOK',
      specs.length === 1
        ? 'the recording never showed both sides of the book; nothing to backtest'
        : "a recording never showed both sides of its book while the others did; the account never started, nothing to backtest",
    );
  }
  await finished.finish();
  const wallSeconds = (monotonicMs() - wallStart) / 1000;
  const pairs = new Map<string, PairResult>();
  finished.pairs.forEach((pair, i) => pairs.set(pair.name, pairResult(pair, events[i] as number, { sampleMs, wallSeconds, startMs: span.startMs, endMs: span.lastMs, bootstrap: options.bootstrap })));
  const first = pairs.values().next().value as PairResult;
  const endBalances = new Map([...finished.balancesNow()].map(([token, balance]) => [token, balance.total]));
  const account = summarizeAccount({ session: finished, pairs, events, decimals, startBalances, endBalances, wallSeconds, startMs: span.startMs, endMs: span.lastMs });
  return { ...first, pairs, account, startBalances, endBalances };

  /** The recorded events of pair `i`: before the start they build its pending book, after it they reach its venue. */
  function handlerOf(pair: PendingPair, i: number): RecordedEventHandler {
    let venue: ReplayVenue | undefined;
    const replaying = (): BacktestSession | undefined => {
      if (venue === undefined && session !== undefined) venue = (session.pairs[i] as PairReplay).venue;
      return session;
    };
    return {
      advance(timeMs) {
        span.lastMs = timeMs;
        return session?.advanceTo(timeMs);
      },
      depth(side: Side, priceTicks: number, qtyLots: number) {
        const active = replaying();
        if (active === undefined) {
          pair.book.setLevel(side, priceTicks, qtyLots);
          return ensureStarted();
        }
        const due = active.runDueNow();
        if (due !== undefined) {
          return due.then(() => {
            (venue as ReplayVenue).onDepth(side, priceTicks, qtyLots);
            return active.needsFlush() ? active.flush() : undefined;
          });
        }
        (venue as ReplayVenue).onDepth(side, priceTicks, qtyLots);
        return active.needsFlush() ? active.flush() : undefined;
      },
      clear() {
        const active = replaying();
        if (active === undefined) {
          pair.book.clear();
          return undefined;
        }
        const due = active.runDueNow();
        if (due !== undefined) return due.then(() => (venue as ReplayVenue).onClear());
        (venue as ReplayVenue).onClear();
        return undefined;
      },
      trade(aggressor, priceTicks, qtyLots) {
        const active = replaying();
        if (active === undefined) return undefined;
        const due = active.runDueNow();
        if (due !== undefined) {
          return due.then(() => {
            (venue as ReplayVenue).onTrade(aggressor, priceTicks, qtyLots);
            return active.needsFlush() ? active.flush() : undefined;
          });
        }
        (venue as ReplayVenue).onTrade(aggressor, priceTicks, qtyLots);
        return active.needsFlush() ? active.flush() : undefined;
      },
      gasPrice(gasPriceUnits) {
        const active = replaying();
        if (active === undefined) return undefined;
        const due = active.runDueNow();
        if (due !== undefined) return due.then(() => (venue as ReplayVenue).onGasPrice(gasPriceUnits));
        (venue as ReplayVenue).onGasPrice(gasPriceUnits);
        return undefined;
      },
    };
  }
}

/** The mid of a pending book in quote tokens; undefined until it shows both sides. */
function midOf(pair: PendingPair): number | undefined {
  const bid = pair.book.bestBidPrice();
  const ask = pair.book.bestAskPrice();
  if (bid === undefined || ask === undefined) return undefined;
  const rules = pair.spec.venue.rules;
  return ((bid + ask) / 2) * (Number(rules.priceTick) / 10 ** rules.quoteDecimals);
}

/**
 * Each pair's session settings, its holdings valued at its first mid: its `initialBase`, and its
 * share of the account's quote (its base's value, or that share of `initialQuote`); the last pair
 * takes the rounding, so the shares add up to the account's quote balance exactly.
 */
function sessionPairs(pending: readonly PendingPair[], mids: readonly number[], initialQuote: number | undefined): SessionPair[] {
  const first = pending[0] as PendingPair;
  const quoteDecimals = first.spec.venue.rules.quoteDecimals;
  const values = pending.map((pair, i) => pair.spec.initialBase * (mids[i] as number));
  const total = values.reduce((sum, value) => sum + value, 0);
  const accountQuote = numberToUnits(initialQuote ?? total, quoteDecimals, 'down');
  const scale = initialQuote === undefined ? 1 : initialQuote / total;
  let given = 0n;
  return pending.map((pair, i): SessionPair => {
    const { spec } = pair;
    const rules = spec.venue.rules;
    const mid = mids[i] as number;
    const initialQuoteUnits = i === pending.length - 1 ? accountQuote - given : numberToUnits((values[i] as number) * scale, quoteDecimals, 'down');
    given += initialQuoteUnits;
    const { hedge, reference } = pair;
    return {
      venue: { ...spec.venue, initialBase: numberToUnits(spec.initialBase, rules.baseDecimals, 'down'), initialQuote: initialQuoteUnits },
      strategy: spec.strategy,
      settings: spec.settings,
      // The summary and the report read no signal: the engine tracks only what quoting uses.
      readsSignals: false,
      ...(spec.observer === undefined ? {} : { observer: spec.observer }),
      ...(spec.journal === undefined ? {} : { journal: spec.journal }),
      ...(spec.budgetBaseUnits === undefined ? {} : { budgetBaseUnits: spec.budgetBaseUnits }),
      ...(spec.budgetQuoteUnits === undefined ? {} : { budgetQuoteUnits: spec.budgetQuoteUnits }),
      ...(spec.hedge === undefined || hedge === undefined
        ? {}
        : {
            hedge: {
              recording: hedge,
              settings: spec.hedge.settings,
              latencyMs: spec.hedge.latencyMs,
              initialBaseUnits: numberToUnits(spec.initialBase, hedge.rules.baseDecimals, 'down'),
              initialQuoteUnits: numberToUnits(spec.initialBase * mid, hedge.rules.quoteDecimals, 'down'),
              minNotionalUnits: parseUnits(spec.hedge.minNotional, hedge.rules.quoteDecimals, { rounding: 'up' }),
            },
          }),
      ...(spec.reference === undefined || reference === undefined ? {} : { reference: { recording: reference, latencyMs: spec.reference.latencyMs, staleAfterMs: spec.reference.staleAfterMs } }),
    };
  });
}

/** The account's balances at the start: every pair's holdings together, by token. */
function accountBalances(pairs: readonly SessionPair[]): Map<string, bigint> {
  const balances = new Map<string, bigint>();
  for (const { venue } of pairs) {
    balances.set(venue.rules.quote, (balances.get(venue.rules.quote) ?? 0n) + venue.initialQuote);
    balances.set(venue.rules.base, (balances.get(venue.rules.base) ?? 0n) + venue.initialBase);
  }
  return balances;
}

/** One pair's result. */
function pairResult(pair: PairReplay, events: number, run: { readonly sampleMs: number; readonly wallSeconds: number; readonly startMs: number; readonly endMs: number; readonly bootstrap: BootstrapOptions | undefined }): PairResult {
  const status = pair.engine.status();
  const exchange = pair.venue.exchange;
  const summary = summarize({
    events,
    status,
    samples: pair.samples,
    fills: pair.fills,
    sampleMs: run.sampleMs,
    wallSeconds: run.wallSeconds,
    startMs: run.startMs,
    endMs: run.endMs,
    referencePauses: pair.referenceFeed === undefined ? undefined : pair.referencePauses,
    thin: exchange instanceof ThinExchange ? { fills: summarizeThinFills(pair.fills), endReferenceMid: exchange.markoutMid(), takerSeed: exchange.takerSeed } : undefined,
    markouts: pair.fillMarkouts,
    bootstrap: run.bootstrap,
  });
  return { summary, samples: pair.samples, fills: pair.fills, status, activity: pair.venue.orderActivity(), sampleMs: run.sampleMs, ...(pair.fillMarkouts === undefined ? {} : { markouts: pair.fillMarkouts }) };
}
