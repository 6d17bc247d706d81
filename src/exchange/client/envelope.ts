/**
 * The response envelope of SPEC §2: `200 {"result": …}` or `{"code", "error"}` with the HTTP
 * statuses of REFERENCE §1.1. Turns a raw response into the `result` value or a typed
 * {@link ExchangeError} that keeps the body.
 */
import { ExchangeError } from './errors.ts';
import type { HttpResponse } from './http.ts';
import { suggestedSleepMs } from './backoff.ts';

/** The `result` of a successful response (still unknown: each endpoint parses its own). */
export function openEnvelope(endpoint: string, response: HttpResponse): unknown {
  const { status, text } = response;
  const json = parseJson(text);
  if (status >= 200 && status < 300) {
    if (!isObject(json) || !('result' in json)) {
      throw new ExchangeError('EXCHANGE_MALFORMED', `status ${status} without a {"result"} envelope`, { endpoint, status, rawBody: text });
    }
    return json.result;
  }
  const venueError = isObject(json) && typeof json.error === 'string' ? json.error : undefined;
  const venueCode = isObject(json) && typeof json.code === 'number' ? json.code : undefined;
  const details = {
    endpoint,
    status,
    rawBody: text,
    ...(venueError === undefined ? {} : { venueError }),
    ...(venueCode === undefined ? {} : { venueCode }),
  };
  const what = venueError ?? (text.length > 200 ? `${text.slice(0, 197)}...` : text);
  if (status === 401) throw new ExchangeError('EXCHANGE_UNAUTHORIZED', `401 ${what}`, details);
  if (status === 404) throw new ExchangeError('EXCHANGE_NOT_FOUND', `404 ${what}`, details);
  if (status === 429) {
    const retryAfterMs = suggestedSleepMs(venueError, response.retryAfter);
    throw new ExchangeError('EXCHANGE_RATE_LIMITED', `429 ${what}`, { ...details, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }
  if (status >= 500) throw new ExchangeError('EXCHANGE_SERVER_ERROR', `${status} ${what}`, details);
  throw new ExchangeError('EXCHANGE_REJECTED', `${status} ${what}`, details);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
