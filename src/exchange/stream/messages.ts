/**
 * WS frames of SPEC §4 / REFERENCE §3 parsed into typed values. A frame with an `id` is an ack
 * (`{"id", "result": "OK"}` or `{"id", "error"}`); any other frame is an event routed by its
 * `stream`: `bbo`, `trade`, `snap` (book delta) or `fills` (an execution report, a fail report, a
 * rollup tx report or a cancel-all report, told apart by their keys as PY `_parse_md` does).
 * Given an anomaly sink (the stream always gives one) parsing reads past what the SDKs read past
 * (extra decimals, unknown enum values, the REST form of a book side, numeric msg ids) so the
 * frame's fill is kept; only a frame missing what it needs throws `WireError` naming the field.
 */
import { MATCHER_RESULTS, type ChainInfo, type MatcherResult, type OrderStatus, type Pair } from '../../core/index.ts';
import { FieldReader, WireError, addressToHex, feltToHex, parseFelt } from '../wire/fields.ts';
import type { AnomalySink } from '../wire/anomalies.ts';
import { parseLevels, parseLevelTuple, parseOrderStatus, parsePairField, type PriceLevel, type TokenPair } from '../client/responses.ts';
import type { BookDelta } from '../book/index.ts';

/** A public market-data stream of one book. */
export interface MarketTopic {
  readonly kind: 'bbo' | 'trade' | 'snap';
  readonly pair: Pair;
  readonly ecosystem: boolean;
}

/** The private fills stream of a trading account. */
export interface FillsTopic {
  readonly kind: 'fills';
  readonly account: bigint;
}

/** Anything one can subscribe to. */
export type Topic = MarketTopic | FillsTopic;

/** A stable key of a topic (for maps and logs). */
export function topicKey(topic: Topic): string {
  if (topic.kind === 'fills') return `fills_${feltToHex(topic.account)}`;
  return `${topic.kind}:${topic.pair.base}-${topic.pair.quote}:${topic.ecosystem ? 'eco' : 'router'}`;
}

/**
 * The subscribe/unsubscribe request of REFERENCE §3.2 (note `ecosystem_book`, not `to_…`). The
 * fills stream names the account zero-padded, as python_akira `subscribe_fills` does.
 */
export function subscriptionMessage(topic: Topic, id: number, action: 'subscribe' | 'unsubscribe'): Record<string, unknown> {
  if (topic.kind === 'fills') return { action, id, stream: `fills_${addressToHex(topic.account)}` };
  return { action, id, stream: topic.kind, ticker: { base: topic.pair.base, quote: topic.pair.quote, ecosystem_book: topic.ecosystem } };
}

/** Best bid and offer of a book. */
export interface BboEvent {
  readonly type: 'bbo';
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly bid: PriceLevel | undefined;
  readonly ask: PriceLevel | undefined;
  /** Venue time (ms) when sent, else the receive time. */
  readonly timeMs: number;
  readonly receivedMs: number;
}

/** A public trade; `isSellSide` is the taker's side. */
export interface TradeEvent {
  readonly type: 'trade';
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly price: bigint;
  readonly baseQty: bigint;
  readonly quoteQty: bigint | undefined;
  readonly isSellSide: boolean;
  readonly timeMs: number;
  readonly receivedMs: number;
}

/** A book delta. */
export interface SnapEvent {
  readonly type: 'snap';
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly delta: BookDelta;
  readonly timeMs: number;
  readonly receivedMs: number;
}

/** An execution report of one of our orders: the fill it carries and the cumulative amounts. */
export interface ExecutionReport {
  readonly orderHash: bigint;
  readonly client: bigint | undefined;
  readonly pair: Pair;
  readonly fillPrice: bigint;
  readonly fillBaseQty: bigint;
  readonly fillQuoteQty: bigint;
  readonly accBaseQty: bigint;
  readonly accQuoteQty: bigint;
  readonly isSellSide: boolean;
  readonly status: OrderStatus;
  readonly matcherResult: MatcherResult | undefined;
  readonly timeMs: number;
  readonly receivedMs: number;
}

/** A state-changing request failed after it was accepted (withdraw, cancel-all, nonce …). */
export interface FailReport {
  readonly reportType: string;
  readonly requestHash: bigint | undefined;
  readonly entityHash: bigint | undefined;
  readonly errorCode: string | undefined;
  readonly receivedMs: number;
}

/** A fill (or a withdraw, a nonce increase) settled on chain. */
export interface RollupReport {
  readonly txHash: bigint;
  readonly orderHash: bigint | undefined;
  /** The request it settles, when the venue names it (`req_hash`). */
  readonly requestHash: bigint | undefined;
  readonly oldTxHash: bigint | undefined;
  readonly receivedMs: number;
}

/** A cancel-all was carried out. */
export interface CancelAllReport {
  readonly cancelTickerHash: bigint | undefined;
  readonly pair: Pair | undefined;
  readonly receivedMs: number;
}

/** Events of every stream. */
export type StreamEvent =
  | BboEvent
  | TradeEvent
  | SnapEvent
  | { readonly type: 'execution'; readonly report: ExecutionReport }
  | { readonly type: 'fail'; readonly report: FailReport }
  | { readonly type: 'rollup'; readonly report: RollupReport }
  | { readonly type: 'cancel-all'; readonly report: CancelAllReport };

/** A parsed frame. */
export type Frame =
  | { readonly type: 'ack'; readonly id: number; readonly ok: true }
  | { readonly type: 'ack'; readonly id: number; readonly ok: false; readonly error: string }
  | { readonly type: 'event'; readonly event: StreamEvent };

/** What parsing needs besides the text. */
export interface ParseContext {
  readonly chain: ChainInfo;
  /** Local receive time, ms. */
  readonly receivedMs: number;
  /** The pair of an order of ours, for reports that do not say it ("usually pair", §3.3). */
  readonly pairOfOrder?: (orderHash: bigint) => Pair | undefined;
  /** Last resort for such reports: the pair this process trades. */
  readonly defaultPair?: Pair;
  /** Where oddities read past are reported; without it parsing is strict. */
  readonly anomalies?: AnomalySink;
}

/** Parses one text frame. @throws WireError naming the bad field. */
export function parseFrame(text: string, context: ParseContext): Frame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WireError('frame', 'not JSON');
  }
  const sink = context.anomalies;
  const reader = FieldReader.root(json, 'frame', sink);
  if (reader.has('id')) {
    const id = reader.uint('id', 53);
    if (reader.has('error')) {
      const error = reader.raw('error');
      return { type: 'ack', id, ok: false, error: typeof error === 'string' ? error : JSON.stringify(error) };
    }
    if (!reader.has('result')) throw new WireError('frame.result', 'an ack needs result or error');
    return { type: 'ack', id, ok: true };
  }
  const stream = reader.string('stream');
  const result = reader.object('result');
  if (stream === 'bbo' || stream === 'trade' || stream === 'snap') {
    const pair = parsePairField(reader.raw('pair'), reader.path('pair'));
    const ecosystem = reader.has('ecosystem') ? reader.bool('ecosystem') : true;
    const tokens = tokensOf(pair, context.chain, reader.path('pair'));
    const timeMs = readTime(result, context.receivedMs);
    const base = { pair, ecosystem, timeMs, receivedMs: context.receivedMs };
    if (stream === 'bbo') {
      return { type: 'event', event: { type: 'bbo', ...base, bid: bboSide(result, 'bid', tokens, sink), ask: bboSide(result, 'ask', tokens, sink) } };
    }
    if (stream === 'trade') {
      return {
        type: 'event',
        event: {
          type: 'trade',
          ...base,
          price: result.amount('price', tokens.quote.decimals),
          baseQty: result.amount('base_qty', tokens.base.decimals),
          quoteQty: result.has('quote_qty') ? result.amount('quote_qty', tokens.quote.decimals) : undefined,
          isSellSide: result.bool('is_sell_side'),
        },
      };
    }
    return { type: 'event', event: { type: 'snap', ...base, delta: readDelta(result, tokens, sink) } };
  }
  if (stream === 'fills') return { type: 'event', event: readFills(reader, result, context) };
  if (stream.startsWith('fills_')) {
    // Both SDKs route only "fills" (docs/venue.md); a venue that names the subscription is still read.
    sink?.('fills_stream_name', 'frame.stream', stream);
    return { type: 'event', event: readFills(reader, result, context) };
  }
  throw new WireError('frame.stream', `unknown stream ${JSON.stringify(stream)}`);
}

function readFills(frame: FieldReader, result: FieldReader, context: ParseContext): StreamEvent {
  const receivedMs = context.receivedMs;
  if (result.has('hash')) return { type: 'execution', report: readExecution(frame, result, context) };
  if (result.has('report_type')) {
    const code = result.has('error_code_orderbook') ? result.raw('error_code_orderbook') : undefined;
    return {
      type: 'fail',
      report: {
        reportType: String(result.raw('report_type')),
        requestHash: optionalFelt(result, 'req_hash'),
        entityHash: optionalFelt(result, 'entity_hash'),
        errorCode: code === undefined ? undefined : String(code),
        receivedMs,
      },
    };
  }
  if (result.has('tx_hash')) {
    return {
      type: 'rollup',
      report: {
        txHash: result.felt('tx_hash'),
        orderHash: optionalFelt(result, 'order_hash'),
        requestHash: optionalFelt(result, 'req_hash'),
        oldTxHash: optionalFelt(result, 'old_tx_hash'),
        receivedMs,
      },
    };
  }
  // python_akira's last branch reads `cancel_ticker_hash` unconditionally: without it the frame is
  // no report we know, maybe a broken execution report, so it must not pass as a cancel-all.
  if (!result.has('cancel_ticker_hash')) throw new WireError(result.path('cancel_ticker_hash'), 'a private report needs hash, report_type, tx_hash or cancel_ticker_hash');
  return {
    type: 'cancel-all',
    report: {
      cancelTickerHash: optionalFelt(result, 'cancel_ticker_hash'),
      pair: frame.has('pair') ? parsePairField(frame.raw('pair'), frame.path('pair')) : undefined,
      receivedMs,
    },
  };
}

function readExecution(frame: FieldReader, result: FieldReader, context: ParseContext): ExecutionReport {
  const orderHash = result.felt('hash');
  const pairSource = frame.has('pair') ? frame : result.has('pair') ? result : undefined;
  const pair = pairSource !== undefined ? parsePairField(pairSource.raw('pair'), pairSource.path('pair')) : (context.pairOfOrder?.(orderHash) ?? context.defaultPair);
  if (pair === undefined) throw new WireError(frame.path('pair'), `execution report for ${feltToHex(orderHash)} names no pair`);
  const tokens = tokensOf(pair, context.chain, 'pair');
  const sink = context.anomalies;
  const matcher = result.has('matcher_result') ? result.raw('matcher_result') : undefined;
  return {
    orderHash,
    client: frame.has('client') ? frame.felt('client') : undefined,
    pair,
    fillPrice: result.amount('fill_price', tokens.quote.decimals),
    fillBaseQty: result.amount('fill_base_qty', tokens.base.decimals),
    fillQuoteQty: result.amount('fill_quote_qty', tokens.quote.decimals),
    accBaseQty: result.amount('acc_base_qty', tokens.base.decimals),
    accQuoteQty: result.amount('acc_quote_qty', tokens.quote.decimals),
    isSellSide: result.bool('is_sell_side'),
    status: result.has('status') || sink === undefined ? parseOrderStatus(result.raw('status'), result.path('status'), sink) : missingStatus(result, sink),
    matcherResult: matcher === undefined ? undefined : parseMatcherResult(matcher, result.path('matcher_result'), sink),
    timeMs: readTime(result, context.receivedMs),
    receivedMs: context.receivedMs,
  };
}

/** A report without a status: its fill still counts; `ACC` moves no state (see parseOrderStatus). */
function missingStatus(result: FieldReader, sink: AnomalySink): OrderStatus {
  sink('unknown_status', result.path('status'), 'execution report without a status; read as ACC');
  return 'ACC';
}

/**
 * A matcher result of REFERENCE §3.4 (the JS SDK's stray leading space tolerated). python_akira
 * types it as any string, so with a sink an unknown one is dropped, not the report.
 */
function parseMatcherResult(value: unknown, field: string, sink: AnomalySink | undefined): MatcherResult | undefined {
  const text = typeof value === 'string' ? value.trim() : value;
  if (typeof text !== 'string' || !(MATCHER_RESULTS as readonly string[]).includes(text)) {
    if (sink !== undefined) {
      sink('unknown_matcher_result', field, `unknown matcher result ${JSON.stringify(value)}`);
      return undefined;
    }
    throw new WireError(field, `unknown matcher result ${JSON.stringify(value)}`);
  }
  return text as MatcherResult;
}

/** A msg id: digits as the venue sends them (a JSON number is read too, and reported). */
function readMsgId(result: FieldReader, key: string, sink: AnomalySink | undefined): bigint | undefined {
  if (!result.has(key)) return undefined;
  if (typeof result.raw(key) === 'number') sink?.('numeric_msg_id', result.path(key), String(result.raw(key)));
  return result.felt(key);
}

function readDelta(result: FieldReader, tokens: TokenPair, sink: AnomalySink | undefined): BookDelta {
  const msgId = readMsgId(result, 'msg_id', sink);
  const start = readMsgId(result, 'msg_ids_start', sink) ?? msgId;
  const end = readMsgId(result, 'msg_ids_end', sink) ?? msgId;
  if (start === undefined || end === undefined) throw new WireError(result.path('msg_ids_start'), 'a book delta needs msg_ids_start/msg_ids_end or msg_id');
  if (end < start) throw new WireError(result.path('msg_ids_end'), `${end} is before msg_ids_start ${start}`);
  return {
    bids: result.has('bids') ? parseLevels(result.raw('bids'), tokens, result.path('bids'), sink) : [],
    asks: result.has('asks') ? parseLevels(result.raw('asks'), tokens, result.path('asks'), sink) : [],
    msgIdStart: start,
    msgIdEnd: end,
  };
}

/** A WS bbo side `[price, volume, orders]`, `[]` when empty; the REST form `{…}` is read too. */
function bboSide(result: FieldReader, key: string, tokens: TokenPair, sink: AnomalySink | undefined): PriceLevel | undefined {
  if (!result.has(key)) return undefined;
  const value = result.raw(key);
  if (Array.isArray(value) && value.length === 0) return undefined;
  let level: PriceLevel;
  if (!Array.isArray(value) && typeof value === 'object' && sink !== undefined) {
    sink('object_level', result.path(key), JSON.stringify(value).slice(0, 120));
    const side = result.object(key);
    if (!side.has('price')) return undefined;
    level = { price: side.amount('price', tokens.quote.decimals), qty: side.amount('volume', tokens.base.decimals), orders: side.has('orders') ? side.uint('orders', 32) : 0 };
  } else {
    level = parseLevelTuple(value, tokens, result.path(key), sink);
  }
  return level.qty === 0n ? undefined : level;
}

function readTime(result: FieldReader, fallbackMs: number): number {
  if (!result.has('time')) return fallbackMs;
  const value = result.raw('time');
  const time = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(time) && time > 0 ? time : fallbackMs;
}

function optionalFelt(reader: FieldReader, key: string): bigint | undefined {
  return reader.has(key) ? parseFelt(reader.raw(key), reader.path(key)) : undefined;
}

function tokensOf(pair: Pair, chain: ChainInfo, field: string): TokenPair {
  const base = chain.tokens.get(pair.base);
  const quote = chain.tokens.get(pair.quote);
  if (base === undefined || quote === undefined) throw new WireError(field, `pair ${pair.base}-${pair.quote} has a token not in the ${chain.name} table`);
  return { base, quote };
}

