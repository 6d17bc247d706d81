import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePolicies } from '../../src/cli/signer.ts';
import { loadPairFile } from '../../src/cli/pair-config.ts';
import { runCli } from './run-cli.ts';

const ACCOUNT = '0x1234';

function pairFile(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-signer-cli-')), 'pair.env');
  writeFileSync(path, [`TRADING_ACCOUNT=${ACCOUNT}`, 'SIGNER_REMOTE=unix:/run/akira-signer/signer.sock', ...lines].join('\n'));
  chmodSync(path, 0o600);
  return path;
}

describe('akira-mm signer', () => {
  it('--help lists every option with its unit and default', async () => {
    const { code, stdout } = await runCli(['signer', 'serve', '--help']);
    expect(code).toBe(0);
    for (const text of ['--keystore FILE', '--socket PATH', '--env FILE', '--password-file FILE', '--socket-mode 600|660', 'default 600', '--workers N', 'default 2', '--log-level LEVEL', '--insecure-permissions']) {
      expect(stdout).toContain(text);
    }
  });

  it('needs a keystore, a socket and at least one pair file', async () => {
    const { code, stderr } = await runCli(['signer', 'serve', '--socket', '/tmp/x.sock']);
    expect(code).toBe(2);
    expect(stderr).toContain('--keystore, --socket and --env are required');
  });

  it('merges several pair files of one account: every pair, the lower order limit, every listed receiver', () => {
    const eth = pairFile(['BASE=ETH', 'QUOTE=USDC', 'RISK_MAX_ORDER_NOTIONAL=5000', 'WITHDRAW_ALLOWED_RECEIVERS=0xabc']);
    const eth2 = pairFile(['BASE=ETH', 'QUOTE=USDC', 'RISK_MAX_ORDER_NOTIONAL=2000']);
    const strk = pairFile(['BASE=STRK', 'QUOTE=USDC', 'WITHDRAW_ALLOWED_RECEIVERS=0xdef']);
    const spec = mergePolicies([eth, eth2, strk].map((path) => loadPairFile(path, {}, { requireSigner: false })), [eth, eth2, strk]);
    expect(spec).toEqual({
      chain: 'mainnet',
      account: 0x1234n,
      pairs: [
        { base: 'ETH', quote: 'USDC', maxOrderNotionalUnits: 2000n * 10n ** 6n },
        { base: 'STRK', quote: 'USDC' },
      ],
      withdrawReceivers: [0xabcn, 0xdefn],
      contracts: {},
    });
  });

  it('refuses pair files of different accounts: one signer, one account', async () => {
    const a = pairFile(['BASE=ETH', 'QUOTE=USDC']);
    const b = pairFile(['BASE=STRK', 'QUOTE=USDC']);
    writeFileSync(b, ['TRADING_ACCOUNT=0x9999', 'BASE=STRK', 'QUOTE=USDC', 'SIGNER_REMOTE=unix:/x.sock'].join('\n'));
    const { code, stderr } = await runCli(['signer', 'serve', '--keystore', '/nonexistent.json', '--socket', '/tmp/x.sock', '--env', a, '--env', b]);
    expect(code).toBe(2);
    expect(stderr).toContain('one signer, one account');
  });
});
