import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';
import { spawnSim } from './sim-process.ts';

describe('akira-mm sim', () => {
  it('prints the accounts, logs one line with its URLs once listening, and stops cleanly on SIGTERM', async () => {
    const sim = await spawnSim(['--port', '0', '--no-flow', '--seed', '3', '--dev-accounts', '2']);
    const { line } = sim;
    expect(line['httpUrl']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line['wsUrl']).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
    expect(line['rpcUrl']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.stdout()).toContain('Account #1');
    expect(sim.stdout()).toMatch(/Private key: 0x[0-9a-f]+/);
    expect(sim.stderr()).not.toMatch(/Private key|privateKey/i);
    const gas = await fetch(`${String(line['httpUrl'])}/gas/price`);
    expect(gas.status).toBe(401);
    expect(await sim.stop()).toBe(0);
  }, 30_000);

  it('exits 2 naming a bad flag or value', async () => {
    const unknown = await runCli(['sim', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--bogus/);
    const chain = await runCli(['sim', '--chain', 'venus']);
    expect(chain.code).toBe(2);
    expect(chain.stderr).toMatch(/--chain venus/);
    const port = await runCli(['sim', '--port', '70000']);
    expect(port.stderr).toMatch(/--port=70000/);
    const fault = await runCli(['sim', '--fault', 'httpErrorRate=2']);
    expect(fault.stderr).toMatch(/httpErrorRate=2/);
    const rate = await runCli(['sim', '--rate-limit', 'fast']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--rate-limit fast: expected PER_SECOND\[:BURST\]/);
  });

  it('names the entry and field of a bad accounts file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-accounts-'));
    const file = join(dir, 'accounts.json');
    writeFileSync(file, JSON.stringify([{ address: '0x1', publicKey: '0x2', balances: { ETH: '1.2.3' } }]));
    const result = await runCli(['sim', '--accounts', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/accounts\[0\]\.balances\.ETH/);
  });
});
