/**
 * The operations endpoint of a daemon: `/metrics` (Prometheus text), `/health` (200 while
 * quoting, 503 when starting, paused, halted or stopped, with the reason as JSON: `health.ts`),
 * and the probes: `/livez` (200 whenever the process answers: a dead process or an event loop
 * blocked past the probe's timeout does not; paused or halted is alive, and a restart would undo
 * a halt) and `/readyz` (`/health`'s verdict in one line of text: 200 `ready`, or 503 `not ready:
 * <state> (<reason>)`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readinessText, type Health } from './health.ts';

/** A route beside /metrics and /health (the dashboard's); it answers the request itself. */
export type MetricsRoute = (request: IncomingMessage, response: ServerResponse) => void;

/** A running metrics server. */
export interface MetricsServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the server on host:port (port 0 = any free port). */
export async function startMetricsServer(options: {
  readonly host: string;
  readonly port: number;
  /** The /metrics text (every pair's registry and the account's, merged) and its content type. */
  readonly metrics: () => Promise<string>;
  readonly contentType: string;
  /** The /health answer. */
  readonly health: () => Health;
  /** More routes by exact path (`/`, `/dashboard/state`, …): operations beside the engine, served here. */
  readonly routes?: ReadonlyMap<string, MetricsRoute>;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/metrics') {
      options
        .metrics()
        .then((text) => {
          response.writeHead(200, { 'content-type': options.contentType });
          response.end(text);
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
      return;
    }
    if (path === '/health') {
      const { healthy, body } = options.health();
      response.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
      return;
    }
    if (path === '/livez') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('alive\n');
      return;
    }
    if (path === '/readyz') {
      const health = options.health();
      response.writeHead(health.healthy ? 200 : 503, { 'content-type': 'text/plain' });
      response.end(readinessText(health));
      return;
    }
    const route = options.routes?.get(path ?? '/');
    if (route !== undefined) {
      route(request, response);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found: try /metrics, /health, /livez or /readyz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${options.host}:${port}`,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
