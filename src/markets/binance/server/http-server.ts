/**
 * A server that speaks Binance's REST conventions on loopback: a table of routes (`GET
 * /api/v3/depth` …), request weights counted per minute with `X-MBX-USED-WEIGHT-1M` on every
 * answer and a 429 with `Retry-After` past the limit (rest-api.md "LIMITS"), errors as
 * `{"code","msg"}`, and WebSocket upgrades handed to whichever handler claims the path.
 *
 * Parameters (rest-api.md "General Information on Endpoints"): a GET's come from the query
 * string; a POST, PUT or DELETE may send them in the query string, in an
 * `application/x-www-form-urlencoded` body, or split between both, and a parameter sent in both
 * is taken from the query string. Routes see the merged set.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Clock, Logger } from '../../../core/index.ts';
import { WeightMeter } from './rate-counters.ts';
import { BINANCE_SPOT_REST_PATHS } from './spot-catalog.ts';
import { BAD_TIME_UNIT, answerInUnit, parseTimeUnit, type TimeUnit } from './time-unit.ts';

/** What a route handler sees. */
export interface RouteRequest {
  /** Every parameter: the form body's, then the query string's over them. */
  readonly query: URLSearchParams;
  /** The query string as sent (what a SIGNED request's signature covers, with the body). */
  readonly rawQuery: string;
  /** The body as sent. */
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
  readonly weight: (params: URLSearchParams) => number;
  handle(request: RouteRequest): RouteResponse | Promise<RouteResponse>;
}

/** Claims a WebSocket upgrade for its paths; false when the path is not its. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => boolean;

/** Answers a WebSocket upgrade with an HTTP error (and a JSON body) instead of switching protocols. */
export function refuseUpgrade(socket: Duplex, status: string, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  const type = body === undefined ? '' : 'Content-Type: application/json\r\n';
  socket.end(`HTTP/1.1 ${status}\r\n${type}Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** A Binance error body. */
export function binanceError(status: number, code: number, msg: string): RouteResponse {
  return { status, body: { code, msg } };
}

export { WEIGHT_LIMIT_PER_MINUTE } from './rate-counters.ts';

const MAX_BODY_BYTES = 64 * 1024;
const BINANCE_PATHS = new Set(BINANCE_SPOT_REST_PATHS);
/** 429s answered in one window after which the IP is banned (418), and for how long. */
const REFUSALS_BEFORE_BAN = 3;
const BAN_MS = 120_000;

/** The parameters of a request: a form body's (not for GET), then the query string's over them. */
export function mergedParams(method: string, url: URL, body: string, contentType: string | undefined): URLSearchParams {
  const isForm = contentType === undefined || contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
  if (method === 'GET' || body === '' || !isForm) return url.searchParams;
  const merged = new URLSearchParams(body);
  for (const name of new Set(url.searchParams.keys())) {
    merged.delete(name);
    for (const value of url.searchParams.getAll(name)) merged.append(name, value);
  }
  return merged;
}

/** A 200 answer with its times in the unit the request asked for (`X-MBX-TIME-UNIT`). */
function inUnit(answer: RouteResponse, unit: TimeUnit): RouteResponse {
  return answer.status === 200 && unit !== 'MILLISECOND' ? { ...answer, body: answerInUnit(answer.body, unit) } : answer;
}

/** The HTTP + WebSocket server. */
export class BinanceHttpServer {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #routes = new Map<string, BinanceRoute>();
  readonly #upgrades: UpgradeHandler[] = [];
  readonly #server: Server;
  readonly #weight: WeightMeter;
  /** 429s answered in `#refusalMinute`. */
  #refusalMinute = -1;
  #refusals = 0;
  #bannedUntilMs = 0;
  /** Answers refused for the weight limit (429) and bans (418) since start. */
  readonly refused = { tooManyRequests: 0, banned: 0 };
  #port = 0;

  /** `weight`: the meter shared with the WebSocket API (Binance's limit by default). */
  constructor(clock: Clock, logger: Logger, weight: WeightMeter = new WeightMeter(clock)) {
    this.#clock = clock;
    this.#logger = logger;
    this.#weight = weight;
    this.#server = createServer({ keepAlive: true }, (request, response) => void this.#onRequest(request, response));
    this.#server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      // The streams and the WebSocket API read `timeUnit` themselves; an unknown one is refused here.
      if (parseTimeUnit(url.searchParams.get('timeUnit') ?? undefined) === undefined) {
        refuseUpgrade(socket, '400 Bad Request', { code: BAD_TIME_UNIT.code, msg: BAD_TIME_UNIT.msg });
        return;
      }
      if (!this.#upgrades.some((handler) => handler(request, socket, head, url))) refuseUpgrade(socket, '404 Not Found');
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
    const method = request.method ?? 'GET';
    const route = this.#routes.get(`${method} ${url.pathname}`);
    if (route === undefined) {
      this.#send(response, BINANCE_PATHS.has(url.pathname) ? binanceError(400, -1020, 'This operation is not supported.') : binanceError(404, -1000, `unknown endpoint ${method} ${url.pathname}`));
      return;
    }
    const timeUnitHeader = request.headers['x-mbx-time-unit'];
    const timeUnit = parseTimeUnit(Array.isArray(timeUnitHeader) ? timeUnitHeader[0] : timeUnitHeader);
    if (timeUnit === undefined) {
      this.#send(response, binanceError(BAD_TIME_UNIT.status, BAD_TIME_UNIT.code, BAD_TIME_UNIT.msg));
      return;
    }
    const now = this.#clock.nowMs();
    if (now < this.#bannedUntilMs) {
      this.refused.banned++;
      const retryAfterS = Math.max(1, Math.ceil((this.#bannedUntilMs - now) / 1000));
      this.#send(response, binanceError(418, -1003, `Way too much request weight used; IP banned until ${Math.floor(this.#bannedUntilMs)}. Please use WebSocket Streams for live updates to avoid bans.`), { 'Retry-After': String(retryAfterS) });
      return;
    }
    let body = '';
    try {
      for await (const chunk of request) {
        body += String(chunk);
        if (body.length > MAX_BODY_BYTES) throw new Error('request body too large');
      }
    } catch (error) {
      this.#logger.warn({ err: error instanceof Error ? error.message : String(error), path: url.pathname }, 'request body unreadable');
      this.#send(response, binanceError(400, -1000, 'An unknown error occurred while processing the request.'));
      return;
    }
    const params = mergedParams(method, url, body, request.headers['content-type']);
    const minute = Math.floor(now / 60_000);
    if (minute !== this.#refusalMinute) {
      this.#refusalMinute = minute;
      this.#refusals = 0;
    }
    if (!this.#weight.tryUse(route.weight(params))) {
      // Rest-api.md: repeatedly failing to back off after 429s earns an automated ban (418).
      if (++this.#refusals > REFUSALS_BEFORE_BAN) {
        this.refused.banned++;
        this.#bannedUntilMs = now + BAN_MS;
        this.#logger.warn({ bannedForMs: BAN_MS }, 'client kept sending after 429s: IP banned (418)');
        this.#send(response, binanceError(418, -1003, `Way too much request weight used; IP banned until ${Math.floor(this.#bannedUntilMs)}. Please use WebSocket Streams for live updates to avoid bans.`), { 'Retry-After': String(BAN_MS / 1000) });
        return;
      }
      this.refused.tooManyRequests++;
      this.#send(
        response,
        binanceError(429, -1003, `Too much request weight used; current limit is ${this.#weight.limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`),
        { 'Retry-After': String(this.#weight.retryAfterS()) },
      );
      return;
    }
    try {
      this.#send(response, inUnit(await route.handle({ query: params, rawQuery: url.search.replace(/^\?/, ''), body, headers: request.headers }), timeUnit));
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
      'X-MBX-USED-WEIGHT-1M': String(this.#weight.used()),
      ...answer.headers,
      ...headers,
    });
    response.end(text);
  }
}
