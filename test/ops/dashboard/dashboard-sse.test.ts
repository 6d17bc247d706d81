/**
 * The dashboard over HTTP on loopback, served by the daemon's metrics server beside /metrics:
 * the page with everything inlined, the JSON state, the server-sent event stream driven by a
 * manual clock, read-only, and watchers that stop reading dropped rather than buffered forever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/index.ts';
import { startMetricsServer, type MetricsServer } from '../../../src/engine/index.ts';
import type { DashboardSnapshot, SampleMessage } from '../../../src/ops/dashboard/index.ts';
import { openEventStream, rig, settle, statusOf, type EventStream, type Rig } from './support.ts';

let server: MetricsServer | undefined;
let streams: EventStream[] = [];
let running: Rig | undefined;

afterEach(async () => {
  for (const stream of streams) stream.close();
  streams = [];
  running?.dashboard.stop();
  running = undefined;
  await server?.stop();
  server = undefined;
});

async function serve(clock: ManualClock, options: Parameters<typeof rig>[1] = {}): Promise<{ r: Rig; url: string }> {
  const r = rig(clock, options);
  running = r;
  r.status = statusOf();
  server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    contentType: 'text/plain',
    metrics: () => r.metrics.registry.metrics(),
    health: () => ({ healthy: true, body: { state: 'quoting' } }),
    routes: r.dashboard.routes(),
  });
  return { r, url: server.url };
}

async function open(url: string): Promise<EventStream> {
  const stream = await openEventStream(url);
  streams.push(stream);
  return stream;
}

describe('the dashboard over HTTP', () => {
  it('serves its page at / with uPlot, the chart kit and its script inlined, fetching nothing from elsewhere', async () => {
    const { url } = await serve(new ManualClock(0));
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('uPlot');
    expect(html).toContain('window.AkiraCharts');
    expect(html).toContain('window.DASHBOARD = ');
    expect(html).toContain('"dashboard/events"');
    expect(html).toContain('<title>akira-mm · ETH/USDC</title>');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:|url\(\s*["']?https?:|fetch\(|XMLHttpRequest/);
    // /metrics and /health answer as before, and an unknown path still 404s.
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await fetch(`${url}/nothing`)).status).toBe(404);
    expect((await fetch(`${url}/favicon.ico`)).status).toBe(204);
  });

  it('answers /dashboard/state with everything held and the clock now', async () => {
    const clock = new ManualClock(1_000_000);
    const { r, url } = await serve(clock);
    r.dashboard.start();
    await settle();
    clock.advance(1_000);
    await settle();
    const response = await fetch(`${url}/dashboard/state`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const state = (await response.json()) as DashboardSnapshot;
    expect(state).toMatchObject({ version: 1, seq: 2, nowMs: 1_001_000, intervalMs: 1_000, historySamples: 3_600 });
    expect(state.pairs.map((pair) => [pair.id, pair.name, pair.base, pair.quote, pair.timesMs.length])).toEqual([['p0', 'ETH/USDC', 'ETH', 'USDC', 2]]);
    expect(state.pairs[0]!.labels).toEqual({ pair: 'ETH/USDC' });
    expect(state.pairs[0]!.columns.find((column) => column.key === 'akira_mm_orders_per_fill{pair="ETH/USDC"}')?.values).toEqual([3, 3]);
  });

  it('streams a snapshot first, then one event per sample as the clock moves, with new series and events', async () => {
    const clock = new ManualClock(0);
    const { r, url } = await serve(clock);
    r.dashboard.start();
    await settle();
    const stream = await open(`${url}/dashboard/events`);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['cache-control']).toBe('no-store');
    const [first] = await stream.waitFor(1);
    expect(first!.event).toBe('snapshot');
    const snapshot = JSON.parse(first!.data) as DashboardSnapshot;
    expect(snapshot.seq).toBe(1);
    expect(r.dashboard.watchers).toBe(1);

    r.dashboard.observerOf(0).paused?.(true, 'reference stale');
    r.status = statusOf({ state: 'paused', pauseReason: 'reference stale', markouts: { meanBps: [1.5, -2, undefined], counts: [4, 2, 0] } });
    clock.advance(1_000);
    await settle();
    clock.advance(1_000);
    await settle();
    const events = await stream.waitFor(3);
    expect(events.map((event) => [event.event, event.id])).toEqual([['snapshot', undefined], ['sample', '2'], ['sample', '3']]);
    const [second, third] = events.slice(1).map((event) => JSON.parse(event.data) as SampleMessage) as [SampleMessage, SampleMessage];
    expect(second.timeMs).toBe(1_000);
    expect(second.pairs[0]!.state).toEqual({ state: 'paused', reason: 'reference stale', features: [] });
    expect(second.pairs[0]!.events).toMatchObject([{ id: 1, kind: 'pause', reason: 'reference stale', timeMs: 0 }]);
    // The 10 s markout is a series the snapshot did not have: the sample announces it once.
    expect(second.pairs[0]!.columns.map((column) => column.key)).toEqual(['akira_mm_markout_bps{horizon="10s",pair="ETH/USDC"}']);
    expect(second.pairs[0]!.values['akira_mm_markout_bps{horizon="10s",pair="ETH/USDC"}']).toBe(-2);
    expect(third.pairs[0]!.columns).toEqual([]);
    expect(third.pairs[0]!.events).toEqual([]);

    stream.close();
    for (let i = 0; i < 100 && r.dashboard.watchers > 0; i++) await settle();
    expect(r.dashboard.watchers).toBe(0);
  });

  it('is read-only: any method but GET and HEAD is refused and changes nothing', async () => {
    const clock = new ManualClock(0);
    const { r, url } = await serve(clock);
    await r.dashboard.sample();
    for (const path of ['/', '/dashboard/state', '/dashboard/events']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${url}${path}`, { method, body: method === 'DELETE' ? null : '{"pause":true}' });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        expect(await response.text()).toContain('the dashboard is read-only');
      }
    }
    expect((await fetch(`${url}/`, { method: 'HEAD' })).status).toBe(200);
    expect(r.dashboard.snapshot().seq).toBe(1);
  });

  it('drops a watcher that stops reading once its backlog passes the bound, and keeps serving the others', async () => {
    const clock = new ManualClock(0);
    const { r, url } = await serve(clock, { maxBacklogBytes: 64 * 1024 });
    r.dashboard.start();
    await settle();
    const stuck = await open(`${url}/dashboard/events`);
    const reading = await open(`${url}/dashboard/events`);
    await stuck.waitFor(1);
    stuck.response.pause();
    // Each sample carries ~40 kB of events here: the loopback socket's buffers fill (a few MB),
    // then the backlog grows past the bound.
    const observer = r.dashboard.observerOf(0);
    let samples = 0;
    for (; samples < 2_000 && r.dashboard.watchers === 2; samples++) {
      for (let k = 0; k < 20; k++) observer.halted?.(`a long reason ${'x'.repeat(2_000)}`);
      clock.advance(1_000);
      await settle();
    }
    expect(samples).toBeLessThan(2_000);
    expect(r.dashboard.watchers).toBe(1);
    clock.advance(1_000);
    await settle();
    const seen = await reading.waitFor(3);
    expect(seen.at(-1)!.event).toBe('sample');
  });

  it('stops: every stream ends and sampling stops', async () => {
    const clock = new ManualClock(0);
    const { r, url } = await serve(clock);
    r.dashboard.start();
    await settle();
    const stream = await open(`${url}/dashboard/events`);
    await stream.waitFor(1);
    const ended = new Promise<void>((resolve) => stream.response.once('end', () => resolve()));
    r.dashboard.stop();
    r.dashboard.stop();
    await ended;
    expect(r.dashboard.watchers).toBe(0);
    const seq = r.dashboard.snapshot().seq;
    clock.advance(10_000);
    await settle();
    expect(r.dashboard.snapshot().seq).toBe(seq);
    expect(clock.pendingTimers()).toBe(0);
  });
});
