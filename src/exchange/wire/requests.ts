/**
 * The signed requests of SPEC §2–3 as exact values, and the two directions between them and the
 * JSON bodies that are POSTed (REFERENCE §2.3). The signer hashes these values, the client
 * formats them, and the embedded exchange parses them: so the hash a user computes from a body is
 * the hash the venue computes from the same body.
 */
import { formatUnits, type ChainInfo, type TokenInfo } from '../../core/index.ts';
import { FieldReader, WireError, addressToHex, tupleOf, parseFelt, parseAmount, type StarkSignature } from './fields.ts';

/** Decimals of `max_gas_price` and `conversion_rate[0]`: STRK, the gas token (REFERENCE §2.3). */
export const GAS_TOKEN_DECIMALS = 18;

export interface FixedFee {
  readonly recipient: bigint;
  readonly makerPbips: number;
  readonly takerPbips: number;
}

/** Gas a request may be charged, priced in `feeToken` through `conversionRate` (SPEC §5). */
export interface GasFee {
  readonly gasPerAction: number;
  readonly feeToken: TokenInfo;
  /** fri (STRK base units) per gas step. */
  readonly maxGasPrice: bigint;
  /** [r0, r1]: r0 STRK base units are worth r1 fee-token base units. */
  readonly conversionRate: readonly [bigint, bigint];
}

export interface OrderFee {
  readonly tradeFee: FixedFee;
  readonly routerFee: FixedFee;
  readonly integratorFee: FixedFee;
  readonly applyToReceiptAmount: boolean;
  readonly gasFee: GasFee;
}

export interface OrderConstraints {
  readonly numberOfSwapsAllowed: number;
  /** Seconds the order stays valid after `createdAt`. */
  readonly durationValid: number;
  /** Epoch seconds. */
  readonly createdAt: number;
  /** STP mode: 0 none, 1 expire taker, 2 expire maker, 3 expire both. */
  readonly stp: number;
  readonly nonce: number;
  /** In the receive token's base units (quote when selling, base when buying). */
  readonly minReceiveAmount: bigint;
  readonly routerSigner: bigint;
}

export interface OrderFlags {
  readonly fullFillOnly: boolean;
  readonly bestLevelOnly: boolean;
  readonly postOnly: boolean;
  readonly isSellSide: boolean;
  readonly isMarketOrder: boolean;
  readonly toEcosystemBook: boolean;
  readonly externalFunds: boolean;
}

/** The flags in the order of the wire's 7-bool array and of the typed data (REFERENCE §1.3). */
export const ORDER_FLAG_KEYS = [
  ['full_fill_only', 'fullFillOnly'],
  ['best_level_only', 'bestLevelOnly'],
  ['post_only', 'postOnly'],
  ['is_sell_side', 'isSellSide'],
  ['is_market_order', 'isMarketOrder'],
  ['to_ecosystem_book', 'toEcosystemBook'],
  ['external_funds', 'externalFunds'],
] as const;

/** An order exactly as signed: amounts in base units, tokens resolved on the chain. */
export interface OrderRequest {
  readonly maker: bigint;
  /** Quote base units per one whole base token. */
  readonly price: bigint;
  readonly baseQty: bigint;
  readonly quoteQty: bigint;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly fee: OrderFee;
  readonly constraints: OrderConstraints;
  readonly salt: bigint;
  readonly flags: OrderFlags;
  readonly source: string;
  readonly signScheme: string;
  readonly sign?: StarkSignature;
  readonly routerSign?: StarkSignature;
}

export interface CancelRequest {
  readonly maker: bigint;
  readonly orderHash: bigint;
  readonly salt: bigint;
  readonly signScheme: string;
  readonly sign?: StarkSignature;
}

export interface CancelAllRequest {
  readonly maker: bigint;
  readonly salt: bigint;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly toEcosystemBook: boolean;
  readonly signScheme: string;
  readonly sign?: StarkSignature;
}

export interface WithdrawRequest {
  readonly maker: bigint;
  readonly token: TokenInfo;
  readonly amount: bigint;
  readonly salt: bigint;
  readonly receiver: bigint;
  readonly gasFee: GasFee;
  readonly signScheme: string;
  readonly sign?: StarkSignature;
}

export interface IncreaseNonceRequest {
  readonly maker: bigint;
  readonly newNonce: number;
  /** Sent in JSON but not part of the signed hash (REFERENCE §2.4 OnchainCancelAll). */
  readonly salt: bigint;
  readonly gasFee: GasFee;
  readonly signScheme: string;
  readonly sign?: StarkSignature;
}

/** The signed request kinds, as the `hash` command names them. */
export type RequestKind = 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'increase-nonce';
export const REQUEST_KINDS: readonly RequestKind[] = ['order', 'cancel', 'cancel-all', 'withdraw', 'increase-nonce'];

const STP_NAMES = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'];

// ---------------------------------------------------------------------------------------------
// JSON body → request

function readFixedFee(reader: FieldReader): FixedFee {
  return { recipient: reader.felt('recipient'), makerPbips: reader.uint('maker_pbips', 32), takerPbips: reader.uint('taker_pbips', 32) };
}

const ZERO_FIXED_FEE: FixedFee = { recipient: 0n, makerPbips: 0, takerPbips: 0 };

/** Reads a `gas_fee` object (REFERENCE §2.3 decimals: STRK for the price and r0, fee token for r1). */
export function readGasFee(reader: FieldReader, chain: ChainInfo): GasFee {
  const feeToken = reader.token('fee_token', chain);
  const rate = tupleOf(reader, 'conversion_rate', 2);
  const ratePath = reader.path('conversion_rate');
  return {
    gasPerAction: reader.uint('gas_per_action', 32),
    feeToken,
    maxGasPrice: reader.amount('max_gas_price', GAS_TOKEN_DECIMALS),
    conversionRate: [parseAmount(rate[0], GAS_TOKEN_DECIMALS, `${ratePath}[0]`), parseAmount(rate[1], feeToken.decimals, `${ratePath}[1]`)],
  };
}

function readStp(reader: FieldReader): number {
  const value = reader.raw('stp');
  if (typeof value === 'string' && STP_NAMES.includes(value)) return STP_NAMES.indexOf(value);
  const stp = reader.uint('stp', 8);
  if (stp > 3) throw new WireError(reader.path('stp'), `${stp} is not an STP mode; allowed: 0-3 or ${STP_NAMES.join(', ')}`);
  return stp;
}

function readFlags(reader: FieldReader): OrderFlags {
  const flags: Record<string, boolean> = {};
  for (const [wire, name] of ORDER_FLAG_KEYS) flags[name] = reader.bool(wire);
  return flags as unknown as OrderFlags;
}

function readTicker(reader: FieldReader, chain: ChainInfo): { base: TokenInfo; quote: TokenInfo } {
  const ticker = tupleOf(reader, 'ticker', 2);
  const path = reader.path('ticker');
  const pick = (value: unknown, index: number): TokenInfo => {
    const token = typeof value === 'string' ? chain.tokens.get(value) : undefined;
    if (token === undefined) {
      throw new WireError(`${path}[${index}]`, `unknown token ${JSON.stringify(value)} on ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`);
    }
    return token;
  };
  const base = pick(ticker[0], 0);
  const quote = pick(ticker[1], 1);
  if (base === quote) throw new WireError(path, 'base and quote are the same token');
  return { base, quote };
}

function optionalSignature(reader: FieldReader, key: string): { sign?: StarkSignature } {
  return reader.has(key) ? { sign: reader.signature(key) } : {};
}

/** Parses a `/place_order` body. */
export function parseOrderBody(body: unknown, chain: ChainInfo): OrderRequest {
  const reader = FieldReader.root(body);
  const { base, quote } = readTicker(reader, chain);
  const qty = reader.object('qty');
  const fee = reader.object('fee');
  const constraints = reader.object('constraints');
  const flags = readFlags(reader.object('flags'));
  const receiveDecimals = flags.isSellSide ? quote.decimals : base.decimals;
  const order: OrderRequest = {
    maker: reader.felt('maker'),
    price: reader.amount('price', quote.decimals),
    baseQty: qty.amount('base_qty', base.decimals),
    quoteQty: qty.amount('quote_qty', quote.decimals),
    base,
    quote,
    fee: {
      tradeFee: readFixedFee(fee.object('trade_fee')),
      routerFee: readFixedFee(fee.object('router_fee')),
      // Older SDKs do not send it (REFERENCE §2.5); the venue then uses zeros.
      integratorFee: fee.has('integrator_fee') ? readFixedFee(fee.object('integrator_fee')) : ZERO_FIXED_FEE,
      applyToReceiptAmount: fee.bool('apply_to_receipt_amount'),
      gasFee: readGasFee(fee.object('gas_fee'), chain),
    },
    constraints: {
      numberOfSwapsAllowed: constraints.uint('number_of_swaps_allowed', 16),
      durationValid: constraints.uint('duration_valid', 32),
      createdAt: constraints.uint('created_at', 32),
      stp: readStp(constraints),
      nonce: constraints.uint('nonce', 32),
      minReceiveAmount: constraints.amount('min_receive_amount', receiveDecimals),
      routerSigner: constraints.felt('router_signer'),
    },
    salt: reader.felt('salt'),
    flags,
    source: reader.string('source'),
    signScheme: reader.string('sign_scheme'),
    ...optionalSignature(reader, 'sign'),
    ...(reader.has('router_sign') ? { routerSign: reader.signature('router_sign') } : {}),
  };
  return order;
}

/** Parses a `/cancel_order` body. */
export function parseCancelBody(body: unknown): CancelRequest {
  const reader = FieldReader.root(body);
  return {
    maker: reader.felt('maker'),
    orderHash: reader.felt('order_hash'),
    salt: reader.felt('salt'),
    signScheme: reader.string('sign_scheme'),
    ...optionalSignature(reader, 'sign'),
  };
}

/** Parses a `/cancel_all` body; its ticker names the book by symbols. */
export function parseCancelAllBody(body: unknown, chain: ChainInfo): CancelAllRequest {
  const reader = FieldReader.root(body);
  const ticker = reader.object('ticker');
  const base = ticker.token('base', chain);
  const quote = ticker.token('quote', chain);
  return {
    maker: reader.felt('maker'),
    salt: reader.felt('salt'),
    base,
    quote,
    toEcosystemBook: ticker.bool('to_ecosystem_book'),
    signScheme: reader.string('sign_scheme'),
    ...optionalSignature(reader, 'sign'),
  };
}

/** Parses a `/withdraw` body. */
export function parseWithdrawBody(body: unknown, chain: ChainInfo): WithdrawRequest {
  const reader = FieldReader.root(body);
  const token = reader.token('token', chain);
  return {
    maker: reader.felt('maker'),
    token,
    amount: reader.amount('amount', token.decimals),
    salt: reader.felt('salt'),
    receiver: reader.felt('receiver'),
    gasFee: readGasFee(reader.object('gas_fee'), chain),
    signScheme: reader.string('sign_scheme'),
    ...optionalSignature(reader, 'sign'),
  };
}

/** Parses an `/increase_nonce` body. */
export function parseIncreaseNonceBody(body: unknown, chain: ChainInfo): IncreaseNonceRequest {
  const reader = FieldReader.root(body);
  return {
    maker: reader.felt('maker'),
    newNonce: reader.uint('new_nonce', 32),
    salt: reader.felt('salt'),
    gasFee: readGasFee(reader.object('gas_fee'), chain),
    signScheme: reader.string('sign_scheme'),
    ...optionalSignature(reader, 'sign'),
  };
}

// ---------------------------------------------------------------------------------------------
// request → JSON body (what the client POSTs)

function formatSignature(sign: StarkSignature | undefined): [string, string] {
  return sign === undefined ? ['0', '0'] : [sign.r.toString(), sign.s.toString()];
}

function formatFixedFee(fee: FixedFee): Record<string, unknown> {
  return { recipient: addressToHex(fee.recipient), maker_pbips: fee.makerPbips, taker_pbips: fee.takerPbips };
}

/** The JSON of a gas fee. */
export function formatGasFee(gas: GasFee): Record<string, unknown> {
  return {
    gas_per_action: gas.gasPerAction,
    fee_token: gas.feeToken.symbol,
    max_gas_price: formatUnits(gas.maxGasPrice, GAS_TOKEN_DECIMALS),
    conversion_rate: [formatUnits(gas.conversionRate[0], GAS_TOKEN_DECIMALS), formatUnits(gas.conversionRate[1], gas.feeToken.decimals)],
  };
}

/** The `/place_order` body of an order (decimal strings, symbols, salt as a decimal string). */
export function formatOrderBody(order: OrderRequest): Record<string, unknown> {
  const flags: Record<string, boolean> = {};
  for (const [wire, name] of ORDER_FLAG_KEYS) flags[wire] = order.flags[name];
  const receiveDecimals = order.flags.isSellSide ? order.quote.decimals : order.base.decimals;
  return {
    maker: addressToHex(order.maker),
    price: formatUnits(order.price, order.quote.decimals),
    qty: { base_qty: formatUnits(order.baseQty, order.base.decimals), quote_qty: formatUnits(order.quoteQty, order.quote.decimals) },
    ticker: [order.base.symbol, order.quote.symbol],
    fee: {
      trade_fee: formatFixedFee(order.fee.tradeFee),
      router_fee: formatFixedFee(order.fee.routerFee),
      integrator_fee: formatFixedFee(order.fee.integratorFee),
      apply_to_receipt_amount: order.fee.applyToReceiptAmount,
      gas_fee: formatGasFee(order.fee.gasFee),
    },
    constraints: {
      created_at: order.constraints.createdAt,
      router_signer: addressToHex(order.constraints.routerSigner),
      number_of_swaps_allowed: order.constraints.numberOfSwapsAllowed,
      nonce: order.constraints.nonce,
      stp: order.constraints.stp,
      duration_valid: order.constraints.durationValid,
      min_receive_amount: formatUnits(order.constraints.minReceiveAmount, receiveDecimals),
    },
    flags,
    salt: order.salt.toString(),
    sign: formatSignature(order.sign),
    router_sign: formatSignature(order.routerSign),
    source: order.source,
    sign_scheme: order.signScheme,
  };
}

/** The `/cancel_order` body; the ticker is the fixed dummy the SDKs send (REFERENCE §1.2 #17). */
export function formatCancelBody(cancel: CancelRequest): Record<string, unknown> {
  return {
    maker: addressToHex(cancel.maker),
    order_hash: addressToHex(cancel.orderHash),
    salt: cancel.salt.toString(),
    sign: formatSignature(cancel.sign),
    sign_scheme: cancel.signScheme,
    ticker: { base: '0x0', quote: '0x0', to_ecosystem_book: false },
  };
}

/** The `/cancel_all` body. */
export function formatCancelAllBody(cancel: CancelAllRequest): Record<string, unknown> {
  return {
    maker: addressToHex(cancel.maker),
    sign: formatSignature(cancel.sign),
    order_hash: 0,
    salt: cancel.salt.toString(),
    sign_scheme: cancel.signScheme,
    ticker: { base: cancel.base.symbol, quote: cancel.quote.symbol, to_ecosystem_book: cancel.toEcosystemBook },
  };
}

/** The `/withdraw` body. */
export function formatWithdrawBody(withdraw: WithdrawRequest): Record<string, unknown> {
  return {
    maker: addressToHex(withdraw.maker),
    token: withdraw.token.symbol,
    amount: formatUnits(withdraw.amount, withdraw.token.decimals),
    salt: withdraw.salt.toString(),
    receiver: addressToHex(withdraw.receiver),
    sign: formatSignature(withdraw.sign),
    gas_fee: formatGasFee(withdraw.gasFee),
    sign_scheme: withdraw.signScheme,
  };
}

/** The `/increase_nonce` body. */
export function formatIncreaseNonceBody(request: IncreaseNonceRequest): Record<string, unknown> {
  return {
    maker: addressToHex(request.maker),
    new_nonce: request.newNonce,
    salt: request.salt.toString(),
    sign: formatSignature(request.sign),
    gas_fee: formatGasFee(request.gasFee),
    sign_scheme: request.signScheme,
  };
}

/** Reads a felt that may come as 0x-hex or decimal (an order hash in a query string, say). */
export function parseHashParam(value: unknown, field: string): bigint {
  return parseFelt(value, field);
}
