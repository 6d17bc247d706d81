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
  const stamp = Number(timestamp);
  if (stamp >= serverTime + 1_000) return { status: 400, code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." };
  if (serverTime - stamp > window) return { status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };
  return undefined;
}

/**
 * A REST request's account, after the key, signature and timing checks. The payload is the raw
 * query string without its `signature` parameter, followed by the body.
 */
export function authenticateRest(
  apiKeyHeader: string | string[] | undefined,
  rawQuery: string,
  body: string,
  accounts: (apiKey: string) => AccountSpec | undefined,
  clock: Clock,
): AccountSpec | AuthError {
  const apiKey = Array.isArray(apiKeyHeader) ? apiKeyHeader[0] : apiKeyHeader;
  if (apiKey === undefined || apiKey === '') return { status: 401, code: -2014, msg: 'API-key format invalid.' };
  const account = accounts(apiKey);
  if (account === undefined) return { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
  const parts = rawQuery === '' ? [] : rawQuery.split('&');
  const signaturePart = parts.find((part) => part.startsWith('signature='));
  if (signaturePart === undefined) return { status: 400, code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." };
  const payload = parts.filter((part) => part !== signaturePart).join('&') + body;
  const query = new URLSearchParams(rawQuery);
  const timing = checkTiming(query.get('timestamp') ?? undefined, query.get('recvWindow') ?? undefined, clock);
  if (timing !== undefined) return timing;
  if (!isValidSignature(account, payload, decodeURIComponent(signaturePart.slice('signature='.length)))) return { status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
  return account;
}
