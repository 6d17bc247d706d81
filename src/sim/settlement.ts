/**
 * Moving the money of one fill (SPEC §5): the buyer pays quote, the seller pays base, each pays
 * its trade fee (ceil, pbips of its role) on the received amount or on the spent amount as its
 * order says, and the taker pays gas in its fee token. Everything goes through the ledger, whose
 * moves are checked one by one, so a fill either moves money correctly or stops on an invariant.
 */
import type { Ledger } from './ledger.ts';
import { feeOf, receiveToken, requiredSpend, spendToken, type SimOrder } from './orders.ts';

/** One fill's amounts: `base` units traded at `price`, worth `quote`. */
export interface FillAmounts {
  readonly price: bigint;
  readonly base: bigint;
  readonly quote: bigint;
}

type Role = 'maker' | 'taker';

function rolePbips(order: SimOrder, role: Role): number {
  const fee = order.request.fee.tradeFee;
  return role === 'maker' ? fee.makerPbips : fee.takerPbips;
}

interface PartyCharge {
  readonly spent: bigint;
  readonly received: bigint;
  readonly feeOnSpend: bigint;
  readonly feeOnReceipt: bigint;
}

function chargeOf(order: SimOrder, role: Role, fill: FillAmounts): PartyCharge {
  const spent = order.side === 'buy' ? fill.quote : fill.base;
  const received = order.side === 'buy' ? fill.base : fill.quote;
  const pbips = rolePbips(order, role);
  const onReceipt = order.request.fee.applyToReceiptAmount;
  return {
    spent,
    received,
    feeOnSpend: onReceipt ? 0n : feeOf(spent, pbips),
    feeOnReceipt: onReceipt ? feeOf(received, pbips) : 0n,
  };
}

/** Why a fill cannot be settled, if it cannot. */
export type SettleBlock = 'maker-funds' | 'taker-funds' | 'gas-cost';

/**
 * Checks that both sides can pay this fill and the taker its `gas` (fee-token units) before any
 * money moves, so a fill is all or nothing.
 */
export function checkFill(ledger: Ledger, taker: SimOrder, maker: SimOrder, fill: FillAmounts, gas: bigint): SettleBlock | undefined {
  const makerCharge = chargeOf(maker, 'maker', fill);
  const makerNeed = makerCharge.spent + makerCharge.feeOnSpend - maker.lockedSpend;
  if (makerNeed > 0n && ledger.get(maker.account, spendToken(maker)).free < makerNeed) return 'maker-funds';
  const takerCharge = chargeOf(taker, 'taker', fill);
  const feeToken = taker.request.fee.gasFee.feeToken.symbol;
  let spendNeed = takerCharge.spent + takerCharge.feeOnSpend - taker.lockedSpend;
  if (spendNeed < 0n) spendNeed = 0n;
  if (feeToken === receiveToken(taker)) {
    if (gas > takerCharge.received - takerCharge.feeOnReceipt) return 'gas-cost';
  } else {
    const gasNeed = gas > taker.lockedGas ? gas - taker.lockedGas : 0n;
    if (feeToken === spendToken(taker)) spendNeed += gasNeed;
    else if (gasNeed > 0n && ledger.get(taker.account, feeToken).free < gasNeed) return 'taker-funds';
  }
  if (spendNeed > 0n && ledger.get(taker.account, spendToken(taker)).free < spendNeed) return 'taker-funds';
  return undefined;
}

/** Pays `amount` of the order's spend token: from its lock first, then from free balance. */
function paySpend(ledger: Ledger, order: SimOrder, amount: bigint, to: bigint | 'fees'): void {
  const token = spendToken(order);
  const fromLock = amount < order.lockedSpend ? amount : order.lockedSpend;
  const fromFree = amount - fromLock;
  order.lockedSpend -= fromLock;
  for (const [part, value] of [['locked', fromLock], ['free', fromFree]] as const) {
    if (value === 0n) continue;
    if (to === 'fees') ledger.collect(order.account, part, 'fees', token, value);
    else ledger.transfer(order.account, part, to, token, value);
  }
}

function payGas(ledger: Ledger, taker: SimOrder, gas: bigint): void {
  if (gas === 0n) return;
  const token = taker.request.fee.gasFee.feeToken.symbol;
  if (token === receiveToken(taker)) {
    ledger.collect(taker.account, 'free', 'gas', token, gas);
    return;
  }
  const fromLock = gas < taker.lockedGas ? gas : taker.lockedGas;
  taker.lockedGas -= fromLock;
  if (fromLock > 0n) ledger.collect(taker.account, 'locked', 'gas', token, fromLock);
  if (gas > fromLock) ledger.collect(taker.account, 'free', 'gas', token, gas - fromLock);
}

function settleParty(ledger: Ledger, order: SimOrder, role: Role, counterparty: SimOrder, fill: FillAmounts): void {
  const charge = chargeOf(order, role, fill);
  paySpend(ledger, order, charge.spent, counterparty.account);
  if (charge.feeOnSpend > 0n) paySpend(ledger, order, charge.feeOnSpend, 'fees');
  const fee = charge.feeOnSpend + charge.feeOnReceipt;
  if (role === 'maker') order.paidFeeAsMaker += fee;
  else order.paidFeeAsTaker += fee;
  order.filledBase += fill.base;
  order.filledQuote += fill.quote;
}

function collectReceiptFee(ledger: Ledger, order: SimOrder, role: Role, fill: FillAmounts): void {
  const charge = chargeOf(order, role, fill);
  if (charge.feeOnReceipt > 0n) ledger.collect(order.account, 'free', 'fees', receiveToken(order), charge.feeOnReceipt);
}

/** Settles a fill already checked with {@link checkFill}, then re-sizes both orders' locks. */
export function settleFill(ledger: Ledger, taker: SimOrder, maker: SimOrder, fill: FillAmounts, gas: bigint): void {
  settleParty(ledger, maker, 'maker', taker, fill);
  settleParty(ledger, taker, 'taker', maker, fill);
  // Receipt fees come out of what each side has just been credited.
  collectReceiptFee(ledger, maker, 'maker', fill);
  collectReceiptFee(ledger, taker, 'taker', fill);
  payGas(ledger, taker, gas);
  taker.gasPaid += gas;
  taker.swaps += 1;
  resizeLock(ledger, maker);
  resizeLock(ledger, taker);
}

/**
 * Keeps an order's lock equal to what the rest of it needs: the excess goes back to free balance;
 * a shortfall (fee rounding on spent amounts can leave one unit) is topped up from free balance
 * as far as it goes, and the next fill's check catches the rest.
 */
export function resizeLock(ledger: Ledger, order: SimOrder): void {
  const token = spendToken(order);
  const required = requiredSpend(order);
  if (order.lockedSpend > required) {
    ledger.unlock(order.account, token, order.lockedSpend - required);
    order.lockedSpend = required;
  } else if (order.lockedSpend < required) {
    const free = ledger.get(order.account, token).free;
    const more = required - order.lockedSpend < free ? required - order.lockedSpend : free;
    if (more > 0n && ledger.tryLock(order.account, token, more)) order.lockedSpend += more;
  }
}

/** Returns everything an order still holds to the account's free balance. */
export function releaseOrder(ledger: Ledger, order: SimOrder): void {
  if (order.lockedSpend > 0n) ledger.unlock(order.account, spendToken(order), order.lockedSpend);
  order.lockedSpend = 0n;
  releaseGas(ledger, order);
}

/** Returns an order's taker-gas hold (when it starts resting, or finishes). */
export function releaseGas(ledger: Ledger, order: SimOrder): void {
  if (order.lockedGas > 0n) ledger.unlock(order.account, order.request.fee.gasFee.feeToken.symbol, order.lockedGas);
  order.lockedGas = 0n;
}
