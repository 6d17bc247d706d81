/**
 * The hedger's books, exact, in the quoted pair's base units: every fill by its order and the
 * order's cumulative size (a fill is counted once however often it is reported, also across
 * restarts), every hedge by its client order id, and what follows from them:
 * - filled: the base the fills moved (buys net of the venue's fee taken in base);
 * - hedged: the base the hedges moved (buys net of the hedge venue's fee in base);
 * - uncovered = filled + hedged (the net position across both venues), of which `inFlight` is
 *   being hedged by orders whose outcome is not final yet.
 * Pure state with no I/O: the hedger decides, the journal remembers.
 */
import type { HedgeOrderState, Side } from '../../core/index.ts';

/** One hedge order as the books know it. */
export interface HedgeRecord {
  readonly id: string;
  readonly side: Side;
  /** Quantity asked, venue units. */
  readonly qtyVenueUnits: bigint;
  /** What it is expected to move when it fills, quoted-pair base units (signed). */
  readonly expectedUnits: bigint;
  readonly sentAtMs: number;
  /** Hedge-book price the decision was taken at (venue quote units per base), for slippage. */
  readonly referencePriceUnits: bigint;
  /** `pending`: sent, no final answer; `unknown`: its answer was lost, being queried; `done`: final. */
  phase: 'pending' | 'unknown' | 'done';
  executedVenueUnits: bigint;
  executedQuoteUnits: bigint;
  commissionUnits: bigint;
  /** The base this hedge moved so far, quoted-pair base units (signed). */
  movedUnits: bigint;
}

/** Converts between the hedge venue's base units and the quoted pair's. */
export interface UnitScale {
  readonly venueDecimals: number;
  readonly pairDecimals: number;
}

/** Venue base units → pair base units (exact when the pair has at least as many decimals). */
export function venueToPair(units: bigint, scale: UnitScale): bigint {
  const shift = scale.pairDecimals - scale.venueDecimals;
  return shift >= 0 ? units * 10n ** BigInt(shift) : units / 10n ** BigInt(-shift);
}

/** Pair base units → venue base units, rounded towards zero (a hedge never grows past what is uncovered). */
export function pairToVenue(units: bigint, scale: UnitScale): bigint {
  const shift = scale.pairDecimals - scale.venueDecimals;
  return shift >= 0 ? units / 10n ** BigInt(shift) : units * 10n ** BigInt(-shift);
}

/** A fill's effect on the books. */
export interface FillInput {
  readonly orderId: string;
  /** The order's cumulative filled size after this fill (base units). */
  readonly cumulativeUnits: bigint;
  /** This fill's size. */
  readonly qtyUnits: bigint;
  /** The base it moved (signed; a buy net of the fee taken in base). */
  readonly baseDeltaUnits: bigint;
}

/** Fills, hedges, and the uncovered position. */
export class HedgeExposure {
  /** Cumulative size of each order already counted. */
  private readonly counted = new Map<string, bigint>();
  private readonly hedges = new Map<string, HedgeRecord>();
  private filled = 0n;
  private filledVolume = 0n;
  private hedged = 0n;
  private hedgedVolume = 0n;

  constructor(readonly scale: UnitScale) {}

  /**
   * Counts the part of a fill not counted before: the order's cumulative size past what is
   * known (a report replayed after a restart may span fills already counted; its base effect is
   * then prorated, rounded towards zero). Returns the base newly moved (0 for a repeat).
   */
  addFill(fill: FillInput): bigint {
    const known = this.counted.get(fill.orderId) ?? 0n;
    if (fill.cumulativeUnits <= known || fill.qtyUnits <= 0n) return 0n;
    const previous = fill.cumulativeUnits - fill.qtyUnits;
    const fresh = fill.cumulativeUnits - (known > previous ? known : previous);
    const moved = fresh === fill.qtyUnits ? fill.baseDeltaUnits : (fill.baseDeltaUnits * fresh) / fill.qtyUnits;
    this.counted.set(fill.orderId, fill.cumulativeUnits);
    this.filled += moved;
    this.filledVolume += moved < 0n ? -moved : moved;
    return moved;
  }

  /** Records a hedge about to be sent. */
  beginHedge(record: Omit<HedgeRecord, 'phase' | 'executedVenueUnits' | 'executedQuoteUnits' | 'commissionUnits' | 'movedUnits'>): HedgeRecord {
    const full: HedgeRecord = { ...record, phase: 'pending', executedVenueUnits: 0n, executedQuoteUnits: 0n, commissionUnits: 0n, movedUnits: 0n };
    this.hedges.set(record.id, full);
    return full;
  }

  /**
   * Applies what the venue says of a hedge (cumulative amounts: only growth counts). Returns the
   * base newly moved; `isFinal` closes it (what it did not execute returns to the uncovered).
   */
  progress(id: string, executedVenueUnits: bigint, executedQuoteUnits: bigint, commissionUnits: bigint, isFinal: boolean): bigint {
    const record = this.hedges.get(id);
    if (record === undefined || record.phase === 'done') return 0n;
    let moved = 0n;
    if (executedVenueUnits > record.executedVenueUnits || commissionUnits > record.commissionUnits) {
      const executed = executedVenueUnits > record.executedVenueUnits ? executedVenueUnits : record.executedVenueUnits;
      const commission = commissionUnits > record.commissionUnits ? commissionUnits : record.commissionUnits;
      // A buy's fee is taken from the base it receives; a sell's from the quote.
      const baseMoved = record.side === 'buy' ? venueToPair(executed - commission, this.scale) : -venueToPair(executed, this.scale);
      moved = baseMoved - record.movedUnits;
      this.hedgedVolume += moved < 0n ? -moved : moved;
      record.executedVenueUnits = executed;
      record.executedQuoteUnits = executedQuoteUnits > record.executedQuoteUnits ? executedQuoteUnits : record.executedQuoteUnits;
      record.commissionUnits = commission;
      record.movedUnits = baseMoved;
      this.hedged += moved;
    }
    if (isFinal) record.phase = 'done';
    return moved;
  }

  /** Applies an order state from the venue to its hedge. */
  applyOrder(order: HedgeOrderState, isFinal: boolean): bigint {
    return this.progress(order.clientOrderId, order.executedQtyUnits, order.executedQuoteUnits, order.commissionUnits, isFinal);
  }

  /** The hedge's answer was lost: it is being queried. */
  markUnknown(id: string): void {
    const record = this.hedges.get(id);
    if (record !== undefined && record.phase === 'pending') record.phase = 'unknown';
  }

  /** The hedge was refused or never reached the venue: nothing of it executed. */
  abort(id: string): void {
    const record = this.hedges.get(id);
    if (record !== undefined) record.phase = 'done';
  }

  hedge(id: string): HedgeRecord | undefined {
    return this.hedges.get(id);
  }

  /** Hedges without a final outcome. */
  openHedges(): HedgeRecord[] {
    return [...this.hedges.values()].filter((record) => record.phase !== 'done');
  }

  /** Every hedge, in the order sent. */
  allHedges(): readonly HedgeRecord[] {
    return [...this.hedges.values()];
  }

  /** Base the fills moved, net (positive: bought on the quoted venue). */
  get filledUnits(): bigint {
    return this.filled;
  }

  /** Base the hedges moved, net. */
  get hedgedUnits(): bigint {
    return this.hedged;
  }

  /**
   * |base| the fills and the hedges moved, summed. A buy hedge trades a little more than it moves
   * (the hedge venue takes its fee from the base); what it moves never exceeds what fills moved.
   */
  get volumes(): { readonly filled: bigint; readonly hedged: bigint } {
    return { filled: this.filledVolume, hedged: this.hedgedVolume };
  }

  /** The net position across both venues: what is not hedged. */
  uncoveredUnits(): bigint {
    return this.filled + this.hedged;
  }

  /** What open hedges are still expected to move (signed). */
  inFlightUnits(): bigint {
    let total = 0n;
    for (const record of this.hedges.values()) if (record.phase !== 'done') total += record.expectedUnits - record.movedUnits;
    return total;
  }

  /** Uncovered once every open hedge filled as asked: what a new hedge may still take. */
  toHedgeUnits(): bigint {
    return this.uncoveredUnits() + this.inFlightUnits();
  }
}
