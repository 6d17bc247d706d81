/**
 * The signals of one market, fed together, and the alpha term built on them: the engine feeds a
 * `SignalSet` from the book it reads the signals from (the reference when there is one, else the
 * venue), and `akira-mm fit` feeds one from a recording: the same code, so what was fitted is
 * what quotes.
 *
 *   alpha (bps) = clamp(ALPHA_OBI_BPS·obi + ALPHA_OFI_BPS·ofi + ALPHA_TRADE_FLOW_BPS·flow, ±ALPHA_MAX_BPS)
 *   fair' = fair × (1 + alpha / 10⁴)
 *
 * The volatility signals are not in the sum: they say how fast, not which way.
 */
import type { Side, SignalSettings } from '../../src/core/index.ts';
import { bookImbalance, type SignalDepth } from './book-imbalance.ts';
import { OrderFlowImbalance, type SignalTop } from './order-flow-imbalance.ts';
import { TradeFlow } from './trade-flow.ts';
import { VolatilityRegime, type VolatilityRegimeValue } from './volatility-regime.ts';

/** Every signal's value at one moment. */
export interface SignalValues {
  /** Depth-weighted book imbalance, −1…1. */
  readonly obi: number;
  /** Order-flow imbalance over its window, in touches of depth. */
  readonly ofi: number;
  /** Signed trade flow, a ratio of volume rates (0 with no trade). */
  readonly tradeFlow: number;
  /** Short- and long-horizon volatility of the mid, bps per √s, and short / long. */
  readonly volShortBps: number;
  readonly volLongBps: number;
  readonly volRatio: number;
}

/** The signals the alpha term weighs, in a fixed order (the fit's columns, the ALPHA_* keys). */
export const ALPHA_SIGNALS = ['obi', 'ofi', 'tradeFlow'] as const;
export type AlphaSignal = (typeof ALPHA_SIGNALS)[number];

/** The ALPHA_* key of each weighed signal (what `akira-mm fit --write` writes). */
export const ALPHA_KEY_OF: Readonly<Record<AlphaSignal, string>> = { obi: 'ALPHA_OBI_BPS', ofi: 'ALPHA_OFI_BPS', tradeFlow: 'ALPHA_TRADE_FLOW_BPS' };

/** The weights of the alpha term, bps per unit of each signal. */
export function alphaWeights(settings: SignalSettings): Readonly<Record<AlphaSignal, number>> {
  return { obi: settings.alphaObiBps, ofi: settings.alphaOfiBps, tradeFlow: settings.alphaTradeFlowBps };
}

/** True when the alpha term can move the fair price (a clamp above 0 and a weight that is not 0). */
export function isAlphaOn(settings: SignalSettings): boolean {
  return settings.alphaMaxBps > 0 && (settings.alphaObiBps !== 0 || settings.alphaOfiBps !== 0 || settings.alphaTradeFlowBps !== 0);
}

/**
 * The move the signals predict, bps of the fair price: Σ ALPHA_* weight·signal before the clamp
 * (what the fit predicts, which queue placement reads even while ALPHA_MAX_BPS = 0 keeps the fair
 * price where it is); 0 for a non-finite sum.
 */
export function predictedMoveBps(values: SignalValues, settings: SignalSettings): number {
  const sum = settings.alphaObiBps * values.obi + settings.alphaOfiBps * values.ofi + settings.alphaTradeFlowBps * values.tradeFlow;
  return Number.isFinite(sum) ? sum : 0;
}

/** The alpha term in bps of the fair price: the predicted move clamped to ±ALPHA_MAX_BPS. */
export function alphaBps(values: SignalValues, settings: SignalSettings): number {
  const max = settings.alphaMaxBps;
  return Math.max(-max, Math.min(max, predictedMoveBps(values, settings)));
}

/** The signals of one market. */
export class SignalSet {
  private readonly ofi: OrderFlowImbalance;
  private readonly flow: TradeFlow;
  private readonly volatility: VolatilityRegime;
  /** The last usable top as numbers (fed on every book update: no object per update). */
  private hasTop = false;
  private bidPrice = 0;
  private bidSize = 0;
  private askPrice = 0;
  private askSize = 0;
  private readonly topDepth: { bids: { price: number; qty: number }[]; asks: { price: number; qty: number }[] } = { bids: [], asks: [] };

  /** @throws RangeError for a window or half-life that is not positive. */
  constructor(readonly settings: SignalSettings) {
    this.ofi = new OrderFlowImbalance(settings.ofiWindowMs);
    this.flow = new TradeFlow(settings.tradeFlowHalfLifeMs);
    this.volatility = new VolatilityRegime(settings.volShortHalfLifeMs, settings.volLongHalfLifeMs);
  }

  /** A new top of book (undefined: no usable top now, e.g. a side empty). */
  onTop(timeMs: number, top: SignalTop | undefined): void {
    if (top === undefined) this.onNoTop(timeMs);
    else this.onTopLevels(timeMs, top.bidPrice, top.bidSize, top.askPrice, top.askSize);
  }

  /** `onTop` with the top's numbers (a crossed or empty side counts as no usable top). */
  onTopLevels(timeMs: number, bidPrice: number, bidSize: number, askPrice: number, askSize: number): void {
    if (!(bidPrice > 0 && askPrice > bidPrice && Number.isFinite(askPrice))) {
      this.onNoTop(timeMs);
      return;
    }
    this.hasTop = true;
    this.bidPrice = bidPrice;
    this.bidSize = bidSize;
    this.askPrice = askPrice;
    this.askSize = askSize;
    this.ofi.onTopLevels(timeMs, bidPrice, bidSize, askPrice, askSize);
    this.volatility.onMid(timeMs, (bidPrice + askPrice) / 2);
  }

  /** No usable top now: the volatility's chain of returns breaks. */
  onNoTop(timeMs: number): void {
    this.hasTop = false;
    this.volatility.onMid(timeMs, undefined);
  }

  /** A public trade of `size` base tokens; its aggressor's side. */
  onTrade(timeMs: number, size: number, aggressor: Side): void {
    this.flow.onTrade(timeMs, size, aggressor);
  }

  /** The volatility signals alone at `timeMs` (what the regime widening reads, without the book's imbalance). */
  volatilityAt(timeMs: number): VolatilityRegimeValue {
    return this.volatility.value(timeMs);
  }

  /**
   * Every signal at `timeMs`. `depth` is the book the imbalance reads (best first); without it,
   * the last top alone (a venue that shows only its top).
   */
  values(timeMs: number, depth?: SignalDepth): SignalValues {
    const volatility = this.volatility.value(timeMs);
    return {
      obi: bookImbalance(depth ?? this.depthOfTop(), { levels: this.settings.obiLevels, decay: this.settings.obiDecay }),
      ofi: this.ofi.value(timeMs),
      tradeFlow: this.flow.value(timeMs),
      volShortBps: volatility.shortBps,
      volLongBps: volatility.longBps,
      volRatio: volatility.ratio,
    };
  }

  private depthOfTop(): SignalDepth {
    const depth = this.topDepth;
    depth.bids.length = 0;
    depth.asks.length = 0;
    if (this.hasTop) {
      depth.bids.push({ price: this.bidPrice, qty: this.bidSize });
      depth.asks.push({ price: this.askPrice, qty: this.askSize });
    }
    return depth;
  }
}
