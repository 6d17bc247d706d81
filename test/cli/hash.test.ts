import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceOrderHash } from '../../src/exchange/signer/reference.ts';
import { parseOrderBody } from '../../src/exchange/wire/requests.ts';
import { MAINNET, MAKER, orderBody } from '../exchange/signer/fixtures.ts';
import { runCli } from './run-cli.ts';

function bodyFile(body: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'akira-hash-')), 'body.json');
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

describe('akira-mm hash', () => {
  it('prints the hash starknet.js computes for an order body file', async () => {
    const body = orderBody({ ticker: ['STRK', 'USDC'], price: '0.5123', qty: { base_qty: '150', quote_qty: '0' } });
    const { code, stdout, stderr } = await runCli(['hash', 'order', '--chain', 'mainnet', bodyFile(body)]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`0x${referenceOrderHash(parseOrderBody(body, MAINNET), MAINNET).toString(16)}\n`);
  });

  it('reads the body from stdin with - and hashes every request kind', async () => {
    const cancel = { maker: MAKER, order_hash: '0x123', salt: '1', sign_scheme: 'ecdsa curve', sign: ['0', '0'] };
    const piped = await runCli(['hash', 'cancel', '--chain', 'sepolia', '-'], JSON.stringify(cancel));
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/^0x[0-9a-f]+\n$/);
    const gas = { gas_per_action: 100, fee_token: 'STRK', max_gas_price: '0.00004', conversion_rate: ['1', '1'] };
    const withdraw = { maker: MAKER, token: 'USDC', amount: '10', salt: '1', receiver: MAKER, sign_scheme: 'ecdsa curve', gas_fee: gas };
    const snip = await runCli(['hash', 'withdraw', '--chain', 'mainnet', bodyFile(withdraw)]);
    const poseidon = await runCli(['hash', 'withdraw', '--chain', 'mainnet', '--withdraw-hash', 'poseidon', bodyFile(withdraw)]);
    expect(snip.code + poseidon.code).toBe(0);
    expect(snip.stdout).not.toBe(poseidon.stdout);
  });

  it('names a missing or malformed field on one line and exits 2', async () => {
    const missing = orderBody();
    delete (missing['constraints'] as Record<string, unknown>)['nonce'];
    const result = await runCli(['hash', 'order', '--chain', 'mainnet', bodyFile(missing)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('akira-mm hash: constraints.nonce: missing\n');
    const bad = await runCli(['hash', 'order', '--chain', 'mainnet', bodyFile(orderBody({ price: '3000.1234567' }))]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('price:');
    const notJson = await runCli(['hash', 'order', '--chain', 'mainnet', bodyFile('{"maker": ')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('not valid JSON');
  });

  it('refuses a bad kind or chain with the allowed values', async () => {
    const kind = await runCli(['hash', 'trade', '--chain', 'mainnet']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('allowed: order, cancel, cancel-all, withdraw, increase-nonce');
    const chain = await runCli(['hash', 'order', '--chain', 'goerli', '-'], '{}');
    expect(chain.code).toBe(2);
    expect(chain.stderr).toContain('allowed: mainnet, sepolia');
  });
});
