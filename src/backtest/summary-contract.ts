/**
 * The keys of a backtest summary, a contract with users' scripts (`--json` prints the summary as
 * the last line): declared apart from the figures' computation (summary.ts) and their rows for a
 * person (summary-rows.ts), which both read it.
 */

/** The summary of one run (snake_case keys: a wire contract). */
export interface BacktestSummary {
  readonly events: number;
  readonly fills: number;
  readonly maker_fills: number;
  readonly taker_fills: number;
  readonly volume_base: number;
  readonly fees_quote: number;
  readonly gas_quote: number;
  readonly pnl_quote: number;
  readonly max_abs_inventory_base: number;
  readonly inventory_std_base: number;
  /** Sharpe ratio of PnL stated per `sharpe_horizon` (an hour, or a day for runs of 3 days and more); never annualised. */
  readonly sharpe: number;
  readonly max_drawdown_quote: number;
  readonly quote_uptime: number;
  readonly markout_1s_bps: number | null;
  readonly markout_10s_bps: number | null;
  readonly markout_60s_bps: number | null;
  readonly events_per_sec: number;
  readonly duration_s: number;
  readonly start_ms: number;
  readonly end_ms: number;
  /** Scorecard (issue "quoting"): placements and cancel requests sent. */
  readonly orders_sent: number;
  readonly cancels_sent: number;
  /** Orders sent per fill (orders sent when nothing filled). */
  readonly orders_per_fill: number;
  /** Base volume filled / base volume of the orders sent. */
  readonly fill_ratio: number;
  /** Share of quoting time with both a bid and an ask resting (quote_uptime is the same figure, its older name). */
  readonly two_sided_uptime: number;
  /** Share of quoting time with our bid or ask at the best price of the book. */
  readonly time_at_touch: number;
  /** Moments |position| went past the inventory cap (must be 0). */
  readonly cap_breaches: number;
  /** PnL split, quote tokens: pnl_quote = pnl_spread_quote + pnl_inventory_quote + pnl_hedge_quote − fees_quote − gas_quote. */
  readonly pnl_spread_quote: number;
  readonly pnl_inventory_quote: number;
  /** Venue actions the outbound budget held back (sent later, or not at all when no longer wanted). */
  readonly requests_throttled: number;
  /** The inventory cap the run used (base tokens; 0 = none). */
  readonly inventory_cap_base: number;
  /** The horizon `sharpe` is stated for: `hour`, or `day` for runs of 3 days and more. */
  readonly sharpe_horizon: 'hour' | 'day';
  /** Sharpe ratio per hour whatever the run's length, to compare runs of different lengths. */
  readonly sharpe_hourly: number;
  /** Hedge orders sent on the hedge venue (`--hedge`; 0 without). */
  readonly hedges: number;
  /** Volume-weighted hedge price against the hedge book's touch when decided, bps (positive = worse); null without hedges. */
  readonly hedge_slippage_bps: number | null;
  /** Median time from a fill to the hedges that covered it, ms; null without hedges. */
  readonly hedge_latency_ms_p50: number | null;
  /** Largest |net inventory| across both venues, base tokens (max_abs_inventory_base without a hedge). */
  readonly max_abs_net_inventory_base: number;
  /** Share of the run with a hedgeable position uncovered (0 without a hedge). */
  readonly unhedged_time_share: number;
  /** PnL of the hedges marked at the fair price, net of their fees; in pnl_quote = spread + inventory + hedge − fees − gas. */
  readonly pnl_hedge_quote: number;
  /** Fees the hedges paid on the hedge venue (inside pnl_hedge_quote), quote tokens. */
  readonly hedge_fees_quote: number;
  /** Times quoting paused because of the reference market (stale, resyncing, divergent, jump); 0 without `--reference`. */
  readonly reference_pauses: number;
  /** Mean basis of the reference (venue / reference − 1) over the run's samples, bps; null without `--reference`. */
  readonly basis_bps_mean: number | null;
  /**
   * What markout_1s/10s/60s_bps are measured against: `venue` (the replayed book's mid, a replay of
   * the recorded book) or `reference` (`--venue thin`: the recorded reference market's mid, never
   * the thin venue's own, which our quotes and the background maker set).
   */
  readonly markout_against: 'venue' | 'reference';
  /** `--venue thin`: our fills taken by uninformed takers (the reference's trades thinned); null on a replay of the recorded book. */
  readonly uninformed_fills: number | null;
  /** `--venue thin`: our fills taken by arbitrageurs (stale quotes picked off); null on a replay. */
  readonly arb_fills: number | null;
  /** `--venue thin`: our orders that took the background maker's level; uninformed + arb + background-maker fills = fills. Null on a replay. */
  readonly background_maker_fills: number | null;
  /** `--venue thin`: what the arbitrage fills lost against the reference mid at each fill, summed, quote tokens; null on a replay. */
  readonly pickoff_cost_quote: number | null;
  // Error bars (docs/strategies.md, "Error bars"): 95 % intervals `[low, high]` from a seeded
  // block bootstrap over time, null where the data cannot bound the figure (no fills for the
  // per-notional and markout figures; a run shorter than twenty blocks for all, `ci95_withheld`
  // saying why).
  /** Notional traded, quote tokens (Σ price × size over our fills). */
  readonly volume_quote: number;
  /** PnL per notional traded, bps: pnl_quote / volume_quote × 10 000; null without fills. */
  readonly pnl_per_notional_bps: number | null;
  readonly pnl_quote_ci95: readonly [number, number] | null;
  readonly pnl_per_notional_bps_ci95: readonly [number, number] | null;
  readonly markout_1s_bps_ci95: readonly [number, number] | null;
  readonly markout_10s_bps_ci95: readonly [number, number] | null;
  readonly markout_60s_bps_ci95: readonly [number, number] | null;
  /** The markout curve: horizons (ms, 100 ms to 60 s), the mean markout at each (bps; the same fills and mid as markout_*_bps), its interval, and the fills it is over. */
  readonly markout_curve_ms: readonly number[];
  readonly markout_curve_bps: readonly (number | null)[];
  readonly markout_curve_bps_ci95: readonly (readonly [number, number] | null)[];
  readonly markout_curve_fills: readonly number[];
  /** How the intervals were drawn: block length (ms of simulated time), replicates, seed. */
  readonly bootstrap_block_ms: number;
  readonly bootstrap_samples: number;
  readonly bootstrap_seed: number;
  /** Whole blocks the run spans (the intervals' sample size; fewer than 20 give none). Absent in summaries written before issue 30. */
  readonly bootstrap_blocks?: number;
  /** How the intervals are drawn (the expanded percentile interval, t-corrected for the number of blocks). */
  readonly ci95_method?: string;
  /** Why every interval is null (too few blocks), or null when the run gives intervals. */
  readonly ci95_withheld?: string | null;
  // A thin venue's run (`--venue thin`), null on a replay (issue 30).
  /** The seed the uninformed takers drew from (`--thin-taker-seed`, default the run's `--seed`). */
  readonly taker_seed?: number | null;
  /** With `--taker-seeds N`: the seeds run, each run's PnL (in the seeds' order), and their min / median / max. */
  readonly taker_seeds?: readonly number[] | null;
  readonly pnl_quote_by_taker_seed?: readonly number[] | null;
  readonly pnl_quote_taker_seeds_min?: number | null;
  readonly pnl_quote_taker_seeds_median?: number | null;
  readonly pnl_quote_taker_seeds_max?: number | null;
  /** `reference` on a thin venue: pnl_quote marks the end inventory (and every path sample's) at the reference mid; `venue` elsewhere. */
  readonly pnl_marked_to?: 'reference' | 'venue';
  /** On a thin venue: the PnL as the engine marks it (at its own fair price, the thin venue's mid); pnl_quote − this is the mark's difference. Null on a replay. */
  readonly pnl_engine_mark_quote?: number | null;
}
