/**
 * How many signed orders per second the embedded exchange accepts over HTTP on loopback: each one
 * parsed, checked, hashed and signature-verified (worker threads), then queued and matched
 * (issue #3 target ≥ 2,000/s). Orders are signed before the clock starts, so only the venue is
 * timed. Baseline: the same run with signatures checked inline on the event loop.
 */
import { Pool } from 'undici';
import { LiveClock, Secret, parseUnits, getChain } from '../src/core/index.ts';
import { Signer } from '../src/exchange/signer/index.ts';
import { feltToHex } from '../src/exchange/wire/fields.ts';
import { formatOrderBody, type OrderRequest } from '../src/exchange/wire/requests.ts';
import { DEFAULT_SETTINGS, startSim, type SimHandle } from '../src/sim/index.ts';
import type { BenchResult, BenchSuite } from './harness.ts';

const CHAIN = getChain('mainnet');
const ORDERS = 1_200;
const CONCURRENCY = 64;
const WARMUP = 200;

function restingBid(maker: bigint, index: number, nowSec: number): OrderRequest {
  const usdc = CHAIN.tokens.get('USDC');
  const eth = CHAIN.tokens.get('ETH');
  const strk = CHAIN.tokens.get('STRK');
  if (usdc === undefined || eth === undefined || strk === undefined) throw new Error('token table');
  const zero = { recipient: 0n, makerPbips: 0, takerPbips: 0 };
  return {
    maker,
    price: parseUnits(String(1000 + (index % 1000)), usdc.decimals),
    baseQty: parseUnits('0.001', eth.decimals),
    quoteQty: 0n,
    base: eth,
    quote: usdc,
    fee: {
      tradeFee: { recipient: BigInt(CHAIN.feeRecipient), makerPbips: DEFAULT_SETTINGS.makerPbips, takerPbips: DEFAULT_SETTINGS.takerPbips },
      routerFee: zero,
      integratorFee: zero,
      applyToReceiptAmount: true,
      gasFee: { gasPerAction: 150, feeToken: strk, maxGasPrice: 0n, conversionRate: [10n ** 18n, 10n ** 18n] },
    },
    constraints: { numberOfSwapsAllowed: 0, durationValid: 86_400, createdAt: nowSec, stp: 0, nonce: 0, minReceiveAmount: 0n, routerSigner: 0n },
    salt: BigInt(index + 1),
    flags: { fullFillOnly: false, bestLevelOnly: false, postOnly: true, isSellSide: false, isMarketOrder: false, toEcosystemBook: true, externalFunds: false },
    source: 'layerakira',
    signScheme: 'ecdsa curve',
  };
}

async function login(pool: Pool, signer: Signer): Promise<string> {
  const query = `user=${feltToHex(signer.starkKey)}&account=${feltToHex(signer.account)}`;
  const challenge = (await (await pool.request({ method: 'GET', path: `/sign/request_sign_data?${query}` })).body.json()) as { result: string };
  const { signature } = signer.signLogin(BigInt(challenge.result));
  const auth = await pool.request({
    method: 'POST',
    path: '/sign/auth',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ msg: challenge.result, signature: [signature.r.toString(), signature.s.toString()] }),
  });
  return ((await auth.body.json()) as { result: string }).result;
}

/** Posts every body with `CONCURRENCY` requests in flight; returns orders per second. */
async function postAll(sim: SimHandle, signer: Signer, bodies: readonly string[]): Promise<number> {
  const pool = new Pool(sim.httpUrl, { connections: CONCURRENCY, pipelining: 1 });
  const jwt = await login(pool, signer);
  let failures = 0;
  const send = async (batch: readonly string[]): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batch.length) {
          const body = batch[next++] as string;
          const response = await pool.request({ method: 'POST', path: '/place_order', headers: { 'content-type': 'application/json', authorization: jwt }, body });
          await response.body.dump();
          if (response.statusCode !== 200) failures++;
        }
      }),
    );
  };
  // Warm-up, untimed: per-thread key tables and memos fill on the first orders.
  await send(bodies.slice(0, WARMUP));
  const timed = bodies.slice(WARMUP);
  const start = performance.now();
  await send(timed);
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  if (failures > 0) throw new Error(`${failures} orders refused`);
  return timed.length / seconds;
}

async function run(workers: number): Promise<number> {
  const clock = new LiveClock();
  const sim = await startSim({ flow: false, devAccounts: 1, seed: 11, clock, signatureWorkers: workers });
  try {
    const account = sim.accounts[0];
    if (account?.privateKey === undefined) throw new Error('dev account');
    const signer = new Signer({ privateKey: new Secret(`0x${account.privateKey.toString(16)}`), account: account.address, chain: CHAIN });
    const nowSec = Math.floor(clock.nowMs() / 1000);
    const bodies = Array.from({ length: ORDERS }, (_, i) => JSON.stringify(formatOrderBody(signer.signOrder(restingBid(account.address, i + workers * ORDERS, nowSec)).request)));
    await sim.signaturesReady();
    return await postAll(sim, signer, bodies);
  } finally {
    await sim.stop();
  }
}

const placeOrderSuite: BenchSuite = {
  name: 'sim',
  async run(): Promise<BenchResult[]> {
    const inline = await run(0);
    const pooled = await run(2);
    return [{ bench: 'sim.place_order', value: pooled, unit: 'orders/s', baseline: inline }];
  },
};

/** The embedded-exchange benchmark. */
export const benches: BenchSuite[] = [placeOrderSuite];
