/**
 * Runs a backtest of one account quoting several pairs (`backtest --data A --env A.env --data B
 * --env B.env`): every pair's recording replayed on one clock (merged in time order), every
 * pair's engine on one `Account`. The account starts once every pair's replayed book shows both
 * sides (its starting balances are valued at those mids); until then depth is collected per pair
 * and trades are skipped, as a one-pair backtest does before its start.
 */
import { MmError, OrderBook, formatUnits, monotonicMs, numberToUnits, unitsToNumber, type Side, type Strategy } from '../../core/index.ts';
import type { AccountPair, EngineObserver, EngineSettings } from '../../engine/index.ts';
import type { ReplayVenueOptions } from '../replay-venue.ts';
import type { BacktestResult, RecordedEventHandler, RecordedEventSource } from '../run.ts';
import { maxDrawdown, type PathSample } from '../stats.ts';
import { summarize } from '../summary.ts';
import { AccountBacktestSession, type AccountSessionLimits, type SessionPair } from './account-session.ts';
import { replayMergedByTime } from './merge-by-time.ts';

/** One pair of an account backtest. */
export interface AccountBacktestPair {
  /** Name (`BASE/QUOTE` from the recording), tokens and budgets (undefined = an even share of the free balance). */
  readonly pair: AccountPair;
  readonly source: RecordedEventSource;
  readonly strategy: Strategy;
  readonly settings: EngineSettings;
  readonly venue: Omit<ReplayVenueOptions, 'clock' | 'scheduler' | 'account' | 'initialBase' | 'initialQuote'>;
  /** Base tokens the account holds of this pair's base at the start. */
  readonly initialBase: number;
  readonly observer?: EngineObserver;
}

/** Settings of an account backtest. */
export interface AccountBacktestOptions {
  readonly pairs: readonly AccountBacktestPair[];
  /**
   * Quote tokens held at the start (the pairs share the quote token). Undefined = the value of
   * every pair's `initialBase` at its first mid, together (each pair's one-pair default, summed).
   */
  readonly initialQuote?: number;
  /** The account-wide limits, from the balances at start (`auto` values depend on them). */
  readonly limits: (startBalances: ReadonlyMap<string, bigint>) => AccountSessionLimits;
  readonly sampleMs?: number;
  /** Called once the account started (every engine quotes): tests move balances behind the pairs' backs here. */
  readonly onStart?: (session: AccountBacktestSession) => void;
}

/** The account's figures over the run (snake_case keys: `--json` prints them as `account`). */
export interface AccountSummary {
  /** The token the account's PnL and notional are counted in (the pairs' quote). */
  readonly quote: string;
  readonly pairs: readonly string[];
  readonly events: number;
  readonly fills: number;
  readonly maker_fills: number;
  readonly taker_fills: number;
  readonly fees_quote: number;
  readonly gas_quote: number;
  /** Every pair's PnL together, quote tokens. */
  readonly pnl_quote: number;
  /** Largest fall of the pairs' PnL together from its running peak, quote tokens. */
  readonly max_drawdown_quote: number;
  /** Most notional every pair's orders that could still fill had together (sampled), quote tokens. */
  readonly max_open_notional_quote: number;
  /** RISK_MAX_TOTAL_NOTIONAL_ACCOUNT and RISK_MAX_DRAWDOWN_ACCOUNT in force (0 = off), quote tokens. */
  readonly max_total_notional_limit_quote: number;
  readonly max_drawdown_limit_quote: number;
  /** What each pair could lock (BUDGET_BASE / BUDGET_QUOTE or its even share), tokens, exact. */
  readonly budgets: Readonly<Record<string, { readonly base: string; readonly quote: string }>>;
  /** The account's balances at the start and the end, tokens, exact. */
  readonly start_balances: Readonly<Record<string, string>>;
  readonly end_balances: Readonly<Record<string, string>>;
  /** The account halted every pair (drift, a foreign fill, the account drawdown), and why. */
  readonly halted: boolean;
  readonly halt_reason: string | null;
  /** Pairs whose engine ended halted (the account's halt, or the pair's own). */
  readonly halted_pairs: readonly string[];
  readonly events_per_sec: number;
  readonly wall_s: number;
  readonly duration_s: number;
  readonly start_ms: number;
  readonly end_ms: number;
}

/** Everything an account backtest produced. */
export interface AccountBacktestResult {
  /** Each pair's result (summary, path, fills, engine status), by pair name, in the order given. */
  readonly pairs: ReadonlyMap<string, BacktestResult>;
  readonly account: AccountSummary;
  /** The account's balances at the start and the end, base units (exact). */
  readonly startBalances: ReadonlyMap<string, bigint>;
  readonly endBalances: ReadonlyMap<string, bigint>;
  /** Each token's decimals. */
  readonly decimals: ReadonlyMap<string, number>;
}

/** Rounds to 10 significant digits, as the one-pair summary does. */
function tidy(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(10)) : 0;
}

/**
 * The tokens' decimals; refuses pairs that do not share one quote token or give a token two
 * precisions (one ledger adds their amounts).
 */
export function accountTokens(pairs: readonly { readonly name: string; readonly rules: ReplayVenueOptions['rules'] }[]): Map<string, number> {
  const first = pairs[0];
  if (first === undefined) throw new MmError('BACKTEST_NO_BOOK', 'no pair to backtest');
  const decimals = new Map<string, number>();
  const owner = new Map<string, string>();
  for (const { name, rules } of pairs) {
    if (rules.quote !== first.rules.quote) {
      throw new MmError('BACKTEST_ACCOUNT_MISMATCH', `${name} is quoted in ${rules.quote} and ${first.name} in ${first.rules.quote}: the pairs of one account backtest share their quote token (one ledger counts it); give recordings quoted alike, or --quote to name it`);
    }
    for (const [token, tokenDecimals] of [[rules.base, rules.baseDecimals], [rules.quote, rules.quoteDecimals]] as const) {
      const known = decimals.get(token);
      if (known !== undefined && known !== tokenDecimals) {
        throw new MmError('BACKTEST_ACCOUNT_MISMATCH', `${token} has ${known} decimals in ${owner.get(token)} and ${tokenDecimals} in ${name}: one account keeps one precision per token (give --base-decimals/--quote-decimals)`);
      }
      decimals.set(token, tokenDecimals);
      owner.set(token, name);
    }
  }
  const names = pairs.map((pair) => pair.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new MmError('BACKTEST_ACCOUNT_MISMATCH', `${twice} is given twice: one recording (or run of files) per pair`);
  return decimals;
}

/** Replays every pair's recording through its engine on one account and summarises. */
export async function runAccountBacktest(options: AccountBacktestOptions): Promise<AccountBacktestResult> {
  const wallStart = monotonicMs();
  const sampleMs = options.sampleMs ?? 1_000;
  const specs = options.pairs;
  const decimals = accountTokens(specs.map((spec) => ({ name: spec.pair.name, rules: spec.venue.rules })));
  const quote = (specs[0] as AccountBacktestPair).venue.rules.quote;
  const quoteDecimals = decimals.get(quote) as number;
  let session: AccountBacktestSession | undefined;
  let startBalances: Map<string, bigint> | undefined;
  const span = { startMs: 0, lastMs: 0 };
  // Depth before the start, per pair: the account starts once every book has both sides.
  const pending = specs.map(() => new OrderBook());

  const midOf = (i: number): number | undefined => {
    const book = pending[i] as OrderBook;
    const bid = book.bestBidPrice();
    const ask = book.bestAskPrice();
    if (bid === undefined || ask === undefined) return undefined;
    const rules = (specs[i] as AccountBacktestPair).venue.rules;
    return ((bid + ask) / 2) * (Number(rules.priceTick) / 10 ** rules.quoteDecimals);
  };

  const ensureStarted = async (): Promise<void> => {
    if (session !== undefined) return;
    const mids = specs.map((_, i) => midOf(i));
    if (mids.some((mid) => mid === undefined)) return;
    const balances = new Map<string, bigint>([[quote, 0n]]);
    let quoteValue = 0;
    specs.forEach((spec, i) => {
      const rules = spec.venue.rules;
      balances.set(rules.base, (balances.get(rules.base) ?? 0n) + numberToUnits(spec.initialBase, rules.baseDecimals, 'down'));
      quoteValue += spec.initialBase * (mids[i] as number);
    });
    balances.set(quote, numberToUnits(options.initialQuote ?? quoteValue, quoteDecimals, 'down'));
    startBalances = new Map(balances);
    span.startMs = span.lastMs;
    const started = new AccountBacktestSession({
      pairs: specs.map((spec) => ({ pair: spec.pair, venue: spec.venue, strategy: spec.strategy, settings: spec.settings, ...(spec.observer === undefined ? {} : { observer: spec.observer }) })),
      startMs: span.lastMs,
      startBalances: balances,
      limits: options.limits(balances),
      sampleMs,
    });
    session = started;
    await started.start();
    started.pairs.forEach((pair, i) => {
      const book = pending[i] as OrderBook;
      for (const side of ['buy', 'sell'] as const) for (const level of book.levels(side, -1)) pair.venue.onDepth(side, level.priceTicks, level.qtyLots);
      book.clear();
    });
    options.onStart?.(started);
    if (started.needsFlush()) await started.flush();
  };

  /** Runs what fell due now, then applies the event, then lets the engines react. */
  const apply = (active: AccountBacktestSession, event: () => void): Promise<void> | undefined => {
    const due = active.runDueNow();
    if (due !== undefined) {
      return due.then(() => {
        event();
        return active.needsFlush() ? active.flush() : undefined;
      });
    }
    event();
    return active.needsFlush() ? active.flush() : undefined;
  };

  const handlerOf = (i: number): RecordedEventHandler => {
    const venueOf = (active: AccountBacktestSession): SessionPair['venue'] => (active.pairs[i] as SessionPair).venue;
    return {
      advance(timeMs) {
        span.lastMs = timeMs;
        return session?.advanceTo(timeMs);
      },
      depth(side: Side, priceTicks: number, qtyLots: number) {
        const active = session;
        if (active === undefined) {
          (pending[i] as OrderBook).setLevel(side, priceTicks, qtyLots);
          return ensureStarted();
        }
        return apply(active, () => venueOf(active).onDepth(side, priceTicks, qtyLots));
      },
      clear() {
        const active = session;
        if (active === undefined) {
          (pending[i] as OrderBook).clear();
          return undefined;
        }
        return apply(active, () => venueOf(active).onClear());
      },
      trade(aggressor: Side | undefined, priceTicks: number, qtyLots: number) {
        const active = session;
        return active === undefined ? undefined : apply(active, () => venueOf(active).onTrade(aggressor, priceTicks, qtyLots));
      },
      gasPrice(gasPriceUnits: bigint) {
        const active = session;
        return active === undefined ? undefined : apply(active, () => venueOf(active).onGasPrice(gasPriceUnits));
      },
    };
  };

  const events = await replayMergedByTime(specs.map((spec, i) => ({ source: spec.source, handler: handlerOf(i) })));
  const finished = session as AccountBacktestSession | undefined;
  if (finished === undefined || startBalances === undefined) {
    throw new MmError('BACKTEST_NO_BOOK', "a recording never showed both sides of its book while the others did; the account never started, nothing to backtest");
  }
  const statuses = await finished.finish();
  const wallSeconds = (monotonicMs() - wallStart) / 1000;
  const pairs = new Map<string, BacktestResult>();
  finished.pairs.forEach((pair, i) => {
    const status = statuses[i] as (typeof statuses)[number];
    const summary = summarize({ events: events[i] as number, status, samples: pair.sampler.samples, fills: pair.venue.fills, sampleMs, wallSeconds, startMs: span.startMs, endMs: span.lastMs });
    pairs.set(pair.name, { summary, samples: pair.sampler.samples, fills: pair.venue.fills, status, activity: pair.venue.orderActivity(), sampleMs });
  });
  const endBalances = new Map([...finished.balancesNow()].map(([token, balance]) => [token, balance.total]));
  const results = [...pairs.values()];
  const sum = (of: (result: BacktestResult) => number): number => results.reduce((total, result) => total + of(result), 0);
  const totalEvents = events.reduce((total, count) => total + count, 0);
  const snapshot = finished.account.snapshot();
  const tokens = (balances: ReadonlyMap<string, bigint>): Record<string, string> => Object.fromEntries([...balances].map(([token, units]) => [token, formatUnits(units, decimals.get(token) ?? 0)]));
  const account: AccountSummary = {
    quote,
    pairs: [...pairs.keys()],
    events: totalEvents,
    fills: sum((result) => result.summary.fills),
    maker_fills: sum((result) => result.summary.maker_fills),
    taker_fills: sum((result) => result.summary.taker_fills),
    fees_quote: tidy(sum((result) => result.summary.fees_quote)),
    gas_quote: tidy(sum((result) => result.summary.gas_quote)),
    pnl_quote: tidy(sum((result) => result.summary.pnl_quote)),
    max_drawdown_quote: tidy(maxDrawdown(accountPath(results.map((result) => result.samples)))),
    max_open_notional_quote: tidy(unitsToNumber(finished.maxOpenNotionalUnits, quoteDecimals)),
    max_total_notional_limit_quote: tidy(unitsToNumber(snapshot.maxTotalNotionalUnits, quoteDecimals)),
    max_drawdown_limit_quote: tidy(snapshot.maxDrawdownQuote),
    budgets: Object.fromEntries(
      specs.map((spec) => {
        const funds = snapshot.budgets.get(spec.pair.name);
        const rules = spec.venue.rules;
        return [spec.pair.name, { base: formatUnits(funds?.baseUnits ?? 0n, rules.baseDecimals), quote: formatUnits(funds?.quoteUnits ?? 0n, rules.quoteDecimals) }];
      }),
    ),
    start_balances: tokens(startBalances),
    end_balances: tokens(endBalances),
    halted: snapshot.haltReason !== undefined,
    halt_reason: snapshot.haltReason ?? null,
    halted_pairs: [...pairs].filter(([, result]) => result.status.haltReason !== undefined).map(([name]) => name),
    events_per_sec: Math.round(totalEvents / Math.max(wallSeconds, 1e-9)),
    wall_s: tidy(wallSeconds),
    duration_s: tidy((span.lastMs - span.startMs) / 1000),
    start_ms: span.startMs,
    end_ms: span.lastMs,
  };
  return { pairs, account, startBalances, endBalances, decimals };
}

/** The pairs' PnL together at each sample time (every pair samples on the same grid). */
function accountPath(paths: readonly (readonly PathSample[])[]): PathSample[] {
  const length = Math.min(...paths.map((path) => path.length));
  const path: PathSample[] = [];
  for (let i = 0; i < length; i++) {
    let pnl = 0;
    for (const samples of paths) pnl += (samples[i] as PathSample).pnl;
    path.push({ timeMs: (paths[0]?.[i] as PathSample).timeMs, mid: undefined, bid: undefined, ask: undefined, inventory: 0, pnl });
  }
  return path;
}

/** The account summary without the wall-clock figures: what determinism checks compare. */
export function deterministicAccount(summary: AccountSummary): Omit<AccountSummary, 'events_per_sec' | 'wall_s'> {
  const { events_per_sec: _speed, wall_s: _wall, ...rest } = summary;
  return rest;
}
