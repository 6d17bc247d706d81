/**
 * The JSON requests a Binance stream connection accepts (web-socket-streams.md "Live
 * Subscribing/Unsubscribing to streams"): `SUBSCRIBE`, `UNSUBSCRIBE`, `LIST_SUBSCRIPTIONS`,
 * `SET_PROPERTY` and `GET_PROPERTY combined`, each answered with `{"result","id"}`, or with an
 * error from Binance's table (`{"code","msg","id"}`). A SUBSCRIBE naming a stream the venue does
 * not serve is refused whole, in Binance's `Invalid request` form, rather than acknowledged and
 * left silent.
 */
import { PARTIAL_DEPTH_LEVELS } from './derived-streams.ts';

/** A stream name as Binance writes them: lower-case symbol, `@`, the channel. */
export const STREAM_NAME = /^[a-z0-9]+@[A-Za-z0-9@_]+$/;

/**
 * The streams a replay of `symbol` serves (web-socket-streams.md names): `bookTicker`, `trade`,
 * `aggTrade`, `depth` and `depth@100ms`, `depth5/10/20` with or without `@100ms`.
 */
export function servedStreams(symbol: string): (name: string) => boolean {
  const lower = symbol.toLowerCase();
  const channels = ['bookTicker', 'trade', 'aggTrade', 'depth', 'depth@100ms', ...PARTIAL_DEPTH_LEVELS.flatMap((levels) => [`depth${levels}`, `depth${levels}@100ms`])];
  const names = new Set(channels.map((channel) => `${lower}@${channel}`));
  return (name) => names.has(name);
}

/** Binance's `Invalid request` reply for a stream the venue does not serve. */
export function unservedStreamMessage(name: string): string {
  return `Invalid request: this venue does not serve stream ${name}`;
}

const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'] as const;
type Method = (typeof METHODS)[number];
type RequestId = number | string | null;
type Reply = Record<string, unknown>;

/** The connection a request acts on. */
export interface RequestContext {
  readonly combined: boolean;
  readonly streams: ReadonlySet<string>;
  readonly maxStreams: number;
  /** False for a stream the venue does not serve. */
  isServed(name: string): boolean;
  /** False when the connection would listen to more than `maxStreams`. */
  subscribe(names: readonly string[]): boolean;
  unsubscribe(names: readonly string[]): void;
  setCombined(combined: boolean): void;
}

/** Binance accepts a 64-bit integer, an alphanumeric string of at most 36 characters, or null. */
function isRequestId(value: unknown): value is RequestId | undefined {
  if (value === null || value === undefined) return true;
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && /^[A-Za-z0-9]{1,36}$/.test(value);
}

/** The reply to one request's text. */
export function answerRequest(text: string, context: RequestContext): Reply {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return { code: 2, msg: 'Invalid request: expected an object' };
  const request = message as Record<string, unknown>;
  const rawId = request['id'];
  if (!isRequestId(rawId)) return { code: 2, msg: 'Invalid request: request ID must be an unsigned integer' };
  const id = rawId ?? null;
  const method = request['method'];
  if (method === undefined) return { code: 2, msg: `Invalid request: missing field \`method\` at line 1 column ${text.length}`, id };
  if (typeof method !== 'string' || !(METHODS as readonly string[]).includes(method)) {
    return { code: 2, msg: `Invalid request: unknown variant \`${String(method)}\`, expected one of ${METHODS.map((m) => `\`${m}\``).join(', ')} at line 1 column 28`, id };
  }
  if (Object.keys(request).some((key) => key !== 'method' && key !== 'params' && key !== 'id')) return { code: 2, msg: 'Invalid request: too many parameters', id };
  return answer(method as Method, request['params'], id, context);
}

function answer(method: Method, params: unknown, id: RequestId, context: RequestContext): Reply {
  switch (method) {
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE': {
      if (!Array.isArray(params) || params.some((name) => typeof name !== 'string' || !STREAM_NAME.test(name))) {
        return { code: 2, msg: 'Invalid request: params must be a list of stream names', id };
      }
      const names = params as string[];
      const unserved = method === 'SUBSCRIBE' ? names.find((name) => !context.isServed(name)) : undefined;
      if (unserved !== undefined) return { code: 2, msg: unservedStreamMessage(unserved), id };
      if (method === 'UNSUBSCRIBE') context.unsubscribe(names);
      else if (!context.subscribe(names)) return { code: 2, msg: `Invalid request: a connection listens to at most ${context.maxStreams} streams`, id };
      return { result: null, id };
    }
    case 'LIST_SUBSCRIPTIONS':
      return { result: [...context.streams], id };
    case 'SET_PROPERTY':
    case 'GET_PROPERTY': {
      const list: unknown[] = Array.isArray(params) ? params : [];
      if (typeof list[0] !== 'string') return { code: 2, msg: 'Invalid request: property name must be a string', id };
      if (list[0] !== 'combined') return { code: 0, msg: 'Unknown property', id };
      if (method === 'GET_PROPERTY') return { result: context.combined, id };
      if (typeof list[1] !== 'boolean') return { code: 1, msg: 'Invalid value type: expected Boolean', id };
      context.setCombined(list[1]);
      return { result: null, id };
    }
  }
}
