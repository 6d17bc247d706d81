/**
 * Shared pieces of the dashboard tests: an engine status to feed the real metrics module, a
 * dashboard over one pair's real registry and an account registry, and a reader of a live
 * server-sent event stream over loopback.
 */
import { request, type IncomingMessage } from 'node:http';
import { Gauge, Registry } from 'prom-client';
import type { ManualClock } from '../../../src/core/index.ts';
import { createEngineMetrics, type EngineMetrics, type EngineStatus } from '../../../src/engine/index.ts';
import { Dashboard, seriesKey, type DashboardOptions, type DashboardStateOptions } from '../../../src/ops/dashboard/index.ts';

/** A status as an engine reports it, quoting ETH/USDC; `change` overrides any field. */
export function statusOf(change: Partial<EngineStatus> = {}): EngineStatus {
  const pnl = { realized: 0.5, unrealized: 0.25, total: 0.75, feesPaid: 0.1, gasPaid: 0.05, position: 0.2, averageCost: 3000, volumeBase: 0.4, fills: 4, makerFills: 4, takerFills: 0 };
  return {
    state: 'quoting',
    haltReason: undefined,
    pauseReason: undefined,
    mid: 3000,
    fair: 3000.5,
    touch: { bid: 2999, ask: 3002 },
    bids: [{ price: 2999.5, size: 0.05 }],
    asks: [{ price: 3001.5, size: 0.05 }],
    baseBalance: 10.2,
    quoteBalance: 29_400,
    position: 0.2,
    inventoryCap: 0.5,
    pnl,
    markouts: { meanBps: [1.5, undefined, undefined], counts: [4, 0, 0] },
    twoSidedUptime: 0.9,
    scorecard: {
      twoSidedUptime: 0.9,
      timeAtTouch: 0.4,
      capBreaches: 0,
      quotingMs: 60_000,
      ordersSent: 12,
      cancelsSent: 8,
      placedQtyUnits: 6n * 10n ** 17n,
      throttled: 2,
      gated: 0,
      rejected: 0,
      fills: 4,
      ordersPerFill: 3,
      fillRatio: 0.66,
      pnl: { spread: 0.9, inventory: -0.05, fees: 0.1, gas: 0.05, total: 0.7 },
    },
    reference: undefined,
    ...change,
  };
}

/** One pair's metrics fed by a status the test changes, an account registry, and a dashboard over both. */
export interface Rig {
  readonly metrics: EngineMetrics;
  readonly account: Registry;
  readonly dashboard: Dashboard;
  /** What the dashboard was built from (a test may build its history alone from them). */
  readonly options: DashboardStateOptions;
  status: EngineStatus | undefined;
  haltReason: string | undefined;
  /** The account's PnL gauge (tokens), set by the test. */
  accountPnl: number;
}

/** A dashboard of one ETH/USDC pair on the manual clock, sampling every second. */
export function rig(clock: ManualClock, options: Partial<Pick<DashboardOptions, 'historySamples' | 'eventsKept' | 'maxBacklogBytes'>> = {}): Rig {
  const metrics = createEngineMetrics({ pair: 'ETH/USDC', baseDecimals: 18, quoteDecimals: 6, hasReference: false });
  const account = new Registry();
  const state: Rig = {
    metrics,
    account,
    status: undefined,
    haltReason: undefined,
    accountPnl: 0,
    // Set below, once the status source can read this object.
    dashboard: undefined as unknown as Dashboard,
    options: undefined as unknown as DashboardStateOptions,
  };
  metrics.bindStatus(() => state.status as EngineStatus);
  new Gauge({
    name: 'akira_mm_account_pnl_quote',
    help: 'test',
    labelNames: ['token'],
    registers: [account],
    collect() {
      this.set({ token: 'USDC' }, state.accountPnl);
    },
  });
  const built: DashboardOptions = {
    clock,
    pairs: [{ name: 'ETH/USDC', base: 'ETH', quote: 'USDC', baseDecimals: 18, quoteDecimals: 6, registry: metrics.registry, labels: { pair: 'ETH/USDC' }, status: () => state.status }],
    account: { registry: account, labels: {}, haltReason: () => state.haltReason },
    ...options,
  };
  Object.assign(state, { options: built, dashboard: new Dashboard(built) });
  return state;
}

/** Lets pending promise callbacks run (a sample's metric reads resolve on microtasks). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One server-sent event. */
export interface ReceivedEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

/** An open event stream: the events so far, and a way to wait for more. */
export interface EventStream {
  readonly response: IncomingMessage;
  readonly events: ReceivedEvent[];
  /** Resolves once `count` events have arrived in all. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  close(): void;
}

/** Opens `url` as an event stream (what a browser's EventSource does), parsing events as they come. */
export function openEventStream(url: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (response) => {
      const events: ReceivedEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
          }
          if (fields.has('data')) events.push({ event: fields.get('event') ?? 'message', id: fields.get('id'), data: fields.get('data') ?? '' });
        }
        for (const wake of waiters.splice(0)) wake();
      });
      response.on('error', () => undefined);
      resolve({
        response,
        events,
        async waitFor(count, timeoutMs = 5_000) {
          const deadline = performance.now() + timeoutMs;
          while (events.length < count) {
            if (performance.now() > deadline) throw new Error(`timed out waiting for ${count} events (got ${events.length}: ${events.map((e) => e.event).join(', ')})`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
          return events;
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** `/metrics` text → value by selector (labels sorted, as the dashboard names series), as a scraper reads it. */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    values.set(seriesKey(match[1] as string, labels), Number(match[3]));
  }
  return values;
}
