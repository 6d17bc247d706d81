import { describe, expect, it } from 'vitest';
import { WireError } from '../../../src/exchange/wire/fields.ts';
import { parseCancelBody, parseOrderBody } from '../../../src/exchange/wire/requests.ts';
import { MAINNET, orderBody } from '../signer/fixtures.ts';

function fieldOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WireError) return error.field;
    throw error;
  }
  throw new Error('expected a WireError');
}

describe('order body parsing names the bad field', () => {
  const withFee = (gas: Record<string, unknown>): Record<string, unknown> => {
    const body = orderBody();
    const fee = body['fee'] as Record<string, unknown>;
    return { ...body, fee: { ...fee, gas_fee: { ...(fee['gas_fee'] as object), ...gas } } };
  };

  it.each([
    ['a missing price', { price: undefined }, 'price'],
    ['a price with too many decimals for USDC', { price: '1.0000001' }, 'price'],
    ['a negative price', { price: '-1' }, 'price'],
    ['a price with an exponent', { price: '1e3' }, 'price'],
    ['an unknown token', { ticker: ['ETH', 'DOGE'] }, 'ticker[1]'],
    ['a 3-item signature', { sign: ['1', '2', '3'] }, 'sign'],
    ['a numeric signature item', { sign: [1, 2] }, 'sign'],
    ['a salt above the field prime', { salt: (2n ** 252n).toString() }, 'salt'],
    ['a negative salt', { salt: -5 }, 'salt'],
    ['a non-object body part', { qty: 'lots' }, 'qty'],
  ])('%s', (_name, overrides, field) => {
    expect(fieldOf(() => parseOrderBody(orderBody(overrides), MAINNET))).toBe(field);
  });

  it('names nested fields by their full path', () => {
    expect(fieldOf(() => parseOrderBody(withFee({ max_gas_price: 'cheap' }), MAINNET))).toBe('fee.gas_fee.max_gas_price');
    expect(fieldOf(() => parseOrderBody(withFee({ conversion_rate: ['1'] }), MAINNET))).toBe('fee.gas_fee.conversion_rate');
    expect(fieldOf(() => parseOrderBody(withFee({ gas_per_action: 2 ** 40 }), MAINNET))).toBe('fee.gas_fee.gas_per_action');
  });

  it('accepts salts and nonces as decimal or hex, the way both SDKs send them', () => {
    const decimal = parseOrderBody(orderBody({ salt: '255' }), MAINNET);
    const hex = parseOrderBody(orderBody({ salt: '0xff' }), MAINNET);
    expect(hex.salt).toBe(decimal.salt);
    expect(parseOrderBody(orderBody({ sign: ['0x1', '2'] }), MAINNET).sign).toEqual({ r: 1n, s: 2n });
  });

  it('rejects a body that is not an object', () => {
    expect(fieldOf(() => parseCancelBody([1, 2]))).toBe('body');
    expect(fieldOf(() => parseCancelBody(null))).toBe('body');
  });
});
