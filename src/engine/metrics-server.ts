/**
 * The operations endpoint of a daemon: `/metrics` (Prometheus text) and `/health` (200 while
 * quoting, 503 when paused, halted or stopped, with the reason as JSON).
 */
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { EngineStatus } from './status.ts';

/** A running metrics server. */
export interface MetricsServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the server on host:port (port 0 = any free port). */
export async function startMetricsServer(options: {
  readonly host: string;
  readonly port: number;
  readonly registry: Registry;
  readonly status: () => EngineStatus;
  /** The /metrics text instead of `registry`'s (several pairs: every pair's registry merged). */
  readonly render?: () => Promise<string>;
  /** The /health answer instead of one engine's (several pairs: each pair's state and the account's). */
  readonly health?: () => { readonly healthy: boolean; readonly body: unknown };
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/metrics') {
      (options.render?.() ?? options.registry.metrics())
        .then((text) => {
          response.writeHead(200, { 'content-type': options.registry.contentType });
          response.end(text);
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
      return;
    }
    if (path === '/health' && options.health !== undefined) {
      const { healthy, body } = options.health();
      response.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
      return;
    }
    if (path === '/health') {
      const status = options.status();
      const healthy = status.state === 'quoting';
      response.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          state: status.state,
          reason: status.haltReason?.message ?? status.pauseReason ?? null,
          ...(status.hedge === undefined ? {} : { hedge: { state: status.hedge.state, reason: status.hedge.reason ?? null, uncoveredBase: status.hedge.uncoveredBase, dustBase: status.hedge.dustBase } }),
          ...(status.reference === undefined ? {} : { reference: referenceHealth(status.reference) }),
        }),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found: try /metrics or /health\n');
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

/** The reference market's part of /health: its state and why, how old, and how far the venue is from it. */
function referenceHealth(reference: NonNullable<EngineStatus['reference']>): Record<string, unknown> {
  return {
    market: reference.market,
    state: reference.state,
    reason: reference.reason ?? null,
    ageMs: reference.ageMs ?? null,
    mid: reference.mid ?? null,
    fair: reference.fair ?? null,
    basisBps: reference.basisBps ?? null,
    divergenceBps: reference.divergenceBps ?? null,
  };
}
