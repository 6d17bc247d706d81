import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/core/index.ts';
import { Signer, poseidonWithdrawHash, verifySignature } from '../../src/exchange/signer/index.ts';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { formatOrderBody, formatWithdrawBody } from '../../src/exchange/wire/requests.ts';
import { CHAIN, gasFee, order, token, units } from './fixtures.ts';
import { startTestSim, type TestSim } from './harness.ts';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('router and legacy withdraw hashing', () => {
  it('co-signs an external order with the router key that /info/router_details names', async () => {
    t = await startTestSim();
    await t.login(0);
    const a = t.accounts[0];
    if (a === undefined) throw new Error('account');
    const request = order({ maker: a.address, ecosystem: false });
    const reply = await t.post('/router/sign_external_order', formatOrderBody(request), a.jwt);
    const [r, s] = (reply.body.result as string[]).map((value) => BigInt(value));
    const router = (await t.get('/info/router_details', {}, a.jwt)).body.result as { routerSigner: string };
    expect(verifySignature(a.signer.hasher.order(request), { r: r ?? 0n, s: s ?? 0n }, BigInt(router.routerSigner))).toBe(true);
  });

  it('verifies withdraws with the legacy Poseidon hash when started with withdrawHash poseidon', async () => {
    t = await startTestSim({ withdrawHash: 'poseidon' });
    const account = t.sim.accounts[0];
    if (account?.privateKey === undefined) throw new Error('account');
    const signer = new Signer({ privateKey: new Secret(`0x${account.privateKey.toString(16)}`), account: account.address, chain: CHAIN, withdrawHash: 'poseidon' });
    const jwt = await t.login(0);
    const signed = signer.signWithdraw({ maker: account.address, token: token('USDC'), amount: units('USDC', '5'), salt: 9n, receiver: account.address, gasFee: gasFee(), signScheme: 'ecdsa curve' });
    expect(signed.hash).toBe(poseidonWithdrawHash(signed.request));
    const reply = await t.post('/withdraw', formatWithdrawBody(signed.request), jwt);
    expect(reply.body.result).toBe(addressToHex(signed.hash));
    await t.sim.idle();
    expect(t.sim.totals('USDC').withdrawn).toBe(units('USDC', '5'));
  });
});
