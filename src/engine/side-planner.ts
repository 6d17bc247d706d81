/**
 * From the desired quotes to each side's plan: the diff against the side's working orders (the
 * asymmetric band), replacements that would not pay for their gas dropped, placements held back
 * while the side backs off after rejections. A side whose last diff was empty stays quiet until
 * something it reads changes: the desired quotes (the pipeline's memo hands back the same array),
 * its orders (the table's version), or a deadline (an order's maximum age, the back-off's end).
 */
import type { Side } from '../core/index.ts';
import type { OrderManager } from './orders/order-manager.ts';
import { toLiveQuote } from './orders/order-table.ts';
import type { SidePlan } from './orders/priorities.ts';
import { diffQuotes, type RoundedQuote } from './pipeline/diff.ts';
import { keepReplacementsThatPay, type EdgeContext } from './pipeline/edge.ts';
import type { EngineSettings } from './settings.ts';

const SIDES: readonly Side[] = ['buy', 'sell'];

/** A side whose last diff was empty, and what it read then. */
interface QuietSide {
  readonly desired: readonly RoundedQuote[];
  readonly ordersVersion: number;
  readonly untilMs: number;
}

/** Plans requotes side by side, remembering which sides are quiet. */
export class SidePlanner {
  /** Each side's quiet state, by a branch in `plan` (a lookup by a key that alternates is a generic property load). */
  private quietBuy: QuietSide | undefined;
  private quietSell: QuietSide | undefined;

  constructor(
    private readonly orders: OrderManager,
    /** The settings in force: read at each plan, so a live change (`ctl set`) reaches the next one. */
    private readonly settingsNow: () => Pick<EngineSettings, 'requoteTolerance' | 'maxOrderAgeMs' | 'minEdgeBps'>,
  ) {}

  /** Forgets which sides are quiet: the settings changed, so every side is planned afresh. */
  forgetQuietSides(): void {
    this.quietBuy = undefined;
    this.quietSell = undefined;
  }

  /**
   * The plans of the sides that have something to do. A side with requests in flight is marked
   * dirty instead (it is planned again once they are answered).
   */
  plan(desired: readonly RoundedQuote[], nowMs: number, fair: number | undefined, edge: () => EdgeContext): SidePlan[] {
    const plans: SidePlan[] = [];
    const table = this.orders.table;
    for (const side of SIDES) {
      if (this.orders.isBusy(side)) {
        this.orders.markDirty(side);
        continue;
      }
      const quiet = side === 'buy' ? this.quietBuy : this.quietSell;
      if (quiet !== undefined && quiet.desired === desired && quiet.ordersVersion === table.version && nowMs < quiet.untilMs) continue;
      this.setQuiet(side, undefined);
      const wanted = desired.filter((quote) => quote.side === side);
      const settings = this.settingsNow();
      const bandDiff = diffQuotes(wanted, table.working(side).map(toLiveQuote), {
        toleranceSizeFraction: settings.requoteTolerance.sizeFraction,
        maxOrderAgeMs: settings.maxOrderAgeMs,
        nowMs,
      });
      const paying = fair === undefined ? bandDiff : keepReplacementsThatPay(bandDiff, fair, settings.minEdgeBps, edge());
      const diff = nowMs < this.orders.backoffUntilMs(side) ? { ...paying, place: [] } : paying;
      if (diff.cancel.length === 0 && diff.place.length === 0) {
        this.setQuiet(side, { desired, ordersVersion: table.version, untilMs: this.quietUntilMs(side, nowMs) });
        continue;
      }
      plans.push({ side, diff, wanted });
    }
    return plans;
  }

  private setQuiet(side: Side, quiet: QuietSide | undefined): void {
    if (side === 'buy') this.quietBuy = quiet;
    else this.quietSell = quiet;
  }

  /** When the time alone could change this side's diff: an order reaching its maximum age, or the reject backoff ending. */
  private quietUntilMs(side: Side, nowMs: number): number {
    let untilMs = Number.POSITIVE_INFINITY;
    const backoffUntilMs = this.orders.backoffUntilMs(side);
    if (nowMs < backoffUntilMs) untilMs = backoffUntilMs;
    const { maxOrderAgeMs } = this.settingsNow();
    if (maxOrderAgeMs > 0) {
      for (const order of this.orders.table.working(side)) untilMs = Math.min(untilMs, order.createdAtMs + maxOrderAgeMs);
    }
    return untilMs;
  }
}
