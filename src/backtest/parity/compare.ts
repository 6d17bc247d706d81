/**
 * The comparison of `akira-mm parity` (issue 32 item 1; docs/parity.md): a live or paper session
 * and the backtest of the same recording, pair file and measured latency, side by side — orders
 * per side, fills matched one to one by side, price and time (each unmatched fill with the cause
 * that can be attributed and its cost), fill rate per price distance from the mid, the PnL and
 * its parts, markouts at 1 s / 10 s / 60 s and orders per fill. Both sides are measured the same
 * way here, from their journals and the recording's mid, so what differs is what happened.
 */
import type { Side } from '../../core/index.ts';
import type { SessionTrace, TraceFill, TraceOrder } from './session-trace.ts';

/** The recording's mid over time (ms, quote per base), in time order. */
export interface MidSeries {
  readonly timesMs: readonly number[];
  readonly mids: readonly number[];
}

/** The mid in force at `timeMs` (the last one at or before it; the first before the series starts). */
export function midAt(series: MidSeries, timeMs: number): number | undefined {
  const { timesMs, mids } = series;
  if (timesMs.length === 0) return undefined;
  let low = 0;
  let high = timesMs.length - 1;
  if (timeMs < (timesMs[0] as number)) return mids[0];
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((timesMs[middle] as number) <= timeMs) low = middle;
    else high = middle - 1;
  }
  return mids[low];
}

/** How close two fills must be to be one fill seen twice (docs/parity.md "Tolerances"). */
export interface MatchTolerance {
  /** Largest time difference, ms. */
  readonly timeMs: number;
  /** Largest price difference, in ticks of the pair. */
  readonly ticks: number;
  readonly tick: number;
}

/** Why a fill has no counterpart on the other side. */
export type UnmatchedCause = 'latency' | 'queue-position' | 'fees' | 'unseen';

export const CAUSE_TEXT: Readonly<Record<UnmatchedCause, string>> = {
  latency: 'latency: the other side had an order at this price, placed or cancelled at a different time, so it was not resting when this fill came',
  'queue-position': 'queue position: the other side rested at this price and was not filled (others stood ahead of it, or the taker took less)',
  fees: 'fees: the other side did not quote this price because its fees or their valuation made it quote elsewhere',
  unseen: 'a fill the other side never saw: it had no order at or near this price then (its quotes were elsewhere, or it was not quoting)',
};

/** A fill one side has and the other does not. */
export interface UnmatchedFill {
  readonly side: 'live' | 'backtest';
  readonly fill: TraceFill;
  readonly cause: UnmatchedCause;
  /** What it meant to that side's PnL at the 60 s markout (or the session's end), quote tokens. */
  readonly pnlQuote: number;
  /** With `latency`: how far the other side's order was in time, ms. */
  readonly offsetMs?: number;
}

/** One side's figures. */
export interface SideFigures {
  readonly orders: { readonly buy: number; readonly sell: number };
  readonly fills: { readonly buy: number; readonly sell: number };
  readonly volumeBase: number;
  /** PnL from the fills, marked at the recording's mid at the end: spread + inventory − fees (gas apart). */
  readonly pnl: { readonly total: number; readonly spread: number; readonly inventory: number; readonly fees: number };
  /** Mean markout of the fills, bps (positive = the fill was good for us); null without fills. */
  readonly markoutsBps: { readonly '1s': number | null; readonly '10s': number | null; readonly '60s': number | null };
  readonly ordersPerFill: number | null;
  /** Median time from sending an order to the venue's answer, ms. */
  readonly medianAckMs: number | null;
}

/** Fill rate of orders by their distance from the mid when sent. */
export interface DistanceRow {
  readonly label: string;
  readonly live: { readonly orders: number; readonly filled: number };
  readonly backtest: { readonly orders: number; readonly filled: number };
}

/** The whole comparison. */
export interface ParityComparison {
  readonly pair: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly live: SideFigures;
  readonly backtest: SideFigures;
  readonly matched: number;
  /** Matched fills over each side's fills (1 = every fill of that side has its counterpart). */
  readonly matchedShare: { readonly live: number | null; readonly backtest: number | null };
  /** Mean |time difference| and |price difference| of the matched pairs. */
  readonly matchedOffset: { readonly meanMs: number | null; readonly meanTicks: number | null };
  /** Fees of the matched pairs, live minus backtest, quote tokens. */
  readonly matchedFeeDifference: number;
  readonly unmatched: readonly UnmatchedFill[];
  /** Each cause's count and PnL, live's fills minus the backtest's. */
  readonly causes: readonly { readonly cause: UnmatchedCause; readonly live: number; readonly backtest: number; readonly pnlQuote: number }[];
  readonly distance: readonly DistanceRow[];
  readonly tolerance: MatchTolerance;
}

const HORIZONS_MS = [1_000, 10_000, 60_000] as const;
/** Bands of distance from the mid, bps (upper bounds; the last is open). */
const DISTANCE_BANDS_BPS = [1, 2, 5, 10, 20] as const;

function sign(side: Side): number {
  return side === 'buy' ? 1 : -1;
}

/** A fill's markout after `horizonMs`, bps of its price (positive: good for us). */
function markoutBps(fill: TraceFill, mids: MidSeries, horizonMs: number, endMs: number): number | undefined {
  if (fill.timeMs + horizonMs > endMs) return undefined;
  const mid = midAt(mids, fill.timeMs + horizonMs);
  return mid === undefined ? undefined : (sign(fill.side) * (mid - fill.price)) / fill.price * 10_000;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function figures(trace: SessionTrace, mids: MidSeries, endMs: number): SideFigures {
  const count = <T extends { side: Side }>(items: readonly T[]) => ({ buy: items.filter((item) => item.side === 'buy').length, sell: items.filter((item) => item.side === 'sell').length });
  const endMid = midAt(mids, endMs) ?? 0;
  let cash = 0;
  let position = 0;
  let spread = 0;
  let fees = 0;
  for (const fill of trace.fills) {
    cash -= sign(fill.side) * fill.price * fill.qty;
    position += sign(fill.side) * fill.qty;
    spread += sign(fill.side) * ((midAt(mids, fill.timeMs) ?? fill.price) - fill.price) * fill.qty;
    fees += fill.feeQuote;
  }
  const gross = cash + position * endMid;
  const markouts = HORIZONS_MS.map((horizon) => mean(trace.fills.map((fill) => markoutBps(fill, mids, horizon, endMs)).filter((value): value is number => value !== undefined)));
  const acks = [...trace.ackLatenciesMs].sort((a, b) => a - b);
  return {
    orders: count(trace.orders),
    fills: count(trace.fills),
    volumeBase: trace.fills.reduce((sum, fill) => sum + fill.qty, 0),
    pnl: { total: gross - fees, spread, inventory: gross - spread, fees },
    markoutsBps: { '1s': markouts[0] ?? null, '10s': markouts[1] ?? null, '60s': markouts[2] ?? null },
    ordersPerFill: trace.fills.length === 0 ? null : trace.orders.length / trace.fills.length,
    medianAckMs: acks.length === 0 ? null : (acks[Math.floor(acks.length / 2)] as number),
  };
}

/** What one fill meant to its side's PnL: its markout at 60 s (or the session's end), quote tokens, net of its fee. */
function fillPnl(fill: TraceFill, mids: MidSeries, endMs: number): number {
  const mid = midAt(mids, Math.min(fill.timeMs + 60_000, endMs)) ?? fill.price;
  return sign(fill.side) * (mid - fill.price) * fill.qty - fill.feeQuote;
}

/**
 * Matches fills one to one: for each fill of the live side in time order, the backtest's fill of
 * the same side within the tolerance whose time is nearest (each used once).
 */
function matchFills(live: readonly TraceFill[], backtest: readonly TraceFill[], tolerance: MatchTolerance): Map<number, number> {
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  const priceTolerance = tolerance.ticks * tolerance.tick + tolerance.tick * 1e-6;
  live.forEach((fill, i) => {
    let best: number | undefined;
    let bestGap = Number.POSITIVE_INFINITY;
    backtest.forEach((other, j) => {
      if (taken.has(j) || other.side !== fill.side || Math.abs(other.price - fill.price) > priceTolerance) return;
      const gap = Math.abs(other.timeMs - fill.timeMs);
      if (gap <= tolerance.timeMs && gap < bestGap) {
        best = j;
        bestGap = gap;
      }
    });
    if (best !== undefined) {
      pairs.set(i, best);
      taken.add(best);
    }
  });
  return pairs;
}

/** The cause of a fill the other side does not have, read from the other side's orders. */
function causeOf(fill: TraceFill, others: readonly TraceOrder[], otherEndMs: number, tolerance: MatchTolerance): { cause: UnmatchedCause; offsetMs?: number } {
  const priceTolerance = tolerance.ticks * tolerance.tick + tolerance.tick * 1e-6;
  const atPrice = others.filter((order) => order.side === fill.side && order.accepted && Math.abs(order.price - fill.price) <= priceTolerance);
  const resting = atPrice.find((order) => (order.ackMs ?? order.sentMs) <= fill.timeMs && fill.timeMs <= (order.doneMs ?? otherEndMs));
  if (resting !== undefined) return { cause: 'queue-position' };
  let nearest: number | undefined;
  for (const order of atPrice) {
    const from = order.ackMs ?? order.sentMs;
    const to = order.doneMs ?? otherEndMs;
    const gap = fill.timeMs < from ? from - fill.timeMs : fill.timeMs - to;
    if (nearest === undefined || Math.abs(gap) < Math.abs(nearest)) nearest = fill.timeMs < from ? from - fill.timeMs : -(fill.timeMs - to);
  }
  if (nearest !== undefined && Math.abs(nearest) <= tolerance.timeMs) return { cause: 'latency', offsetMs: nearest };
  // Quoting within a tick or two of it, but never at it: the price the other side computed was another.
  const near = others.some((order) => order.side === fill.side && Math.abs(order.price - fill.price) <= priceTolerance + 2 * tolerance.tick && (order.ackMs ?? order.sentMs) <= fill.timeMs && fill.timeMs <= (order.doneMs ?? otherEndMs));
  return { cause: near ? 'fees' : 'unseen' };
}

function distanceRows(live: SessionTrace, backtest: SessionTrace, mids: MidSeries): DistanceRow[] {
  const band = (order: TraceOrder): number => {
    const mid = midAt(mids, order.sentMs);
    if (mid === undefined) return DISTANCE_BANDS_BPS.length;
    const bps = (Math.abs(order.price - mid) / mid) * 10_000;
    const index = DISTANCE_BANDS_BPS.findIndex((upper) => bps < upper);
    return index === -1 ? DISTANCE_BANDS_BPS.length : index;
  };
  const tally = (trace: SessionTrace): { orders: number; filled: number }[] => {
    const filled = new Set(trace.fills.map((fill) => fill.orderId));
    const rows = Array.from({ length: DISTANCE_BANDS_BPS.length + 1 }, () => ({ orders: 0, filled: 0 }));
    for (const order of trace.orders) {
      if (!order.accepted) continue;
      const row = rows[band(order)] as { orders: number; filled: number };
      row.orders++;
      if (filled.has(order.orderId)) row.filled++;
    }
    return rows;
  };
  const [a, b] = [tally(live), tally(backtest)];
  return a.map((row, i) => ({
    label: i === DISTANCE_BANDS_BPS.length ? `≥ ${DISTANCE_BANDS_BPS[i - 1]} bps` : `${i === 0 ? 0 : DISTANCE_BANDS_BPS[i - 1]}–${DISTANCE_BANDS_BPS[i]} bps`,
    live: row,
    backtest: b[i] as { orders: number; filled: number },
  }));
}

/** Compares a session with its backtest over the recording's mids. */
export function compareSessions(live: SessionTrace, backtest: SessionTrace, mids: MidSeries, tolerance: MatchTolerance): ParityComparison {
  const startMs = live.startMs;
  const endMs = live.endMs;
  const pairs = matchFills(live.fills, backtest.fills, tolerance);
  const matchedBacktest = new Set(pairs.values());
  const unmatched: UnmatchedFill[] = [];
  live.fills.forEach((fill, i) => {
    if (pairs.has(i)) return;
    unmatched.push({ side: 'live', fill, ...causeOf(fill, backtest.orders, backtest.endMs, tolerance), pnlQuote: fillPnl(fill, mids, endMs) });
  });
  backtest.fills.forEach((fill, j) => {
    if (matchedBacktest.has(j)) return;
    unmatched.push({ side: 'backtest', fill, ...causeOf(fill, live.orders, live.endMs, tolerance), pnlQuote: fillPnl(fill, mids, endMs) });
  });
  unmatched.sort((a, b) => a.fill.timeMs - b.fill.timeMs);
  const offsets = [...pairs].map(([i, j]) => ({ live: live.fills[i] as TraceFill, backtest: backtest.fills[j] as TraceFill }));
  const causes = (['latency', 'queue-position', 'fees', 'unseen'] as const).map((cause) => {
    const of = unmatched.filter((entry) => entry.cause === cause);
    return {
      cause,
      live: of.filter((entry) => entry.side === 'live').length,
      backtest: of.filter((entry) => entry.side === 'backtest').length,
      pnlQuote: of.reduce((sum, entry) => sum + (entry.side === 'live' ? entry.pnlQuote : -entry.pnlQuote), 0),
    };
  });
  return {
    pair: live.pair,
    startMs,
    endMs,
    live: figures(live, mids, endMs),
    backtest: figures(backtest, mids, endMs),
    matched: pairs.size,
    matchedShare: { live: live.fills.length === 0 ? null : pairs.size / live.fills.length, backtest: backtest.fills.length === 0 ? null : pairs.size / backtest.fills.length },
    matchedOffset: {
      meanMs: mean(offsets.map((pair) => Math.abs(pair.live.timeMs - pair.backtest.timeMs))),
      meanTicks: mean(offsets.map((pair) => Math.abs(pair.live.price - pair.backtest.price) / tolerance.tick)),
    },
    matchedFeeDifference: offsets.reduce((sum, pair) => sum + pair.live.feeQuote - pair.backtest.feeQuote, 0),
    unmatched,
    causes,
    distance: distanceRows(live, backtest, mids),
    tolerance,
  };
}
