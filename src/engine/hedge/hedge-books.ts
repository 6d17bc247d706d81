/**
 * Everything that follows from one fill or one hedge, written in one place: the exposure's books,
 * the journal (each hedge before it leaves), the hedge account's balances and cash flows, and the
 * latency and slippage figures. The hedger decides; this records.
 */
import { isFinalHedgeStatus, unitsToNumber, type Clock, type HedgeOrderState, type HedgeRules, type Side } from '../../core/index.ts';
import type { FillEffect } from '../ledger.ts';
import type { FillIncrement } from '../orders/order-table.ts';
import type { HedgeExposure, HedgeRecord } from './exposure.ts';
import type { HedgeJournal } from './hedge-journal.ts';
import type { HedgeStats } from './hedge-stats.ts';
import type { HedgeWallet } from './wallet.ts';

/** A hedge about to be sent. */
export interface NewHedge {
  readonly id: string;
  readonly side: Side;
  readonly qtyVenueUnits: bigint;
  readonly expectedUnits: bigint;
  readonly referencePriceUnits: bigint;
}

/** The hedger's records. */
export class HedgeBooks {
  constructor(
    readonly exposure: HedgeExposure,
    private readonly wallet: HedgeWallet,
    private readonly stats: HedgeStats,
    private readonly journal: HedgeJournal,
    private readonly clock: Clock,
    private readonly rules: HedgeRules,
  ) {}

  /** Counts a fill (once per order and cumulative size); the base it newly moved, 0 for a repeat. */
  countFill(fill: FillIncrement, effect: FillEffect, cumulativeQtyUnits: bigint): bigint {
    const before = this.exposure.uncoveredUnits();
    const moved = this.exposure.addFill({ orderId: fill.orderId, cumulativeUnits: cumulativeQtyUnits, qtyUnits: fill.qtyUnits, baseDeltaUnits: effect.baseDeltaUnits });
    if (moved === 0n) return 0n;
    const now = this.clock.nowMs();
    this.journal.append({ t: 'fill', orderId: fill.orderId, cum: cumulativeQtyUnits.toString(), qty: fill.qtyUnits.toString(), delta: effect.baseDeltaUnits.toString(), timeMs: now });
    this.stats.exposureChanged(now, before, this.exposure.uncoveredUnits(), false);
    return moved;
  }

  /** Records a hedge before it is sent. */
  begin(hedge: NewHedge): void {
    const now = this.clock.nowMs();
    this.exposure.beginHedge({ ...hedge, sentAtMs: now });
    this.journal.append({ t: 'hedge', id: hedge.id, side: hedge.side, qty: hedge.qtyVenueUnits.toString(), expected: hedge.expectedUnits.toString(), ref: hedge.referencePriceUnits.toString(), timeMs: now });
    this.stats.sent();
  }

  /** Applies what the venue says of one of our hedges (answers, queries, the stream: duplicates are harmless). */
  apply(order: HedgeOrderState): void {
    const record = this.exposure.hedge(order.clientOrderId);
    if (record === undefined || record.phase === 'done') return;
    const now = this.clock.nowMs();
    const before = { executed: record.executedVenueUnits, quote: record.executedQuoteUnits, commission: record.commissionUnits, uncovered: this.exposure.uncoveredUnits() };
    const isFinal = isFinalHedgeStatus(order.status);
    this.exposure.applyOrder(order, isFinal);
    const increment = { side: record.side, qtyUnits: record.executedVenueUnits - before.executed, quoteUnits: record.executedQuoteUnits - before.quote, commissionUnits: record.commissionUnits - before.commission };
    if (increment.qtyUnits > 0n || increment.commissionUnits > 0n || isFinal) {
      this.wallet.apply(increment, now);
      this.journal.append({ t: 'result', id: record.id, executed: record.executedVenueUnits.toString(), quote: record.executedQuoteUnits.toString(), commission: record.commissionUnits.toString(), final: isFinal, timeMs: now });
      this.stats.exposureChanged(now, before.uncovered, this.exposure.uncoveredUnits(), true);
    }
    if (isFinal && record.executedVenueUnits > 0n) this.recordSlippage(record);
  }

  /** The hedge never executed (refused, or not on the venue once it could no longer execute). */
  abort(id: string, reason: string): void {
    this.exposure.abort(id);
    this.journal.append({ t: 'abort', id, reason, timeMs: this.clock.nowMs() });
  }

  private recordSlippage(record: HedgeRecord): void {
    const qty = unitsToNumber(record.executedVenueUnits, this.rules.baseDecimals);
    this.stats.slippage(record.side, unitsToNumber(record.executedQuoteUnits, this.rules.quoteDecimals) / qty, unitsToNumber(record.referencePriceUnits, this.rules.quoteDecimals), qty);
  }
}
