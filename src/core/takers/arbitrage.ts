/**
 * Arbitrageurs between a thin venue and the deep market it is priced off (MM-NOTES §7): when the
 * reference's touch has moved through a resting quote by more than their all-in cost (the venue's
 * taker fee + the gas of one taker trade + their own edge), they take the quote whole, after their
 * latency, and lay it off on the reference. Gas is paid per trade, so whether a quote is worth
 * taking depends on its size; the fee and the edge are shares of the notional.
 */
import type { Side } from '../types.ts';
import { checkTakerOptions, type TakerParameter } from './parameters.ts';

/** Who the arbitrageurs are. */
export interface ArbitrageOptions {
  /** Whether they act at all (a venue without them is the honesty check's baseline). Default true. */
  readonly enabled: boolean;
  /** From the reference's move to their order reaching the venue, ms. Default 50. */
  readonly latencyMs: number;
  /**
   * What they want beyond the venue's taker fee and gas, bps of the notional: their fee for laying
   * the position off on the reference plus a profit margin. Default 5.
   */
  readonly edgeBps: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_ARBITRAGE: ArbitrageOptions = { enabled: true, latencyMs: 50, edgeBps: 5 };

/** The declarations behind `checkArbitrageOptions` and the flags (`enabled` is a switch, `--thin-arbitrage on|off`). */
export const ARBITRAGE_PARAMETERS: readonly TakerParameter<ArbitrageOptions>[] = [
  { field: 'latencyMs', flag: 'thin-arb-latency-ms', unit: 'ms', min: 0, minExclusive: false, max: 3_600_000, doc: "from the reference's move to the arbitrageur's order at the venue" },
  { field: 'edgeBps', flag: 'thin-arb-edge-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "the arbitrageur's own cost and margin beyond the venue's taker fee and gas" },
];

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value.
 */
export function checkArbitrageOptions(options: ArbitrageOptions): ArbitrageOptions {
  return checkTakerOptions('arbitrage', ARBITRAGE_PARAMETERS, options);
}

/** What taking one resting order costs an arbitrageur, beyond its price. */
export interface ArbitrageCost {
  /** The venue's taker fee plus their edge, bps of the notional. */
  readonly proportionalBps: number;
  /** The gas of one taker trade, in tick·lots (the quote value of one price tick on one lot). */
  readonly fixedTickLots: number;
}

/** The cost for a venue taker fee in pbips (1000 pbips = 10 bps), an edge in bps and gas in tick·lots. */
export function arbitrageCost(takerFeePbips: number, edgeBps: number, gasTickLots: number): ArbitrageCost {
  return { proportionalBps: takerFeePbips / 100 + edgeBps, fixedTickLots: gasTickLots };
}

/**
 * Whether an arbitrageur gains by taking a resting order of `qtyLots` at `priceTicks` whole and
 * laying it off at the reference's touch. A resting sell at a gains (bid − a)·q, a resting buy at b
 * gains (b − ask)·q; it is taken when that beats proportionalBps·price·q/10⁴ + gas, strictly (a
 * tie is left). Compared ×10⁴, so integer ticks, lots and bps compare exactly.
 */
export function isArbitrageTarget(restingSide: Side, priceTicks: number, qtyLots: number, referenceBidTicks: number, referenceAskTicks: number, cost: ArbitrageCost): boolean {
  const gainTicks = restingSide === 'sell' ? referenceBidTicks - priceTicks : priceTicks - referenceAskTicks;
  if (gainTicks <= 0 || qtyLots <= 0) return false;
  return gainTicks * qtyLots * 10_000 > cost.proportionalBps * priceTicks * qtyLots + cost.fixedTickLots * 10_000;
}

/**
 * Whether a resting order at `priceTicks` could be a target at some size (gas left out, which only
 * adds to the cost): the cheap test run on every move of the reference.
 */
export function mayBeArbitrageTarget(restingSide: Side, priceTicks: number, referenceBidTicks: number, referenceAskTicks: number, proportionalBps: number): boolean {
  const gainTicks = restingSide === 'sell' ? referenceBidTicks - priceTicks : priceTicks - referenceAskTicks;
  return gainTicks > 0 && gainTicks * 10_000 > proportionalBps * priceTicks;
}

/**
 * The threshold in bps of the quote's price: a quote is a target when the reference's touch is
 * through it by more than this (fee + edge + the gas of one trade as bps of the quote's notional).
 */
export function arbitrageThresholdBps(cost: ArbitrageCost, priceTicks: number, qtyLots: number): number {
  return cost.proportionalBps + (cost.fixedTickLots * 10_000) / (priceTicks * qtyLots);
}
