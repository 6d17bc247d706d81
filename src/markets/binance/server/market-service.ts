/**
 * Binance's public market-data requests for one replayed symbol, independent of the transport:
 * the REST routes (`market-routes.ts`) and the WebSocket API (`ws-api.ts`) both answer through it,
 * with the same shapes and errors (web-socket-api.md: the same parameters, status and error codes
 * as REST). Served: `exchangeInfo`, `depth`, the book ticker, the price ticker, the average price,
 * recent trades, aggregate trades, klines and the 24 h ticker (FULL and MINI), each as rest-api.md
 * prints it; -1100 illegal characters, -1102 missing parameter, -1121 invalid symbol, -1128 bad
 * combination, -1001 while the recording's own gap leaves no trustworthy book.
 * The books are the replay's live book, so a depth's `lastUpdateId` bridges onto the diff
 * stream exactly as Binance's does; trades and statistics are the replay's trade tape.
 */
import type { Clock } from '../../../core/index.ts';
import { exchangeInfoBody, type StatedLimits } from './exchange-info.ts';
import { illegal, isRefusal, limitParam, mandatory, parseWindow, refuse, selectWindow, served, timeParam, type Outcome, type Refusal, type RequestParams } from './order-requests.ts';
import { WEIGHT_LIMIT_PER_MINUTE } from './rate-counters.ts';
import type { TextSnapshot } from './recording.ts';
import { klineRows, parseInterval, parseTimeZone } from './klines.ts';
import { AVERAGE_PRICE_MINUTES, quoteOfTrade, type TradeTape, type WindowStats } from './trade-tape.ts';
import { formatUnits8, parseAmount8 } from './trading-format.ts';

/** What the service reads from the replay. */
export interface MarketSource {
  /** Upper case. */
  readonly symbol: string;
  readonly rules: { readonly tickSize: string; readonly stepSize: string };
  readonly tape: TradeTape;
  snapshot(limit: number): TextSnapshot | undefined;
}

/** Lets a test hold depth answers back (a snapshot that is slow to come). */
export interface SnapshotGate {
  /** Resolves when depth answers may go out. */
  wait(): Promise<void>;
}

/** Default and largest `limit` of `depth` (rest-api.md "Order book"). */
const DEFAULT_DEPTH_LIMIT = 100;
const MAX_DEPTH_LIMIT = 5_000;
/** Default and largest `limit` of `trades` and `aggTrades`. */
const DEFAULT_TRADES_LIMIT = 500;
const MAX_TRADES_LIMIT = 1_000;
const DAY_MS = 86_400_000;
const UNIT = 100_000_000n;
const ZERO = formatUnits8(0n);

const UNAVAILABLE = refuse(-1001, 'Internal error; unable to process your request. Please try again.', 503);
const INVALID_SYMBOL = refuse(-1121, 'Invalid symbol.');
const BAD_COMBINATION = refuse(-1128, 'Combination of optional parameters invalid.');

/**
 * Which symbols a request names (`symbol`, or `symbols` as a JSON list: the REST query's text or
 * the WebSocket API's array); undefined = all.
 */
export function requestedSymbols(params: RequestParams): string[] | Refusal | undefined {
  const one = params.get('symbol');
  const many = params.get('symbols');
  if (one !== undefined && many !== undefined) return BAD_COMBINATION;
  if (one !== undefined) return [one];
  if (many === undefined) return undefined;
  try {
    const list: unknown = JSON.parse(many);
    if (Array.isArray(list) && list.every((item) => typeof item === 'string')) return list as string[];
  } catch {
    // falls through to the error
  }
  return illegal('symbols', '^\\[("[A-Z0-9-_.]{1,20}"(,"[A-Z0-9-_.]{1,20}"){0,}){0,1}\\]$');
}

/**
 * Weight of a ticker request by the symbols it names (rest-api.md "24hr ticker price change
 * statistics", "Symbol price ticker", "Symbol order book ticker"): `one` for `symbol`, else by the
 * length of `symbols` in `tiers` ([up to, weight], ascending), `all` without either.
 */
export function tickerWeight(params: RequestParams, one: number, tiers: readonly (readonly [number, number])[], all: number): number {
  if (params.get('symbol') !== undefined) return one;
  const symbols = requestedSymbols(params);
  if (symbols === undefined || isRefusal(symbols)) return all;
  return tiers.find(([upTo]) => symbols.length <= upTo)?.[1] ?? all;
}

/** `ticker/24hr`: 2 for one symbol or up to 20, 40 up to 100, 80 beyond or for all. */
export const dayTickerWeight = (params: RequestParams): number => tickerWeight(params, 2, [[20, 2], [100, 40]], 80);
/** `ticker/price`, `ticker/bookTicker`: 2 for one symbol, 4 for a list or all. */
export const topTickerWeight = (params: RequestParams): number => tickerWeight(params, 2, [], 4);

/** Weight of `depth` by limit (rest-api.md). */
export function depthWeight(limit: number): number {
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
}

/** Weight of a `depth` request by its `limit` (the default's for a bad one, which is then refused). */
export function depthRequestWeight(params: RequestParams): number {
  const limit = limitParam(params, DEFAULT_DEPTH_LIMIT, Number.MAX_SAFE_INTEGER);
  return depthWeight(typeof limit === 'number' ? limit : DEFAULT_DEPTH_LIMIT);
}

/** `symbol` or `symbols` naming this venue's symbol only; the list asked for (undefined = all). */
function checkSymbols(params: RequestParams, symbol: string): { readonly single: boolean } | Refusal {
  const wanted = requestedSymbols(params);
  if (wanted === undefined) return { single: false };
  if (isRefusal(wanted)) return wanted;
  if (wanted.some((name) => name !== symbol)) return INVALID_SYMBOL;
  return { single: params.get('symbol') !== undefined };
}

/** The price change in percent with 3 decimals, rounded half away from zero ("-95.960"). */
function percentText(change: bigint, open: bigint): string {
  if (open === 0n) return '0.000';
  const scaled = (change * 100_000n * 2n) / open;
  const rounded = (scaled + (scaled < 0n ? -1n : 1n)) / 2n;
  const negative = rounded < 0n;
  const magnitude = negative ? -rounded : rounded;
  return `${negative ? '-' : ''}${magnitude / 1000n}.${(magnitude % 1000n).toString().padStart(3, '0')}`;
}

/** The market requests of one replayed symbol. */
export class MarketService {
  constructor(
    private readonly source: MarketSource,
    private readonly clock: Clock,
    private readonly gate: SnapshotGate,
    private readonly limits: StatedLimits = { weightPerMinute: WEIGHT_LIMIT_PER_MINUTE, ordersPer10s: 100, ordersPerDay: 200_000 },
  ) {}

  get symbol(): string {
    return this.source.symbol;
  }

  /** `GET /api/v3/exchangeInfo`, `exchangeInfo`: the rules of the one symbol, and the limits enforced. */
  exchangeInfo(params: RequestParams): Outcome {
    const checked = checkSymbols(params, this.symbol);
    if (isRefusal(checked)) return checked;
    return served(exchangeInfoBody(this.source, this.limits, this.#now()));
  }

  /** `GET /api/v3/depth`, `depth`: the live book's top `limit` levels with its `lastUpdateId`. */
  async depth(params: RequestParams): Promise<Outcome> {
    const symbolError = this.#checkSymbol(params);
    if (symbolError !== undefined) return symbolError;
    const limit = limitParam(params, DEFAULT_DEPTH_LIMIT, MAX_DEPTH_LIMIT);
    if (typeof limit !== 'number') return limit;
    await this.gate.wait();
    const snapshot = this.source.snapshot(limit);
    // The recording's own gap leaves the server without a trustworthy book until its next snapshot.
    if (snapshot === undefined) return UNAVAILABLE;
    return served({ lastUpdateId: snapshot.lastUpdateId, bids: snapshot.bids, asks: snapshot.asks });
  }

  /** `GET /api/v3/ticker/bookTicker`, `ticker.book`: one object for `symbol`, a list otherwise. */
  bookTicker(params: RequestParams): Outcome {
    const checked = checkSymbols(params, this.symbol);
    if (isRefusal(checked)) return checked;
    const top = this.source.snapshot(1);
    if (top === undefined) return UNAVAILABLE;
    const [bidPrice, bidQty] = top.bids[0] ?? [ZERO, ZERO];
    const [askPrice, askQty] = top.asks[0] ?? [ZERO, ZERO];
    const ticker = { symbol: this.symbol, bidPrice, bidQty, askPrice, askQty };
    return served(checked.single ? ticker : [ticker]);
  }

  /** `GET /api/v3/ticker/price`, `ticker.price`: the last trade's price (the mid before any trade). */
  priceTicker(params: RequestParams): Outcome {
    const checked = checkSymbols(params, this.symbol);
    if (isRefusal(checked)) return checked;
    const price = this.source.tape.last()?.price ?? this.#mid();
    if (price === undefined) return UNAVAILABLE;
    const ticker = { symbol: this.symbol, price: formatUnits8(price) };
    return served(checked.single ? ticker : [ticker]);
  }

  /**
   * `GET /api/v3/avgPrice`, `avgPrice`: the volume-weighted price of the last 5 minutes' trades
   * (`mins` = NOTIONAL's `avgPriceMins`) and the last trade's time; before the first trade, the
   * book's mid at the current time.
   */
  averagePrice(params: RequestParams): Outcome {
    const symbolError = this.#checkSymbol(params);
    if (symbolError !== undefined) return symbolError;
    const average = this.source.tape.averagePrice(this.#now());
    const mid = this.#mid();
    if (average === undefined && mid === undefined) return UNAVAILABLE;
    return served({ mins: AVERAGE_PRICE_MINUTES, price: formatUnits8(average?.price ?? mid ?? 0n), closeTime: average?.closeMs ?? this.#now() });
  }

  /** `GET /api/v3/trades`, `trades.recent`: the last `limit` trades (default 500, at most 1000), oldest first. */
  recentTrades(params: RequestParams): Outcome {
    const symbolError = this.#checkSymbol(params);
    if (symbolError !== undefined) return symbolError;
    const limit = limitParam(params, DEFAULT_TRADES_LIMIT, MAX_TRADES_LIMIT);
    if (typeof limit !== 'number') return limit;
    return served(
      this.source.tape.recent(limit).map((trade) => ({
        id: trade.id,
        price: formatUnits8(trade.price),
        qty: formatUnits8(trade.qty),
        quoteQty: formatUnits8(quoteOfTrade(trade)),
        time: trade.timeMs,
        isBuyerMaker: trade.isBuyerMaker,
        isBestMatch: true,
      })),
    );
  }

  /**
   * `GET /api/v3/aggTrades`, `trades.aggregate`: the aggregates kept (the last 1000), from
   * `fromId` or `startTime` (oldest first up to `limit`), up to `endTime`, else the most recent.
   */
  aggregateTrades(params: RequestParams): Outcome {
    const symbolError = this.#checkSymbol(params);
    if (symbolError !== undefined) return symbolError;
    const window = parseWindow(params, 'fromId');
    if (isRefusal(window)) return window;
    if (window.fromId !== undefined && (window.startTime !== undefined || window.endTime !== undefined)) return BAD_COMBINATION;
    return served(
      selectWindow(this.source.tape.aggregates(), window, (item) => item.id, (item) => item.timeMs).map((item) => ({
        a: item.id,
        p: formatUnits8(item.price),
        q: formatUnits8(item.qty),
        f: item.firstId,
        l: item.lastId,
        T: item.timeMs,
        m: item.isBuyerMaker,
        M: true,
      })),
    );
  }

  /** `GET /api/v3/klines`, `klines`: the tape's candles by `interval` (klines.ts), default 500, at most 1000. */
  klines(params: RequestParams): Outcome {
    const symbolError = this.#checkSymbol(params);
    if (symbolError !== undefined) return symbolError;
    const interval = parseInterval(params.get('interval'));
    if (isRefusal(interval)) return interval;
    const offsetMs = parseTimeZone(params.get('timeZone'));
    if (typeof offsetMs !== 'number') return offsetMs;
    const startTime = timeParam(params, 'startTime');
    if (typeof startTime === 'object') return startTime;
    const endTime = timeParam(params, 'endTime');
    if (typeof endTime === 'object') return endTime;
    const limit = limitParam(params, DEFAULT_TRADES_LIMIT, MAX_TRADES_LIMIT);
    if (typeof limit !== 'number') return limit;
    return served(klineRows(this.source.tape.candles(), { interval, offsetMs, startTime, endTime, limit, nowMs: this.#now() }));
  }

  /**
   * `GET /api/v3/ticker/24hr`, `ticker.24hr` (`type` FULL or MINI): the last day of the tape in
   * whole minutes (trade-tape.ts), the book's top for FULL's bid and ask. With no trade in the
   * day: zero prices, `firstId`/`lastId` -1, `count` 0, as Binance prints an idle symbol.
   */
  dayTicker(params: RequestParams): Outcome {
    const checked = checkSymbols(params, this.symbol);
    if (isRefusal(checked)) return checked;
    const type = params.get('type') ?? 'FULL';
    if (type !== 'FULL' && type !== 'MINI') return illegal('type', 'FULL, MINI');
    const now = this.#now();
    const { tape } = this.source;
    const { stats, closeBefore } = tape.day(now);
    const ticker = type === 'MINI' ? this.#miniTicker(stats, now) : this.#fullTicker(stats, now, tape.last()?.qty ?? 0n, closeBefore ?? 0n);
    return served(checked.single ? ticker : [ticker]);
  }

  #miniTicker(day: WindowStats | undefined, now: number): Record<string, unknown> {
    return {
      symbol: this.symbol,
      openPrice: formatUnits8(day?.open ?? 0n),
      highPrice: formatUnits8(day?.high ?? 0n),
      lowPrice: formatUnits8(day?.low ?? 0n),
      lastPrice: formatUnits8(day?.close ?? 0n),
      volume: formatUnits8(day?.volume ?? 0n),
      quoteVolume: formatUnits8(day?.quoteVolume ?? 0n),
      openTime: day?.openMs ?? now - DAY_MS,
      closeTime: now,
      firstId: day?.firstId ?? -1,
      lastId: day?.lastId ?? -1,
      count: day?.count ?? 0,
    };
  }

  #fullTicker(day: WindowStats | undefined, now: number, lastQty: bigint, prevClose: bigint): Record<string, unknown> {
    const open = day?.open ?? 0n;
    const close = day?.close ?? 0n;
    const top = this.source.snapshot(1);
    const [bidPrice, bidQty] = top?.bids[0] ?? [ZERO, ZERO];
    const [askPrice, askQty] = top?.asks[0] ?? [ZERO, ZERO];
    const mini = this.#miniTicker(day, now);
    return {
      symbol: this.symbol,
      priceChange: formatUnits8(close - open),
      priceChangePercent: percentText(close - open, open),
      weightedAvgPrice: formatUnits8(day === undefined || day.volume === 0n ? 0n : (day.quoteVolume * UNIT) / day.volume),
      prevClosePrice: formatUnits8(prevClose),
      lastPrice: mini['lastPrice'],
      lastQty: formatUnits8(day === undefined ? 0n : lastQty),
      bidPrice,
      bidQty,
      askPrice,
      askQty,
      openPrice: mini['openPrice'],
      highPrice: mini['highPrice'],
      lowPrice: mini['lowPrice'],
      volume: mini['volume'],
      quoteVolume: mini['quoteVolume'],
      openTime: mini['openTime'],
      closeTime: mini['closeTime'],
      firstId: mini['firstId'],
      lastId: mini['lastId'],
      count: mini['count'],
    };
  }

  /** -1102 for a missing `symbol`, -1121 for another symbol than the venue's. */
  #checkSymbol(params: RequestParams): Refusal | undefined {
    const symbol = params.get('symbol');
    if (symbol === undefined) return mandatory('symbol');
    return symbol === this.symbol ? undefined : INVALID_SYMBOL;
  }

  #now(): number {
    return Math.floor(this.clock.nowMs());
  }

  /** The book's mid, 8-decimal units. */
  #mid(): bigint | undefined {
    const top = this.source.snapshot(1);
    const bid = parseAmount8(top?.bids[0]?.[0]);
    const ask = parseAmount8(top?.asks[0]?.[0]);
    return bid === undefined || ask === undefined ? undefined : (bid + ask) / 2n;
  }
}
