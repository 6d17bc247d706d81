/**
 * Arbitrageurs between a thin venue and the deep market it is priced off (MM-NOTES §7): when the
 * reference's touch has moved through a resting quote by more than their all-in cost, both legs
 * (the venue's taker fee + the gas of one taker trade there, the reference's taker fee to lay the
 * position off, + any extra edge), they take the quote whole, after their latency, and lay it off
 * on the reference. Gas is paid per trade, so whether a quote is worth taking depends on its
 * size; the fees and the edge are shares of the notional.
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
   * What they want beyond both legs' costs, bps of the notional: a margin. Default 0 (arbitrageurs
   * compete it away; docs/thin-venue.md). Before issue 30 it also stood for the reference leg's
   * fee (default 5); that fee is `referenceFeeBps` now.
   */
  readonly edgeBps: number;
  /** Their taker fee on the reference, where they lay the position off, bps of its notional. Default 2.4 (Binance spot VIP 9). */
  readonly referenceFeeBps: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_ARBITRAGE: ArbitrageOptions = { enabled: true, latencyMs: 50, edgeBps: 0, referenceFeeBps: 2.4 };

/** The declarations behind `checkArbitrageOptions` and the flags (`enabled` is a switch, `--thin-arbitrage on|off`). */
export const ARBITRAGE_PARAMETERS: readonly TakerParameter<ArbitrageOptions>[] = [
  { field: 'latencyMs', flag: 'thin-arb-latency-ms', unit: 'ms', min: 0, minExclusive: false, max: 3_600_000, doc: "from the reference's move to the arbitrageur's order at the venue" },
  { field: 'edgeBps', flag: 'thin-arb-edge-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "the arbitrageur's margin beyond both legs' costs (the venue's taker fee and gas, the reference's taker fee)" },
  { field: 'referenceFeeBps', flag: 'thin-arb-reference-fee-bps', unit: 'bps', min: 0, minExclusive: false, max: 10_000, doc: "the arbitrageur's taker fee on the reference, where it lays the position off" },
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
  /** The venue's taker fee plus their edge, bps of the venue leg's notional (our quote's price). */
  readonly proportionalBps: number;
  /** Their taker fee on the reference, bps of the reference leg's notional (the reference touch they trade at). */
  readonly referenceBps: number;
  /** The gas of one taker trade, in tick·lots (the quote value of one price tick on one lot). */
  readonly fixedTickLots: number;
}

/**
 * The cost for a venue taker fee in pbips (1000 pbips = 10 bps), an edge in bps, gas in tick·lots
 * and the reference leg's taker fee in bps (0: a one-leg cost, as before issue 30).
 */
export function arbitrageCost(takerFeePbips: number, edgeBps: number, gasTickLots: number, referenceFeeBps = 0): ArbitrageCost {
  return { proportionalBps: takerFeePbips / 100 + edgeBps, referenceBps: referenceFeeBps, fixedTickLots: gasTickLots };
}

/**
 * Whether an arbitrageur gains by taking a resting order of `qtyLots` at `priceTicks` whole and
 * laying it off at the reference's touch. A resting sell at a, laid off at the reference bid b,
 * gains (b − a)·q; a resting buy at b, bought back at the reference ask A, gains (b − A)·q. It is
 * taken when that beats the venue leg's fee + edge on a·q, the reference leg's fee on b·q (or A·q)
 * and the gas, strictly (a tie is left). Compared ×10⁴, so integer ticks, lots and whole bps
 * compare exactly.
 */
export function isArbitrageTarget(restingSide: Side, priceTicks: number, qtyLots: number, referenceBidTicks: number, referenceAskTicks: number, cost: ArbitrageCost): boolean {
  const referenceTicks = restingSide === 'sell' ? referenceBidTicks : referenceAskTicks;
  const gainTicks = restingSide === 'sell' ? referenceTicks - priceTicks : priceTicks - referenceTicks;
  if (gainTicks <= 0 || qtyLots <= 0) return false;
  return gainTicks * qtyLots * 10_000 > (cost.proportionalBps * priceTicks + cost.referenceBps * referenceTicks) * qtyLots + cost.fixedTickLots * 10_000;
}

/**
 * Whether a resting order at `priceTicks` could be a target at some size (gas left out, which only
 * adds to the cost): the cheap test run on every move of the reference.
 */
export function mayBeArbitrageTarget(restingSide: Side, priceTicks: number, referenceBidTicks: number, referenceAskTicks: number, cost: Pick<ArbitrageCost, 'proportionalBps' | 'referenceBps'>): boolean {
  const referenceTicks = restingSide === 'sell' ? referenceBidTicks : referenceAskTicks;
  const gainTicks = restingSide === 'sell' ? referenceTicks - priceTicks : priceTicks - referenceTicks;
  return gainTicks > 0 && gainTicks * 10_000 > cost.proportionalBps * priceTicks + cost.referenceBps * referenceTicks;
}

/**
 * The threshold in bps of the quote's price: a quote is a target when the reference's touch is
 * through it by more than this (both legs' fees + edge + the gas of one trade as bps of the
 * quote's notional; the reference leg's fee is counted at the quote's price, within a hair of the
 * reference's since they differ by the threshold itself).
 */
export function arbitrageThresholdBps(cost: ArbitrageCost, priceTicks: number, qtyLots: number): number {
  return cost.proportionalBps + cost.referenceBps + (cost.fixedTickLots * 10_000) / (priceTicks * qtyLots);
}
