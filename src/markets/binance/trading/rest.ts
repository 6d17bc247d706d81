/**
 * Binance's signed REST API as the hedge venue needs it, on one keep-alive undici pool. Every
 * request passes the rate limiter first (nothing leaves that would break a limit: the caller gets
 * `BINANCE_RATE_LIMITED` with the wait instead), carries `timestamp` on the venue's clock (ours
 * plus the offset `syncTime` measured) and `recvWindow`, and its answer is classified once:
 * - 2xx: the body;
 * - 429/418: `BINANCE_RATE_LIMITED` with `Retry-After` (the request was not executed), and the
 *   limiter blocks every request until then;
 * - 5xx, -1006, -1007, -1001, a reset or a timeout: `BINANCE_UNKNOWN_OUTCOME` for a POST (it may
 *   have executed: query it, never resend), `BINANCE_HTTP`/`BINANCE_NETWORK` for reads;
 * - -1021 (timestamp outside the window): the offset is measured again, then `BINANCE_REJECTED`;
 * - 401, -1022, -2014, -2015: `BINANCE_AUTH`; any other refusal: `BINANCE_REJECTED`.
 * Nothing here retries: what to do next is the caller's decision.
 */
import { Pool } from 'undici';
import type { Clock, Logger } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';
import { parseErrorBody } from './messages.ts';
import type { RateLimiter, RequestCost } from './rate-limiter.ts';
import { queryString, type BinanceSigner } from './signer.ts';

/** Options of {@link BinanceTradingRest}. */
export interface TradingRestOptions {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly signer: BinanceSigner;
  readonly limiter: RateLimiter;
  /** How long a signed request stays valid at the venue, ms (Binance: ≤ 60 000; default 5 000). */
  readonly recvWindowMs: number;
  /** Connect, headers and body timeouts, ms. */
  readonly timeoutMs: number;
}

/** A successful answer. */
export interface RestAnswer {
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const UNKNOWN_CODES = new Set([-1000, -1001, -1006, -1007]);
const AUTH_CODES = new Set([-1002, -1022, -2014, -2015]);

/** The signed REST client. */
export class BinanceTradingRest {
  readonly #options: TradingRestOptions;
  readonly #pool: Pool;
  readonly #prefix: string;
  #offsetMs = 0;
  #closed = false;

  /** @throws BinanceError `BINANCE_HTTP` for a base URL that is not http(s). */
  constructor(options: TradingRestOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new BinanceError('BINANCE_HTTP', `REST URL must be http(s), got ${options.baseUrl}`);
    this.#options = options;
    this.#prefix = base.pathname.replace(/\/+$/, '');
    const timeoutMs = options.timeoutMs;
    this.#pool = new Pool(base.origin, { connections: 4, connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 30_000 });
  }

  /** Venue clock minus ours, ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The venue's time now, as far as we know it. */
  venueNowMs(): number {
    return this.#options.clock.nowMs() + this.#offsetMs;
  }

  /**
   * Measures the offset of the venue's clock from ours: `serverTime` against the middle of the
   * round trip (`GET /api/v3/time`, weight 1).
   * @throws BinanceError when the venue cannot be reached.
   */
  async syncTime(): Promise<number> {
    const clock = this.#options.clock;
    const sentMs = clock.nowMs();
    const answer = await this.request('GET', '/api/v3/time', [], { weight: 1, orders: 0 }, false);
    const receivedMs = clock.nowMs();
    const serverTime = typeof answer.body === 'object' && answer.body !== null ? (answer.body as { serverTime?: unknown }).serverTime : undefined;
    if (typeof serverTime !== 'number') throw new BinanceError('BINANCE_MALFORMED', 'GET /api/v3/time: no serverTime');
    this.#offsetMs = Math.round(serverTime - (sentMs + receivedMs) / 2);
    return this.#offsetMs;
  }

  /**
   * One request. `signed` adds timestamp, recvWindow and the signature.
   * @throws BinanceError classified as the module comment says.
   */
  async request(method: 'GET' | 'POST' | 'DELETE', path: string, params: readonly (readonly [string, string])[], cost: RequestCost, signed: boolean): Promise<RestAnswer> {
    if (this.#closed) throw new BinanceError('BINANCE_NETWORK', 'the client is stopped');
    const endpoint = `${method} ${path}`;
    const waitMs = this.#options.limiter.tryAcquire(cost);
    if (waitMs > 0) throw new BinanceError('BINANCE_RATE_LIMITED', `${endpoint}: held back ${waitMs} ms to stay under the venue's limits (nothing sent)`, { retryAfterMs: waitMs });
    const signer = this.#options.signer;
    const all: (readonly [string, string])[] = [...params];
    if (signed) all.push(['recvWindow', String(this.#options.recvWindowMs)], ['timestamp', String(Math.floor(this.venueNowMs()))]);
    let query = queryString(all);
    if (signed) query = `${query}&signature=${encodeURIComponent(signer.sign(query))}`;
    let status: number;
    let text: string;
    let headers: Record<string, string | string[] | undefined>;
    try {
      const response = await this.#pool.request({ method, path: `${this.#prefix}${path}${query === '' ? '' : `?${query}`}`, headers: signed || path !== '/api/v3/time' ? { 'X-MBX-APIKEY': signer.apiKey() } : {} });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // A write that may have reached the venue has an unknown outcome; a read simply failed.
      if (method === 'POST') throw new BinanceError('BINANCE_UNKNOWN_OUTCOME', `${endpoint}: ${reason}; the order may have executed`, { cause: error });
      throw new BinanceError('BINANCE_NETWORK', `${endpoint} failed: ${reason}`, { cause: error });
    }
    this.#options.limiter.observe(headers);
    if (status >= 200 && status < 300) {
      try {
        return { body: JSON.parse(text) as unknown, headers };
      } catch {
        throw new BinanceError(method === 'POST' ? 'BINANCE_UNKNOWN_OUTCOME' : 'BINANCE_MALFORMED', `${endpoint} answered with a body that is not JSON`, { status });
      }
    }
    const { code, msg } = parseErrorBody(text);
    const details = { status, venueMessage: msg, ...(code === undefined ? {} : { venueCode: code }) };
    if (status === 429 || status === 418) {
      const raw = headers['retry-after'];
      const seconds = Number(Array.isArray(raw) ? raw[0] : raw);
      const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
      this.#options.limiter.blockFor(retryAfterMs);
      this.#options.logger.error({ endpoint, status, retryAfterMs }, status === 418 ? 'Binance banned this IP; waiting' : 'Binance rate limit hit; waiting');
      throw new BinanceError('BINANCE_RATE_LIMITED', `${endpoint}: HTTP ${status} ${msg}; retry after ${retryAfterMs} ms`, { ...details, retryAfterMs });
    }
    if (status >= 500 || (code !== undefined && UNKNOWN_CODES.has(code))) {
      if (method === 'POST') throw new BinanceError('BINANCE_UNKNOWN_OUTCOME', `${endpoint}: HTTP ${status} ${msg}; execution status unknown`, details);
      throw new BinanceError('BINANCE_HTTP', `${endpoint}: HTTP ${status} ${msg}`, details);
    }
    if (code === -1021) {
      // Our clock drifted from the venue's: measure again before anything else is signed.
      await this.syncTime().catch(() => undefined);
      throw new BinanceError('BINANCE_REJECTED', `${endpoint}: ${msg} (clock offset now ${this.#offsetMs} ms)`, details);
    }
    if (status === 401 || (code !== undefined && AUTH_CODES.has(code))) throw new BinanceError('BINANCE_AUTH', `${endpoint}: ${msg}`, details);
    if (code === -1121) throw new BinanceError('BINANCE_BAD_SYMBOL', `${endpoint}: ${msg}`, details);
    throw new BinanceError('BINANCE_REJECTED', `${endpoint}: HTTP ${status} ${msg}`, details);
  }

  /** Closes the pool; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }
}
