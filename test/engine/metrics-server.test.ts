/**
 * The probes of the metrics server on loopback: /livez is 200 whenever the process answers
 * (paused or halted included: a restart would undo a halt), /readyz is /health's verdict in one
 * line of text, and /health keeps its JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../src/engine/index.ts';
import type { Health } from '../../src/engine/health.ts';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function get(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server?.url ?? ''}${path}`);
  return { status: response.status, text: await response.text() };
}

describe('metrics server probes', () => {
  it('answer alive always, ready only while healthy, naming the state and reason otherwise', async () => {
    let health: Health = { healthy: true, body: { state: 'quoting', reason: null } };
    server = await startMetricsServer({ host: '127.0.0.1', port: 0, metrics: async () => 'akira_mm_quoting 1\n', contentType: 'text/plain', health: () => health });
    expect(await get('/livez')).toEqual({ status: 200, text: 'alive\n' });
    expect(await get('/readyz')).toEqual({ status: 200, text: 'ready\n' });
    health = { healthy: false, body: { state: 'halted', reason: 'drawdown 12 reached the limit 10' } };
    expect(await get('/livez')).toEqual({ status: 200, text: 'alive\n' });
    expect(await get('/readyz')).toEqual({ status: 503, text: 'not ready: halted (drawdown 12 reached the limit 10)\n' });
    expect(await get('/health')).toEqual({ status: 503, text: JSON.stringify(health.body) });
    health = { healthy: false, body: { state: 'starting', reason: null } };
    expect(await get('/readyz')).toEqual({ status: 503, text: 'not ready: starting\n' });
    expect(await get('/nope')).toEqual({ status: 404, text: 'not found: try /metrics, /health, /livez or /readyz\n' });
  });
});
