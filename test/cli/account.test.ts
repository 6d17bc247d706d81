/**
 * `akira-mm account` against the sim's Starknet double, from a fresh trading key and a wallet with
 * funds only (`accountsMode: 'wallets'`, like `akira-mm sim --accounts none`): setup, a second
 * setup that sends nothing, quoting with the new account, both withdrawal paths back to the
 * wallet, and every refusal that sends nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { hash } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { generatePrivateKey, starkKeyOf } from '../../src/exchange/signer/index.ts';
import { feltToHex } from '../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle, type SimOptions } from '../../src/sim/index.ts';
import { account } from './account-support.ts';

let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function walletSim(options: SimOptions = {}): Promise<SimHandle> {
  sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0, accountsMode: 'wallets', withdrawDelay: { blocks: 1, seconds: 0 }, blockIntervalMs: 0, ...options });
  return sim;
}

function pairFile(venue: SimHandle, index: number, tradingKey: bigint, extra: readonly string[] = []): string {
  const path = join(mkdtempSync(join(tmpdir(), 'akira-account-')), 'pair.env');
  const lines = [
    `EXCHANGE_HTTP_URL=${venue.httpUrl}`,
    `EXCHANGE_WS_URL=${venue.wsUrl}`,
    `STARKNET_RPC_URL=${venue.rpcUrl}`,
    `TRADING_ACCOUNT=${feltToHex(venue.wallets[index]!.address)}`,
    `SIGNER_PRIVATE_KEY=${feltToHex(tradingKey)}`,
    'BASE=ETH',
    'QUOTE=USDC',
    'LOG_LEVEL=silent',
    ...extra,
  ];
  writeFileSync(path, lines.join('\n'), { mode: 0o600 });
  return path;
}


const freshKey = (): bigint => generatePrivateKey((size) => randomBytes(size));
const FAST = ['--yes', '--poll-ms', '1'];

describe('akira-mm account', () => {
  it('takes a wallet-only account to ready with one setup transaction, and a second setup sends nothing', async () => {
    const venue = await walletSim();
    const key = freshKey();
    const env = pairFile(venue, 0, key);
    const wallet = venue.wallets[0]!;
    const before = await account(venue, 0, ['status', '--env', env, '--json']);
    expect(before.code).toBe(0);
    const status = JSON.parse(before.stdout) as { ready: boolean; todo: string[]; boundSigner: string };
    expect(status.ready).toBe(false);
    expect(status.todo.join(' ')).toMatch(/bind.*grant.*deposit/);

    const dry = await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=1000', '--deposit', 'ETH=1', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/starkli invoke .* bind_to_signer .* \/ .* approve .* deposit .* grant_access_to_executor/);
    expect(dry.stdout).toMatch(/fee estimate: [\d.]+ STRK/);
    expect(venue.starknet.accounts.get(wallet.address)!.nonce).toBe(0n);

    const setup = await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=1000', '--deposit', 'ETH=1', ...FAST]);
    expect(setup.stderr).toBe('');
    expect(setup.code).toBe(0);
    expect(setup.stdout).toMatch(/one transaction with 6 calls/);
    expect(setup.stdout).toMatch(/included in block \d+: SUCCEEDED/);
    expect(setup.stdout).toMatch(/transaction 0x[0-9a-f]+/);
    expect(venue.starknet.core.signerOf(wallet.address)).toBe(starkKeyOf(key));
    expect(venue.starknet.core.isApproved(BigInt(venue.chain.executorAddress), wallet.address)).toBe(true);
    expect(venue.balancesOf(wallet.address).get('USDC')).toEqual({ free: 1_000_000_000n, locked: 0n });
    expect(venue.balancesOf(wallet.address).get('ETH')).toEqual({ free: 10n ** 18n, locked: 0n });

    const again = await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=1000', '--deposit', 'ETH=1', ...FAST, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'setup', calls: [], sent: false });
    expect(venue.starknet.accounts.get(wallet.address)!.nonce).toBe(1n);
    const after = JSON.parse((await account(venue, 0, ['status', '--env', env, '--json'])).stdout) as { ready: boolean; signerMatches: boolean };
    expect(after).toMatchObject({ ready: true, signerMatches: true });
    // The chain's exchange balance beside the venue's split of it into free and locked.
    expect(after).toMatchObject({ tokens: expect.arrayContaining([expect.objectContaining({ symbol: 'USDC', exchange: '1000000000', venueFree: '1000000000', venueLocked: '0' })]) });
  });

  it('withdraws on chain (request, then apply after the delay) and off chain through the API, to the wallet', async () => {
    const venue = await walletSim();
    const wallet = venue.wallets[0]!;
    const env = pairFile(venue, 0, freshKey(), [`WITHDRAW_ALLOWED_RECEIVERS=${feltToHex(wallet.address)}`]);
    expect((await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=1000', '--deposit', 'STRK=100', ...FAST])).code).toBe(0);
    const usdcBefore = venue.starknet.walletOf(wallet.address, 'USDC');

    const request = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '100', '--onchain', 'request', ...FAST]);
    expect(request.stderr).toBe('');
    expect(request.code).toBe(0);
    const status = await account(venue, 0, ['status', '--env', env]);
    expect(status.stdout).toMatch(/pending on-chain withdrawal of 100 USDC/);
    const apply = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '100', '--onchain', 'apply', ...FAST]);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(venue.starknet.walletOf(wallet.address, 'USDC')).toBe(usdcBefore + 100_000_000n);
    expect(venue.balancesOf(wallet.address).get('USDC')?.free).toBe(900_000_000n);

    const offchain = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '50', ...FAST]);
    expect(offchain.stderr).toBe('');
    expect(offchain.code).toBe(0);
    expect(offchain.stdout).toMatch(/withdraw paid out/);
    expect(venue.starknet.walletOf(wallet.address, 'USDC')).toBe(usdcBefore + 150_000_000n);
    // Both paths end in the core's Withdrawal event: direct (on chain) then not (through the API).
    const withdrawals = venue.starknet.chain.events().filter((event) => event.fromAddress === BigInt(venue.chain.coreAddress) && event.keys[1] === BigInt(hash.getSelectorFromName('Withdrawal')));
    expect(withdrawals.map((event) => event.data.at(-1))).toEqual([1n, 0n]);
  });

  it('refuses, sending nothing and saying why: a wallet too small, another chain, another signer, an unreachable node, a withdrawal beyond the balance, a revert', async () => {
    const venue = await walletSim({ withdrawDelay: { blocks: 50, seconds: 0 } });
    const wallet = venue.wallets[0]!;
    const nonce = (): bigint => venue.starknet.accounts.get(wallet.address)!.nonce;
    const env = pairFile(venue, 0, freshKey(), [`WITHDRAW_ALLOWED_RECEIVERS=${feltToHex(wallet.address)}`]);

    const tooMuch = await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=100000000', ...FAST]);
    expect(tooMuch.code).toBe(2);
    expect(tooMuch.stderr).toMatch(/too little USDC in the wallet: 300000 USDC held, 100000000 USDC needed.*nothing sent/);

    const sepolia = await account(venue, 0, ['status', '--env', pairFile(venue, 0, freshKey(), ['CHAIN=sepolia'])]);
    expect(sepolia.code).toBe(2);
    expect(sepolia.stderr).toMatch(/wrong chain: the node answers chain id 0x534e5f4d41494e, CHAIN=sepolia/);

    const unreachable = await account(venue, 0, ['setup', '--env', env, '--rpc', 'http://127.0.0.1:1', ...FAST]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/RPC http:\/\/127\.0\.0\.1:1: starknet_chainId failed/);
    expect(nonce()).toBe(0n);

    expect((await account(venue, 0, ['setup', '--env', env, '--deposit', 'USDC=10', ...FAST])).code).toBe(0);
    expect(nonce()).toBe(1n);
    const other = await account(venue, 0, ['setup', '--env', pairFile(venue, 0, freshKey()), ...FAST]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/the account is bound to signer 0x[0-9a-f]+, not to this pair file's 0x[0-9a-f]+.*nothing sent/);

    const beyond = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '11', '--onchain', 'request', ...FAST]);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toMatch(/larger than the exchange balance of 10 USDC; nothing sent/);
    const beyondFree = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '11', ...FAST]);
    expect(beyondFree.code).toBe(2);
    expect(beyondFree.stderr).toMatch(/larger than the free exchange balance of 10 USDC/);
    const elsewhere = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '1', '--receiver', '0x1234', ...FAST]);
    expect(elsewhere.stderr).toMatch(/the receiver 0x0*1234 is not in WITHDRAW_ALLOWED_RECEIVERS/);

    expect((await account(venue, 0, ['setup', '--env', env, '--deposit', 'STRK=100', ...FAST])).code).toBe(0);
    expect((await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '5', '--onchain', 'request', ...FAST])).code).toBe(0);
    const sent = nonce();
    const early = await account(venue, 0, ['withdraw', '--env', env, '--token', 'USDC', '--amount', '5', '--onchain', 'apply', ...FAST]);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/the transaction would revert, nothing sent: .*FEW_TIME_PASSED: wait at least 50 block/);
    expect(nonce()).toBe(sent);
  });

  it('single steps: bind, approve, deposit; preflight then fails on executor access until grant-executor', async () => {
    const venue = await walletSim();
    const env = pairFile(venue, 0, freshKey());
    for (const step of [['bind'], ['approve', '--token', 'USDC', '--amount', '500'], ['deposit', '--token', 'USDC', '--amount', '500']]) {
      const result = await account(venue, 0, [...step, '--env', env, ...FAST]);
      expect(result.stderr, step[0]).toBe('');
      expect(result.code, step[0]).toBe(0);
    }
    const preflight = async (): Promise<string> => (await main(['preflight', '--env', env, '--timeout-ms', '500'], { stdout: { write: (text: string) => (out += text) }, stderr: { write: () => true }, stdin: Readable.from(['']), env: {}, cwd: process.cwd() }), out);
    let out = '';
    expect(await preflight()).toMatch(/✖ executor access: the account has not granted the executor/);
    expect(out).toMatch(/✔ balances on chain: the core contract holds what the API reports for ETH and USDC/);
    expect((await account(venue, 0, ['grant-executor', '--env', env, ...FAST])).code).toBe(0);
    out = '';
    expect(await preflight()).toMatch(/✔ executor access/);
  });

  it('refuses to send without --yes when there is no terminal to ask on', async () => {
    const venue = await walletSim();
    const result = await account(venue, 0, ['grant-executor', '--env', pairFile(venue, 0, freshKey()), '--poll-ms', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not sent: add --yes/);
    expect(venue.starknet.accounts.get(venue.wallets[0]!.address)!.nonce).toBe(0n);
  });
});
