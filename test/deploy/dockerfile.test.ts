/**
 * The image definition (no Docker engine runs on these machines, so `docker build` cannot be
 * tested here): both stages on the active Node LTS, and a HEALTHCHECK that asks the daemon's
 * /health without tools the slim image lacks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('Dockerfile', () => {
  it('builds every stage on node:26-bookworm-slim, the active LTS line', () => {
    const bases = instructions.filter((line) => line.startsWith('FROM ')).map((line) => line.split(/\s+/)[1]);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toBe('node:26-bookworm-slim');
  });

  it('has one HEALTHCHECK that asks /health on the metrics port with node itself, in exec form', () => {
    const checks = instructions.filter((line) => line.startsWith('HEALTHCHECK '));
    expect(checks).toHaveLength(1);
    const check = checks[0] as string;
    expect(check).toMatch(/--interval=\d+s/);
    expect(check).toMatch(/--timeout=\d+s/);
    const command = JSON.parse(check.slice(check.indexOf('CMD') + 3).trim()) as string[];
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('/health');
    expect(command.join(' ')).toContain('9464');
  });

  it('declares the Node versions the README and CI support (engines ≥ 22)', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=22');
    const ci = readFileSync(fileURLToPath(new URL('../../.ci/run', import.meta.url)), 'utf8');
    expect(ci).toMatch(/NODE_LINES=\(22\.\d+\.\d+ 26\.\d+\.\d+\)/);
  });
});
