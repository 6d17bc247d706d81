/**
 * The account's figures over a backtest (`--json` prints them as `account` for several pairs):
 * every pair's fills, fees, gas and PnL together, the account's drawdown and open notional, its
 * limits and budgets, its balances at the start and the end, and whether it halted.
 */
import { MmError, formatUnits, unitsToNumber, type TickerRules } from '../core/index.ts';
import type { PairResult } from './pair-result.ts';
import type { BacktestSession } from './session.ts';
import { maxDrawdown, type PathSample } from './stats.ts';

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

/** What the account's figures are computed from. */
export interface AccountSummaryInput {
  readonly session: BacktestSession;
  readonly pairs: ReadonlyMap<string, PairResult>;
  /** Each pair's event count, in the pairs' order. */
  readonly events: readonly number[];
  /** Each token's decimals (`accountTokens`). */
  readonly decimals: ReadonlyMap<string, number>;
  readonly startBalances: ReadonlyMap<string, bigint>;
  readonly endBalances: ReadonlyMap<string, bigint>;
  readonly wallSeconds: number;
  readonly startMs: number;
  readonly endMs: number;
}

/** Rounds to 10 significant digits, as the one-pair summary does. */
function tidy(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(10)) : 0;
}

/**
 * The tokens' decimals; refuses pairs that do not share one quote token or give a token two
 * precisions (one ledger adds their amounts), and a pair given twice.
 * @throws MmError `BACKTEST_ACCOUNT_MISMATCH`.
 */
export function accountTokens(pairs: readonly { readonly name: string; readonly rules: TickerRules }[]): Map<string, number> {
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

/** The account's figures. */
export function summarizeAccount(input: AccountSummaryInput): AccountSummary {
  const { session, decimals } = input;
  const first = session.pairs[0];
  const quote = first === undefined ? '' : first.spec.venue.rules.quote;
  const quoteDecimals = decimals.get(quote) ?? 0;
  const results = [...input.pairs.values()];
  const sum = (of: (result: PairResult) => number): number => results.reduce((total, result) => total + of(result), 0);
  const totalEvents = input.events.reduce((total, count) => total + count, 0);
  const snapshot = session.account.snapshot();
  const tokens = (balances: ReadonlyMap<string, bigint>): Record<string, string> => Object.fromEntries([...balances].map(([token, units]) => [token, formatUnits(units, decimals.get(token) ?? 0)]));
  return {
    quote,
    pairs: [...input.pairs.keys()],
    events: totalEvents,
    fills: sum((result) => result.summary.fills),
    maker_fills: sum((result) => result.summary.maker_fills),
    taker_fills: sum((result) => result.summary.taker_fills),
    fees_quote: tidy(sum((result) => result.summary.fees_quote)),
    gas_quote: tidy(sum((result) => result.summary.gas_quote)),
    pnl_quote: tidy(sum((result) => result.summary.pnl_quote)),
    max_drawdown_quote: tidy(maxDrawdown(accountPath(results.map((result) => result.samples)))),
    max_open_notional_quote: tidy(unitsToNumber(session.maxOpenNotionalUnits, quoteDecimals)),
    max_total_notional_limit_quote: tidy(unitsToNumber(snapshot.maxTotalNotionalUnits, quoteDecimals)),
    max_drawdown_limit_quote: tidy(snapshot.maxDrawdownQuote),
    budgets: Object.fromEntries(
      session.pairs.map((pair) => {
        const funds = snapshot.budgets.get(pair.name);
        const rules = pair.spec.venue.rules;
        return [pair.name, { base: formatUnits(funds?.baseUnits ?? 0n, rules.baseDecimals), quote: formatUnits(funds?.quoteUnits ?? 0n, rules.quoteDecimals) }];
      }),
    ),
    start_balances: tokens(input.startBalances),
    end_balances: tokens(input.endBalances),
    halted: snapshot.haltReason !== undefined,
    halt_reason: snapshot.haltReason ?? null,
    halted_pairs: [...input.pairs].filter(([, result]) => result.status.haltReason !== undefined).map(([name]) => name),
    events_per_sec: Math.round(totalEvents / Math.max(input.wallSeconds, 1e-9)),
    wall_s: tidy(input.wallSeconds),
    duration_s: tidy((input.endMs - input.startMs) / 1000),
    start_ms: input.startMs,
    end_ms: input.endMs,
  };
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
