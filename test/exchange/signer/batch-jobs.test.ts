import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CURVE_ORDER, createMessageHasher, signHash, starkKeyOf, verifySignature, verifySignatures } from '../../../src/exchange/signer/index.ts';
import { parseCancelBody, parseOrderBody } from '../../../src/exchange/wire/requests.ts';
import { runJob, runJobs, type SignatureJob } from '../../../src/sim/signatures/jobs.ts';
import { MAINNET, MAKER, orderBody } from './fixtures.ts';

// The sim's verifier workers take batches through runJobs: it must answer exactly as runJob would.
describe('batched signature jobs', () => {
  it('give the same hash and validity as one by one, bad signatures included', () => {
    const hasher = createMessageHasher(MAINNET);
    const key = 0xabcdefn;
    const publicKey = starkKeyOf(key);
    const jobs: SignatureJob[] = [];
    for (let i = 0; i < 5; i++) {
      const order = parseOrderBody(orderBody({ salt: String(100 + i) }), MAINNET);
      const sign = signHash(hasher.order(order), key);
      jobs.push({ kind: 'order', request: { ...order, sign: i === 2 ? { r: sign.r, s: sign.s + 1n } : sign }, publicKey });
    }
    const cancel = parseCancelBody({ maker: MAKER, order_hash: '0x1', salt: '5', sign_scheme: 'ecdsa curve' });
    jobs.splice(1, 0, { kind: 'cancel', request: { ...cancel, sign: signHash(hasher.cancel(cancel), key) }, publicKey });
    const single = jobs.map((job) => runJob(hasher, verifySignature, job));
    expect(runJobs(hasher, verifySignature, jobs)).toEqual(single);
    expect(runJobs(hasher, verifySignature, jobs, verifySignatures)).toEqual(single);
    expect(single.map((result) => result.valid)).toEqual([true, true, true, false, true, true]);
  });
});

describe('batch verification', () => {
  const keys = [1n, 0xabcdefn, CURVE_ORDER - 1n, 0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3ccn];
  const hashes = fc.oneof(fc.constantFrom(0n, 1n, 2n ** 251n - 1n), fc.bigInt({ min: 0n, max: 2n ** 251n - 1n }));

  it('answers exactly like one-by-one verification: valid, tampered, wrong key, out of range', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...keys), hashes, fc.integer({ min: 0, max: 5 })), { minLength: 0, maxLength: 12 }),
        (cases) => {
          const items = cases.map(([key, hash, tamper]) => {
            const signature = signHash(hash, key);
            const starkKey = tamper === 1 ? starkKeyOf(key === 1n ? 2n : 1n) : starkKeyOf(key);
            if (tamper === 2) return { hash: (hash + 1n) % 2n ** 251n, signature, starkKey };
            if (tamper === 3) return { hash, signature: { r: signature.r, s: CURVE_ORDER - signature.s }, starkKey };
            if (tamper === 4) return { hash, signature: { r: 2n ** 251n, s: signature.s }, starkKey: 0n };
            return { hash, signature, starkKey };
          });
          expect(verifySignatures(items)).toEqual(items.map((item) => verifySignature(item.hash, item.signature, item.starkKey)));
        },
      ),
      { numRuns: 15 },
    );
  });
});
