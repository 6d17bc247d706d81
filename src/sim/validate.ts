/**
 * The checks a request must pass before it is queued that need no account state: pair, flags,
 * ticks and lots, fee recipient and pbips, gas fields, timestamps (REFERENCE §4 names, SPEC §5).
 * Each failure names the field and what the venue expected, so the user can fix it.
 */
import type { ChainInfo } from '../core/index.ts';
import { formatUnits } from '../core/index.ts';
import type { GasFee, OrderRequest } from '../exchange/wire/requests.ts';
import { reject } from './errors.ts';
import { marketKey, type Market } from './markets.ts';
import type { SimSettings } from './settings.ts';

/** What the checks read from the venue. */
export interface ValidationContext {
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly markets: ReadonlyMap<string, Market>;
  readonly nowMs: number;
  readonly gasPriceFri: bigint;
  /** The venue's own [r0 STRK, r1 token] rate in base units, or undefined for a token it cannot price. */
  conversionRate(token: string): readonly [bigint, bigint] | undefined;
}

/** The only signature scheme the sim verifies (SPEC §3: "account" is out of scope). */
export const SUPPORTED_SIGN_SCHEME = 'ecdsa curve';

/** Refuses sign schemes the sim cannot verify. */
export function checkSignScheme(scheme: string): void {
  if (scheme !== SUPPORTED_SIGN_SCHEME) {
    throw reject('WRONG_INPUT', `sign_scheme "${scheme}" is not supported here; use "${SUPPORTED_SIGN_SCHEME}"`);
  }
}

/** Steps a trade in this book costs (SPEC §5). */
export function tradeSteps(settings: SimSettings, market: Market): number {
  return market.isEcosystemBook ? settings.steps.swapEcosystem : settings.steps.swapRouter;
}

/**
 * Gas fields of a gas-bearing action: enough steps, a max price at or above the current price,
 * a fee token the venue prices, and a conversion rate near the venue's own.
 */
export function checkGasFee(gas: GasFee, steps: number, context: ValidationContext, field: string): void {
  if (gas.gasPerAction < steps) {
    throw reject('WRONG_GAS_PER_ACTION', `${field}.gas_per_action ${gas.gasPerAction} is below the ${steps} steps this action costs`);
  }
  if (gas.maxGasPrice < context.gasPriceFri) {
    throw reject(
      'WRONG_MAX_GAS_PRICE',
      `${field}.max_gas_price ${formatUnits(gas.maxGasPrice, 18)} is below the current gas price ${formatUnits(context.gasPriceFri, 18)} STRK`,
    );
  }
  checkConversionRate(gas, context, field);
}

function checkConversionRate(gas: GasFee, context: ValidationContext, field: string): void {
  const token = gas.feeToken.symbol;
  if (token === context.chain.nativeGasToken) return;
  const ours = context.conversionRate(token);
  if (ours === undefined) throw reject('WRONG_FEE_TOKEN', `${field}.fee_token ${token} cannot pay gas here; use ${context.chain.nativeGasToken}`);
  const [r0, r1] = gas.conversionRate;
  if (r0 === 0n || r1 === 0n) throw reject('WRONG_CONVERSION_RATE', `${field}.conversion_rate has a zero term`);
  // A tolerance check, not money arithmetic: a float ratio of the two rates is precise enough.
  const theirs = Number((r1 * 10n ** 18n) / r0);
  const mine = Number((ours[1] * 10n ** 18n) / ours[0]);
  if (!(Math.abs(theirs / mine - 1) <= context.settings.conversionRateTolerance)) {
    throw reject(
      'WRONG_CONVERSION_RATE',
      `${field}.conversion_rate says 1 STRK = ${formatUnits(BigInt(Math.round(theirs)), 18)} base units of ${token} per 1e18; the venue's rate is ${formatUnits(BigInt(Math.round(mine)), 18)} (tolerance ${context.settings.conversionRateTolerance * 100}%)`,
    );
  }
}

/** The book an order goes to, or UNSUPPORTED_TRADED_PAIR. */
export function marketOf(order: OrderRequest, markets: ReadonlyMap<string, Market>): Market {
  const market = markets.get(marketKey(order.base.symbol, order.quote.symbol, order.flags.toEcosystemBook));
  if (market === undefined) {
    throw reject('UNSUPPORTED_TRADED_PAIR', `${order.base.symbol}/${order.quote.symbol} is not listed (${order.flags.toEcosystemBook ? 'ecosystem' : 'router'} book)`);
  }
  return market;
}

function checkFlags(order: OrderRequest, market: Market): void {
  const { flags } = order;
  if (flags.isMarketOrder && flags.postOnly) throw reject('WRONG_FLAGS_FOR_MARKET_ORDER', 'a market order cannot be post_only');
  if (!flags.isMarketOrder && flags.postOnly && (flags.bestLevelOnly || flags.fullFillOnly)) {
    throw reject('WRONG_FLAGS_FOR_LIMIT_ORDER', 'post_only excludes best_level_only and full_fill_only');
  }
  if (flags.externalFunds) {
    if (market.isEcosystemBook) throw reject('ECOSYSTEM_ORDER_ISSUE', 'external_funds orders cannot go to the ecosystem book');
    throw reject('WRONG_INPUT', 'external_funds (router takers with outside funds) is not supported by the embedded exchange');
  }
}

function checkAmounts(order: OrderRequest, market: Market): void {
  const { price, baseQty, quoteQty, flags } = order;
  if (price % market.priceTick !== 0n) {
    throw reject('WRONG_INPUT', `price ${formatUnits(price, market.quote.decimals)} is not a multiple of the tick ${formatUnits(market.priceTick, market.quote.decimals)}`);
  }
  if (!flags.isMarketOrder && price === 0n) throw reject('WRONG_INPUT', 'a limit order needs a price above 0');
  if (flags.isMarketOrder && !flags.isSellSide && price === 0n) {
    throw reject('WRONG_INPUT', 'a market buy needs a protection price above 0');
  }
  if (baseQty === 0n && quoteQty === 0n) throw reject('WRONG_INPUT', 'qty.base_qty and qty.quote_qty are both 0');
  if (!flags.isMarketOrder && baseQty === 0n) throw reject('WRONG_INPUT', 'a limit order needs qty.base_qty');
  if (baseQty > 0n) {
    const decimals = market.base.decimals;
    if (baseQty % market.qtyStep !== 0n) {
      throw reject('WRONG_INPUT', `qty.base_qty ${formatUnits(baseQty, decimals)} is not a multiple of the step ${formatUnits(market.qtyStep, decimals)}`);
    }
    if (baseQty < market.minQty) {
      throw reject('WRONG_INPUT', `qty.base_qty ${formatUnits(baseQty, decimals)} is below the minimum ${formatUnits(market.minQty, decimals)}`);
    }
  }
}

function checkTradeFee(order: OrderRequest, context: ValidationContext): void {
  const fee = order.fee.tradeFee;
  if (fee.recipient !== BigInt(context.chain.feeRecipient)) {
    throw reject('WRONG_FEE_RECIPIENT', `fee.trade_fee.recipient must be ${context.chain.feeRecipient}`);
  }
  const { makerPbips, takerPbips } = context.settings;
  if (fee.makerPbips !== makerPbips || fee.takerPbips !== takerPbips) {
    throw reject('WRONG_PBIPS', `fee.trade_fee pbips must be maker ${makerPbips}, taker ${takerPbips} (see /user/user_info fees)`);
  }
}

function checkTimestamps(order: OrderRequest, context: ValidationContext): void {
  const { createdAt, durationValid } = order.constraints;
  const nowSec = context.nowMs / 1000;
  if (createdAt > nowSec + context.settings.maxClockAheadSec) {
    throw reject('WRONG_TIMESTAMP', `constraints.created_at ${createdAt} is ahead of the venue clock ${Math.floor(nowSec)}; check your clock`);
  }
  if ((createdAt + durationValid) * 1000 <= context.nowMs) {
    throw reject('STALE_ORDER', `the order expired at ${createdAt + durationValid} (created_at + duration_valid); now ${Math.floor(nowSec)}`);
  }
  if (createdAt < nowSec - context.settings.maxClockBehindSec) {
    throw reject('WRONG_TIMESTAMP', `constraints.created_at ${createdAt} is more than ${context.settings.maxClockBehindSec} s behind the venue clock ${Math.floor(nowSec)}`);
  }
}

/**
 * Every state-free check of an order; returns its book.
 * @throws SimRejection with the first failing rule.
 */
export function checkOrderStatic(order: OrderRequest, context: ValidationContext): Market {
  checkSignScheme(order.signScheme);
  const market = marketOf(order, context.markets);
  checkFlags(order, market);
  checkAmounts(order, market);
  checkTradeFee(order, context);
  const steps = tradeSteps(context.settings, market);
  if (order.fee.gasFee.gasPerAction < steps) {
    throw reject('WRONG_GAS_PER_ACTION', `fee.gas_fee.gas_per_action ${order.fee.gasFee.gasPerAction} is below the ${steps} steps of a trade in this book`);
  }
  // Resting (post-only) orders never pay gas (REFERENCE §5), so only takers must price it right.
  if (!order.flags.postOnly) checkGasFee(order.fee.gasFee, steps, context, 'fee.gas_fee');
  checkTimestamps(order, context);
  return market;
}
