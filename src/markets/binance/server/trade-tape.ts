/**
 * The replayed market's trades, kept as Binance's market-data requests read them: the last 1000
 * trades (rest-api.md "Recent trades list"), the last 1000 aggregate trades ("Compressed/Aggregate
 * trades list", and the `<s>@aggTrade` stream, so both carry the same ids), the volume-weighted
 * price of the last 5 minutes ("Current average price") and one-minute candles over the last day
 * ("24hr ticker price change statistics") and the candles of "Kline/Candlestick data", kept a week.
 * Amounts are 8-decimal units (Binance's own precision), times the replay clock's ms.
 *
 * An aggregate is the consecutive trades of one taker order at one price: same recorded trade time,
 * same side, same price, consecutive ids (web-socket-streams.md "Aggregate Trade Streams"). It is
 * closed by the next message that is not such a trade.
 *
 * The day's statistics are summed from whole minutes, so their window opens at the start of the
 * minute 24 h ago (up to 59 999 ms wider than a day), as Binance's rolling window does (rest-api.md
 * "Rolling window price change statistics": "openTime … always starts on a minute"). The tape holds
 * the recording's trades only: our own desk's fills take recorded liquidity without removing it,
 * and do not print here either.
 */
import { parseScaled } from '../decimals.ts';
import { parseAmount8 } from './trading-format.ts';

/** One replayed trade as the stream printed it. */
export interface TradeEvent {
  readonly tradeId: number;
  /** Decimal text, as recorded. */
  readonly price: string;
  readonly qty: string;
  /** As printed (`T`): the replay clock's time. */
  readonly tradeMs: number;
  /** As recorded: trades of one taker order share it. */
  readonly recordedTradeMs: number;
  readonly buyerIsMaker: boolean;
}

/** A trade in 8-decimal units. */
export interface TapeTrade {
  readonly id: number;
  readonly price: bigint;
  readonly qty: bigint;
  readonly timeMs: number;
  readonly isBuyerMaker: boolean;
}

/** An aggregate trade (`a`, `p`, `q`, `f`, `l`, `T`, `m`). */
export interface AggregateTrade {
  readonly id: number;
  readonly price: bigint;
  readonly qty: bigint;
  readonly firstId: number;
  readonly lastId: number;
  readonly timeMs: number;
  readonly isBuyerMaker: boolean;
}

/** What a span of trades sums to. */
export interface TradeSummary {
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  /** Base traded, 8-decimal units. */
  readonly volume: bigint;
  /** Quote traded, 8-decimal units (each trade's rounded down). */
  readonly quoteVolume: bigint;
  readonly firstId: number;
  readonly lastId: number;
  readonly count: number;
}

/** The statistics of a window of whole minutes. */
export interface WindowStats extends TradeSummary {
  readonly openMs: number;
}

/** One minute's trades: the candle klines and the day's statistics are summed from. */
export interface Candle extends TradeSummary {
  readonly startMs: number;
  /** Base and quote bought by takers (trades whose buyer was not the maker). */
  readonly takerBuyVolume: bigint;
  readonly takerBuyQuote: bigint;
}

/** How long minute candles are kept (klines further back answer nothing). */
export const CANDLES_KEPT_MS = 7 * 86_400_000;

/** Trades kept for "recent trades", aggregates for "aggregate trades" (each endpoint's maximum limit). */
export const TAPE_LENGTH = 1_000;
/** The window of the average price (exchangeInfo's NOTIONAL `avgPriceMins`). */
export const AVERAGE_PRICE_MINUTES = 5;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const UNIT = 100_000_000n;

type Minute = { -readonly [K in keyof Candle]: Candle[K] };

interface OpenAggregate {
  readonly first: TapeTrade;
  readonly recordedTradeMs: number;
  lastId: number;
  qty: bigint;
}

/** Quote value of a trade, 8-decimal units, rounded down. */
export const quoteOfTrade = (trade: { readonly price: bigint; readonly qty: bigint }): bigint => (trade.price * trade.qty) / UNIT;

/** Decimal text → 8-decimal units: the fast integer walk, or the exact parser past 2^53. */
function units8(text: string): bigint | undefined {
  const scaled = parseScaled(text, 8);
  return scaled === undefined ? parseAmount8(text) : BigInt(scaled);
}

function pushBounded<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > TAPE_LENGTH) list.shift();
}

/** The tape of one replayed symbol. */
export class TradeTape {
  readonly #recent: TapeTrade[] = [];
  readonly #aggregates: AggregateTrade[] = [];
  #open: OpenAggregate | undefined;
  #nextAggregateId = 1;
  /** Trades of the last 5 minutes, with their sums. */
  readonly #averageWindow: TapeTrade[] = [];
  #windowQuote = 0n;
  #windowQty = 0n;
  readonly #minutes: Minute[] = [];
  /** The close of the newest minute no longer kept. */
  #closeBeforeKept: bigint | undefined;

  /**
   * Records a trade; returns the aggregate it closed (the one before it), if any.
   * A trade whose text is not a decimal is skipped (the stream still printed it as recorded).
   */
  add(event: TradeEvent): AggregateTrade | undefined {
    const price = units8(event.price);
    const qty = units8(event.qty);
    if (price === undefined || qty === undefined) return this.flush();
    const trade: TapeTrade = { id: event.tradeId, price, qty, timeMs: event.tradeMs, isBuyerMaker: event.buyerIsMaker };
    pushBounded(this.#recent, trade);
    this.#addToAverage(trade);
    this.#addToMinute(trade);
    const open = this.#open;
    if (open !== undefined && open.first.price === price && open.recordedTradeMs === event.recordedTradeMs && open.first.isBuyerMaker === trade.isBuyerMaker && trade.id === open.lastId + 1) {
      open.lastId = trade.id;
      open.qty += qty;
      return undefined;
    }
    const closed = this.flush();
    this.#open = { first: trade, recordedTradeMs: event.recordedTradeMs, lastId: trade.id, qty };
    return closed;
  }

  /** Closes the open aggregate (any message but a trade of the same order does); returns it. */
  flush(): AggregateTrade | undefined {
    const open = this.#open;
    if (open === undefined) return undefined;
    this.#open = undefined;
    const aggregate: AggregateTrade = {
      id: this.#nextAggregateId++,
      price: open.first.price,
      qty: open.qty,
      firstId: open.first.id,
      lastId: open.lastId,
      timeMs: open.first.timeMs,
      isBuyerMaker: open.first.isBuyerMaker,
    };
    pushBounded(this.#aggregates, aggregate);
    return aggregate;
  }

  /** The last `limit` trades, oldest first. */
  recent(limit: number): readonly TapeTrade[] {
    return this.#recent.slice(-limit);
  }

  /** The newest trade. */
  last(): TapeTrade | undefined {
    return this.#recent.at(-1);
  }

  /** The aggregates kept (the last 1000 closed), oldest first. */
  aggregates(): readonly AggregateTrade[] {
    return this.#aggregates;
  }

  /**
   * The volume-weighted price of the trades of the last 5 minutes and the last one's time; the
   * last trade's price when none traded in them; undefined before the first trade.
   */
  averagePrice(nowMs: number): { readonly price: bigint; readonly closeMs: number } | undefined {
    this.#expireAverage(nowMs);
    const last = this.last();
    if (last === undefined) return undefined;
    // Σ price × qty (16 places) / Σ qty (8 places): 8 places, rounded down.
    return { price: this.#windowQty === 0n ? last.price : this.#windowQuote / this.#windowQty, closeMs: last.timeMs };
  }

  /**
   * The statistics of the minutes of the last 24 h (from the minute 24 h before `nowMs`), and the
   * last price before them (`prevClosePrice`); `stats` undefined when none traded.
   */
  day(nowMs: number): { readonly stats: WindowStats | undefined; readonly closeBefore: bigint | undefined } {
    const fromMs = Math.floor((nowMs - DAY_MS) / MINUTE_MS) * MINUTE_MS;
    const minutes = this.#minutes;
    let index = minutes.length;
    while (index > 0 && (minutes[index - 1] as Minute).startMs >= fromMs) index--;
    const closeBefore = index > 0 ? (minutes[index - 1] as Minute).close : this.#closeBeforeKept;
    const day = minutes.slice(index);
    const first = day[0];
    const last = day.at(-1);
    if (first === undefined || last === undefined) return { stats: undefined, closeBefore };
    let high = first.high;
    let low = first.low;
    let volume = 0n;
    let quoteVolume = 0n;
    let count = 0;
    for (const minute of day) {
      if (minute.high > high) high = minute.high;
      if (minute.low < low) low = minute.low;
      volume += minute.volume;
      quoteVolume += minute.quoteVolume;
      count += minute.count;
    }
    return { stats: { openMs: fromMs, open: first.open, high, low, close: last.close, volume, quoteVolume, firstId: first.firstId, lastId: last.lastId, count }, closeBefore };
  }

  /** The minute candles kept (a week), oldest first; minutes without trades have none. */
  candles(): readonly Candle[] {
    return this.#minutes;
  }

  #addToAverage(trade: TapeTrade): void {
    this.#averageWindow.push(trade);
    this.#windowQuote += trade.price * trade.qty;
    this.#windowQty += trade.qty;
    this.#expireAverage(trade.timeMs);
  }

  #expireAverage(nowMs: number): void {
    const window = this.#averageWindow;
    while (window.length > 0 && (window[0] as TapeTrade).timeMs <= nowMs - AVERAGE_PRICE_MINUTES * MINUTE_MS) {
      const old = window.shift() as TapeTrade;
      this.#windowQuote -= old.price * old.qty;
      this.#windowQty -= old.qty;
    }
  }

  #addToMinute(trade: TapeTrade): void {
    const startMs = Math.floor(trade.timeMs / MINUTE_MS) * MINUTE_MS;
    const current = this.#minutes.at(-1);
    const quote = quoteOfTrade(trade);
    const takerBuys = !trade.isBuyerMaker;
    if (current !== undefined && current.startMs >= startMs) {
      // A trade printed with an older time than the current minute (a loop restart) counts in it.
      if (trade.price > current.high) current.high = trade.price;
      if (trade.price < current.low) current.low = trade.price;
      current.close = trade.price;
      current.volume += trade.qty;
      current.quoteVolume += quote;
      if (takerBuys) {
        current.takerBuyVolume += trade.qty;
        current.takerBuyQuote += quote;
      }
      current.lastId = trade.id;
      current.count++;
    } else {
      this.#minutes.push({
        startMs,
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: trade.qty,
        quoteVolume: quote,
        takerBuyVolume: takerBuys ? trade.qty : 0n,
        takerBuyQuote: takerBuys ? quote : 0n,
        firstId: trade.id,
        lastId: trade.id,
        count: 1,
      });
    }
    const minutes = this.#minutes;
    while (minutes.length > 0 && (minutes[0] as Minute).startMs < trade.timeMs - CANDLES_KEPT_MS) this.#closeBeforeKept = (minutes.shift() as Minute).close;
  }
}
