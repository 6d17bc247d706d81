/**
 * The remote signer's cost: the bot's real orders signed by `akira-mm signer serve` in another
 * process over its Unix socket, against the same orders signed in-process (under the same
 * policy) in this run. One at a time (what an order missing from the pre-signed ladder costs in
 * the hot path), as latency percentiles, and in bursts of 32 (pre-signing), where the signer's
 * two worker threads do the work in both cases.
 */
import { LiveClock, Secret, createSilentLogger, getChain } from '../src/core/index.ts';
import { RemoteSigner, Signer, SigningPolicy, SigningPool, warmPedersen } from '../src/exchange/signer/index.ts';
import type { OrderRequest } from '../src/exchange/wire/requests.ts';
import { measureRate, percentile, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';
import { MAKER, PRIVATE_KEY, quoteOrders } from './signer.bench.ts';
import { spawnSigner } from './remote-signer.ts';

const CHAIN = getChain('mainnet');
const POLICY = { chain: 'mainnet' as const, account: MAKER, pairs: [{ base: 'ETH', quote: 'USDC' }], withdrawReceivers: [] };

async function latenciesUs(sign: (order: OrderRequest) => unknown, orders: () => OrderRequest, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await sign(orders());
    samples.push((performance.now() - start) * 1000);
  }
  return samples;
}

async function remoteSuite(context: BenchContext): Promise<BenchResult[]> {
  warmPedersen();
  const options = { privateKey: new Secret(PRIVATE_KEY), account: MAKER, chain: CHAIN, policy: new SigningPolicy(POLICY) };
  const local = new Signer(options);
  // Quick: one thread each side (each thread loads the sources and builds its tables).
  const threads = context.pick(2, 1);
  const pool = new SigningPool({ ...options, size: threads });
  const signerProcess = await spawnSigner({ privateKey: BigInt(PRIVATE_KEY), account: MAKER, workers: threads, settle: !context.quick });
  const remote = await RemoteSigner.connect({ socketPath: signerProcess.socketPath, chain: CHAIN, account: MAKER, clock: new LiveClock(), logger: createSilentLogger() });
  try {
    await pool.ready();
    const orders = quoteOrders(context.pick(8_000, 128));
    const ms = (full: number): number => context.pick(full, 2);
    const samples = context.pick(400, 4);
    let next = 0;
    const take = (): OrderRequest => orders[next++ % orders.length]!;
    const burst = 32;
    const burstOf = (): OrderRequest[] => Array.from({ length: burst }, take);

    const localRate = await measureRate(() => local.signOrder(take()), { durationMs: ms(1_000) });
    const remoteRate = await measureRate(() => remote.signOrder(take()), { durationMs: ms(1_000) });
    const localUs = await latenciesUs((order) => local.signOrder(order), take, samples);
    const remoteUs = await latenciesUs((order) => remote.signOrder(order), take, samples);
    const poolRate = await measureRate(() => pool.signOrders(burstOf()), { durationMs: ms(1_000), opsPerCall: burst });
    const remoteBatchRate = await measureRate(() => remote.signOrders(burstOf()), { durationMs: ms(1_000), opsPerCall: burst });
    return [
      { bench: 'sign.order.remote', value: remoteRate, unit: 'orders/s', baseline: localRate },
      { bench: 'sign.order.remote.p50_us', value: percentile(remoteUs, 50), unit: 'µs', baseline: percentile(localUs, 50) },
      { bench: 'sign.order.remote.p99_us', value: percentile(remoteUs, 99), unit: 'µs', baseline: percentile(localUs, 99) },
      { bench: 'sign.order.remote.batch', value: remoteBatchRate, unit: 'orders/s', baseline: poolRate },
    ];
  } finally {
    await remote.close();
    await pool.close();
    await signerProcess.stop();
  }
}

export const benches: BenchSuite[] = [{ name: 'signer.remote', run: remoteSuite }];
