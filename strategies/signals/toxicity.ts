/**
 * Toxicity of our own flow, per side: how much the fair price moved against our recent fills of
 * that side, from their markouts after a horizon h,
 *
 *   markoutⱼ = s · (fair(tⱼ + h) − priceⱼ) / priceⱼ · 10⁴   (s = +1 for a buy fill, −1 for a sell)
 *   toxicity_side = − Σⱼ markoutⱼ · 0.5^((t − tⱼ)/H) / Σⱼ 0.5^((t − tⱼ)/H)   over that side's resolved fills
 *
 * in bps: positive when that side is being picked off (we bought and the price then fell), 0
 * before any markout resolved. Measured against the fair price, not the venue's mid, which on a
 * thin venue our own quotes set.
 */
import type { DesiredQuote, Side } from '../../src/core/index.ts';
import { DecayingSum } from './decaying-sum.ts';
import { scaleSizes } from './scale-sizes.ts';

/** Toxicity of each side's fills, bps. */
export interface ToxicityValue {
  readonly buyBps: number;
  readonly sellBps: number;
}

interface PendingFill {
  readonly side: Side;
  readonly price: number;
  readonly dueMs: number;
}

/** One side's weighted mean of markouts. */
class SideMean {
  constructor(
    readonly sum: DecayingSum,
    readonly weight: DecayingSum,
  ) {}
}

/** Markouts of our fills, resolved as the fair price moves, averaged per side with a half-life. */
export class Toxicity {
  private pending: PendingFill[] = [];
  private readonly sides: Record<Side, SideMean>;

  /**
   * @param horizonMs how long after a fill its markout is read, ms (> 0).
   * @param halfLifeMs half-life of a markout's weight in the mean, ms (> 0).
   * @throws RangeError for a horizon or half-life that is not positive.
   */
  constructor(
    readonly horizonMs: number,
    halfLifeMs: number,
  ) {
    if (!(horizonMs > 0) || !Number.isFinite(horizonMs)) throw new RangeError(`horizonMs must be a positive number of ms, got ${horizonMs}`);
    this.sides = {
      buy: new SideMean(new DecayingSum(halfLifeMs), new DecayingSum(halfLifeMs)),
      sell: new SideMean(new DecayingSum(halfLifeMs), new DecayingSum(halfLifeMs)),
    };
  }

  /** One of our fills on `side` at `price` (quote per base). */
  onFill(side: Side, price: number, timeMs: number): void {
    if (!(price > 0) || !Number.isFinite(price)) return;
    this.pending.push({ side, price, dueMs: timeMs + this.horizonMs });
  }

  /** The fair price at `timeMs` resolves every markout due by then (undefined: none now, they wait). */
  observe(fair: number | undefined, timeMs: number): void {
    if (fair === undefined || !(fair > 0) || this.pending.length === 0) return;
    let resolved = 0;
    // Fills come in time order and share one horizon: the due ones are at the front.
    for (const fill of this.pending) {
      if (fill.dueMs > timeMs) break;
      const markoutBps = ((fill.side === 'buy' ? 1 : -1) * (fair - fill.price) * 10_000) / fill.price;
      const mean = this.sides[fill.side];
      mean.sum.add(fill.dueMs, markoutBps);
      mean.weight.add(fill.dueMs, 1);
      resolved++;
    }
    if (resolved > 0) this.pending = this.pending.slice(resolved);
  }

  /** Each side's toxicity at `timeMs`, bps (positive = picked off). */
  value(timeMs: number): ToxicityValue {
    return { buyBps: this.sideValue('buy', timeMs), sellBps: this.sideValue('sell', timeMs) };
  }

  private sideValue(side: Side, timeMs: number): number {
    const mean = this.sides[side];
    const weight = mean.weight.value(timeMs);
    return weight > 0 ? -mean.sum.value(timeMs) / weight : 0;
  }
}

/**
 * The quotes with each side that is being picked off moved away from the fair price: a side
 * whose toxicity is t > 0 bps has every quote moved min(t × ratio, maxBps) bps of the fair
 * price further out (bids down, asks up); a side that is not toxic is left as it is. Sizes and
 * each quote's reference are kept: the edge a moved quote earns only grows.
 */
export function widenToxicSides(quotes: DesiredQuote[], fair: number, toxicity: ToxicityValue, ratio: number, maxBps: number): DesiredQuote[] {
  const widenBps = (side: Side): number => Math.min(Math.max(0, (side === 'buy' ? toxicity.buyBps : toxicity.sellBps) * ratio), maxBps);
  const buy = widenBps('buy');
  const sell = widenBps('sell');
  if (buy === 0 && sell === 0) return quotes;
  return quotes.map((quote) => {
    const bps = quote.side === 'buy' ? buy : sell;
    if (bps === 0) return quote;
    const offset = (fair * bps) / 10_000;
    return { ...quote, price: quote.side === 'buy' ? quote.price - offset : quote.price + offset };
  });
}

/** The share of its size a side keeps at toxicity `toxicityBps`: 1 / (1 + ratio × toxicity) while both are positive, else 1. */
export function toxicSizeFactor(toxicityBps: number, ratio: number): number {
  return ratio > 0 && toxicityBps > 0 ? 1 / (1 + ratio * toxicityBps) : 1;
}

/**
 * The quotes with each side that is being picked off made smaller: a side whose toxicity is
 * t > 0 bps has every size multiplied by 1 / (1 + ratio × t), so the flow that takes it pays for
 * less of it; a side that is not toxic keeps its sizes. Prices are kept (widenToxicSides moves
 * them). The same quotes while no side is toxic or `ratio` is 0.
 */
export function shrinkToxicSides(quotes: DesiredQuote[], toxicity: ToxicityValue, ratio: number): DesiredQuote[] {
  return scaleSizes(quotes, toxicSizeFactor(toxicity.buyBps, ratio), toxicSizeFactor(toxicity.sellBps, ratio));
}
