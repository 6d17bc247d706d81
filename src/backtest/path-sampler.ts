/**
 * The report's path: one sample of a pair's state per period of simulated time (mid, our best
 * resting prices, the market's touch, inventory, PnL by component, the reference's fair price, the
 * strategy's internals).
 * A gap in the recording repeats the last state up to the next event.
 */
import { unitsToNumber, type TickerRules } from '../core/index.ts';
import type { PathStatus } from '../engine/index.ts';
import { PathSeries } from './path-series.ts';
import type { VenueExchange } from './venue-exchange.ts';
import type { PathSample, PnlComponents } from './stats.ts';
import { markedAt } from './pnl-mark.ts';

/** Samples one pair's state every `sampleMs` of simulated time. */
export class PathSampler {
  /** Stored by column (path-series.ts): a long run's path costs ~160 bytes a sample, not ~380. */
  private readonly series = new PathSeries();
  /** The next sample's time, ms: `timeMs >= nextSampleMs` is the cheap per-event test. */
  nextSampleMs: number;
  /** Base balance at the start (inventory counts from it), base tokens. */
  startBase = 0;

  constructor(
    startMs: number,
    private readonly sampleMs: number,
    private readonly rules: TickerRules,
    private readonly exchange: VenueExchange,
    /** The engine's `pathStatus` (cheaper than `status()`: no order lists, no markout summary). */
    private readonly status: () => PathStatus,
  ) {
    this.nextSampleMs = startMs + sampleMs;
  }

  /** Takes the samples due at or before `timeMs` (one state, repeated over a gap). */
  sampleUpTo(timeMs: number): void {
    if (timeMs < this.nextSampleMs) return;
    const status = this.status();
    const exchange = this.exchange;
    const due = Math.floor((timeMs - this.nextSampleMs) / this.sampleMs);
    // One sample per period: a gap in the recording repeats the last state up to the next event.
    this.series.push(
      {
        timeMs: this.nextSampleMs,
        mid: status.mid,
        bid: this.tickPrice(exchange.bestRestingPrice('buy')),
        ask: this.tickPrice(exchange.bestRestingPrice('sell')),
        bestBid: this.tickPrice(exchange.book.bestBidPrice()),
        bestAsk: this.tickPrice(exchange.book.bestAskPrice()),
        inventory: status.baseBalance - this.startBase,
        netInventory: status.hedge === undefined ? undefined : status.baseBalance - this.startBase + status.hedge.hedgePositionBase,
        pnl: this.markedPnl(status) + (status.hedge?.pnlQuote ?? 0),
        components: pnlComponents(status),
        referenceFair: status.reference?.fair,
        basisBps: status.reference?.basisBps,
        model: status.model?.internals,
      },
      this.sampleMs,
      due,
    );
    this.nextSampleMs += (due + 1) * this.sampleMs;
  }

  /** The samples taken so far, in time order. */
  get samples(): readonly PathSample[] {
    return this.series.samples;
  }

  /**
   * The PnL at this sample: the engine's, or, where the exchange names the mid fills are judged
   * against (a thin venue: the reference's), the ledger with its position marked there, so the
   * path, its drawdown and its error bars value inventory as the summary's end does.
   */
  private markedPnl(status: PathStatus): number {
    const mid = this.exchange.markoutMid?.();
    return mid === undefined ? status.pnl.total : markedAt(status.pnl, mid);
  }

  private tickPrice(priceTicks: number | undefined): number | undefined {
    const rules = this.rules;
    return priceTicks === undefined ? undefined : unitsToNumber(BigInt(priceTicks) * rules.priceTick, rules.quoteDecimals);
  }
}

/**
 * The engine's PnL split at a sample as signed contributions (fees and gas negative), so the
 * parts of a sample add up to its total; with a hedge venue, the hedges' PnL (net of their fees)
 * is a part of its own.
 */
export function pnlComponents(status: PathStatus): PnlComponents {
  const split = status.scorecard.pnl;
  const parts = { spread: split.spread, inventory: split.inventory, fees: -split.fees, gas: -split.gas };
  return status.hedge === undefined ? parts : { ...parts, hedge: status.hedge.pnlQuote };
}
