import { describe, expect, it } from 'vitest';
import { PresignCache } from '../../../src/exchange/venue/index.ts';
import type { OrderRequest } from '../../../src/exchange/wire/requests.ts';

const intent = { side: 'buy' as const, priceUnits: 100n, qtyUnits: 5n, postOnly: true };

function signed(nonce: number, maxGasPrice: bigint, r1: bigint): { hash: bigint; request: OrderRequest } {
  return { hash: 1n, request: { constraints: { nonce }, fee: { gasFee: { maxGasPrice, conversionRate: [1n, r1] } } } as unknown as OrderRequest };
}

describe('pre-signed orders', () => {
  const valid = { nonce: 3, gasPrice: 100n, rateR1: 10n, nowMs: 1_000 };

  it('are used once', () => {
    const cache = new PresignCache({ maxEntries: 10, maxAgeMs: 5_000 });
    cache.put(intent, signed(3, 125n, 10n), 0);
    expect(cache.take(intent, valid)?.hash).toBe(1n);
    expect(cache.take(intent, valid)).toBeUndefined();
  });

  it('are refused after a nonce change, a gas rise above their max, a lower rate or old age', () => {
    const cache = new PresignCache({ maxEntries: 10, maxAgeMs: 5_000 });
    for (const [entry, validity] of [
      [signed(2, 125n, 10n), valid],
      [signed(3, 125n, 10n), { ...valid, gasPrice: 126n }],
      [signed(3, 125n, 9n), valid],
      [signed(3, 125n, 10n), { ...valid, nowMs: 6_000 }],
    ] as const) {
      cache.put(intent, entry, 0);
      expect(cache.take(intent, validity)).toBeUndefined();
    }
  });

  it('drop the oldest when full', () => {
    const cache = new PresignCache({ maxEntries: 2, maxAgeMs: 5_000 });
    for (const price of [1n, 2n, 3n]) cache.put({ ...intent, priceUnits: price }, signed(3, 125n, 10n), 0);
    expect(cache.size).toBe(2);
    expect(cache.has({ ...intent, priceUnits: 1n }, valid)).toBe(false);
    expect(cache.has({ ...intent, priceUnits: 3n }, valid)).toBe(true);
  });

  it('let signatures too old to use go when a new one is stored, so an idle cache holds none', () => {
    const cache = new PresignCache({ maxEntries: 10, maxAgeMs: 5_000 });
    for (const price of [1n, 2n, 3n]) cache.put({ ...intent, priceUnits: price }, signed(3, 125n, 10n), 0);
    cache.put({ ...intent, priceUnits: 4n }, signed(3, 125n, 10n), 4_000);
    expect(cache.size).toBe(4);
    cache.put({ ...intent, priceUnits: 5n }, signed(3, 125n, 10n), 5_001);
    expect(cache.size).toBe(2);
    expect(cache.has({ ...intent, priceUnits: 4n }, { ...valid, nowMs: 5_001 })).toBe(true);
    expect(cache.has({ ...intent, priceUnits: 1n }, { ...valid, nowMs: 0 })).toBe(false);
  });
});
