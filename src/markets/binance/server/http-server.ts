/**
 * A server that speaks Binance's REST conventions on loopback: a table of routes (`GET
 * /api/v3/depth` …), request weights counted per minute with `X-MBX-USED-WEIGHT-1M` on every
 * answer and a 429 with `Retry-After` past the limit (rest-api.md "LIMITS"), errors as
 * `{"code","msg"}`, and WebSocket upgrades handed to whichever handler claims the path. The
 * market-data routes and streams of `akira-mm feed` plug into it; Binance's trading endpoints
 * (orders, account, the WebSocket API) can be added beside them the same way.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Clock, Logger } from '../../../core/index.ts';

/** What a route handler sees. */
export interface RouteRequest {
  readonly query: URLSearchParams;
  /** The query string as sent (what a SIGNED request's signature covers). */
  readonly rawQuery: string;
  readonly body: string;
  readonly headers: IncomingMessage['headers'];
}

/** What a route answers: an HTTP status and a JSON body. */
export interface RouteResponse {
  readonly status: number;
  readonly body: unknown;
  /** Extra headers (`X-MBX-ORDER-COUNT-*`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Reset the connection instead of answering (a fault: the venue unreachable mid-request). */
  readonly reset?: boolean;
}

/** One endpoint. */
export interface BinanceRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** e.g. /api/v3/depth */
  readonly path: string;
  /** Request weight (rest-api.md); may depend on the parameters (depth: on `limit`). */
  readonly weight: (query: URLSearchParams) => number;
  handle(request: RouteRequest): RouteResponse | Promise<RouteResponse>;
}

/** Claims a WebSocket upgrade for its paths; false when the path is not its. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => boolean;

/** A Binance error body. */
export function binanceError(status: number, code: number, msg: string): RouteResponse {
  return { status, body: { code, msg } };
}

/** Binance spot's request-weight limit per minute. */
export const WEIGHT_LIMIT_PER_MINUTE = 6_000;

const MAX_BODY_BYTES = 64 * 1024;
/** 429s answered in one window after which the IP is banned (418), and for how long. */
const REFUSALS_BEFORE_BAN = 3;
const BAN_MS = 120_000;

/** Limits of the server; Binance's values by default. */
export interface HttpServerLimits {
  readonly weightPerMinute: number;
}

/** The HTTP + WebSocket server. */
export class BinanceHttpServer {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #routes = new Map<string, BinanceRoute>();
  readonly #upgrades: UpgradeHandler[] = [];
  readonly #server: Server;
  readonly #weightLimit: number;
  #minute = -1;
  #usedWeight = 0;
  #refusals = 0;
  #bannedUntilMs = 0;
  /** Answers refused for the weight limit (429) and bans (418) since start. */
  readonly refused = { tooManyRequests: 0, banned: 0 };
  #port = 0;

  constructor(clock: Clock, logger: Logger, limits: Partial<HttpServerLimits> = {}) {
    this.#clock = clock;
    this.#logger = logger;
    this.#weightLimit = limits.weightPerMinute ?? WEIGHT_LIMIT_PER_MINUTE;
    this.#server = createServer({ keepAlive: true }, (request, response) => void this.#onRequest(request, response));
    this.#server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (!this.#upgrades.some((handler) => handler(request, socket, head, url))) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    });
  }

  /** Adds endpoints; a later route for the same method and path replaces the earlier one. */
  addRoutes(routes: readonly BinanceRoute[]): void {
    for (const route of routes) this.#routes.set(`${route.method} ${route.path}`, route);
  }

  addUpgradeHandler(handler: UpgradeHandler): void {
    this.#upgrades.push(handler);
  }

  /** Listens; resolves with the port. @throws the listen error (port taken…). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        this.#port = (this.#server.address() as AddressInfo).port;
        resolve(this.#port);
      });
    });
  }

  get port(): number {
    return this.#port;
  }

  /** Closes every connection and the listener; idempotent. */
  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async #onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const route = this.#routes.get(`${request.method ?? 'GET'} ${url.pathname}`);
    if (route === undefined) {
      this.#send(response, binanceError(404, -1000, `unknown endpoint ${request.method} ${url.pathname}`));
      return;
    }
    const now = this.#clock.nowMs();
    if (now < this.#bannedUntilMs) {
      this.refused.banned++;
      const retryAfterS = Math.max(1, Math.ceil((this.#bannedUntilMs - now) / 1000));
      this.#send(response, binanceError(418, -1003, `Way too much request weight used; IP banned until ${Math.floor(this.#bannedUntilMs)}. Please use WebSocket Streams for live updates to avoid bans.`), { 'Retry-After': String(retryAfterS) });
      return;
    }
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#usedWeight = 0;
      this.#refusals = 0;
    }
    const weight = route.weight(url.searchParams);
    if (this.#usedWeight + weight > this.#weightLimit) {
      // Rest-api.md: repeatedly failing to back off after 429s earns an automated ban (418).
      if (++this.#refusals > REFUSALS_BEFORE_BAN) {
        this.refused.banned++;
        this.#bannedUntilMs = now + BAN_MS;
        this.#logger.warn({ bannedForMs: BAN_MS }, 'client kept sending after 429s: IP banned (418)');
        this.#send(response, binanceError(418, -1003, `Way too much request weight used; IP banned until ${Math.floor(this.#bannedUntilMs)}. Please use WebSocket Streams for live updates to avoid bans.`), { 'Retry-After': String(BAN_MS / 1000) });
        return;
      }
      this.refused.tooManyRequests++;
      const retryAfterS = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
      this.#send(
        response,
        binanceError(429, -1003, `Too much request weight used; current limit is ${this.#weightLimit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`),
        { 'Retry-After': String(retryAfterS) },
      );
      return;
    }
    this.#usedWeight += weight;
    let body = '';
    try {
      for await (const chunk of request) {
        body += String(chunk);
        if (body.length > MAX_BODY_BYTES) throw new Error('request body too large');
      }
      this.#send(response, await route.handle({ query: url.searchParams, rawQuery: url.search.replace(/^\?/, ''), body, headers: request.headers }));
    } catch (error) {
      this.#logger.error({ err: error instanceof Error ? error.message : String(error), path: url.pathname }, 'route failed');
      this.#send(response, binanceError(500, -1000, 'An unknown error occurred while processing the request.'));
    }
  }

  #send(response: ServerResponse, answer: RouteResponse, headers: Record<string, string> = {}): void {
    if (response.writableEnded) return;
    if (answer.reset === true) {
      response.socket?.destroy();
      return;
    }
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'Content-Type': 'application/json;charset=UTF-8',
      'Content-Length': Buffer.byteLength(text),
      'X-MBX-USED-WEIGHT-1M': String(this.#usedWeight),
      ...answer.headers,
      ...headers,
    });
    response.end(text);
  }
}
