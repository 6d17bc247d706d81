import { describe, expect, it } from 'vitest';
import { createMessageHasher, signHash, starkKeyOf, verifySignature } from '../../../src/exchange/signer/index.ts';
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
    const batch = runJobs(hasher, verifySignature, jobs);
    expect(batch).toEqual(jobs.map((job) => runJob(hasher, verifySignature, job)));
    expect(batch.map((result) => 'valid' in result && result.valid)).toEqual([true, true, true, false, true, true]);
  });
});
