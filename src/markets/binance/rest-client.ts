/**
 * The two public REST calls the feed needs: `GET /api/v3/exchangeInfo?symbol=` (does the symbol
 * exist, and its tick and step sizes) and `GET /api/v3/depth?symbol=&limit=` (the snapshot the
 * diff stream is bridged onto). One keep-alive undici pool per base URL. Binance's limits are
 * per IP by request weight (depth at limit 1000 weighs 50, rest-api.md); a 429 or 418 carries
 * `Retry-After` in seconds, which the error keeps so the caller waits at least that long.
 */
import { Pool } from 'undici';
import type { Clock } from '../../core/index.ts';
import { BinanceError } from './errors.ts';
import { parseDepthSnapshot, parseSymbolInfo, type DepthSnapshot, type SymbolInfo } from './messages.ts';
import type { BinanceScale } from './decimals.ts';

/** Options of {@link BinanceRestClient}. */
export interface BinanceRestOptions {
  /** e.g. https://api.binance.com (no path). */
  readonly baseUrl: string;
  readonly clock: Clock;
  /** Connect, headers and body timeouts, ms. Default 10 000. */
  readonly timeoutMs?: number;
}

/** Binance's public market-data REST API. */
export class BinanceRestClient {
  readonly #pool: Pool;
  readonly #clock: Clock;
  readonly #base: URL;
  #closed = false;

  /** @throws BinanceError `BINANCE_HTTP` for a base URL that is not http(s). */
  constructor(options: BinanceRestOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new BinanceError('BINANCE_HTTP', `REST URL must be http(s), got ${options.baseUrl}`);
    this.#base = base;
    this.#clock = options.clock;
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.#pool = new Pool(base.origin, { connections: 2, connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 30_000 });
  }

  /**
   * The symbol's status, assets and scale.
   * @throws BinanceError `BINANCE_BAD_SYMBOL` when Binance does not list it; the other codes as for any call.
   */
  async symbolInfo(symbol: string): Promise<SymbolInfo> {
    return parseSymbolInfo(await this.#get('/api/v3/exchangeInfo', { symbol }), symbol);
  }

  /**
   * The order book snapshot, `limit` levels per side (Binance: 1..5000).
   * @throws BinanceError for network trouble, rate limits, a bad symbol or a malformed body.
   */
  async depth(symbol: string, limit: number, scale: BinanceScale): Promise<DepthSnapshot> {
    const body = await this.#get('/api/v3/depth', { symbol, limit: String(limit) });
    return parseDepthSnapshot(body, scale, this.#clock.nowMs());
  }

  /** Closes the pool; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }

  async #get(path: string, query: Readonly<Record<string, string>>): Promise<unknown> {
    const prefix = this.#base.pathname.replace(/\/+$/, '');
    const endpoint = `GET ${path}`;
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await this.#pool.request({ method: 'GET', path: `${prefix}${path}?${new URLSearchParams(query).toString()}` });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      text = await response.body.text();
    } catch (error) {
      throw new BinanceError('BINANCE_NETWORK', `${endpoint} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (status >= 200 && status < 300) throw new BinanceError('BINANCE_MALFORMED', `${endpoint} answered with a body that is not JSON`, { status });
      body = undefined;
    }
    if (status >= 200 && status < 300) return body;
    const venueCode = typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number' ? (body as { code: number }).code : undefined;
    const message = typeof body === 'object' && body !== null && typeof (body as { msg?: unknown }).msg === 'string' ? (body as { msg: string }).msg : text.slice(0, 200);
    const details = { status, ...(venueCode === undefined ? {} : { venueCode }) };
    if (status === 429 || status === 418) {
      const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
      const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
      throw new BinanceError('BINANCE_RATE_LIMITED', `${endpoint}: HTTP ${status} ${message}; retry after ${retryAfterMs} ms`, { ...details, retryAfterMs });
    }
    if (venueCode === -1121) throw new BinanceError('BINANCE_BAD_SYMBOL', `${endpoint}: Binance does not list ${query['symbol']} (${message})`, details);
    throw new BinanceError('BINANCE_HTTP', `${endpoint}: HTTP ${status} ${message}`, details);
  }
}
