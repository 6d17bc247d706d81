/**
 * Binance's klines (rest-api.md "Kline/Candlestick data") from the trade tape's one-minute candles:
 * every interval from `1m` to `1M`, in UTC or in the `timeZone` asked for (an interval's bounds
 * moved by its offset; `startTime`/`endTime` stay UTC), one row per interval from the first traded
 * one, an interval without trades carrying the previous close and zero volume, the current one
 * included while it is open. `1s` needs second candles the tape does not keep: refused with -1020.
 */
import { illegal, refuse, type Refusal } from './order-requests.ts';
import type { Candle } from './trade-tape.ts';
import { formatUnits8 } from './trading-format.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Fixed interval lengths in ms; `1w` and `1M` are calendar intervals. */
const FIXED_INTERVALS: Readonly<Record<string, number>> = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '2h': 2 * HOUR_MS,
  '4h': 4 * HOUR_MS,
  '6h': 6 * HOUR_MS,
  '8h': 8 * HOUR_MS,
  '12h': 12 * HOUR_MS,
  '1d': DAY_MS,
  '3d': 3 * DAY_MS,
};

/** The Monday 1970-01-05 00:00 UTC: weeks start on Mondays. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** How one interval is bounded, in local time (UTC + the offset). */
export interface KlineInterval {
  /** The start of the interval holding `localMs`. */
  start(localMs: number): number;
  /** The start of the next interval after the one starting at `startMs`. */
  next(startMs: number): number;
}

/** -1120 "Invalid interval." (errors.md), or -1020 for `1s`. */
export function parseInterval(text: string | undefined): KlineInterval | Refusal {
  if (text === undefined) return refuse(-1102, "Mandatory parameter 'interval' was not sent, was empty/null, or malformed.");
  if (text === '1s') return refuse(-1020, 'This operation is not supported.');
  const fixed = FIXED_INTERVALS[text];
  if (fixed !== undefined) return { start: (ms) => Math.floor(ms / fixed) * fixed, next: (ms) => ms + fixed };
  if (text === '1w') return { start: (ms) => Math.floor((ms - FIRST_MONDAY_MS) / (7 * DAY_MS)) * 7 * DAY_MS + FIRST_MONDAY_MS, next: (ms) => ms + 7 * DAY_MS };
  if (text === '1M') {
    const monthStart = (ms: number): number => {
      const date = new Date(ms);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    };
    return { start: monthStart, next: (ms) => monthStart(ms + 32 * DAY_MS) };
  }
  return refuse(-1120, 'Invalid interval.');
}

/** `timeZone` as an offset in ms: hours (`8`, `-1`) or hours and minutes (`05:45`), within [-12:00, +14:00]. */
export function parseTimeZone(text: string | undefined): number | Refusal {
  if (text === undefined) return 0;
  const match = /^([+-]?)(\d{1,2})(?::(\d{2}))?$/.exec(text);
  const hours = Number(match?.[2] ?? Number.NaN);
  const minutes = Number(match?.[3] ?? 0);
  const offset = (match?.[1] === '-' ? -1 : 1) * (hours * HOUR_MS + minutes * MINUTE_MS);
  if (match === null || minutes >= 60 || offset < -12 * HOUR_MS || offset > 14 * HOUR_MS) return illegal('timeZone', '[-12:00 to +14:00]');
  return offset;
}

/** One kline row as Binance prints it. */
export type KlineRow = [number, string, string, string, string, string, number, string, number, string, string, string];

/** What a klines request selects. */
export interface KlineQuery {
  readonly interval: KlineInterval;
  readonly offsetMs: number;
  readonly startTime: number | undefined;
  readonly endTime: number | undefined;
  readonly limit: number;
  readonly nowMs: number;
}

interface Bar {
  startMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  quoteVolume: bigint;
  count: number;
  takerBuyVolume: bigint;
  takerBuyQuote: bigint;
}

const emptyBar = (startMs: number, close: bigint): Bar => ({ startMs, open: close, high: close, low: close, close, volume: 0n, quoteVolume: 0n, count: 0, takerBuyVolume: 0n, takerBuyQuote: 0n });

/** The klines of `candles` (oldest first) for `query`, oldest first. */
export function klineRows(candles: readonly Candle[], query: KlineQuery): KlineRow[] {
  const { interval, offsetMs } = query;
  const startOf = (utcMs: number): number => interval.start(utcMs + offsetMs) - offsetMs;
  const nextOf = (startMs: number): number => interval.next(startMs + offsetMs) - offsetMs;
  const bars: Bar[] = [];
  for (const candle of candles) {
    const startMs = startOf(candle.startMs);
    let bar = bars.at(-1);
    while (bar !== undefined && bar.startMs < startMs) {
      const nextMs = nextOf(bar.startMs);
      if (nextMs >= startMs) break;
      bar = emptyBar(nextMs, bar.close);
      bars.push(bar);
    }
    if (bar === undefined || bar.startMs !== startMs) {
      bars.push({ ...emptyBar(startMs, candle.open), high: candle.high, low: candle.low, close: candle.close, volume: candle.volume, quoteVolume: candle.quoteVolume, count: candle.count, takerBuyVolume: candle.takerBuyVolume, takerBuyQuote: candle.takerBuyQuote });
      continue;
    }
    if (candle.high > bar.high) bar.high = candle.high;
    if (candle.low < bar.low) bar.low = candle.low;
    bar.close = candle.close;
    bar.volume += candle.volume;
    bar.quoteVolume += candle.quoteVolume;
    bar.count += candle.count;
    bar.takerBuyVolume += candle.takerBuyVolume;
    bar.takerBuyQuote += candle.takerBuyQuote;
  }
  // Quiet intervals up to the current one.
  const currentMs = startOf(query.nowMs);
  for (let bar = bars.at(-1); bar !== undefined && bar.startMs < currentMs; bar = bars.at(-1)) bars.push(emptyBar(nextOf(bar.startMs), bar.close));
  const chosen = bars.filter((bar) => (query.startTime === undefined || bar.startMs >= query.startTime) && (query.endTime === undefined || bar.startMs <= query.endTime));
  const page = query.startTime !== undefined ? chosen.slice(0, query.limit) : chosen.slice(-query.limit);
  return page.map((bar) => [
    bar.startMs,
    formatUnits8(bar.open),
    formatUnits8(bar.high),
    formatUnits8(bar.low),
    formatUnits8(bar.close),
    formatUnits8(bar.volume),
    nextOf(bar.startMs) - 1,
    formatUnits8(bar.quoteVolume),
    bar.count,
    formatUnits8(bar.takerBuyVolume),
    formatUnits8(bar.takerBuyQuote),
    '0',
  ]);
}
