/**
 * The priorities of the outbound budget: which of a requote's requests go first when tokens are
 * short. Pure: plans in, ranked actions out.
 */
import type { Side } from '../../core/index.ts';
import type { Holdings, RiskLimits } from '../pipeline/caps.ts';
import type { LiveQuote, QuoteDiff, RoundedQuote } from '../pipeline/diff.ts';
import type { Touch } from '../pipeline/ticks.ts';

/** What one side of a requote wants done. */
export interface SidePlan {
  readonly side: Side;
  readonly diff: QuoteDiff;
  /** Every quote the side wants now (kept or placed), to tell a risk-reducing cancel from a refresh. */
  readonly wanted: readonly RoundedQuote[];
}

/** What the placement gate and the priorities read, as of this requote. */
export interface ExecutionContext {
  readonly holdings: Holdings;
  readonly limits: RiskLimits;
  readonly touch: Touch;
  /** Notional room under the account's cap once every other pair's orders are counted, quote units; absent = no account cap. */
  readonly accountRoomUnits?: bigint;
}

/**
 * One unit of work a requote wants sent, with what ranks it: a risk-reducing cancel alone, a
 * refresh (a cancel and its replacement together, all or nothing), a new quote, or the cancel of
 * an order nobody wants any more.
 */
export interface Action {
  readonly side: Side;
  readonly cancel?: LiveQuote;
  readonly place?: RoundedQuote;
  /**
   * 0: a cancel that reduces risk (the order is more aggressive than anything its side wants, or
   * its side wants nothing): it may spend the tokens reserved for cancels. 1: a placement or a
   * refresh. 2: the cancel of a passive order nobody wants. Lower goes first.
   */
  readonly group: 0 | 1 | 2;
  /** Behind the touch, quote units (0 at or inside it); nearer goes first within a group. */
  readonly distance: bigint;
  readonly level: number;
}

/**
 * Turns the plans into actions and orders them by priority. A cancel reduces risk when its order
 * is more aggressive than anything its side wants (or the side wants nothing): those go first,
 * nearest the touch first. Then placements, each paired with the cancel of the order it replaces
 * (nearest the touch with nearest): a refresh goes whole or not at all, so a side is never left
 * bare because its cancel got a token and its replacement did not. Cancels of passive orders
 * nobody wants go last.
 */
export function rankActions(plans: readonly SidePlan[], context: ExecutionContext): Action[] {
  const actions: Action[] = [];
  for (const plan of plans) {
    const { side } = plan;
    const limit = mostAggressiveWanted(side, plan.wanted);
    const refreshCancels: LiveQuote[] = [];
    for (const order of plan.diff.cancel) {
      const risky = limit === undefined || (side === 'buy' ? order.priceUnits > limit : order.priceUnits < limit);
      if (risky) actions.push({ side, cancel: order, group: 0, distance: distanceFromTouch(side, order.priceUnits, context.touch), level: 0 });
      else refreshCancels.push(order);
    }
    refreshCancels.sort((a, b) => byDistance(distanceFromTouch(side, a.priceUnits, context.touch), distanceFromTouch(side, b.priceUnits, context.touch)));
    const places = [...plan.diff.place].sort((a, b) => a.level - b.level || byDistance(distanceFromTouch(side, a.priceUnits, context.touch), distanceFromTouch(side, b.priceUnits, context.touch)));
    places.forEach((quote, i) => {
      const cancel = refreshCancels[i];
      const distance = distanceFromTouch(side, quote.priceUnits, context.touch);
      actions.push(cancel === undefined ? { side, place: quote, group: 1, distance, level: quote.level } : { side, cancel, place: quote, group: 1, distance, level: quote.level });
    });
    for (const order of refreshCancels.slice(places.length)) {
      actions.push({ side, cancel: order, group: 2, distance: distanceFromTouch(side, order.priceUnits, context.touch), level: 0 });
    }
  }
  if (actions.length > 1) actions.sort(compareActions);
  return actions;
}

/** The highest price a side's wanted bids reach (lowest for asks), counting each quote's aggressive band. */
function mostAggressiveWanted(side: Side, wanted: readonly RoundedQuote[]): bigint | undefined {
  let limit: bigint | undefined;
  for (const quote of wanted) {
    if (quote.side !== side) continue;
    const band = quote.aggressiveToleranceUnits ?? 0n;
    const edge = side === 'buy' ? quote.priceUnits + band : quote.priceUnits - band;
    if (limit === undefined || (side === 'buy' ? edge > limit : edge < limit)) limit = edge;
  }
  return limit;
}

/** Nearer the touch first (module-level: a function made per call costs an allocation and a name). */
function byDistance(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareActions(a: Action, b: Action): number {
  if (a.group !== b.group) return a.group - b.group;
  if (a.level !== b.level) return a.level - b.level;
  if (a.distance !== b.distance) return a.distance < b.distance ? -1 : 1;
  return 0;
}

/** How far behind the touch a price sits on its side (0 at or inside it). */
function distanceFromTouch(side: Side, priceUnits: bigint, touch: Touch): bigint {
  const best = side === 'buy' ? touch.bestBidUnits : touch.bestAskUnits;
  if (best === undefined) return 0n;
  const behind = side === 'buy' ? best - priceUnits : priceUnits - best;
  return behind > 0n ? behind : 0n;
}
