/**
 * The HTTP transport: one undici `Pool` per base URL with keep-alive, and timeouts on connect,
 * headers and body. It only moves bytes and classifies network failures; envelopes, auth and
 * retries live above it (`rest-client.ts`). Behind an interface so tests and the sim can swap it.
 */
import { Pool } from 'undici';
import { ExchangeError } from './errors.ts';

/** One request as the REST client builds it. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  /** Path without query, e.g. "/user/order". */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  /** Serialized JSON body (POST). */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A response as received: status, the headers we read and the body text. */
export interface HttpResponse {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly text: string;
}

/** Sends requests to one base URL. */
export interface HttpTransport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** Options of {@link UndiciTransport}; every default in {@link DEFAULT_HTTP_OPTIONS}. */
export interface HttpOptions {
  /** Sockets kept to the venue. Default 8. */
  readonly connections?: number;
  /** Idle keep-alive per socket, ms. Default 30 000. */
  readonly keepAliveTimeoutMs?: number;
  /** TCP+TLS connect, ms. Default 5 000. */
  readonly connectTimeoutMs?: number;
  /** Until response headers, ms. Default 10 000. */
  readonly headersTimeoutMs?: number;
  /** Between body chunks, ms. Default 10 000. */
  readonly bodyTimeoutMs?: number;
}

/** Defaults of {@link HttpOptions}. */
export const DEFAULT_HTTP_OPTIONS: Required<HttpOptions> = {
  connections: 8,
  keepAliveTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
};

/** Network error codes after which the request surely never reached the venue. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The undici implementation. */
export class UndiciTransport implements HttpTransport {
  readonly #pool: Pool;
  readonly #options: Required<HttpOptions>;
  #closed = false;

  /** @throws ExchangeError `EXCHANGE_BAD_REQUEST` for a base URL that is not http(s). */
  constructor(baseUrl: string, options: HttpOptions = {}) {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ExchangeError('EXCHANGE_BAD_REQUEST', `base URL must be http(s), got ${url.protocol}`, { endpoint: baseUrl });
    }
    this.#options = { ...DEFAULT_HTTP_OPTIONS, ...options };
    this.#pool = new Pool(url.origin, {
      connections: this.#options.connections,
      keepAliveTimeout: this.#options.keepAliveTimeoutMs,
      connectTimeout: this.#options.connectTimeoutMs,
      headersTimeout: this.#options.headersTimeoutMs,
      bodyTimeout: this.#options.bodyTimeoutMs,
    });
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const endpoint = `${request.method} ${request.path}`;
    if (this.#closed) throw new ExchangeError('EXCHANGE_CLOSED', 'transport closed', { endpoint, mayHaveReachedVenue: false });
    const search = request.query === undefined ? '' : `?${new URLSearchParams(request.query).toString()}`;
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await this.#pool.request({
        method: request.method,
        path: `${request.path}${search}`,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await response.body.text();
      const retryAfter = response.headers['retry-after'];
      return { status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, text };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const codeText = typeof code === 'string' ? code : 'unknown';
      throw new ExchangeError('EXCHANGE_NETWORK', `network error ${codeText}`, {
        endpoint,
        mayHaveReachedVenue: !NOT_SENT_CODES.has(codeText),
        cause: error,
      });
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }
}
