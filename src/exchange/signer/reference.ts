/**
 * The same requests as starknet.js typed data, hashed by stock `typedData.getMessageHash`. This is
 * the slow reference our fast hasher is tested against, and the baseline of the `sign.order`
 * benchmark; nothing on the hot path uses it.
 */
import { typedData, type TypedData } from 'starknet';
import type { ChainInfo } from '../../core/index.ts';
import { feltToHex } from '../wire/fields.ts';
import type {
  CancelAllRequest,
  CancelRequest,
  FixedFee,
  GasFee,
  IncreaseNonceRequest,
  OrderRequest,
  WithdrawRequest,
} from '../wire/requests.ts';
import { ORDER_FLAG_KEYS } from '../wire/requests.ts';
import { TYPES } from './types.ts';

const U128 = 2n ** 128n;

function starknetTypes(names: readonly string[]): TypedData['types'] {
  const types: TypedData['types'] = {};
  for (const name of ['StarkNetDomain', ...names]) {
    types[name] = (TYPES[name] ?? []).map(([member, type]) => ({ name: member, type }));
  }
  return types;
}

function domain(chain: ChainInfo): TypedData['domain'] {
  return { name: 'LayerAkira Exchange', version: '0.0.1', chainId: chain.chainId };
}

const u256 = (value: bigint): Record<string, string> => ({ low: (value % U128).toString(), high: (value / U128).toString() });

const fixedFee = (fee: FixedFee): Record<string, unknown> => ({
  recipient: feltToHex(fee.recipient),
  maker_pbips: fee.makerPbips,
  taker_pbips: fee.takerPbips,
});

const gasFee = (gas: GasFee): Record<string, unknown> => ({
  gas_per_action: gas.gasPerAction,
  fee_token: gas.feeToken.address,
  max_gas_price: u256(gas.maxGasPrice),
  r0: u256(gas.conversionRate[0]),
  r1: u256(gas.conversionRate[1]),
});

/** starknet.js typed data of an order. */
export function orderTypedData(order: OrderRequest, chain: ChainInfo): TypedData {
  const flags: Record<string, boolean> = {};
  for (const [wire, name] of ORDER_FLAG_KEYS) flags[wire] = order.flags[name];
  const c = order.constraints;
  return {
    types: starknetTypes(['u256', 'GasFee', 'FixedFee', 'OrderFee', 'Quantity', 'Constraints', 'OrderFlags', 'Order']),
    primaryType: 'Order',
    domain: domain(chain),
    message: {
      maker: feltToHex(order.maker),
      price: u256(order.price),
      qty: { base_qty: u256(order.baseQty), quote_qty: u256(order.quoteQty), base_asset: u256(10n ** BigInt(order.base.decimals)) },
      base: order.base.address,
      quote: order.quote.address,
      fee: {
        trade_fee: fixedFee(order.fee.tradeFee),
        router_fee: fixedFee(order.fee.routerFee),
        integrator_fee: fixedFee(order.fee.integratorFee),
        apply_to_receipt_amount: order.fee.applyToReceiptAmount,
        gas_fee: gasFee(order.fee.gasFee),
      },
      constraints: {
        number_of_swaps_allowed: c.numberOfSwapsAllowed,
        duration_valid: c.durationValid,
        created_at: c.createdAt,
        stp: c.stp,
        nonce: c.nonce,
        min_receive_amount: u256(c.minReceiveAmount),
        router_signer: feltToHex(c.routerSigner),
      },
      salt: order.salt.toString(),
      flags,
      exchange: chain.executorAddress,
      source: order.source,
      sign_scheme: order.signScheme,
    },
  };
}

/** Stock starknet.js message hash of an order. */
export function referenceOrderHash(order: OrderRequest, chain: ChainInfo): bigint {
  return BigInt(typedData.getMessageHash(orderTypedData(order, chain), feltToHex(order.maker)));
}

function messageHash(chain: ChainInfo, names: string[], primaryType: string, message: Record<string, unknown>, account: bigint): bigint {
  const data: TypedData = { types: starknetTypes(names), primaryType, domain: domain(chain), message };
  return BigInt(typedData.getMessageHash(data, feltToHex(account)));
}

export function referenceCancelHash(cancel: CancelRequest, chain: ChainInfo): bigint {
  return messageHash(chain, ['CancelOrder'], 'CancelOrder', {
    maker: feltToHex(cancel.maker),
    order_hash: feltToHex(cancel.orderHash),
    salt: cancel.salt.toString(),
    sign_scheme: cancel.signScheme,
  }, cancel.maker);
}

export function referenceCancelAllHash(cancel: CancelAllRequest, chain: ChainInfo): bigint {
  return messageHash(chain, ['Ticker', 'CancelAllOrders'], 'CancelAllOrders', {
    maker: feltToHex(cancel.maker),
    salt: cancel.salt.toString(),
    ticker: { base: cancel.base.address, quote: cancel.quote.address, to_ecosystem_book: cancel.toEcosystemBook },
    sign_scheme: cancel.signScheme,
  }, cancel.maker);
}

export function referenceWithdrawHash(withdraw: WithdrawRequest, chain: ChainInfo): bigint {
  return messageHash(chain, ['u256', 'GasFee', 'Withdraw'], 'Withdraw', {
    maker: feltToHex(withdraw.maker),
    token: withdraw.token.address,
    amount: u256(withdraw.amount),
    salt: withdraw.salt.toString(),
    gas_fee: gasFee(withdraw.gasFee),
    receiver: feltToHex(withdraw.receiver),
    exchange: chain.coreAddress,
    sign_scheme: withdraw.signScheme,
  }, withdraw.maker);
}

export function referenceIncreaseNonceHash(request: IncreaseNonceRequest, chain: ChainInfo): bigint {
  return messageHash(chain, ['u256', 'GasFee', 'OnchainCancelAll'], 'OnchainCancelAll', {
    maker: feltToHex(request.maker),
    new_nonce: request.newNonce,
    gas_fee: gasFee(request.gasFee),
    sign_scheme: request.signScheme,
  }, request.maker);
}

export function referenceLoginHash(account: bigint, challenge: bigint, chain: ChainInfo): bigint {
  return messageHash(chain, ['Message'], 'Message', {
    welcome: 'Sign in to LayerAkira',
    to: '\tChallenge:',
    exchange: challenge.toString(),
  }, account);
}
