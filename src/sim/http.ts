/**
 * The HTTP layer: routing, auth header, JSON bodies, the `{result}` / `{code, error}` envelope of
 * SPEC §2, and HTTP fault injection. Plain node:http: the sim serves small JSON on loopback, the
 * WebSocket server needs the raw `upgrade` event of the same port, and a framework would add a
 * dependency and per-request overhead for nothing we use.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep, type Clock, type Logger } from '../core/index.ts';
import { WireError } from '../exchange/wire/fields.ts';
import type { AuthService, Session } from './auth.ts';
import { SimRejection, venueErrorCode } from './errors.ts';
import type { FaultController } from './faults.ts';
import { rateLimitText } from './rate-limit.ts';

/** A plain HTTP failure (401, 404 text errors, 400 on the sign endpoints). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What a route handler receives. */
export interface RouteContext {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: unknown;
  /** Present on routes that need auth. */
  readonly session: Session | undefined;
}

/** One endpoint. */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly auth: boolean;
  handle(context: RouteContext): unknown;
}

/** Collaborators of the request handler. */
export interface HttpDeps {
  readonly routes: ReadonlyMap<string, Route>;
  readonly auth: AuthService;
  readonly faults: FaultController;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly maxBodyBytes: number;
}

interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

function send(response: ServerResponse, reply: Reply): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...reply.headers });
  response.end(text);
}

/** Maps an error thrown by a handler to the envelope. */
export function errorReply(error: unknown, logger: Logger): Reply {
  if (error instanceof SimRejection) {
    const body: Record<string, unknown> = { code: venueErrorCode(error.venueName), error: error.venueName, detail: error.detail };
    if (error.field !== undefined) body['field'] = error.field;
    return { status: error.httpStatus, body };
  }
  if (error instanceof WireError) {
    // A body that cannot be read is never queued (seed-interface §7): 400, naming the field.
    return { status: 400, body: { code: venueErrorCode('WRONG_INPUT'), error: 'WRONG_INPUT', detail: error.message, field: error.field } };
  }
  if (error instanceof HttpError) return { status: error.status, body: { code: error.status, error: error.message } };
  logger.error({ err: error }, 'sim: unexpected error in a request');
  return { status: 500, body: { code: 500, error: 'internal error' } };
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, `body larger than ${limit} bytes`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new WireError('body', 'empty; expected a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WireError('body', `malformed JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Builds the `request` listener of the HTTP server. */
export function createRequestHandler(deps: HttpDeps): (request: IncomingMessage, response: ServerResponse) => void {
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://sim');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const route = deps.routes.get(path);
    if (route === undefined) {
      send(response, { status: 404, body: { code: 404, error: `no endpoint ${path}` } });
      return;
    }
    if (request.method !== route.method) {
      send(response, { status: 405, body: { code: 405, error: `${path} takes ${route.method}` }, headers: { allow: route.method } });
      return;
    }
    const fault = deps.faults.httpFault(path);
    if (fault !== undefined && fault.delayMs > 0) await sleep(deps.clock, fault.delayMs);
    if (fault?.failure !== undefined && !fault.failure.afterApply) {
      if (fault.failure.status === 'reset') {
        request.socket.destroy();
        return;
      }
      send(response, failureReply(fault.failure.status, deps.faults.settings.rateLimitSleepMs));
      request.resume();
      return;
    }
    let reply: Reply;
    try {
      let session: Session | undefined;
      if (route.auth) {
        const header = request.headers.authorization;
        if (header === undefined || header === '') throw new HttpError(401, 'Auth header required');
        session = deps.auth.verifyJwt(header);
        if (session === undefined) throw new HttpError(401, 'Auth header invalid');
      }
      const body = route.method === 'POST' ? parseJson(await readBody(request, deps.maxBodyBytes)) : undefined;
      const result = await route.handle({ path, query: url.searchParams, body, session });
      reply = { status: 200, body: { result } };
    } catch (error) {
      reply = errorReply(error, deps.logger);
    }
    if (fault?.failure?.status === 'reset') {
      request.socket.destroy();
      return;
    }
    if (fault?.failure !== undefined) reply = failureReply(fault.failure.status, deps.faults.settings.rateLimitSleepMs);
    send(response, reply);
  }

  return (request, response) => {
    handle(request, response).catch((error: unknown) => send(response, errorReply(error, deps.logger)));
  };
}

function failureReply(status: 500 | 429, sleepMs: number): Reply {
  if (status === 429) {
    return {
      status,
      body: { code: 429, error: rateLimitText(sleepMs) },
      headers: { 'retry-after': String(Math.ceil(sleepMs / 1000)) },
    };
  }
  return { status, body: { code: 500, error: 'internal error (fault injection)' } };
}
