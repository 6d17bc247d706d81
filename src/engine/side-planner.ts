/**
 * From the desired quotes to each side's plan: the diff against the side's working orders (the
 * asymmetric band), replacements that would not pay for their gas dropped, placements held back
 * while the side backs off after rejections. A side whose last diff was empty stays quiet until
 * something it reads changes: the desired quotes (the pipeline's memo hands back the same array),
 * its orders (the table's version), or a deadline (an order's maximum age, the back-off's end); a
 * side with a plan gets the same plan back while nothing its diff reads has changed.
 */
import type { Side } from '../core/index.ts';
import type { OrderManager } from './orders/order-manager.ts';
import { toLiveQuote } from './orders/order-table.ts';
import type { SidePlan } from './orders/priorities.ts';
import { diffQuotes, type RoundedQuote } from './pipeline/diff.ts';
import { keepReplacementsThatPay, type EdgeContext } from './pipeline/edge.ts';
import type { EngineSettings } from './settings.ts';

const SIDES: readonly Side[] = ['buy', 'sell'];

/**
 * A side's last plan and what it read then. A side whose diff was empty (no plan) stays quiet
 * while its desired quotes, its orders and the time allow; a side with a plan gets the same plan
 * back while, besides those, the fair price, the edge context and the back-off are the same: a
 * budget that holds the plan back wakes the engine again and again until tokens return, and
 * each wake would otherwise rebuild an identical diff.
 */
interface SideMemo {
  readonly desired: readonly RoundedQuote[];
  readonly ordersVersion: number;
  /** When the time alone could change the diff (an order reaching its maximum age, the back-off ending). */
  readonly untilMs: number;
  /** The side's plan; undefined when its diff was empty (the side is quiet). */
  readonly plan: SidePlan | undefined;
  readonly fair: number | undefined;
  readonly edge: EdgeContext | undefined;
  readonly backoffUntilMs: number;
}

/** Plans requotes side by side, remembering which sides are quiet and each side's last plan. */
export class SidePlanner {
  /** Each side's memo, by a branch in `plan` (a lookup by a key that alternates is a generic property load). */
  private memoBuy: SideMemo | undefined;
  private memoSell: SideMemo | undefined;

  constructor(
    private readonly orders: OrderManager,
    /** The settings in force: read at each plan, so a live change (`ctl set`) reaches the next one. */
    private readonly settingsNow: () => Pick<EngineSettings, 'requoteTolerance' | 'maxOrderAgeMs' | 'minEdgeBps'>,
  ) {}

  /** Forgets which sides are quiet and their plans: the settings changed, so every side is planned afresh. */
  forgetQuietSides(): void {
    this.memoBuy = undefined;
    this.memoSell = undefined;
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
      const memo = side === 'buy' ? this.memoBuy : this.memoSell;
      if (memo !== undefined && memo.desired === desired && memo.ordersVersion === table.version && nowMs < memo.untilMs) {
        if (memo.plan === undefined) continue;
        if (Object.is(memo.fair, fair) && memo.backoffUntilMs === this.orders.backoffUntilMs(side) && (fair === undefined || memo.edge === edge())) {
          plans.push(memo.plan);
          continue;
        }
      }
      this.setMemo(side, undefined);
      const wanted = desired.filter((quote) => quote.side === side);
      const settings = this.settingsNow();
      const bandDiff = diffQuotes(wanted, table.working(side).map(toLiveQuote), {
        toleranceSizeFraction: settings.requoteTolerance.sizeFraction,
        maxOrderAgeMs: settings.maxOrderAgeMs,
        nowMs,
      });
      const edgeContext = fair === undefined ? undefined : edge();
      const paying = fair === undefined || edgeContext === undefined ? bandDiff : keepReplacementsThatPay(bandDiff, fair, settings.minEdgeBps, edgeContext);
      const backoffUntilMs = this.orders.backoffUntilMs(side);
      const diff = nowMs < backoffUntilMs ? { ...paying, place: [] } : paying;
      const isEmpty = diff.cancel.length === 0 && diff.place.length === 0;
      const plan = isEmpty ? undefined : { side, diff, wanted };
      this.setMemo(side, { desired, ordersVersion: table.version, untilMs: this.quietUntilMs(side, nowMs), plan, fair, edge: edgeContext, backoffUntilMs });
      if (plan !== undefined) plans.push(plan);
    }
    return plans;
  }

  private setMemo(side: Side, memo: SideMemo | undefined): void {
    if (side === 'buy') this.memoBuy = memo;
    else this.memoSell = memo;
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
