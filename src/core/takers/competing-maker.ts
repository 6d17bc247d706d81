/**
 * A competing maker on a thin venue (issue 30, MM-NOTES §7 "Competing makers and queues"): a
 * second, faster maker that quotes near the reference's touch rather than a fixed distance from
 * its mid, with a size taken from the reference's own queue there. It quotes the reference touch
 * moved by `offsetTicks` (0: at the touch, −1: one tick inside it, improving on a large-tick book
 * whose spread allows it), but never nearer the mid than `halfSpreadBps` (what it needs to cover
 * the venue's maker fee): on a small-tick book (ETHUSDT, 0.04 bp a tick) the floor decides, on a
 * large-tick one (NEXOUSDT, 8 bp a tick, one-tick spread) the touch does. It shows `depthShare` of
 * the reference's lots at its touch level, as it saw them `lagMs` ago, and its orders are
 * post-only: it may join or improve on our price, never take it.
 */
import { checkTakerOptions, type TakerParameter } from './parameters.ts';

/** How the competing maker quotes. */
export interface CompetingMakerOptions {
  /** Share of the reference's lots at its touch level that it shows on each side; 0: no competing maker. Default 0.01. */
  readonly depthShare: number;
  /** Ticks from the reference's touch, away from the mid (negative: inside the touch). Default 0. */
  readonly offsetTicks: number;
  /** Nearest it quotes to the reference mid, bps each side (> 0, so its bid stays below its ask). Default 3. */
  readonly halfSpreadBps: number;
  /** How late it follows the reference's touch, and re-posts a level that was taken, ms. Default 250. */
  readonly lagMs: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_COMPETING_MAKER: CompetingMakerOptions = { depthShare: 0.01, offsetTicks: 0, halfSpreadBps: 3, lagMs: 250 };

/** The declarations behind `checkCompetingMakerOptions` and the flags. */
export const COMPETING_MAKER_PARAMETERS: readonly TakerParameter<CompetingMakerOptions>[] = [
  { field: 'depthShare', flag: 'thin-competitor-depth-share', unit: "(share of the reference's lots at its touch)", min: 0, minExclusive: false, max: 1_000, doc: "what the competing maker shows on each side, as a share of the reference's queue at its touch (0: none)" },
  { field: 'offsetTicks', flag: 'thin-competitor-offset-ticks', unit: 'ticks', min: -100, minExclusive: false, max: 100_000, doc: "where the competing maker quotes: ticks from the reference's touch away from the mid (−1: one tick inside)" },
  { field: 'halfSpreadBps', flag: 'thin-competitor-spread-bps', unit: 'bps', min: 0, minExclusive: true, max: 5_000, doc: 'the nearest the competing maker quotes to the reference mid, each side' },
  { field: 'lagMs', flag: 'thin-competitor-lag-ms', unit: 'ms', min: 0, minExclusive: false, max: 3_600_000, doc: "how late the competing maker follows the reference's touch" },
];

/**
 * The options, checked (the offset a whole number of ticks).
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value.
 */
export function checkCompetingMakerOptions(options: CompetingMakerOptions): CompetingMakerOptions {
  return checkTakerOptions('competing maker', COMPETING_MAKER_PARAMETERS, options, ['offsetTicks']);
}

/**
 * Its bid for a reference touch (bid, ask) in ticks: the bid moved `offsetTicks` down, but no
 * higher than ⌊mid·(1 − h)⌋; 0 or below means no bid.
 */
export function competitorBidTicks(bidTicks: number, askTicks: number, options: CompetingMakerOptions): number {
  const floor = Math.floor(((bidTicks + askTicks) * (10_000 - options.halfSpreadBps)) / 20_000);
  return Math.min(bidTicks - options.offsetTicks, floor);
}

/** Its ask for a reference touch (bid, ask): the ask moved `offsetTicks` up, but no lower than ⌈mid·(1 + h)⌉. */
export function competitorAskTicks(bidTicks: number, askTicks: number, options: CompetingMakerOptions): number {
  const floor = Math.ceil(((bidTicks + askTicks) * (10_000 + options.halfSpreadBps)) / 20_000);
  return Math.max(askTicks + options.offsetTicks, floor);
}

/** Whole lots it shows for `referenceLots` at the reference's touch level. */
export function competitorLots(referenceLots: number, depthShare: number): number {
  return Math.floor(referenceLots * depthShare);
}
