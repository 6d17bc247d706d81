/** Order bodies as users POST them, and fast-check arbitraries of every request kind. */
import fc from 'fast-check';
import { getChain, type ChainInfo } from '../../../src/core/index.ts';

export const MAINNET: ChainInfo = getChain('mainnet');
export const MAKER = '0x33267ae1ff2d9e4cfa4fd2bfb3a2e1b1e2c3f6f3a1f7e2d1c0b9a8f7e6d5c4b';

/** A resting post-only buy of 0.1 ETH at 3000.5 USDC, gas in STRK: the bot's everyday order. */
export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    maker: MAKER,
    price: '3000.5',
    qty: { base_qty: '0.1', quote_qty: '0' },
    ticker: ['ETH', 'USDC'],
    fee: {
      trade_fee: { recipient: MAINNET.feeRecipient, maker_pbips: 200, taker_pbips: 1000 },
      router_fee: { recipient: '0x0', maker_pbips: 0, taker_pbips: 0 },
      integrator_fee: { recipient: '0x0', maker_pbips: 0, taker_pbips: 0 },
      apply_to_receipt_amount: true,
      gas_fee: { gas_per_action: 150, fee_token: 'STRK', max_gas_price: '0.0001', conversion_rate: ['1', '1'] },
    },
    constraints: {
      created_at: 1_732_000_000,
      router_signer: '0x0',
      number_of_swaps_allowed: 1,
      nonce: 0,
      stp: 0,
      duration_valid: 3600,
      min_receive_amount: '0',
    },
    flags: {
      full_fill_only: false,
      best_level_only: false,
      post_only: true,
      is_sell_side: false,
      is_market_order: false,
      to_ecosystem_book: true,
      external_funds: false,
    },
    salt: '12345',
    sign: ['0', '0'],
    router_sign: ['0', '0'],
    source: 'layerakira',
    sign_scheme: 'ecdsa curve',
    ...overrides,
  };
}

const FELT_MAX = 2n ** 251n;
export const felt = fc.bigInt({ min: 0n, max: FELT_MAX - 1n });
const hexOrDecimal = (value: bigint, hex: boolean): string => (hex ? `0x${value.toString(16)}` : value.toString());
const decimal = (units: bigint, decimals: number): string => {
  const text = units.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
};

const PAIRS: readonly [string, string][] = [
  ['ETH', 'USDC'],
  ['ETH', 'USDT'],
  ['STRK', 'USDC'],
  ['ETH', 'STRK'],
  ['USDC', 'USDT'],
];

/** Random valid order bodies: both books, both sides, gas in STRK or another token with a rate. */
export const orderBodies = fc
  .record({
    pair: fc.constantFrom(...PAIRS),
    price: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    baseQty: fc.bigInt({ min: 1n, max: 10n ** 22n }),
    quoteQty: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    feeToken: fc.constantFrom('STRK', 'USDC', 'ETH'),
    rate0: fc.bigInt({ min: 1n, max: 10n ** 21n }),
    rate1: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    maxGasPrice: fc.bigInt({ min: 0n, max: 10n ** 16n }),
    salt: felt,
    saltHex: fc.boolean(),
    maker: felt,
    flags: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
    createdAt: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    nonce: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    stp: fc.integer({ min: 0, max: 3 }),
    duration: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    swaps: fc.integer({ min: 0, max: 255 }),
    minReceive: fc.bigInt({ min: 0n, max: 10n ** 15n }),
    makerPbips: fc.integer({ min: 0, max: 1_000_000 }),
    takerPbips: fc.integer({ min: 0, max: 1_000_000 }),
    source: fc.constantFrom('layerakira', 'akira-mm', ''),
    scheme: fc.constantFrom('ecdsa curve', 'account'),
  })
  .map((r) => {
    const [base, quote] = r.pair;
    const tokens = MAINNET.tokens;
    const quoteDecimals = tokens.get(quote)!.decimals;
    const baseDecimals = tokens.get(base)!.decimals;
    const feeDecimals = tokens.get(r.feeToken)!.decimals;
    const [fullFillOnly, bestLevelOnly, postOnly, isSell, isMarket, eco, external] = r.flags;
    return orderBody({
      maker: `0x${r.maker.toString(16)}`,
      price: decimal(r.price, quoteDecimals),
      qty: { base_qty: decimal(r.baseQty, baseDecimals), quote_qty: decimal(r.quoteQty, quoteDecimals) },
      ticker: [base, quote],
      fee: {
        trade_fee: { recipient: MAINNET.feeRecipient, maker_pbips: r.makerPbips, taker_pbips: r.takerPbips },
        router_fee: { recipient: '0x0', maker_pbips: 0, taker_pbips: 0 },
        integrator_fee: { recipient: '0x123', maker_pbips: 5, taker_pbips: 7 },
        apply_to_receipt_amount: isSell,
        gas_fee: {
          gas_per_action: 150,
          fee_token: r.feeToken,
          max_gas_price: decimal(r.maxGasPrice, 18),
          conversion_rate: [decimal(r.rate0, 18), decimal(r.rate1, feeDecimals)],
        },
      },
      constraints: {
        created_at: r.createdAt,
        router_signer: '0x0',
        number_of_swaps_allowed: r.swaps,
        nonce: r.nonce,
        stp: r.stp,
        duration_valid: r.duration,
        min_receive_amount: decimal(r.minReceive, isSell ? quoteDecimals : baseDecimals),
      },
      flags: {
        full_fill_only: fullFillOnly,
        best_level_only: bestLevelOnly,
        post_only: postOnly,
        is_sell_side: isSell,
        is_market_order: isMarket,
        to_ecosystem_book: eco,
        external_funds: external,
      },
      salt: hexOrDecimal(r.salt, r.saltHex),
      source: r.source,
      sign_scheme: r.scheme,
    });
  });

export function gasFeeBody(feeToken = 'STRK'): Record<string, unknown> {
  return { gas_per_action: 100, fee_token: feeToken, max_gas_price: '0.00004', conversion_rate: ['1', feeToken === 'STRK' ? '1' : '0.5'] };
}
