/**
 * The contract between the engine and the quoting strategies (`strategies/`). A strategy is a
 * pure function of (market view, inventory, params) → desired quotes: no I/O, no clock, no
 * unseeded randomness. The engine owns the estimators (volatility, trade intensity) and passes
 * their current values in the view; it rounds, risk-checks and diffs what the strategy returns.
 * Prices and sizes here are `number`s in whole tokens (quote per base, base): strategy math is
 * float, and the one conversion to integer ticks and lots is `core/rules.ts`.
 */
import type { HedgeMarketView } from './hedge-venue.ts';
import type { Side } from './types.ts';

/**
 * Fitted order-arrival intensity λ(δ) = A·e^(−k·δ), δ in bps of the mid: measured in bps of price
 * (not ticks, not price units), a fit and a k carry across instruments whose ticks and prices differ.
 */
export interface ArrivalIntensity {
  /** Arrivals per second at the mid (A). */
  readonly a: number;
  /** Decay per bp of distance from the mid (k); per quote price unit it is kPerBps × 10⁴ / price. */
  readonly kPerBps: number;
}

/** What the market looks like now, as the engine's estimators see it. */
export interface MarketView {
  /** Time of the view (ms since epoch, from the injected clock). */
  readonly timeMs: number;
  readonly bestBid: number | undefined;
  readonly bestAsk: number | undefined;
  readonly bestBidSize: number;
  readonly bestAskSize: number;
  /** (bid + ask) / 2, or undefined unless both sides exist. */
  readonly mid: number | undefined;
  /** Size-weighted mid: (bid·askSize + ask·bidSize) / (bidSize + askSize). */
  readonly microprice: number | undefined;
  /**
   * The fair price the engine's fair stage computed once for every strategy (`FAIR_PRICE`: mid,
   * microprice, or a reference market's price); undefined when there is none. Strategies quote
   * around it, not around the raw mid: on a thin venue the two differ.
   */
  readonly fair: number | undefined;
  /** Standard deviation of mid changes per √second, in quote price units (σ); 0 until known. */
  readonly volatility: number;
  /** Trades per second on each aggressor side over the estimator's window. */
  readonly tradeRate: { readonly buy: number; readonly sell: number };
  /** Fitted arrival intensity, once the estimator has enough data. */
  readonly arrival: ArrivalIntensity | undefined;
  /** Price tick in quote tokens, size step and minimum size in base tokens. */
  readonly tickSize: number;
  readonly lotSize: number;
  readonly minSize: number;
  /** Maker and taker fees as fractions (1000 pbips = 0.001); the maker fee is negative for a rebate. */
  readonly makerFee: number;
  readonly takerFee: number;
  /**
   * Gas one maker fill is expected to cost us, in quote tokens (the venue charges makers no trade
   * gas; where cancels pay gas, the cancel a fill's requote needs). Strategies add it, with the
   * maker fee, to their half-spread so costs are inside the model.
   */
  readonly gasPerFill: number;
  /**
   * The hedge venue, when the bot hedges (`HEDGE`): its book in this pair's price units, its fees
   * and what its account can absorb. Strategies that price on the hedge (`xemm`) read it; the
   * others ignore it.
   */
  readonly hedge?: HedgeMarketView;
}

/** Our position as the strategy needs it. */
export interface InventoryView {
  /** Base tokens held (free + locked). */
  readonly base: number;
  /** Quote tokens held (free + locked). */
  readonly quote: number;
  /** Base tokens the strategy aims to hold; skew pushes `base` towards it. */
  readonly targetBase: number;
  /** Side and price of our last fill, for ping-pong; undefined before the first. */
  readonly lastFill: { readonly side: Side; readonly price: number; readonly timeMs: number } | undefined;
}

/** One order the strategy wants resting. `level` 0 is closest to the mid. */
export interface DesiredQuote {
  readonly side: Side;
  readonly price: number;
  readonly size: number;
  readonly level: number;
  /**
   * The price this quote's edge is measured from: the strategy's reservation (inventory-adjusted)
   * price or the centre of its skewed ladder. Default: the view's fair price.
   */
  readonly reference?: number;
}

/** A configured strategy, ready to quote. */
export interface Strategy {
  readonly name: string;
  /** Size of one level-0 order in base tokens, when the strategy has one (sizes the default caps). */
  readonly orderSize?: number;
  /**
   * Notional of one level-0 order in quote tokens, when the strategy sizes its orders by notional
   * (`*_ORDER_NOTIONAL`) instead: the default caps take its size at the first fair price.
   */
  readonly orderNotional?: number;
  /** Desired quotes for this view and inventory; [] means "quote nothing". */
  quote(view: MarketView, inventory: InventoryView): DesiredQuote[];
}

/** One problem with one configuration key: the key, the bad value and what is allowed. */
export interface ConfigIssue {
  readonly key: string;
  readonly value: string | undefined;
  readonly allowed: string;
}

/** "KEY=value: allowed …" lines, one per issue; secret keys show `<redacted>`. */
export function formatConfigIssues(issues: readonly ConfigIssue[], secretKeys: ReadonlySet<string> = new Set()): string {
  return issues
    .map((issue) => {
      const shown = issue.value === undefined ? '(missing)' : secretKeys.has(issue.key) ? '<redacted>' : JSON.stringify(issue.value);
      return `${issue.key}=${shown}: ${issue.allowed}`;
    })
    .join('\n');
}

/** Result of reading a strategy's parameters from an env file. */
export type ParamsResult<P> = { readonly ok: true; readonly params: P } | { readonly ok: false; readonly issues: ConfigIssue[] };

/** A strategy as the registry knows it: its env keys, how to read them, and how to build it. */
export interface StrategyDefinition<P = unknown> {
  readonly name: string;
  readonly summary: string;
  /** Every env key it reads, with default, unit and meaning, for docs and `config/example.env`. */
  readonly keys: readonly { readonly key: string; readonly default: string; readonly unit: string; readonly doc: string }[];
  /** Validates every key at once; each issue names the key, the value and what is allowed. */
  parseParams(env: Readonly<Record<string, string | undefined>>): ParamsResult<P>;
  create(params: P): Strategy;
}
