/**
 * How the loopback venue checks a SIGNED request, as Binance does (rest-api.md "Request
 * Security", web-socket-api.md "SIGNED request security"): the API key must name an account
 * (-2015), the signature must match the payload (-1022: HMAC-SHA256 hex, case-insensitive, or
 * Ed25519 base64), and the timestamp must be within `recvWindow` of the server's clock and not
 * more than a second ahead of it (-1021). A client whose clock is off fails here, as it would at
 * Binance.
 */
import { createHmac, timingSafeEqual, verify } from 'node:crypto';
import type { Clock } from '../../../core/index.ts';
import type { AccountSpec } from './accounts.ts';
import { timeParamMs } from './time-unit.ts';

/** A refusal: HTTP status, Binance code, message. */
export interface AuthError {
  readonly status: number;
  readonly code: number;
  readonly msg: string;
}

/** Checks `signature` over `payload` with the account's key. */
export function isValidSignature(account: AccountSpec, payload: string, signature: string): boolean {
  if (account.secretKey !== undefined) {
    const expected = createHmac('sha256', account.secretKey).update(payload, 'utf8').digest('hex');
    const given = signature.toLowerCase();
    return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  }
  if (account.publicKey === undefined) return false;
  try {
    return verify(null, Buffer.from(payload, 'utf8'), account.publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The timestamp and recvWindow rules; undefined when the request is in time. */
export function checkTiming(timestamp: string | undefined, recvWindow: string | undefined, clock: Clock): AuthError | undefined {
  if (timestamp === undefined || !/^\d{1,16}$/.test(timestamp)) return { status: 400, code: -1102, msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed." };
  const window = recvWindow === undefined ? 5_000 : Number(recvWindow);
  if (!(window > 0) || !/^\d+(\.\d{1,3})?$/.test(recvWindow ?? '5000')) return { status: 400, code: -1100, msg: "Illegal characters found in parameter 'recvWindow'; legal range is '^\\d+(\\.\\d{1,3})?$'." };
  if (window > 60_000) return { status: 400, code: -1131, msg: 'recvWindow must be less than 60000' };
  const serverTime = clock.nowMs();
  // Rest-api.md "Timing security": the timestamp in milliseconds or microseconds.
  const stamp = timeParamMs(Number(timestamp));
  if (stamp >= serverTime + 1_000) return { status: 400, code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." };
  if (serverTime - stamp > window) return { status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };
  return undefined;
}

/** Percent-decoded text, or the text as is when it is not valid percent-encoding (the check then fails). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `key=value` parts of a query string or form body, without `signature`; the signature found, if any. */
function withoutSignature(text: string): { parts: string[]; signature: string | undefined } {
  const parts: string[] = [];
  let signature: string | undefined;
  for (const part of text === '' ? [] : text.split('&')) {
    // A base64 signature's `+` stays a `+`: a signature holds no spaces.
    if (part.startsWith('signature=')) signature ??= safeDecode(part.slice('signature='.length));
    else parts.push(part);
  }
  return { parts, signature };
}

/**
 * A REST request's account, after the key, signature and timing checks. The signature may be in
 * the query string or the body (rest-api.md "SIGNED Endpoint security"; the query's wins when
 * both carry one); it covers the query string without it, concatenated without separator to the
 * body without it (rest-api.md "SIGNED Endpoint Examples": "the query string concatenated without
 * separator to the HTTP body"). `params` are the merged parameters (timestamp, recvWindow).
 */
export function authenticateRest(
  apiKeyHeader: string | string[] | undefined,
  request: { readonly rawQuery: string; readonly body: string; readonly params: URLSearchParams },
  accounts: (apiKey: string) => AccountSpec | undefined,
  clock: Clock,
): AccountSpec | AuthError {
  const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
  if (apiKey === undefined || apiKey === '') return { status: 401, code: -2014, msg: 'API-key format invalid.' };
  const account = accounts(apiKey);
  if (account === undefined) return { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
  const query = withoutSignature(request.rawQuery);
  const body = withoutSignature(request.body);
  const signature = query.signature ?? body.signature;
  if (signature === undefined) return { status: 400, code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." };
  const timing = checkTiming(request.params.get('timestamp') ?? undefined, request.params.get('recvWindow') ?? undefined, clock);
  if (timing !== undefined) return timing;
  if (!isValidSignature(account, query.parts.join('&') + body.parts.join('&'), signature)) return { status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
  return account;
}

/**
 * A WebSocket API request's signature check (web-socket-api.md "SIGNED request example"): every
 * param but `signature`, sorted by name, as `key=value` joined by `&`. Binance's example leaves
 * the values as they are; Binance's connector (`@binance/common` `buildQueryString`) percent-
 * encodes them. Both forms are accepted: they differ only for values with reserved characters.
 */
export function isValidWebsocketSignature(account: AccountSpec, params: Readonly<Record<string, unknown>>, signature: string): boolean {
  const keys = Object.keys(params)
    .filter((key) => key !== 'signature')
    .sort();
  const value = (key: string): string => {
    const raw = params[key];
    return typeof raw === 'object' && raw !== null ? JSON.stringify(raw) : String(raw);
  };
  const plain = keys.map((key) => `${key}=${value(key)}`).join('&');
  const encoded = keys.map((key) => `${key}=${encodeURIComponent(value(key))}`).join('&');
  return isValidSignature(account, plain, signature) || (encoded !== plain && isValidSignature(account, encoded, signature));
}
