/**
 * Binance's time unit option (CHANGELOG 2024-12-17; rest-api.md "General API
 * Information"; web-socket-api.md and web-socket-streams.md "General information"): responses
 * carry times in milliseconds unless the request asks for `MICROSECOND` (REST: the
 * `X-MBX-TIME-UNIT` header; the WebSocket API and the streams: `timeUnit=` in the connection URL),
 * spelled `MICROSECOND` or `microsecond` (likewise `MILLISECOND`); any other value is -1194. Time parameters (`timestamp`, `startTime`, `endTime`)
 * may be sent in either unit, whatever the option: a value of 16 digits or more is microseconds.
 *
 * The double keeps time in milliseconds (its clock's resolution), so an answer in microseconds is
 * the same instant × 1000: exact, with three trailing zeros.
 */

/** The unit of the times in an answer. */
export type TimeUnit = 'MILLISECOND' | 'MICROSECOND';

/** The refusal of an unknown unit (errors.md -1194). */
export const BAD_TIME_UNIT = { status: 400, code: -1194, msg: 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.' } as const;

/** The unit asked for (absent: milliseconds), or undefined for a value that is neither. */
export function parseTimeUnit(value: string | undefined): TimeUnit | undefined {
  if (value === undefined || value === '') return 'MILLISECOND';
  if (value === 'MILLISECOND' || value === 'millisecond') return 'MILLISECOND';
  return value === 'MICROSECOND' || value === 'microsecond' ? 'MICROSECOND' : undefined;
}

/** A time parameter's value in ms: microseconds (10^14 and above: 16 digits from 1973) divided down. */
export function timeParamMs(value: number): number {
  return value >= 1e14 ? Math.floor(value / 1000) : value;
}

/** The names of the time fields of REST and WebSocket API answers (rest-api.md, web-socket-api.md). */
const ANSWER_TIME_FIELDS: ReadonlySet<string> = new Set(['serverTime', 'transactTime', 'time', 'updateTime', 'workingTime', 'openTime', 'closeTime', 'authorizedSince', 'connectedSince', 'T']);

/** Event times of the streams and of the user data stream (`E`, `T`, order creation `O`, working `W`). */
const EVENT_TIME_FIELDS: ReadonlySet<string> = new Set(['E', 'T', 'O', 'W']);

/** A kline row (rest-api.md "Kline/Candlestick data"): 12 fields, its open and close times at 0 and 6. */
const isKlineRow = (value: readonly unknown[]): boolean => value.length === 12 && typeof value[0] === 'number' && typeof value[6] === 'number' && typeof value[1] === 'string';

function scaled(value: unknown, isTime: (key: string, parent: Readonly<Record<string, unknown>>) => boolean): unknown {
  if (Array.isArray(value) && isKlineRow(value)) return value.map((item, index) => (index === 0 || index === 6 ? (item as number) * 1000 : item));
  if (Array.isArray(value)) return value.map((item) => scaled(item, isTime));
  if (typeof value !== 'object' || value === null) return value;
  const parent = value as Readonly<Record<string, unknown>>;
  return Object.fromEntries(Object.entries(parent).map(([key, item]) => [key, typeof item === 'number' && isTime(key, parent) ? item * 1000 : scaled(item, isTime)]));
}

/** A REST or WebSocket API answer's body with its times in `unit`. */
export function answerInUnit(body: unknown, unit: TimeUnit): unknown {
  return unit === 'MILLISECOND' ? body : scaled(body, (key) => ANSWER_TIME_FIELDS.has(key));
}

/**
 * A stream or user data event with its times in `unit`: `E`, `T`, `O`, `W`, and the `u` of an
 * `outboundAccountPosition` (its last update time; on the book streams `u` is an update id).
 */
export function eventInUnit(event: unknown, unit: TimeUnit): unknown {
  return unit === 'MILLISECOND' ? event : scaled(event, (key, parent) => EVENT_TIME_FIELDS.has(key) || (key === 'u' && parent['e'] === 'outboundAccountPosition'));
}
