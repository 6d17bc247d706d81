/**
 * Parsers of every REST `result` (REFERENCE §1.2–1.3) into exact typed values: amounts in bigint
 * base units (decimals from the chain's token table, SPEC §2), raw integers where §1.3 says so.
 * Each throws `WireError` naming the field; the client wraps it into `EXCHANGE_MALFORMED` with
 * the raw body. Lenient where the sources disagree (flags as array or object, ticker as object or
 * pair). Given an `AnomalySink` (the client always gives one) they also read past what the SDKs
 * read past: extra decimals are truncated, an unknown status reads as `ACC`, each reported.
 */
import {
  ORDER_STATUSES,
  type ChainInfo,
  type OrderStatus,
  type Pair,
  type TokenInfo,
} from '../../core/index.ts';
import { FieldReader, WireError, parseAmount, parseFelt } from '../wire/fields.ts';
import type { AnomalySink } from '../wire/anomalies.ts';
import { ORDER_FLAG_KEYS } from '../wire/requests.ts';

/** One aggregated price level: price in quote units, volume in base units. */
export interface PriceLevel {
  readonly price: bigint;
  readonly qty: bigint;
  readonly orders: number;
}

/** `/book/bbo`. */
export interface Bbo {
  readonly bid: PriceLevel | undefined;
  readonly ask: PriceLevel | undefined;
}

/** `/book/snapshot`: bids and asks best first, and the delta id it is current to. */
export interface BookSnapshot {
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  readonly msgId: bigint;
}

/** Balance of one token; `balance` includes `locked`. */
export interface UserBalance {
  readonly balance: bigint;
  readonly locked: bigint;
}

/** Our fees on one pair, parts per million. */
export interface PairFees {
  readonly base: string;
  readonly quote: string;
  readonly makerPbips: number;
  readonly takerPbips: number;
}

/** `/user/user_info`. Tokens missing from our chain table are listed in `unknownTokens`. */
export interface UserInfo {
  readonly nonce: number;
  readonly balances: ReadonlyMap<string, UserBalance>;
  readonly fees: readonly PairFees[];
  readonly unknownTokens: readonly string[];
}

/** `[r0, r1]`: r0 STRK base units are worth r1 base units of the token (SPEC §5). */
export type ConversionRate = readonly [bigint, bigint];

/** `/info/steps_specifications`. */
export interface StepsSpec {
  readonly withdraw: number;
  readonly swapRouter: number;
  readonly swapEcosystem: number;
  readonly nonce: number;
}

/** One entry of `/info/ticker_specifications`, names made honest (REFERENCE §5). */
export interface TickerSpec {
  readonly base: string;
  readonly quote: string;
  readonly isEcosystemBook: boolean;
  /** `rawPriceIncrement`, quote units. */
  readonly priceTick: bigint;
  /** `rawMinQuoteQty`: the minimum BASE quantity, base units. */
  readonly minQty: bigint;
  /** `rawQuoteQtyIncrement`: the BASE quantity step, base units. */
  readonly qtyStep: bigint;
}

/** `/info/router_details`. */
export interface RouterDetails {
  readonly routerTakerPbips: number;
  readonly routerMakerPbips: number;
  readonly routerSigner: bigint;
  readonly routerFeeRecipient: bigint;
}

/** An order as `/user/order(s)` returns it (full or reduced mode; fields both have). */
export interface VenueOrder {
  readonly hash: bigint | undefined;
  readonly maker: bigint;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly price: bigint;
  readonly baseQty: bigint;
  readonly quoteQty: bigint;
  readonly isSellSide: boolean;
  readonly postOnly: boolean;
  readonly isEcosystemBook: boolean;
  readonly status: OrderStatus;
  readonly filledBase: bigint;
  readonly filledQuote: bigint;
  /** Filled then failed on chain: actually matched = filled − failed (REFERENCE §1.3). */
  readonly failedBase: bigint;
  readonly failedQuote: bigint;
  /** Epoch seconds, when the mode returns it. */
  readonly createdAtS: number | undefined;
  readonly nonce: number | undefined;
}

/** `/user/orders`: newest first, and the cursor of the next page. */
export interface OrdersPage {
  readonly orders: readonly VenueOrder[];
  readonly cursor: string | undefined;
  /** Orders on tokens our chain table does not know (not ours to trade). */
  readonly skipped: number;
}

/** `/gas/price`: a raw integer (fri per step). */
export function parseGasPrice(result: unknown): bigint {
  return parseFelt(result, 'result');
}

/** A challenge or a hash returned as a felt string or number. */
export function parseFeltResult(result: unknown): bigint {
  return parseFelt(result, 'result');
}

/** A non-empty string result (JWT, listen key). */
export function parseStringResult(result: unknown): string {
  if (typeof result !== 'string' || result.length === 0) throw new WireError('result', 'expected a non-empty string');
  return result;
}

function readLevelObject(reader: FieldReader, pair: TokenPair): PriceLevel {
  return {
    price: reader.amount('price', pair.quote.decimals),
    qty: reader.amount('volume', pair.base.decimals),
    orders: reader.has('orders') ? reader.uint('orders', 32) : 0,
  };
}

/** Base and quote tokens of a book, resolved on the chain. */
export interface TokenPair {
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
}

/** A `[price, volume, orders]` level (snapshots and WS). */
export function parseLevelTuple(value: unknown, pair: TokenPair, field: string, sink?: AnomalySink): PriceLevel {
  if (!Array.isArray(value) || value.length < 2) throw new WireError(field, 'expected [price, volume, orders]');
  const items = value as unknown[];
  return {
    price: parseAmount(items[0], pair.quote.decimals, `${field}[0]`, sink),
    qty: parseAmount(items[1], pair.base.decimals, `${field}[1]`, sink),
    orders: items[2] === undefined ? 0 : Number(parseFelt(items[2], `${field}[2]`)),
  };
}

/** A list of level tuples. */
export function parseLevels(value: unknown, pair: TokenPair, field: string, sink?: AnomalySink): PriceLevel[] {
  if (!Array.isArray(value)) throw new WireError(field, 'expected an array of levels');
  return (value as unknown[]).map((level, index) => parseLevelTuple(level, pair, `${field}[${index}]`, sink));
}

/** `/book/bbo`; an empty side is `{}` (or absent). */
export function parseBbo(result: unknown, pair: TokenPair, sink?: AnomalySink): Bbo {
  const reader = FieldReader.root(result, 'result', sink);
  const side = (key: string): PriceLevel | undefined => {
    if (!reader.has(key)) return undefined;
    const value = reader.raw(key);
    if (Array.isArray(value)) return value.length === 0 ? undefined : parseLevelTuple(value, pair, reader.path(key), sink);
    const level = reader.object(key);
    return level.has('price') ? readLevelObject(level, pair) : undefined;
  };
  return { bid: side('bid'), ask: side('ask') };
}

/** `/book/snapshot`. */
export function parseSnapshot(result: unknown, pair: TokenPair, sink?: AnomalySink): BookSnapshot {
  const levels = FieldReader.root(result, 'result', sink).object('levels');
  return {
    bids: levels.has('bids') ? parseLevels(levels.raw('bids'), pair, levels.path('bids'), sink) : [],
    asks: levels.has('asks') ? parseLevels(levels.raw('asks'), pair, levels.path('asks'), sink) : [],
    msgId: levels.felt('msg_id'),
  };
}

/** `/user/user_info`. */
export function parseUserInfo(result: unknown, chain: ChainInfo, sink?: AnomalySink): UserInfo {
  const reader = FieldReader.root(result, 'result', sink);
  const balances = new Map<string, UserBalance>();
  const unknownTokens: string[] = [];
  arrayOf(reader, 'balances').forEach((item, index) => {
    const entry = FieldReader.root(item, `${reader.path('balances')}[${index}]`, sink);
    const symbol = entry.string('token');
    const token = chain.tokens.get(symbol);
    if (token === undefined) {
      unknownTokens.push(symbol);
      return;
    }
    balances.set(symbol, {
      balance: entry.amount('balance', token.decimals),
      locked: entry.has('locked') ? entry.amount('locked', token.decimals) : 0n,
    });
  });
  const fees = arrayOf(reader, 'fees').map((item, index) => {
    const path = `${reader.path('fees')}[${index}]`;
    const entry = FieldReader.root(item, path);
    const fee = entry.raw('fee');
    if (!Array.isArray(fee) || fee.length !== 2) throw new WireError(`${path}.fee`, 'expected [maker_pbips, taker_pbips]');
    return {
      base: entry.string('base'),
      quote: entry.string('quote'),
      makerPbips: Number(parseFelt(fee[0], `${path}.fee[0]`)),
      takerPbips: Number(parseFelt(fee[1], `${path}.fee[1]`)),
    };
  });
  return { nonce: reader.uint('nonce', 32), balances, fees, unknownTokens };
}

/**
 * `/info/conversion_rate`: r0 in STRK decimals (18), r1 in the token's. An empty array means the
 * venue has no rate now (akira-js `getConversionRate` passes `[]` through): undefined.
 */
export function parseConversionRate(result: unknown, token: TokenInfo, sink?: AnomalySink): ConversionRate | undefined {
  if (Array.isArray(result) && result.length === 0) {
    sink?.('empty_conversion_rate', 'result', `no rate for ${token.symbol}`);
    return undefined;
  }
  if (!Array.isArray(result) || result.length !== 2) throw new WireError('result', 'expected [r0, r1]');
  const items = result as unknown[];
  return [parseAmount(items[0], 18, 'result[0]', sink), parseAmount(items[1], token.decimals, 'result[1]', sink)];
}

/** `/info/steps_specifications`. */
export function parseSteps(result: unknown): StepsSpec {
  const reader = FieldReader.root(result, 'result');
  return {
    withdraw: reader.uint('withdraw', 32),
    swapRouter: reader.uint('swapRouter', 32),
    swapEcosystem: reader.uint('swapEcosystem', 32),
    nonce: reader.uint('nonce', 32),
  };
}

/** `/info/ticker_specifications`. */
export function parseTickerSpecs(result: unknown): TickerSpec[] {
  if (!Array.isArray(result)) throw new WireError('result', 'expected an array of ticker specifications');
  return (result as unknown[]).map((item, index) => {
    const path = `result[${index}]`;
    const reader = FieldReader.root(item, path);
    const ticker = reader.object('ticker');
    const pair = ticker.object('pair');
    return {
      base: pair.string('base'),
      quote: pair.string('quote'),
      isEcosystemBook: ticker.bool('isEcosystemBook'),
      priceTick: reader.felt('rawPriceIncrement'),
      minQty: reader.felt('rawMinQuoteQty'),
      qtyStep: reader.felt('rawQuoteQtyIncrement'),
    };
  });
}

/** `/info/router_details`. */
export function parseRouterDetails(result: unknown): RouterDetails {
  const reader = FieldReader.root(result, 'result');
  return {
    routerTakerPbips: reader.uint('routerTakerPbips', 32),
    routerMakerPbips: reader.uint('routerMakerPbips', 32),
    routerSigner: reader.felt('routerSigner'),
    routerFeeRecipient: reader.felt('routerFeeRecipient'),
  };
}

/** A Stark signature result `[r, s]` (router signing). */
export function parseSignatureResult(result: unknown): { r: bigint; s: bigint } {
  if (!Array.isArray(result) || result.length !== 2) throw new WireError('result', 'expected [r, s]');
  const items = result as unknown[];
  return { r: parseFelt(items[0], 'result[0]'), s: parseFelt(items[1], 'result[1]') };
}

/** Thrown for an order on tokens the chain table lacks; pages skip such orders. */
export class UnknownTokenError extends WireError {}

/** One order object of §1.3 (mode 1 or 2). */
export function parseVenueOrder(value: unknown, chain: ChainInfo, path = 'result', sink?: AnomalySink): VenueOrder {
  const reader = FieldReader.root(value, path, sink);
  const { base, quote } = readOrderTicker(reader, chain);
  const qty = reader.object('qty');
  const state = reader.object('state');
  const flags = readOrderFlags(reader);
  const constraints = reader.has('constraints') ? reader.object('constraints') : undefined;
  const createdAt = constraints?.has('created_at') === true ? constraints.uint('created_at', 32) : reader.has('created_at') ? reader.uint('created_at', 32) : undefined;
  return {
    hash: reader.has('hash') ? reader.felt('hash') : undefined,
    maker: reader.felt('maker'),
    base,
    quote,
    price: reader.amount('price', quote.decimals),
    baseQty: qty.amount('base_qty', base.decimals),
    quoteQty: qty.has('quote_qty') ? qty.amount('quote_qty', quote.decimals) : 0n,
    isSellSide: flags.is_sell_side ?? false,
    postOnly: flags.post_only ?? false,
    isEcosystemBook: flags.to_ecosystem_book ?? true,
    status: readStatus(state, 'status'),
    filledBase: state.has('filled_base_amount') ? state.amount('filled_base_amount', base.decimals) : 0n,
    filledQuote: state.has('filled_quote_amount') ? state.amount('filled_quote_amount', quote.decimals) : 0n,
    failedBase: state.has('failed_base_amount') ? state.amount('failed_base_amount', base.decimals) : 0n,
    failedQuote: state.has('failed_quote_amount') ? state.amount('failed_quote_amount', quote.decimals) : 0n,
    createdAtS: createdAt,
    nonce: constraints?.has('nonce') === true ? constraints.uint('nonce', 32) : undefined,
  };
}

/** `/user/orders`: `{data, cursor}`, or a bare list (old servers, REFERENCE §1.2 #13). */
export function parseOrdersPage(result: unknown, chain: ChainInfo, sink?: AnomalySink): OrdersPage {
  let items: unknown[];
  let cursor: string | undefined;
  if (Array.isArray(result)) {
    items = result as unknown[];
  } else {
    const reader = FieldReader.root(result, 'result', sink);
    items = arrayOf(reader, 'data');
    const rawCursor = reader.has('cursor') ? reader.raw('cursor') : undefined;
    cursor = typeof rawCursor === 'string' || typeof rawCursor === 'number' ? String(rawCursor) : undefined;
    if (cursor === '') cursor = undefined;
  }
  const orders: VenueOrder[] = [];
  let skipped = 0;
  items.forEach((wrapped, index) => {
    const item = unwrapOrder(wrapped, `result.data[${index}]`, sink);
    try {
      orders.push(parseVenueOrder(item, chain, `result.data[${index}]`, sink));
    } catch (error) {
      if (!(error instanceof UnknownTokenError)) throw error;
      skipped++;
    }
  });
  return { orders, cursor, skipped };
}

/** An order item `{"result": {…}}` (the swagger's `/user/orders` example) is the order inside. */
function unwrapOrder(item: unknown, field: string, sink: AnomalySink | undefined): unknown {
  if (sink === undefined || typeof item !== 'object' || item === null) return item;
  const record = item as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 1 || keys[0] !== 'result') return item;
  sink('wrapped_order', field, 'order item wrapped in {"result": …}');
  return record['result'];
}

/**
 * A status string of SPEC §6 (SW's `SCHEDULED_CANCEL` spelling accepted too). With a sink, an
 * unknown one reads as `ACC`: the order tracker never moves an order back, so `ACC` changes no
 * state while the fills beside it still count, and the caller heals from REST.
 */
export function parseOrderStatus(value: unknown, field: string, sink?: AnomalySink): OrderStatus {
  const text = value === 'SCHEDULED_CANCEL' ? 'SCHEDULED_TO_CANCEL' : value;
  if (typeof text !== 'string' || !(ORDER_STATUSES as readonly string[]).includes(text)) {
    if (sink !== undefined) {
      sink('unknown_status', field, `unknown order status ${JSON.stringify(value)}; read as ACC`);
      return 'ACC';
    }
    throw new WireError(field, `unknown order status ${JSON.stringify(value)}`);
  }
  return text as OrderStatus;
}

function readStatus(reader: FieldReader, key: string): OrderStatus {
  return parseOrderStatus(reader.raw(key), reader.path(key), reader.sink);
}

function readOrderTicker(reader: FieldReader, chain: ChainInfo): TokenPair {
  const raw = reader.raw('ticker');
  let symbols: [unknown, unknown];
  if (Array.isArray(raw)) symbols = [raw[0], raw[1]];
  else {
    const ticker = reader.object('ticker');
    symbols = [ticker.raw('base'), ticker.raw('quote')];
  }
  const pick = (symbol: unknown, index: number): TokenInfo => {
    const token = typeof symbol === 'string' ? chain.tokens.get(symbol) : undefined;
    if (token === undefined) throw new UnknownTokenError(`${reader.path('ticker')}[${index}]`, `token ${JSON.stringify(symbol)} not in the ${chain.name} table`);
    return token;
  };
  return { base: pick(symbols[0], 0), quote: pick(symbols[1], 1) };
}

type FlagName = (typeof ORDER_FLAG_KEYS)[number][0];

/** Flags as the 7-bool array of §1.3 or as the object of §2.3. */
function readOrderFlags(reader: FieldReader): Partial<Record<FlagName, boolean>> {
  const raw = reader.raw('flags');
  const flags: Partial<Record<FlagName, boolean>> = {};
  if (Array.isArray(raw)) {
    if (raw.length !== ORDER_FLAG_KEYS.length || raw.some((flag) => typeof flag !== 'boolean')) {
      throw new WireError(reader.path('flags'), `expected ${ORDER_FLAG_KEYS.length} booleans`);
    }
    ORDER_FLAG_KEYS.forEach(([wire], index) => {
      flags[wire] = raw[index] as boolean;
    });
    return flags;
  }
  const object = reader.object('flags');
  for (const [wire] of ORDER_FLAG_KEYS) if (object.has(wire)) flags[wire] = object.bool(wire);
  return flags;
}

function arrayOf(reader: FieldReader, key: string): unknown[] {
  if (!reader.has(key)) return [];
  const value = reader.raw(key);
  if (!Array.isArray(value)) throw new WireError(reader.path(key), 'expected an array');
  return value as unknown[];
}

/** "ETH-USDC" or `{base, quote}` into a pair of symbols (WS routing, REST `pair`). */
export function parsePairField(value: unknown, field: string): Pair {
  if (typeof value === 'string') {
    const [base, quote, ...rest] = value.split('-');
    if (base !== undefined && quote !== undefined && rest.length === 0 && base !== '' && quote !== '') return { base, quote };
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.base === 'string' && typeof record.quote === 'string') return { base: record.base, quote: record.quote };
  }
  throw new WireError(field, `expected a pair "BASE-QUOTE" or {base, quote}, got ${JSON.stringify(value)}`);
}
