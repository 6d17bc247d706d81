import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const SECRET = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';

function pairFile(lines: string[], mode: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-perm-')), 'pair.env');
  writeFileSync(path, ['TRADING_ACCOUNT=0x1234', 'BASE=ETH', 'QUOTE=USDC', ...lines].join('\n'));
  chmodSync(path, mode);
  return path;
}

describe('pair files are checked like ssh keys', () => {
  it('refuses a pair file holding a key that group or others may read, naming the file and the fix', async () => {
    const path = pairFile([`SIGNER_PRIVATE_KEY=${SECRET}`], 0o644);
    const { code, stderr } = await runCli(['config', 'check', '--env', path]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `akira-mm config: ${path} (pair file with SIGNER_PRIVATE_KEY) is open to group or others (mode 0644): run chmod 600 ${path} (or pass --insecure-permissions to accept it)\n`,
    );
  });

  it('accepts it with --insecure-permissions, with a warning', async () => {
    const path = pairFile([`SIGNER_PRIVATE_KEY=${SECRET}`], 0o640);
    const { code, stdout, stderr } = await runCli(['config', 'check', '--env', path, '--insecure-permissions']);
    expect(code).toBe(0);
    expect(stdout).toContain('valid');
    expect(stderr).toContain('accepted because of --insecure-permissions');
  });

  it('accepts the same file at mode 0600', async () => {
    expect((await runCli(['config', 'check', '--env', pairFile([`SIGNER_PRIVATE_KEY=${SECRET}`], 0o600)])).code).toBe(0);
  });

  it('does not care who reads a pair file that holds no secret (the key is in a keystore or the remote signer)', async () => {
    expect((await runCli(['config', 'check', '--env', pairFile(['SIGNER_REMOTE=unix:/run/akira-signer/signer.sock'], 0o644)])).code).toBe(0);
    const withKeystore = pairFile(['SIGNER_KEYSTORE=eth.json', 'SIGNER_KEYSTORE_PASSWORD_FILE=password'], 0o644);
    for (const name of ['eth.json', 'password']) {
      writeFileSync(join(withKeystore, '..', name), '{}');
      chmodSync(join(withKeystore, '..', name), 0o600);
    }
    expect((await runCli(['config', 'check', '--env', withKeystore])).code).toBe(0);
  });

  it('checks the keystore a pair file names: there, and private', async () => {
    const path = pairFile(['SIGNER_KEYSTORE=eth.json'], 0o600);
    const missing = await runCli(['config', 'check', '--env', path]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read keystore ${join(path, '..', 'eth.json')}`);
    writeFileSync(join(path, '..', 'eth.json'), '{}');
    chmodSync(join(path, '..', 'eth.json'), 0o644);
    const open = await runCli(['config', 'check', '--env', path]);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('(keystore) is open to group or others (mode 0644): run chmod 600');
  });

  it('treats the shipped public development keys as no secret, so a fresh checkout (mode 0644) works', async () => {
    const devKey = '0x0144e9410ea008c67331a1024ea64f9235f5454a67325cc43f347b7d9bb09697';
    expect((await runCli(['config', 'check', '--env', pairFile([`SIGNER_PRIVATE_KEY=${devKey}`], 0o644)])).code).toBe(0);
  });
});
