/**
 * Inventory skew as hummingbot's pure market making does it (MM-NOTES §1, HB
 * strategy/pure_market_making/inventory_skew_calculator.pyx), in base tokens instead of
 * portfolio value: the engine already turns the value target into `targetBase`.
 */

/** Size multipliers for the two sides, each in [0, 2], summing to 2. */
export interface SkewRatios {
  readonly bid: number;
  readonly ask: number;
}

/**
 * Hummingbot's bid/ask size scaling. With the inventory band [max(target − range, 0),
 * target + range]: at the target both sides are ×1; at or below the lower edge bids are ×2 and
 * asks ×0; at or above the upper edge bids ×0 and asks ×2; linear in between. Like hummingbot the
 * lower edge is floored at zero, so with target < range the lower half of the band is narrower.
 * A range ≤ 0 (or non-finite input) disables the skew: ×1 both sides.
 */
export function computeSkewRatios(base: number, targetBase: number, range: number): SkewRatios {
  if (!(range > 0) || !Number.isFinite(range) || !Number.isFinite(base) || !Number.isFinite(targetBase)) return { bid: 1, ask: 1 };
  let bid: number;
  if (base < targetBase) {
    const lower = Math.max(targetBase - range, 0);
    const width = targetBase - lower;
    bid = width <= 0 ? 2 : 1 + Math.min(1, (targetBase - base) / width);
  } else {
    bid = 1 - Math.min(1, (base - targetBase) / range);
  }
  return { bid, ask: 2 - bid };
}

/**
 * Signed position in the band: (base − target) / range clamped to [−1, 1]; positive when long.
 * 0 when the range is unusable.
 */
export function computeInventoryRatio(base: number, targetBase: number, range: number): number {
  if (!(range > 0) || !Number.isFinite(range)) return 0;
  const ratio = (base - targetBase) / range;
  if (!Number.isFinite(ratio)) return 0;
  return Math.max(-1, Math.min(1, ratio));
}

/**
 * Hummingbot's total order size of a ladder (both sides): 2·(N·size + N(N−1)/2·increment), the
 * default inventory range (its `inventory_range_multiplier` = 1).
 */
export function computeTotalLadderSize(orderSize: number, sizeIncrement: number, levels: number): number {
  return 2 * (levels * orderSize + ((levels * (levels - 1)) / 2) * sizeIncrement);
}
