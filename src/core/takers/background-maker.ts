/**
 * The thin venue's background liquidity (MM-NOTES §7): a maker that quotes the reference's mid ±
 * a half-spread, as it saw the mid `lagMs` ago, with a fixed notional a side. It gives an empty
 * venue a touch, and our quotes compete with it for the uninformed takers.
 */
import { checkTakerOptions, type TakerParameter } from './parameters.ts';

/** How the background maker quotes. */
export interface BackgroundMakerOptions {
  /** Distance of each of its quotes from the (lagged) reference mid, bps. Default 10. */
  readonly halfSpreadBps: number;
  /** How late it follows the reference mid, and re-posts a level that was taken, ms. Default 1000. */
  readonly lagMs: number;
  /** What it shows on each side, quote tokens (converted to whole lots at its price). Default 10 000. */
  readonly depthQuote: number;
}

/** The defaults; docs/thin-venue.md gives the assumption behind each. */
export const DEFAULT_BACKGROUND_MAKER: BackgroundMakerOptions = { halfSpreadBps: 10, lagMs: 1_000, depthQuote: 10_000 };

/** The declarations behind `checkBackgroundMakerOptions` and the flags. */
export const BACKGROUND_MAKER_PARAMETERS: readonly TakerParameter<BackgroundMakerOptions>[] = [
  { field: 'halfSpreadBps', flag: 'thin-background-spread-bps', unit: 'bps', min: 0, minExclusive: true, max: 5_000, doc: "distance of the background maker's quotes from the reference mid, each side" },
  { field: 'lagMs', flag: 'thin-background-lag-ms', unit: 'ms', min: 0, minExclusive: false, max: 3_600_000, doc: 'how late the background maker follows the reference mid' },
  { field: 'depthQuote', flag: 'thin-background-depth', unit: 'quote tokens', min: 0, minExclusive: true, max: Number.POSITIVE_INFINITY, doc: 'what the background maker shows on each side' },
];

/**
 * The options, checked.
 * @throws MmError `CORE_INVALID_OPTION` naming the field and its value.
 */
export function checkBackgroundMakerOptions(options: BackgroundMakerOptions): BackgroundMakerOptions {
  return checkTakerOptions('background maker', BACKGROUND_MAKER_PARAMETERS, options);
}

/**
 * Its bid for a reference mid of `midTwiceTicks`/2 ticks (the sum of the touch, kept whole):
 * ⌊mid·(1 − h)⌋. Always below its ask for h > 0.
 */
export function backgroundBidTicks(midTwiceTicks: number, halfSpreadBps: number): number {
  return Math.floor((midTwiceTicks * (10_000 - halfSpreadBps)) / 20_000);
}

/** Its ask for a reference mid of `midTwiceTicks`/2 ticks: ⌈mid·(1 + h)⌉. */
export function backgroundAskTicks(midTwiceTicks: number, halfSpreadBps: number): number {
  return Math.ceil((midTwiceTicks * (10_000 + halfSpreadBps)) / 20_000);
}

/** Whole lots that `depthQuote` buys at `priceTicks`, with one tick on one lot worth `quotePerTickLot`. */
export function backgroundLots(priceTicks: number, depthQuote: number, quotePerTickLot: number): number {
  return Math.floor(depthQuote / (priceTicks * quotePerTickLot));
}
