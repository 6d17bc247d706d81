/**
 * docker-compose.yml (no Docker engine runs on these machines, so `docker compose up` cannot be
 * tested here): both services hardened (read-only root filesystem, no capabilities, no privilege
 * escalation), the metrics published on the host's loopback only, a healthcheck on each, the
 * daemon started once the signer's socket exists, and the daemon's healthcheck run for real
 * against the metrics server: healthy while it answers, halted too; unhealthy once it does not.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parse as parseDotenv } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { parseFlags } from '../../src/cli/args.ts';
import { RUN_OPTIONS } from '../../src/cli/run.ts';
import { SIGNER_SERVE_OPTIONS } from '../../src/cli/signer.ts';
import { CONFIG_KEYS } from '../../src/config/index.ts';
import { startMetricsServer } from '../../src/engine/metrics-server.ts';
import { freePort } from '../../tools/chaos/bot-process.ts';

interface ComposeService {
  readonly command: string[];
  readonly read_only?: boolean;
  readonly tmpfs?: string[];
  readonly cap_drop?: string[];
  readonly security_opt?: string[];
  readonly ports?: string[];
  readonly volumes?: string[];
  readonly environment?: Record<string, string>;
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { test: string[]; interval: string; timeout: string; retries: number; start_period: string };
}

const compose = parse(readFileSync(fileURLToPath(new URL('../../docker-compose.yml', import.meta.url)), 'utf8')) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
const signer = compose.services['signer'] as ComposeService;
const account = compose.services['account'] as ComposeService;

/** Runs a healthcheck's `CMD` words (here: `node -e …`) as Docker would; its exit code. */
function runCheck(words: readonly string[]): Promise<number> {
  const [command = '', ...args] = words;
  expect(command).toBe('node');
  return new Promise((resolve) => execFile(process.execPath, args, { timeout: 20_000 }, (error) => resolve(typeof error?.code === 'number' ? error.code : error === null ? 0 : -1)));
}

describe('docker-compose.yml', () => {
  it('runs every service read-only, with /tmp a tmpfs, no capabilities and no privilege escalation', () => {
    expect(services.map(([name]) => name).sort()).toEqual(['account', 'signer']);
    for (const [name, service] of services) {
      expect(service.read_only, name).toBe(true);
      expect(service.tmpfs, name).toContain('/tmp');
      expect(service.cap_drop, name).toEqual(['ALL']);
      expect(service.security_opt, name).toContain('no-new-privileges:true');
    }
  });

  it('publishes the metrics port on the host\'s loopback only', () => {
    for (const [name, service] of services) for (const port of service.ports ?? []) expect(port, name).toMatch(/^127\.0\.0\.1:/);
    const { values } = parseFlags(account.command.slice(1), RUN_OPTIONS, 'docker-compose.yml');
    expect(account.command[0]).toBe('run');
    expect(values['metrics-host']).toBe('0.0.0.0');
    // The daemon's port is its pair files' METRICS_PORT (one process, one port: the first file's).
    const mount = (account.volumes ?? []).find((volume) => volume.split(':')[1] === values.env?.[0]);
    expect(mount, `the volume that holds ${values.env?.[0] ?? '?'}`).toBeDefined();
    const first = readFileSync(fileURLToPath(new URL(`../../${(mount ?? '').split(':')[0] ?? ''}`, import.meta.url)), 'utf8');
    const metricsPort = parseDotenv(first)['METRICS_PORT'] ?? CONFIG_KEYS.METRICS_PORT.default;
    expect(account.ports).toEqual([`127.0.0.1:9464:${metricsPort}`]);
  });

  it('starts the daemon once the signer is healthy, and calls the signer healthy once the socket the daemon uses exists', () => {
    expect(account.depends_on).toEqual({ signer: { condition: 'service_healthy' } });
    const { values } = parseFlags(signer.command.slice(2), SIGNER_SERVE_OPTIONS, 'docker-compose.yml');
    expect(signer.command.slice(0, 2)).toEqual(['signer', 'serve']);
    expect(account.environment?.['SIGNER_REMOTE']).toBe(`unix:${values.socket ?? ''}`);
    expect(signer.healthcheck?.test).toEqual(['CMD', 'sh', '-c', `test -S ${values.socket ?? ''}`]);
  });

  it('calls the daemon healthy while it answers /livez, halted too, and unhealthy once nothing answers', { timeout: 60_000 }, async () => {
    const check = account.healthcheck?.test ?? [];
    expect(check[0]).toBe('CMD');
    expect(check.join(' ')).toContain('http://127.0.0.1:9464/livez');
    // The same command against a metrics server on a free port (Docker runs it inside the container, on 9464).
    const port = await freePort();
    const words = check.slice(1).map((word) => word.replace('127.0.0.1:9464', `127.0.0.1:${port}`));
    const server = await startMetricsServer({
      host: '127.0.0.1',
      port,
      metrics: () => Promise.resolve(''),
      contentType: 'text/plain',
      health: () => ({ healthy: false, body: { state: 'halted', reason: 'drawdown' } }),
    });
    try {
      expect(await runCheck(words)).toBe(0);
    } finally {
      await server.stop();
    }
    expect(await runCheck(words)).toBe(1);
  });
});
