/**
 * Binance spot market-data messages, parsed at the boundary (STYLE.md): WebSocket frames of the
 * `<symbol>@depth@100ms`, `<symbol>@bookTicker` and `<symbol>@trade` streams (combined
 * `{"stream","data"}` envelopes or raw payloads), `serverShutdown`, replies to SUBSCRIBE-style
 * requests, and the REST `/api/v3/depth` snapshot. Field names follow Binance's docs
 * (binance-spot-api-docs, web-socket-streams.md and rest-api.md). Anything else throws
 * `BINANCE_MALFORMED` naming the field, so the caller can log, count and skip the frame.
 */
import { BinanceError } from './errors.ts';
import { parseScaled, stepDecimals, type BinanceScale } from './decimals.ts';

/** One level: price and absolute quantity, scaled integers (0 quantity removes the level). */
export interface ScaledLevel {
  readonly price: number;
  readonly qty: number;
}

/** A `depthUpdate`: every level change between update ids U and u. */
export interface DepthDiff {
  /** `U`: first update id in the event. */
  readonly firstUpdateId: number;
  /** `u`: final update id in the event. */
  readonly lastUpdateId: number;
  /** `E`, ms. */
  readonly eventMs: number;
  readonly bids: readonly ScaledLevel[];
  readonly asks: readonly ScaledLevel[];
  readonly receivedMs: number;
}

/** A `bookTicker`: the best bid and ask with sizes, at book update id `u`. */
export interface BookTicker {
  readonly updateId: number;
  readonly bidPrice: number;
  readonly bidQty: number;
  readonly askPrice: number;
  readonly askQty: number;
  readonly receivedMs: number;
}

/** A `trade`. `buyerIsMaker` (`m`) true means the aggressor sold. */
export interface BinanceTrade {
  readonly tradeId: number;
  readonly price: number;
  readonly qty: number;
  /** `T`, ms. */
  readonly tradeMs: number;
  /** `E`, ms. */
  readonly eventMs: number;
  readonly buyerIsMaker: boolean;
  readonly receivedMs: number;
}

/** The REST depth snapshot. */
export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly ScaledLevel[];
  readonly asks: readonly ScaledLevel[];
  readonly receivedMs: number;
}

/** A parsed WebSocket frame. */
export type StreamFrame =
  | { readonly type: 'depth'; readonly diff: DepthDiff }
  | { readonly type: 'ticker'; readonly ticker: BookTicker }
  | { readonly type: 'trade'; readonly trade: BinanceTrade }
  /** The server will close this connection soon: open a new one. */
  | { readonly type: 'shutdown'; readonly eventMs: number }
  /** Reply to SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / SET_PROPERTY / GET_PROPERTY. */
  | { readonly type: 'response'; readonly id: number | string | null; readonly result: unknown }
  | { readonly type: 'error'; readonly id: number | string | null; readonly code: number; readonly message: string }
  /** A well-formed event of a stream this client does not use. */
  | { readonly type: 'other'; readonly stream: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function malformed(what: string, text: string): BinanceError {
  return new BinanceError('BINANCE_MALFORMED', `${what}: ${text.length > 200 ? `${text.slice(0, 197)}...` : text}`);
}

function id(data: Json, field: string, text: string): number {
  const value = data[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw malformed(`field ${field} is not an id`, text);
  return value;
}

function scaled(data: Json, field: string, decimals: number, text: string): number {
  const value = data[field];
  const parsed = typeof value === 'string' ? parseScaled(value, decimals) : undefined;
  if (parsed === undefined) throw malformed(`field ${field} is not a decimal with at most ${decimals} places`, text);
  return parsed;
}

function levels(value: unknown, field: string, scale: BinanceScale, text: string): ScaledLevel[] {
  if (!Array.isArray(value)) throw malformed(`field ${field} is not a list of levels`, text);
  const result: ScaledLevel[] = new Array<ScaledLevel>(value.length);
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') throw malformed(`${field}[${i}] is not [price, qty]`, text);
    const price = parseScaled(entry[0], scale.priceDecimals);
    const qty = parseScaled(entry[1], scale.qtyDecimals);
    if (price === undefined || qty === undefined || price === 0) throw malformed(`${field}[${i}] has a bad price or quantity`, text);
    result[i] = { price, qty };
  }
  return result;
}

function checkSymbol(data: Json, symbol: string, text: string): void {
  if (data['s'] !== symbol) throw malformed(`symbol is not ${symbol}`, text);
}

function parseDepth(data: Json, symbol: string, scale: BinanceScale, receivedMs: number, text: string): DepthDiff {
  checkSymbol(data, symbol, text);
  const firstUpdateId = id(data, 'U', text);
  const lastUpdateId = id(data, 'u', text);
  if (firstUpdateId > lastUpdateId) throw malformed('U is after u', text);
  return { firstUpdateId, lastUpdateId, eventMs: id(data, 'E', text), bids: levels(data['b'], 'b', scale, text), asks: levels(data['a'], 'a', scale, text), receivedMs };
}

function parseTicker(data: Json, symbol: string, scale: BinanceScale, receivedMs: number, text: string): BookTicker {
  checkSymbol(data, symbol, text);
  return {
    updateId: id(data, 'u', text),
    bidPrice: scaled(data, 'b', scale.priceDecimals, text),
    bidQty: scaled(data, 'B', scale.qtyDecimals, text),
    askPrice: scaled(data, 'a', scale.priceDecimals, text),
    askQty: scaled(data, 'A', scale.qtyDecimals, text),
    receivedMs,
  };
}

function parseTrade(data: Json, symbol: string, scale: BinanceScale, receivedMs: number, text: string): BinanceTrade {
  checkSymbol(data, symbol, text);
  const buyerIsMaker = data['m'];
  if (typeof buyerIsMaker !== 'boolean') throw malformed('field m is not a boolean', text);
  return {
    tradeId: id(data, 't', text),
    price: scaled(data, 'p', scale.priceDecimals, text),
    qty: scaled(data, 'q', scale.qtyDecimals, text),
    tradeMs: id(data, 'T', text),
    eventMs: id(data, 'E', text),
    buyerIsMaker,
    receivedMs,
  };
}

function requestId(value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return null;
}

/** Which payload a stream name carries. */
function channelOf(stream: string): 'depth' | 'ticker' | 'trade' | 'shutdown' | 'other' {
  if (stream === '!serverShutdown') return 'shutdown';
  const at = stream.indexOf('@');
  const channel = at < 0 ? '' : stream.slice(at + 1);
  if (channel === 'depth' || channel.startsWith('depth@')) return /^depth(@\d+ms)?$/.test(channel) ? 'depth' : 'other';
  if (channel === 'bookTicker') return 'ticker';
  if (channel === 'trade') return 'trade';
  return 'other';
}

/** A raw payload recognised by its shape (`/ws/<stream>` connections carry no stream name). */
function channelOfPayload(data: Json): 'depth' | 'ticker' | 'trade' | 'shutdown' | 'other' {
  const event = data['e'];
  if (event === 'depthUpdate') return 'depth';
  if (event === 'trade') return 'trade';
  if (event === 'serverShutdown') return 'shutdown';
  if (event === undefined && 'u' in data && 'b' in data && 'B' in data && 'a' in data && 'A' in data) return 'ticker';
  return 'other';
}

/**
 * Parses one WebSocket text frame of `symbol` (upper case, as in payloads).
 * @throws BinanceError `BINANCE_MALFORMED` naming what is wrong.
 */
export function parseStreamFrame(text: string, symbol: string, scale: BinanceScale, receivedMs: number): StreamFrame {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    throw malformed('not JSON', text);
  }
  if (!isObject(message)) throw malformed('not a JSON object', text);
  let data: Json;
  let channel: ReturnType<typeof channelOf>;
  let stream: string;
  if (typeof message['stream'] === 'string') {
    stream = message['stream'];
    const payload = message['data'];
    if (!isObject(payload)) throw malformed('combined frame without a data object', text);
    data = payload;
    channel = channelOf(stream);
  } else if ('result' in message && 'id' in message) {
    return { type: 'response', id: requestId(message['id']), result: message['result'] };
  } else if ('code' in message || 'error' in message) {
    const error = isObject(message['error']) ? message['error'] : message;
    const code = typeof error['code'] === 'number' ? error['code'] : -1;
    return { type: 'error', id: requestId(message['id']), code, message: typeof error['msg'] === 'string' ? error['msg'] : text };
  } else {
    data = message;
    channel = channelOfPayload(data);
    stream = typeof data['e'] === 'string' ? data['e'] : 'raw';
  }
  switch (channel) {
    case 'depth':
      return { type: 'depth', diff: parseDepth(data, symbol, scale, receivedMs, text) };
    case 'ticker':
      return { type: 'ticker', ticker: parseTicker(data, symbol, scale, receivedMs, text) };
    case 'trade':
      return { type: 'trade', trade: parseTrade(data, symbol, scale, receivedMs, text) };
    case 'shutdown':
      return { type: 'shutdown', eventMs: typeof data['E'] === 'number' ? data['E'] : receivedMs };
    default:
      return { type: 'other', stream };
  }
}

/**
 * Parses a `/api/v3/depth` body.
 * @throws BinanceError `BINANCE_MALFORMED`.
 */
export function parseDepthSnapshot(body: unknown, scale: BinanceScale, receivedMs: number): DepthSnapshot {
  const where = 'GET /api/v3/depth body';
  if (!isObject(body)) throw malformed('depth snapshot is not an object', where);
  return { lastUpdateId: id(body, 'lastUpdateId', where), bids: levels(body['bids'], 'bids', scale, where), asks: levels(body['asks'], 'asks', scale, where), receivedMs };
}

/**
 * Decimals to parse a symbol's prices (or quantities) with: Binance's full 8 places where the
 * largest allowed value still fits below 2^53 scaled, fewer where it would not (a coin traded in
 * billions), never fewer than its step needs. Parsing at the step's own decimals would reject a
 * level printed at a finer step, which Binance keeps in the book after it changes a tick size.
 */
function scaleDecimals(step: string, max: string): number | undefined {
  const stepPlaces = stepDecimals(step);
  const maxValue = Number(max);
  if (stepPlaces === undefined || !(maxValue >= 0)) return undefined;
  const fitting = maxValue === 0 ? 8 : Math.floor(Math.log10(Number.MAX_SAFE_INTEGER / maxValue));
  const decimals = Math.min(8, fitting);
  return decimals >= stepPlaces ? decimals : undefined;
}

/** What `/api/v3/exchangeInfo` says about one symbol. */
export interface SymbolInfo {
  readonly symbol: string;
  /** `TRADING`, `HALT`, `BREAK`… */
  readonly status: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** `PRICE_FILTER.tickSize` and `LOT_SIZE.stepSize` as Binance prints them ("0.01000000"). */
  readonly tickSize: string;
  readonly stepSize: string;
  /** The scale this client parses the symbol's numbers with (see `scaleDecimals`). */
  readonly scale: BinanceScale;
}

/**
 * Parses an `/api/v3/exchangeInfo?symbol=` body for `symbol`.
 * @throws BinanceError `BINANCE_MALFORMED` when the symbol or its filters are missing.
 */
export function parseSymbolInfo(body: unknown, symbol: string): SymbolInfo {
  const where = `GET /api/v3/exchangeInfo?symbol=${symbol} body`;
  const symbols = isObject(body) ? body['symbols'] : undefined;
  const entry: unknown = Array.isArray(symbols) ? symbols.find((item: unknown) => isObject(item) && item['symbol'] === symbol) : undefined;
  if (!isObject(entry)) throw malformed(`no entry for ${symbol}`, where);
  const filters = Array.isArray(entry['filters']) ? entry['filters'].filter(isObject) : [];
  const filter = (type: string, field: string): string => {
    const value = filters.find((item) => item['filterType'] === type)?.[field];
    if (typeof value !== 'string') throw malformed(`${type}.${field} missing`, where);
    return value;
  };
  const tickSize = filter('PRICE_FILTER', 'tickSize');
  const stepSize = filter('LOT_SIZE', 'stepSize');
  const priceDecimals = scaleDecimals(tickSize, filter('PRICE_FILTER', 'maxPrice'));
  const qtyDecimals = scaleDecimals(stepSize, filter('LOT_SIZE', 'maxQty'));
  if (priceDecimals === undefined || qtyDecimals === undefined) throw malformed('tickSize, stepSize, maxPrice or maxQty is not a usable decimal', where);
  const text = (field: string): string => (typeof entry[field] === 'string' ? entry[field] : '');
  return { symbol, status: text('status'), baseAsset: text('baseAsset'), quoteAsset: text('quoteAsset'), tickSize, stepSize, scale: { priceDecimals, qtyDecimals } };
}
