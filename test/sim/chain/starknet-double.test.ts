/**
 * The sim's Starknet double driven by starknet.js's own `RpcProvider`, `Account` and `Contract`
 * (default options: spec 0.10, Cairo version and tip read from the node) over loopback HTTP.
 */
import { Account, Contract, RpcProvider, hash, num } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/index.ts';
import { generatePrivateKey, starkKeyOf } from '../../../src/exchange/signer/index.ts';
import { startSim, type SimHandle, type SimOptions } from '../../../src/sim/index.ts';
import { loadAbi } from '../../../src/exchange/index.ts';
import { randomBytes } from 'node:crypto';

let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function started(options: SimOptions = {}): Promise<{ sim: SimHandle; clock: ManualClock; provider: RpcProvider; owner: Account }> {
  const clock = new ManualClock(1_767_225_600_000);
  sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0, clock, accountsMode: 'wallets', ...options });
  const provider = new RpcProvider({ nodeUrl: sim.rpcUrl });
  const wallet = sim.wallets[0]!;
  const owner = new Account({ provider, address: num.toHex(wallet.address), signer: num.toHex(wallet.ownerPrivateKey) });
  return { sim, clock, provider, owner };
}

const WAIT = { retryInterval: 5 };

describe('the Starknet double', () => {
  it('answers spec 0.10, the chain id and a block number that moves with transactions and time', async () => {
    const { sim: venue, clock, provider } = await started({ blockIntervalMs: 6_000 });
    expect(await provider.getSpecVersion()).toBe('0.10.0');
    expect(await provider.getChainId()).toBe(venue.chain.chainId);
    const first = await provider.getBlockNumber();
    clock.advance(6_000);
    expect(await provider.getBlockNumber()).toBe(first + 1);
    const block = await provider.getBlockWithTxs('latest');
    expect(block).toMatchObject({ block_number: first + 1, transactions: [] });
  });

  it('binds, approves, deposits and grants in one multicall sent by an unchanged Account, with the receipt’s events', async () => {
    const { sim: venue, provider, owner } = await started();
    const wallet = venue.wallets[0]!;
    const usdc = venue.chain.tokens.get('USDC')!;
    const tradingKey = starkKeyOf(generatePrivateKey((size) => randomBytes(size)));
    const amount = 1_000_000_000n;
    const core = venue.chain.coreAddress;
    const calls = [
      { contractAddress: core, entrypoint: 'bind_to_signer', calldata: [num.toHex(tradingKey)] },
      { contractAddress: usdc.address, entrypoint: 'approve', calldata: [core, num.toHex(amount), '0x0'] },
      { contractAddress: core, entrypoint: 'deposit', calldata: [num.toHex(wallet.address), usdc.address, num.toHex(amount), '0x0'] },
      { contractAddress: core, entrypoint: 'grant_access_to_executor', calldata: [venue.chain.executorAddress] },
    ];
    const walletBefore = venue.starknet.walletOf(wallet.address, 'USDC');
    const strkBefore = venue.starknet.walletOf(wallet.address, 'STRK');
    const estimate = await owner.estimateInvokeFee(calls);
    expect(estimate.overall_fee).toBeGreaterThan(0n);
    const sent = await owner.execute(calls);
    const receipt = await provider.waitForTransaction(sent.transaction_hash, WAIT);
    expect(receipt.isSuccess()).toBe(true);
    expect(venue.starknet.walletOf(wallet.address, 'USDC')).toBe(walletBefore - amount);
    expect(venue.balancesOf(wallet.address).get('USDC')).toEqual({ free: amount, locked: 0n });
    const full = await provider.getTransactionReceipt(sent.transaction_hash);
    const fee = BigInt((full.value as { actual_fee: { amount: string } }).actual_fee.amount);
    expect(venue.starknet.walletOf(wallet.address, 'STRK')).toBe(strkBefore - fee);
    const keys = (full.value as { events: { keys: string[] }[] }).events.map((event) => event.keys[1]);
    expect(keys).toEqual(expect.arrayContaining([hash.getSelectorFromName('NewBinding'), hash.getSelectorFromName('Deposit'), hash.getSelectorFromName('ApprovalGranted')]));
    // Read back through starknet.js's Contract with LayerAkira's ABI.
    const coreContract = new Contract({ abi: loadAbi('core'), address: core, providerOrAccount: provider });
    expect(BigInt(await coreContract.call('get_signer', [num.toHex(wallet.address)]) as bigint)).toBe(tradingKey);
    expect(await coreContract.call('is_approved_executor', [venue.chain.executorAddress, num.toHex(wallet.address)])).toBe(true);
    expect(await coreContract.call('balanceOf', [num.toHex(wallet.address), usdc.address])).toBe(amount);
    const token = new Contract({ abi: loadAbi('erc20'), address: usdc.address, providerOrAccount: provider });
    expect(await token.call('allowance', [num.toHex(wallet.address), core])).toBe(0n);
    expect(await provider.getNonceForAddress(num.toHex(wallet.address))).toBe('0x1');
  });

  it('reverts the whole multicall with the contract’s reason, and estimateFee reports it before sending', async () => {
    const { sim: venue, provider, owner } = await started();
    const wallet = venue.wallets[0]!;
    const usdc = venue.chain.tokens.get('USDC')!;
    const core = venue.chain.coreAddress;
    // Approve less than the deposit: the deposit's transferFrom fails, so the approve is undone too.
    const calls = [
      { contractAddress: usdc.address, entrypoint: 'approve', calldata: [core, '0x5', '0x0'] },
      { contractAddress: core, entrypoint: 'deposit', calldata: [num.toHex(wallet.address), usdc.address, '0x64', '0x0'] },
    ];
    await expect(owner.estimateInvokeFee(calls)).rejects.toThrow(/insufficient allowance/);
    const sent = await owner.execute(calls, { resourceBounds: { l1_gas: { max_amount: 0n, max_price_per_unit: 0n }, l2_gas: { max_amount: 10_000_000n, max_price_per_unit: 20_000_000_000n }, l1_data_gas: { max_amount: 10_000n, max_price_per_unit: 10_000_000_000n } } });
    const receipt = await provider.waitForTransaction(sent.transaction_hash, WAIT);
    expect(receipt.isReverted()).toBe(true);
    expect((receipt.value as { revert_reason: string }).revert_reason).toMatch(/call 1 .* reverted: ERC20: insufficient allowance/);
    expect(venue.starknet.token('USDC').allowance(wallet.address, BigInt(core))).toBe(0n);
    // The nonce moved (a reverted transaction is included and pays its fee).
    expect(await provider.getNonceForAddress(num.toHex(wallet.address))).toBe('0x1');
  });

  it('refuses a transaction signed by another key or with a stale nonce, changing nothing', async () => {
    const { sim: venue, provider } = await started();
    const wallet = venue.wallets[0]!;
    const intruder = new Account({ provider, address: num.toHex(wallet.address), signer: num.toHex(venue.wallets[1]!.ownerPrivateKey) });
    const calls = [{ contractAddress: venue.chain.coreAddress, entrypoint: 'bind_to_signer', calldata: ['0x1234'] }];
    await expect(intruder.execute(calls)).rejects.toThrow(/signature does not verify/);
    await expect(intruder.execute(calls, { nonce: 5, skipValidate: true })).rejects.toThrow(/nonce/);
    expect(venue.starknet.core.signerOf(wallet.address)).toBe(0n);
  });

  it('lists events by address and key, page by page with a continuation token', async () => {
    const { sim: venue, provider, owner } = await started();
    const usdc = venue.chain.tokens.get('USDC')!;
    for (let i = 0; i < 3; i++) {
      const sent = await owner.execute([{ contractAddress: usdc.address, entrypoint: 'approve', calldata: [venue.chain.coreAddress, num.toHex(i + 1), '0x0'] }]);
      await provider.waitForTransaction(sent.transaction_hash, WAIT);
    }
    const filter = { address: usdc.address, keys: [[hash.getSelectorFromName('Approval')]], from_block: { block_number: 0 }, to_block: 'latest' as const, chunk_size: 2 };
    const first = await provider.getEvents(filter);
    expect(first.events).toHaveLength(2);
    expect(first.continuation_token).toBeDefined();
    const second = await provider.getEvents({ ...filter, continuation_token: first.continuation_token! });
    expect(second.events).toHaveLength(1);
    expect(second.continuation_token).toBeUndefined();
    expect([...first.events, ...second.events].map((event) => BigInt(event.data[0]!))).toEqual([1n, 2n, 3n]);
  });
});
