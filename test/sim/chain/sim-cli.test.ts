/**
 * `akira-mm sim --accounts none` as a user runs it: wallets only, their owner keys printed (never
 * logged), the Starknet double answering spec 0.10 on the RPC port; bad chain flags exit 2.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.ts';

describe('akira-mm sim with the Starknet double', () => {
  it('starts from wallets only with --accounts none, prints their owner keys, and answers spec 0.10', async () => {
    const child = spawn(process.execPath, ['bin/akira-mm.js', 'sim', '--port', '0', '--no-flow', '--accounts', 'none', '--rollup-ms', '500', '--withdraw-delay', '1:0', '--dev-accounts', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = stderr.split('\n').find((entry) => entry.includes('sim listening'));
        if (found !== undefined) resolve(JSON.parse(found) as Record<string, unknown>);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stdout).toContain('wallets only');
    expect(stdout).toMatch(/Wallet #0\n\| Address: +0x[0-9a-f]+\n\| Owner key: +0x[0-9a-f]+/);
    expect(stderr).not.toMatch(/Owner key|ownerPrivateKey/i);
    const address = /Wallet #0\n\| Address: +(0x[0-9a-f]+)/.exec(stdout)?.[1];
    const rpc = async (method: string, params: unknown): Promise<unknown> =>
      ((await (await fetch(String(line['rpcUrl']), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result: unknown }).result;
    expect(await rpc('starknet_specVersion', [])).toBe('0.10.0');
    expect(await rpc('starknet_getNonce', { block_id: 'latest', contract_address: address })).toBe('0x0');
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
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
