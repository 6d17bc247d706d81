/**
 * Signing speed on the bot's real workload: ETH/USDC post-only quotes, both sides, prices within
 * ±100 ticks of a moving mid, two sizes, a fresh 64-bit salt per order, created_at advancing
 * every 50 orders. Each figure has its baseline from the same run: stock starknet.js
 * (`typedData.getMessageHash` + `ec.starkCurve.sign`, `ec.starkCurve.verify` with the full key)
 * on the same orders. `sign.order.batch` signs bursts of 32 with `Signer.signOrders` (lockstep
 * hashing). About 14 s in all, of which well under a second builds the window tables.
 */
import { ec, stark, typedData } from 'starknet';
import { Secret, createRng, getChain } from '../src/core/index.ts';
import { Signer, SigningPool, signHash, starkKeyOf, verifySignature, warmPedersen } from '../src/exchange/signer/index.ts';
import { orderTypedData } from '../src/exchange/signer/reference.ts';
import { feltToHex } from '../src/exchange/wire/fields.ts';
import { parseOrderBody, type OrderRequest } from '../src/exchange/wire/requests.ts';
import { measureRate, type BenchContext, type BenchResult, type BenchSuite } from './harness.ts';

const CHAIN = getChain('mainnet');
export const PRIVATE_KEY = '0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc';
export const MAKER = 0x33267ae1ff2d9e4cfa4fd2bfb3a2e1b1e2c3f6f3a1f7e2d1c0b9a8f7e6d5c4bn;

/** The bot's real workload (see the file comment); also used by the remote signer's bench. */
export function quoteOrders(count: number): OrderRequest[] {
  const rng = createRng(7);
  const template = parseOrderBody(
    {
      maker: feltToHex(MAKER),
      price: '3000',
      qty: { base_qty: '0.05', quote_qty: '0' },
      ticker: ['ETH', 'USDC'],
      fee: {
        trade_fee: { recipient: CHAIN.feeRecipient, maker_pbips: 200, taker_pbips: 1000 },
        router_fee: { recipient: '0x0', maker_pbips: 0, taker_pbips: 0 },
        integrator_fee: { recipient: '0x0', maker_pbips: 0, taker_pbips: 0 },
        apply_to_receipt_amount: true,
        gas_fee: { gas_per_action: 150, fee_token: 'STRK', max_gas_price: '0.0001', conversion_rate: ['1', '1'] },
      },
      constraints: { created_at: 1_763_800_000, router_signer: '0x0', number_of_swaps_allowed: 1, nonce: 3, stp: 0, duration_valid: 3600, min_receive_amount: '0' },
      flags: { full_fill_only: false, best_level_only: false, post_only: true, is_sell_side: false, is_market_order: false, to_ecosystem_book: true, external_funds: false },
      salt: '1',
      source: 'layerakira',
      sign_scheme: 'ecdsa curve',
    },
    CHAIN,
  );
  const orders: OrderRequest[] = [];
  let midTicks = 300_000; // 0.01 USDC ticks
  for (let i = 0; i < count; i++) {
    midTicks += rng.int(3) - 1;
    const sell = i % 2 === 1;
    const priceTicks = midTicks + (sell ? 1 : -1) * (1 + rng.int(100));
    orders.push({
      ...template,
      price: BigInt(priceTicks) * 10_000n,
      baseQty: i % 4 < 2 ? 50_000_000_000_000_000n : 100_000_000_000_000_000n,
      constraints: { ...template.constraints, createdAt: template.constraints.createdAt + Math.floor(i / 50) },
      salt: (BigInt(rng.int(2 ** 32)) << 32n) | BigInt(rng.int(2 ** 32)),
      flags: { ...template.flags, isSellSide: sell },
    });
  }
  return orders;
}

async function signerSuite(context: BenchContext): Promise<BenchResult[]> {
  warmPedersen();
  const signer = new Signer({ privateKey: new Secret(PRIVATE_KEY), account: MAKER, chain: CHAIN });
  const orders = quoteOrders(context.pick(20_000, 200));
  // Quick: a few ms each and no warm-up (the stock signer's one call takes ~0.2 s on its own).
  const ms = (full: number): number => context.pick(full, 2);
  const warm = (full: number): number => context.pick(full, 0);
  let next = 0;
  const take = (): OrderRequest => orders[next++ % orders.length]!;

  const signRate = await measureRate(() => signer.signOrder(take()), { durationMs: ms(1_500) });
  const hashRate = await measureRate(() => signer.hasher.order(take()), { durationMs: ms(1_000) });
  // A burst hashed in lockstep (one field inversion per Pedersen step for the whole burst).
  const burst = 32;
  const batchRate = await measureRate(() => signer.signOrders(Array.from({ length: burst }, take)), { durationMs: ms(1_000), opsPerCall: burst });

  const account = feltToHex(MAKER);
  const stockHash = (order: OrderRequest): string => typedData.getMessageHash(orderTypedData(order, CHAIN), account);
  const stockSignRate = await measureRate(() => ec.starkCurve.sign(stockHash(take()), PRIVATE_KEY), { durationMs: ms(1_200), warmupMs: warm(250) });
  const stockHashRate = await measureRate(() => stockHash(take()), { durationMs: ms(1_000), warmupMs: warm(250) });

  const starkKey = starkKeyOf(BigInt(PRIVATE_KEY));
  const fullKey = stark.getFullPublicKey(PRIVATE_KEY).slice(2);
  const hashes = orders.slice(0, context.pick(512, 8)).map((order) => signer.hasher.order(order));
  const signatures = hashes.map((hash) => signHash(hash, BigInt(PRIVATE_KEY)));
  let v = 0;
  const verifyRate = await measureRate(() => {
    const i = v++ % hashes.length;
    if (!verifySignature(hashes[i]!, signatures[i]!, starkKey)) throw new Error('verification failed');
  }, { durationMs: ms(800) });
  const stockVerifyRate = await measureRate(() => {
    const i = v++ % hashes.length;
    const sig = new ec.starkCurve.Signature(signatures[i]!.r, signatures[i]!.s);
    if (!ec.starkCurve.verify(sig, feltToHex(hashes[i]!), fullKey)) throw new Error('verification failed');
  }, { durationMs: ms(600), warmupMs: warm(150) });

  return [
    { bench: 'sign.order', value: signRate, unit: 'orders/s', baseline: stockSignRate },
    { bench: 'sign.order.batch', value: batchRate, unit: 'orders/s', baseline: stockSignRate },
    { bench: 'hash.order', value: hashRate, unit: 'orders/s', baseline: stockHashRate },
    { bench: 'verify', value: verifyRate, unit: 'signatures/s', baseline: stockVerifyRate },
  ];
}

async function poolSuite(context: BenchContext): Promise<BenchResult[]> {
  // Quick: one thread (each loads the sources and builds its tables).
  const pool = new SigningPool({ privateKey: new Secret(PRIVATE_KEY), account: MAKER, chain: CHAIN, size: context.pick(2, 1) });
  try {
    await pool.ready();
    const orders = quoteOrders(context.pick(4_000, 256));
    let next = 0;
    const burst = 64;
    const rate = await measureRate(() => pool.signOrders(orders.slice((next = (next + burst) % (orders.length - burst)), next + burst)), {
      durationMs: context.pick(1_000, 2),
      opsPerCall: burst,
    });
    return [{ bench: 'sign.order.pool', value: rate, unit: 'orders/s', baseline: null }];
  } finally {
    await pool.close();
  }
}

export const benches: BenchSuite[] = [
  { name: 'signer', run: signerSuite },
  { name: 'signer.pool', run: poolSuite },
];
