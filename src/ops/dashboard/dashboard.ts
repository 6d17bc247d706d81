/**
 * The live dashboard of a daemon, served by its metrics server beside `/metrics` and `/health`
 * (ARCHITECTURE.md: operations beside the engine, never inside it): `/` the page,
 * `/dashboard/state` everything held as JSON, `/dashboard/events` a server-sent event stream (the
 * snapshot, then each sample). Read-only: GET and HEAD only; nothing it serves changes the daemon.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EngineObserver } from '../../engine/index.ts';
import { DASHBOARD_PATHS, dashboardHtml } from './page.ts';
import { DashboardState, type DashboardSnapshot, type DashboardStateOptions, type SampleMessage } from './sampler.ts';
import { SseStreams, sseMessage } from './sse.ts';

/** A route of the metrics server (`MetricsRoute` in src/engine/metrics-server.ts). */
export type DashboardRoute = (request: IncomingMessage, response: ServerResponse) => void;

/** What a dashboard needs: the history's sources and the page's title. */
export interface DashboardOptions extends DashboardStateOptions {
  /** The page's title (default `akira-mm` and the pairs). */
  readonly title?: string;
  /** Unsent bytes a watcher may fall behind by before it is dropped (default in `sse.ts`). */
  readonly maxBacklogBytes?: number;
}

/** The history, its event streams and its routes. */
export class Dashboard {
  private readonly state: DashboardState;
  private readonly streams: SseStreams;
  private readonly title: string;
  private page: string | undefined;
  private unsubscribe: (() => void) | undefined;

  /** @throws RangeError for bad sampling or ring sizes (see {@link DashboardState}). */
  constructor(options: DashboardOptions) {
    this.state = new DashboardState(options);
    this.title = options.title ?? `akira-mm · ${options.pairs.map((pair) => pair.name).join(', ')}`;
    this.streams = new SseStreams({
      ...(options.maxBacklogBytes === undefined ? {} : { maxBacklogBytes: options.maxBacklogBytes }),
      // Messages are built only while someone watches: the first watcher subscribes, the last leaves.
      onCountChange: (count) => {
        if (count > 0 && this.unsubscribe === undefined) this.unsubscribe = this.state.subscribe((message) => this.streams.broadcast(sampleEvent(message)));
        if (count === 0) {
          this.unsubscribe?.();
          this.unsubscribe = undefined;
        }
      },
    });
  }

  /** The observer that records pair `pairIndex`'s fills, pauses and halts. */
  observerOf(pairIndex: number): EngineObserver {
    return this.state.observerOf(pairIndex);
  }

  /** Begins sampling (a first sample now). */
  start(): void {
    this.state.start();
  }

  /** Stops sampling and ends every event stream; idempotent. */
  stop(): void {
    this.state.stop();
    this.streams.closeAll();
  }

  /** Watchers connected now. */
  get watchers(): number {
    return this.streams.count;
  }

  /** Everything held now (what `/dashboard/state` answers). */
  snapshot(): DashboardSnapshot {
    return this.state.snapshot();
  }

  /** Takes a sample now (the timer's work). */
  sample(): Promise<void> {
    return this.state.sample();
  }

  /** The routes to serve beside `/metrics`, by path. */
  routes(): ReadonlyMap<string, DashboardRoute> {
    return new Map<string, DashboardRoute>([
      [DASHBOARD_PATHS.page, readOnly((_request, response) => this.servePage(response))],
      [DASHBOARD_PATHS.state, readOnly((_request, response) => json(response, this.state.snapshot()))],
      [DASHBOARD_PATHS.events, readOnly((request, response) => this.streams.attach(request, response, sseMessage('snapshot', JSON.stringify(this.state.snapshot()))))],
      // Browsers ask for it unprompted; an empty answer keeps their console free of a 404.
      ['/favicon.ico', readOnly((_request, response) => void response.writeHead(204).end())],
    ]);
  }

  private servePage(response: ServerResponse): void {
    this.page ??= dashboardHtml({ title: this.title });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(this.page);
  }
}

/** A sample as the event stream carries it. */
function sampleEvent(message: SampleMessage): string {
  return sseMessage('sample', JSON.stringify(message), message.seq);
}

function json(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** Serves GET and HEAD only: the dashboard changes nothing, so it takes no other method. */
function readOnly(route: DashboardRoute): DashboardRoute {
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
      response.end(`${request.method ?? '?'} not allowed: the dashboard is read-only (GET, HEAD)\n`);
      return;
    }
    route(request, response);
  };
}
