import { ec } from 'starknet';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('akira-mm keys new', () => {
  it('prints a fresh key pair whose public key starknet.js derives from the private key', async () => {
    const { code, stdout } = await runCli(['keys', 'new']);
    expect(code).toBe(0);
    const pair = JSON.parse(stdout) as { privateKey: string; publicKey: string; fullPublicKey: string };
    expect(BigInt(pair.publicKey)).toBe(BigInt(ec.starkCurve.getStarkKey(pair.privateKey)));
    const second = JSON.parse((await runCli(['keys', 'new'])).stdout) as { privateKey: string };
    expect(second.privateKey).not.toBe(pair.privateKey);
  });

  it('exits 2 on anything but `keys new`', async () => {
    expect((await runCli(['keys', 'old'])).code).toBe(2);
  });
});
