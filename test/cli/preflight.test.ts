/**
 * `akira-mm preflight` against the embedded exchange: the shipped pair file passes every check
 * (order test included), and each broken setup fails with one clear line and its fix.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/exchange/signer/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { fundDevAccounts, startSim, type SimHandle, type SimOptions } from '../../src/sim/index.ts';
import { getChain } from '../../src/core/index.ts';
import { runCli } from './run-cli.ts';

const OTHER_RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function started(options: SimOptions = {}): Promise<SimHandle> {
  // Flow on: the book moves, so the first-frames check sees bbo/snap frames.
  sim = await startSim({ seed: 0, devAccounts: 2, signatureWorkers: 0, ...options });
  return sim;
}

/** The shipped config/ETH-USDC.env pointed at this sim (its ports instead of 8080/8081). */
function shippedEnvFile(venue: SimHandle, replace: Readonly<Record<string, string>> = {}): string {
  let text = readFileSync(new URL('../../config/ETH-USDC.env', import.meta.url), 'utf8')
    .replace('http://127.0.0.1:8080', venue.httpUrl)
    .replace('ws://127.0.0.1:8080/ws', venue.wsUrl)
    .replace('http://127.0.0.1:8081', venue.rpcUrl);
  for (const [key, value] of Object.entries(replace)) text = text.replace(new RegExp(`^${key}=.*$`, 'm'), `${key}=${value}`);
  const file = join(mkdtempSync(join(tmpdir(), 'preflight-')), 'pair.env');
  // A key that is not a public dev key makes it a secret file: owner only (the CLI refuses it otherwise).
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

function lineOf(stdout: string, check: string): string {
  const line = stdout.split('\n').find((entry) => entry.slice(2).startsWith(`${check}:`));
  if (line === undefined) throw new Error(`no ${check} line in\n${stdout}`);
  return line;
}

describe('akira-mm preflight', () => {
  it('passes every check of the shipped ETH-USDC pair file against the sim, order test included', async () => {
    const venue = await started();
    const result = await runCli(['preflight', '--env', shippedEnvFile(venue), '--order-test']);
    expect(result.code, result.stdout).toBe(0);
    for (const check of ['REST', 'login', 'chain id', 'signer', 'contract constants', 'ticker rules', 'gas', 'balances', 'WS', 'first frames', 'clock skew', 'order test']) {
      expect(lineOf(result.stdout, check)).toMatch(/^✔ /);
    }
    expect(lineOf(result.stdout, 'order test')).toMatch(/placed in \d+ ms, OPEN report \d+ ms after sending; cancelled in \d+ ms/);
    // The embedded exchange's fees, each named maker or taker, with its value in basis points.
    expect(lineOf(result.stdout, 'ticker rules')).toMatch(/; fees maker 200 pbips \(2 bps\), taker 1000 pbips \(10 bps\)$/);
    expect(result.stdout).toMatch(/ready: every check passed\n$/);
    expect(venue.openOrdersOf(venue.accounts[0]!.address)).toEqual([]);
    expect(result.stdout).not.toContain(readFileSync(new URL('../../config/ETH-USDC.env', import.meta.url), 'utf8').match(/SIGNER_PRIVATE_KEY=(\S+)/)?.[1]);
  }, 30_000);

  it('fails the login with the fix when the key is not the one bound to the account', async () => {
    const venue = await started();
    const result = await runCli(['preflight', '--env', shippedEnvFile(venue, { SIGNER_PRIVATE_KEY: '0x1234' })]);
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'login')).toBe('✖ login: refused: Wrong account');
    expect(result.stdout).toContain('fix: SIGNER_PRIVATE_KEY must be the key bound to TRADING_ACCOUNT');
    expect(lineOf(result.stdout, 'WS')).toMatch(/^– /);
    const json = await runCli(['preflight', '--env', shippedEnvFile(venue, { SIGNER_PRIVATE_KEY: '0x1234' }), '--json']);
    const checks = json.stdout.trim().split('\n').map((entry) => JSON.parse(entry) as { name: string; status: string; fix?: string });
    expect(checks.find((check) => check.name === 'login')).toMatchObject({ status: 'fail', fix: expect.stringContaining('bind_to_signer') });
    expect(json.code).toBe(1);
  });

  it('fails the balances of an unfunded account, saying what to deposit', async () => {
    const chain = getChain('mainnet');
    const funded = fundDevAccounts([devAccount(0, 0)], chain);
    const poor = devAccount(0, 1);
    const venue = await started({ accounts: [...funded, { address: poor.address, publicKey: poor.starkKey, privateKey: poor.privateKey, balances: new Map() }] });
    const file = shippedEnvFile(venue, { TRADING_ACCOUNT: feltToHex(poor.address), SIGNER_PRIVATE_KEY: feltToHex(poor.privateKey) });
    // Sized in base tokens, so what the asks need is exact (the shipped file sizes by notional: the next test).
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^LADDER_ORDER_NOTIONAL=.*$/m, 'LADDER_ORDER_SIZE=0.05'));
    const result = await runCli(['preflight', '--env', file, '--timeout-ms', '3000']);
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'balances')).toMatch(/^✖ balances: 0 ETH free, asks need 0\.1; 0 USDC free, bids need \d+/);
    expect(result.stdout).toMatch(/fix: deposit 0\.1 ETH, deposit \d+(\.\d+)? USDC \(core contract `deposit`\)/);
  });

  it('checks the balances of a notional order size at the mid, and names the notional key in the fix', async () => {
    const chain = getChain('mainnet');
    const funded = fundDevAccounts([devAccount(0, 0)], chain);
    const poor = devAccount(0, 1);
    const venue = await started({ accounts: [...funded, { address: poor.address, publicKey: poor.starkKey, privateKey: poor.privateKey, balances: new Map() }] });
    const file = shippedEnvFile(venue, { TRADING_ACCOUNT: feltToHex(poor.address), SIGNER_PRIVATE_KEY: feltToHex(poor.privateKey) });
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^LADDER_ORDER_NOTIONAL=.*$/m, 'LADDER_ORDER_NOTIONAL=150'));
    const result = await runCli(['preflight', '--env', file, '--timeout-ms', '3000']);
    expect(result.code).toBe(1);
    // Two levels of 150 USDC: the bids need 300 USDC whatever the price, the asks 300 USDC of ETH at the mid.
    expect(lineOf(result.stdout, 'balances')).toMatch(/^✖ balances: 0 ETH free, asks need 0\.\d+; 0 USDC free, bids need 300\b/);
    expect(result.stdout).toMatch(/or lower LADDER_ORDER_NOTIONAL/);
    expect(lineOf(result.stdout, 'ticker rules')).toMatch(/^✔ ticker rules/);
  });

  it('fails the contract constants over RPC when the chain’s fee recipient is another, naming both', async () => {
    const venue = await started({ contracts: { feeRecipient: OTHER_RECIPIENT } });
    const result = await runCli(['preflight', '--env', shippedEnvFile(venue), '--timeout-ms', '3000']);
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'contract constants')).toBe(
      `✖ contract constants: fee recipient: ours 0x051d992db2a0b33c0a39cc821823f672b9c981cdba429be91380de9b84a85d4d, the core contract's ${OTHER_RECIPIENT} (fix FEE_RECIPIENT)`,
    );
    // The same file naming the chain's recipient passes that check.
    const fixed = await runCli(['preflight', '--env', shippedEnvFile(venue, { STARKNET_RPC_URL: `${venue.rpcUrl}\nFEE_RECIPIENT=${OTHER_RECIPIENT}` }), '--timeout-ms', '3000']);
    expect(lineOf(fixed.stdout, 'contract constants')).toMatch(/^✔ /);
  });

  it('fails the WS check when the stream is unreachable, and skips what needs it', async () => {
    const venue = await started();
    const result = await runCli(['preflight', '--env', shippedEnvFile(venue, { EXCHANGE_WS_URL: 'ws://127.0.0.1:1/ws' }), '--order-test']);
    expect(result.code).toBe(1);
    expect(lineOf(result.stdout, 'WS')).toMatch(/^✖ WS: ws:\/\/127\.0\.0\.1:1\/ws: .*WS connect failed/);
    expect(lineOf(result.stdout, 'first frames')).toMatch(/^– /);
    expect(lineOf(result.stdout, 'order test')).toBe('✖ order test: not run: WS failed');
  });

  it('explains every option with its unit and default, and exits 0', async () => {
    const result = await runCli(['preflight', '--help']);
    expect(result.code).toBe(0);
    for (const option of ['--env FILE', '--order-test', '--timeout-ms N', '--max-skew-ms N', '--json']) expect(result.stdout).toContain(option);
    expect(result.stdout).toContain('(ms, default 10000)');
    expect(result.stdout).toContain('(ms, default 2000)');
  });
});
