/**
 * The settlement check (issue 31 item 4): each fill of ours matched to a `Trade` event of the
 * chain by order hash, amounts and side, one to one. A pure function of the two lists.
 *
 * - settled: matched in a succeeded rollup; its lag is the block's time minus the fill's.
 * - failed: matched, but the event says `is_failed` (BaseTradeComponent.cairo's failed-trade path).
 * - altered: a Trade event of the same order whose amounts or side differ from the fill.
 * - missing: no event; `unsettled` when older than the deadline (the alert), else `pending`.
 * - foreign: a Trade event naming our account whose order hash none of our fills has.
 *
 * Fees are not in the Trade event (the contract computes them from the signed order): they are
 * checked through balances, not here.
 */
import type { Side } from '../../core/index.ts';
import type { ChainTrade } from './trades.ts';

/** One fill as our journal has it. */
export interface OurFill {
  readonly orderHash: bigint;
  readonly side: Side;
  readonly baseUnits: bigint;
  readonly quoteUnits: bigint;
  readonly isMaker: boolean;
  readonly timeMs: number;
}

/** One finding. */
export type SettlementFinding =
  | { readonly kind: 'settled'; readonly fill: OurFill; readonly trade: ChainTrade; readonly lagMs: number }
  | { readonly kind: 'failed'; readonly fill: OurFill; readonly trade: ChainTrade }
  | { readonly kind: 'altered'; readonly fill: OurFill; readonly trade: ChainTrade; readonly why: string }
  | { readonly kind: 'pending'; readonly fill: OurFill; readonly ageMs: number }
  | { readonly kind: 'unsettled'; readonly fill: OurFill; readonly ageMs: number }
  | { readonly kind: 'foreign'; readonly trade: ChainTrade };

/** The check's result. */
export interface SettlementReport {
  readonly findings: readonly SettlementFinding[];
  readonly counts: Readonly<Record<SettlementFinding['kind'], number>>;
  /** Largest lag of a settled fill (ms); 0 when none. */
  readonly maxLagMs: number;
  /** Nothing but settled and pending fills. */
  readonly clean: boolean;
}

function ourSide(trade: ChainTrade, account: bigint, hash: bigint): { readonly isMaker: boolean; readonly side: Side } {
  const isMaker = trade.maker === account && trade.makerHash === hash;
  const makerSide: Side = trade.isMakerSell ? 'sell' : 'buy';
  return { isMaker, side: isMaker ? makerSide : makerSide === 'sell' ? 'buy' : 'sell' };
}

function hashesOf(trade: ChainTrade, account: bigint): bigint[] {
  const hashes: bigint[] = [];
  if (trade.maker === account) hashes.push(trade.makerHash);
  if (trade.taker === account) hashes.push(trade.takerHash);
  return hashes;
}

/**
 * Matches `fills` to `trades` of `account` at `nowMs`; a missing fill older than `deadlineMs` is
 * unsettled.
 */
export function checkSettlement(account: bigint, fills: readonly OurFill[], trades: readonly ChainTrade[], nowMs: number, deadlineMs: number): SettlementReport {
  const unused = new Set(trades);
  const findings: SettlementFinding[] = [];
  const ours = new Set(fills.map((fill) => fill.orderHash));
  for (const fill of fills) {
    const candidates = [...unused].filter((trade) => hashesOf(trade, account).includes(fill.orderHash));
    const exact = candidates.find((trade) => {
      const { side } = ourSide(trade, account, fill.orderHash);
      return trade.amountBase === fill.baseUnits && trade.amountQuote === fill.quoteUnits && side === fill.side;
    });
    if (exact !== undefined) {
      unused.delete(exact);
      findings.push(exact.isFailed ? { kind: 'failed', fill, trade: exact } : { kind: 'settled', fill, trade: exact, lagMs: Math.max(0, exact.blockTimestampSec * 1000 - fill.timeMs) });
      continue;
    }
    const other = candidates[0];
    if (other !== undefined) {
      unused.delete(other);
      const { side } = ourSide(other, account, fill.orderHash);
      findings.push({ kind: 'altered', fill, trade: other, why: `chain: ${side} ${other.amountBase} base for ${other.amountQuote} quote; ours: ${fill.side} ${fill.baseUnits} for ${fill.quoteUnits}` });
      continue;
    }
    const ageMs = nowMs - fill.timeMs;
    findings.push({ kind: ageMs > deadlineMs ? 'unsettled' : 'pending', fill, ageMs });
  }
  for (const trade of unused) if (!hashesOf(trade, account).some((hash) => ours.has(hash))) findings.push({ kind: 'foreign', trade });
  const counts = { settled: 0, failed: 0, altered: 0, pending: 0, unsettled: 0, foreign: 0 };
  let maxLagMs = 0;
  for (const finding of findings) {
    counts[finding.kind]++;
    if (finding.kind === 'settled') maxLagMs = Math.max(maxLagMs, finding.lagMs);
  }
  return { findings, counts, maxLagMs, clean: counts.failed + counts.altered + counts.unsettled + counts.foreign === 0 };
}
