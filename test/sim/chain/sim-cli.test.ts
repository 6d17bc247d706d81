/**
 * `akira-mm sim --accounts none` as a user runs it: wallets only, their owner keys printed (never
 * logged), the Starknet double answering spec 0.10 on the RPC port; bad chain flags exit 2.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.ts';
import { spawnSim } from '../sim-process.ts';

describe('akira-mm sim with the Starknet double', () => {
  it('starts from wallets only with --accounts none, prints their owner keys, and answers spec 0.10', async () => {
    const sim = await spawnSim(['--port', '0', '--no-flow', '--accounts', 'none', '--rollup-ms', '500', '--withdraw-delay', '1:0', '--dev-accounts', '1']);
    const { line } = sim;
    expect(sim.stdout()).toContain('wallets only');
    expect(sim.stdout()).toMatch(/Wallet #0\n\| Address: +0x[0-9a-f]+\n\| Owner key: +0x[0-9a-f]+/);
    expect(sim.stderr()).not.toMatch(/Owner key|ownerPrivateKey/i);
    const address = /Wallet #0\n\| Address: +(0x[0-9a-f]+)/.exec(sim.stdout())?.[1];
    const rpc = async (method: string, params: unknown): Promise<unknown> =>
      ((await (await fetch(String(line['rpcUrl']), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: unknown }).result;
    expect(await rpc('starknet_specVersion', [])).toBe('0.10.0');
    expect(await rpc('starknet_getNonce', { block_id: 'latest', contract_address: address })).toBe('0x0');
    expect(await sim.stop()).toBe(0);
  }, 30_000);

  it('exits 2 naming a bad withdrawal delay, block or rollup interval', async () => {
    const delay = await runCli(['sim', '--withdraw-delay', '2']);
    expect(delay.code).toBe(2);
    expect(delay.stderr).toMatch(/--withdraw-delay 2: expected BLOCKS:SECONDS/);
    const rollup = await runCli(['sim', '--rollup-ms', 'soon']);
    expect(rollup.code).toBe(2);
    expect(rollup.stderr).toMatch(/--rollup-ms=soon is not an integer/);
  });
});
