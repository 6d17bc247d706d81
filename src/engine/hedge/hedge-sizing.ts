/**
 * What to send for what is uncovered, as one pure function: the side, the quantity (the hedge
 * venue's step, rounded towards zero so a hedge never moves more than is uncovered: a buy is sized
 * so that what it receives after the fee taken in base stays within it), the venue's minimums
 * (below them the amount is dust: kept and shown, hedged once more joins it), what the hedge
 * account can pay, and for an IOC the worst price it accepts: the hedge book walked for the size,
 * plus the slippage allowance.
 */
import { fitHedgeQuantity, notionalOf, numberToUnits, roundLimitPrice, walkLevels, type HedgeBalances, type HedgeOrderType, type HedgeRules, type ReferenceLevel, type Side } from '../../core/index.ts';
import { pairToVenue, venueToPair, type UnitScale } from './exposure.ts';

/** Everything the sizing reads. */
export interface HedgeSizingInput {
  /** Uncovered once open hedges fill, quoted-pair base units (positive: sell on the hedge venue). */
  readonly toHedgeUnits: bigint;
  readonly scale: UnitScale;
  readonly rules: HedgeRules;
  /** The hedge book in the venue's own prices, best first; undefined when there is none. */
  readonly book: { readonly bids: readonly ReferenceLevel[]; readonly asks: readonly ReferenceLevel[] } | undefined;
  /** Taker fee as parts per 10^8 (0.001 = 100 000). */
  readonly feeE8: bigint;
  readonly orderType: HedgeOrderType;
  readonly iocSlippageBps: number;
  /** Free balances; undefined = not known (not checked). */
  readonly balances: HedgeBalances | undefined;
}

/** The decision. */
export type HedgePlan =
  | { readonly kind: 'none' }
  /** Below the venue's minimum lot or notional: kept, not sent. */
  | { readonly kind: 'dust'; readonly units: bigint; readonly reason: string }
  /** Cannot be sent: no hedge book to price it, or no balance to pay for it. */
  | { readonly kind: 'blocked'; readonly reason: 'no-book' | 'balance-short'; readonly detail: string }
  | {
      readonly kind: 'order';
      readonly side: Side;
      readonly qtyVenueUnits: bigint;
      /** What it moves when it fills, quoted-pair base units (signed). */
      readonly expectedUnits: bigint;
      readonly type: HedgeOrderType;
      readonly limitPriceUnits: bigint | undefined;
      /** The touch the decision was taken at (venue quote units), for slippage. */
      readonly referencePriceUnits: bigint;
    };

const E8 = 100_000_000n;

/** Base a buy of `qty` receives after the fee taken in base, rounded as the venue charges (fee up). */
function receivedAfterFee(qty: bigint, feeE8: bigint): bigint {
  return qty - (qty * feeE8 + E8 - 1n) / E8;
}

/** The hedge for `input`, or why there is none. */
export function planHedge(input: HedgeSizingInput): HedgePlan {
  const { toHedgeUnits: target, rules, scale } = input;
  if (target === 0n) return { kind: 'none' };
  const side: Side = target > 0n ? 'sell' : 'buy';
  const wanted = pairToVenue(target < 0n ? -target : target, scale);
  const levels = side === 'sell' ? input.book?.bids : input.book?.asks;
  const touch = levels?.[0]?.price;
  if (levels === undefined || touch === undefined) return { kind: 'blocked', reason: 'no-book', detail: 'the hedge book has no price on that side' };
  let qty = side === 'sell' ? wanted : (wanted * E8) / (E8 - input.feeE8);
  const walk = walkLevels(levels, 0, Number(qty) / 10 ** rules.baseDecimals);
  const averageUnits = numberToUnits(walk.averagePrice ?? touch, rules.quoteDecimals, 'down');
  let fit = fitHedgeQuantity(qty, averageUnits, rules, input.orderType);
  if (fit.kind !== 'ok') return { kind: 'dust', units: target, reason: fit.reason };
  qty = fit.qtyUnits;
  if (side === 'buy') {
    while (qty > 0n && receivedAfterFee(qty, input.feeE8) > wanted) qty -= stepOf(rules, input.orderType);
  }
  const worst = walk.worstPrice ?? touch;
  const slippage = 1 + (side === 'buy' ? 1 : -1) * (input.iocSlippageBps / 10_000);
  const limitPriceUnits = input.orderType === 'ioc' ? roundLimitPrice(numberToUnits(worst * slippage, rules.quoteDecimals, side === 'buy' ? 'up' : 'down'), side, rules) : undefined;
  const balances = input.balances;
  if (balances !== undefined) {
    const price = limitPriceUnits ?? numberToUnits(worst * (side === 'buy' ? 1.01 : 1), rules.quoteDecimals, 'up');
    const affordable = side === 'sell' ? balances.baseFree : (balances.quoteFree * 10n ** BigInt(rules.baseDecimals)) / (price > 0n ? price : 1n);
    if (qty > affordable) {
      fit = fitHedgeQuantity(affordable, averageUnits, rules, input.orderType);
      if (fit.kind !== 'ok') return { kind: 'blocked', reason: 'balance-short', detail: `the hedge account holds ${side === 'sell' ? `${balances.baseFree} ${rules.base}` : `${balances.quoteFree} ${rules.quote}`} units, not enough for the smallest hedge` };
      qty = fit.qtyUnits;
    }
  }
  if (qty <= 0n || (input.orderType === 'ioc' && notionalOf(qty, averageUnits, rules) < rules.minNotional)) return { kind: 'dust', units: target, reason: 'below the minimum after the fee' };
  const expectedUnits = side === 'sell' ? -venueToPair(qty, scale) : venueToPair(receivedAfterFee(qty, input.feeE8), scale);
  return { kind: 'order', side, qtyVenueUnits: qty, expectedUnits, type: input.orderType, limitPriceUnits, referencePriceUnits: numberToUnits(touch, rules.quoteDecimals, 'down') };
}

function stepOf(rules: HedgeRules, type: HedgeOrderType): bigint {
  return type === 'market' && rules.marketStep > 0n ? rules.marketStep : rules.lotStep;
}
