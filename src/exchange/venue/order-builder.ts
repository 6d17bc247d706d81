/**
 * An engine {@link OrderIntent} turned into the exact {@link OrderRequest} that is signed
 * (REFERENCE §2.2–2.3): our account as maker, the pair's tokens, the trade fee naming the
 * exchange's fee recipient from the chain table with our pbips from `/user/user_info` (SPEC §5),
 * the current gas fee, `created_at` from the injected clock, our nonce, a salt from the injected
 * RNG and `ORDER_TTL_S` as `duration_valid`. Pure: the same inputs give the same request.
 */
import { isValidPrice, isValidQuantity, type OrderIntent, type TickerRules, type TokenInfo } from '../../core/index.ts';
import type { GasFee, OrderRequest } from '../wire/requests.ts';

/** `source` of our orders (REFERENCE §2.4 short string). */
export const ORDER_SOURCE = 'layerakira';
/** The signature scheme the bot uses: ECDSA by the signer bound to the account (SPEC §3). */
export const SIGN_SCHEME = 'ecdsa curve';

/** Everything an order needs besides the intent. */
export interface OrderContext {
  readonly account: bigint;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly toEcosystemBook: boolean;
  readonly feeRecipient: bigint;
  readonly makerPbips: number;
  readonly takerPbips: number;
  readonly nonce: number;
  readonly gasFee: GasFee;
  readonly nowMs: number;
  /** duration_valid, s. */
  readonly ttlS: number;
  readonly salt: bigint;
}

/** Builds the unsigned order for an intent. */
export function buildOrderRequest(intent: OrderIntent, context: OrderContext): OrderRequest {
  const zeroFee = { recipient: 0n, makerPbips: 0, takerPbips: 0 };
  return {
    maker: context.account,
    price: intent.priceUnits,
    baseQty: intent.qtyUnits,
    // Orders are sized in base; quote_qty 0 means "no quote limit" (REFERENCE §5 matching rules).
    quoteQty: 0n,
    base: context.base,
    quote: context.quote,
    fee: {
      tradeFee: { recipient: context.feeRecipient, makerPbips: context.makerPbips, takerPbips: context.takerPbips },
      routerFee: zeroFee,
      integratorFee: zeroFee,
      applyToReceiptAmount: true,
      gasFee: context.gasFee,
    },
    constraints: {
      // Resting orders never take, so they need no swaps (JS buildSimpleRestingOrder); a
      // non-post-only order may cross several levels.
      numberOfSwapsAllowed: intent.postOnly ? 0 : 16,
      durationValid: context.ttlS,
      createdAt: Math.floor(context.nowMs / 1000),
      stp: 0,
      nonce: context.nonce,
      minReceiveAmount: 0n,
      routerSigner: 0n,
    },
    salt: context.salt,
    flags: {
      fullFillOnly: false,
      bestLevelOnly: false,
      postOnly: intent.postOnly,
      isSellSide: intent.side === 'sell',
      isMarketOrder: false,
      toEcosystemBook: context.toEcosystemBook,
      externalFunds: false,
    },
    source: ORDER_SOURCE,
    signScheme: SIGN_SCHEME,
  };
}

/** Why an intent breaks the ticker rules, or undefined when it is valid (checked before sending). */
export function intentProblem(intent: OrderIntent, rules: TickerRules): string | undefined {
  if (!isValidPrice(intent.priceUnits, rules)) return `price ${intent.priceUnits} is not a positive multiple of the tick ${rules.priceTick}`;
  if (!isValidQuantity(intent.qtyUnits, rules)) {
    return `quantity ${intent.qtyUnits} is not a multiple of ${rules.qtyStep} of at least ${rules.minQty}`;
  }
  return undefined;
}
