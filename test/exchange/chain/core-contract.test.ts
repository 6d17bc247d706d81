/**
 * Contract constants checked on chain (issue 11 item 1): starknet.js's real `RpcProvider` over
 * HTTP against the embedded exchange's JSON-RPC port, which serves the core contract's views.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, createRng, createSilentLogger, getChain, withContracts } from '../../../src/core/index.ts';
import { createLiveVenue, readCoreContract, verifyCoreContract } from '../../../src/exchange/index.ts';
import { addressToHex } from '../../../src/exchange/wire/fields.ts';
import { startSim, type SimHandle } from '../../../src/sim/index.ts';
import { devVenueConfig, QUIET_LISTENER } from '../../integration/support.ts';

const OTHER_RECIPIENT = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

let sim: SimHandle | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function started(options: Parameters<typeof startSim>[0] = {}): Promise<SimHandle> {
  sim = await startSim({ seed: 0, flow: false, devAccounts: 2, signatureWorkers: 0, ...options });
  return sim;
}

describe('the core contract over JSON-RPC', () => {
  it('reads the fee recipient, the bound signer and the nonce the venue uses', async () => {
    const venue = await started();
    const account = venue.accounts[0]!;
    const view = await readCoreContract(venue.rpcUrl, venue.chain, account.address);
    expect(view).toEqual({ chainId: BigInt(venue.chain.chainId), feeRecipient: BigInt(venue.chain.feeRecipient), boundSigner: account.publicKey, nonce: 0n });
    expect(await verifyCoreContract(venue.rpcUrl, venue.chain, account.address, account.publicKey)).toEqual(view);
  });

  it('refuses, naming both values and the key to fix, when our fee recipient or signer is not the chain’s', async () => {
    const venue = await started({ contracts: { feeRecipient: OTHER_RECIPIENT } });
    const account = venue.accounts[0]!;
    const ours = getChain('mainnet');
    const error = await verifyCoreContract(venue.rpcUrl, ours, account.address, account.publicKey + 1n).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'EXCHANGE_CONTRACT_MISMATCH' });
    const message = (error as Error).message;
    expect(message).toContain(`fee recipient: ours ${addressToHex(BigInt(ours.feeRecipient))}, the core contract's ${OTHER_RECIPIENT} (fix FEE_RECIPIENT)`);
    expect(message).toContain(`signer bound to the account: ours ${addressToHex(account.publicKey + 1n)}, the core contract's ${addressToHex(account.publicKey)} (fix SIGNER_PRIVATE_KEY)`);
    // With the chain's fee recipient configured, it agrees.
    await expect(verifyCoreContract(venue.rpcUrl, withContracts(ours, { feeRecipient: OTHER_RECIPIENT }), account.address, account.publicKey)).resolves.toBeDefined();
  });

  it('names the node and the call when the RPC is unreachable or the contract is not there', async () => {
    const venue = await started();
    const unreachable = await readCoreContract('http://127.0.0.1:1', venue.chain, 1n).catch((caught: unknown) => caught);
    expect(unreachable).toMatchObject({ code: 'EXCHANGE_RPC', endpoint: 'RPC http://127.0.0.1:1' });
    const wrongCore = withContracts(venue.chain, { coreAddress: '0x1234' });
    const missing = await readCoreContract(venue.rpcUrl, wrongCore, 1n).catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: 'EXCHANGE_RPC' });
    expect((missing as Error).message).toMatch(/on core 0x1234 failed/);
  });

  it('answers JSON-RPC errors for unknown methods and entry points', async () => {
    const venue = await started();
    const call = async (body: unknown): Promise<unknown> =>
      (await fetch(venue.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    expect(await call({ jsonrpc: '2.0', id: 1, method: 'starknet_traceTransaction', params: [] })).toMatchObject({ id: 1, error: { code: -32601 } });
    const request = { contract_address: venue.chain.coreAddress, entry_point_selector: '0x1', calldata: [] };
    expect(await call({ jsonrpc: '2.0', id: 2, method: 'starknet_call', params: { request, block_id: 'latest' } })).toMatchObject({ id: 2, error: { code: 21 } });
  });
});

describe('a live venue with STARKNET_RPC_URL', () => {
  it('refuses to start when the core contract names another fee recipient, and starts when it agrees', async () => {
    const venue = await started({ contracts: { feeRecipient: OTHER_RECIPIENT } });
    const deps = { clock: new LiveClock(), rng: createRng(1), logger: createSilentLogger() };
    const wrong = createLiveVenue({ ...devVenueConfig(venue, 0, 0), starknetRpcUrl: venue.rpcUrl }, deps);
    await expect(wrong.start(QUIET_LISTENER)).rejects.toMatchObject({ code: 'EXCHANGE_CONTRACT_MISMATCH', message: expect.stringMatching(/fix FEE_RECIPIENT/) });
    const right = createLiveVenue({ ...devVenueConfig(venue, 0, 0), starknetRpcUrl: venue.rpcUrl, contracts: { feeRecipient: OTHER_RECIPIENT } }, deps);
    await expect(right.start(QUIET_LISTENER)).resolves.toMatchObject({ makerFeePbips: 200 });
    await right.stop();
  });
});
