/**
 * Signature jobs: hash a request as the signer would (SNIP-12 rev 0, SPEC §3) and verify its
 * `[r, s]` against the Stark key bound to the account. Shared by the inline checker and the
 * worker threads, so both give the same answers.
 */
import type { StarkSignature } from '../../exchange/wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../../exchange/wire/requests.ts';
import type { MessageHasher } from '../../exchange/signer/index.ts';

/** One thing to hash and (when it carries a signature) verify. */
export type SignatureJob =
  | { readonly kind: 'order'; readonly request: OrderRequest; readonly publicKey: bigint }
  | { readonly kind: 'cancel'; readonly request: CancelRequest; readonly publicKey: bigint }
  | { readonly kind: 'cancel-all'; readonly request: CancelAllRequest; readonly publicKey: bigint }
  | { readonly kind: 'withdraw'; readonly request: WithdrawRequest; readonly publicKey: bigint }
  | { readonly kind: 'increase-nonce'; readonly request: IncreaseNonceRequest; readonly publicKey: bigint }
  | { readonly kind: 'login'; readonly account: bigint; readonly challenge: bigint; readonly sign: StarkSignature; readonly publicKey: bigint };

/** The message hash and whether the signature matched it. */
export interface SignatureResult {
  readonly hash: bigint;
  readonly valid: boolean;
}

/** Something that checks signatures, inline or on worker threads. */
export interface SignatureChecker {
  check(job: SignatureJob): Promise<SignatureResult>;
  /** Resolves once every thread can take work (immediately for the inline checker). */
  ready(): Promise<void>;
  /** Releases threads; idempotent. */
  close(): Promise<void>;
}

type Verify = (hash: bigint, signature: StarkSignature, starkKey: bigint) => boolean;

function hashOf(hasher: MessageHasher, job: SignatureJob): bigint {
  switch (job.kind) {
    case 'order':
      return hasher.order(job.request);
    case 'cancel':
      return hasher.cancel(job.request);
    case 'cancel-all':
      return hasher.cancelAll(job.request);
    case 'withdraw':
      return hasher.withdraw(job.request);
    case 'increase-nonce':
      return hasher.increaseNonce(job.request);
    case 'login':
      return hasher.login(job.account, job.challenge);
  }
}

type VerifyMany = (items: readonly { hash: bigint; signature: StarkSignature; starkKey: bigint }[]) => boolean[];

function signatureOf(job: SignatureJob): StarkSignature | undefined {
  return job.kind === 'login' ? job.sign : job.request.sign;
}

/**
 * Runs a batch of jobs synchronously, each result equal to `runJob`'s: the orders among them are
 * hashed together in lockstep (`MessageHasher.orders`, one field inversion per step for all), and
 * with `verifyMany` the signatures are checked together too (shared inversions). A failure of one
 * job is reported as that job's error, never the whole batch's.
 */
export function runJobs(
  hasher: MessageHasher,
  verify: Verify,
  jobs: readonly SignatureJob[],
  verifyMany?: VerifyMany,
): Array<SignatureResult | { error: string }> {
  const orderIndexes: number[] = [];
  jobs.forEach((job, index) => {
    if (job.kind === 'order') orderIndexes.push(index);
  });
  const known = new Map<number, bigint>();
  if (orderIndexes.length > 1) {
    try {
      const hashes = hasher.orders(orderIndexes.map((index) => (jobs[index] as Extract<SignatureJob, { kind: 'order' }>).request));
      orderIndexes.forEach((index, n) => known.set(index, hashes[n]!));
    } catch {
      // A bad order in the batch: hash them one by one below so only that one fails.
    }
  }
  const errorOf = (error: unknown): { error: string } => ({ error: error instanceof Error ? error.message : String(error) });
  if (verifyMany === undefined) {
    return jobs.map((job, index) => {
      try {
        return runJob(hasher, verify, job, known.get(index));
      } catch (error) {
        return errorOf(error);
      }
    });
  }
  const hashes = jobs.map((job, index): bigint | { error: string } => {
    try {
      return known.get(index) ?? hashOf(hasher, job);
    } catch (error) {
      return errorOf(error);
    }
  });
  const checked: number[] = [];
  const items: { hash: bigint; signature: StarkSignature; starkKey: bigint }[] = [];
  jobs.forEach((job, index) => {
    const hash = hashes[index];
    const signature = signatureOf(job);
    if (typeof hash !== 'bigint' || signature === undefined) return;
    checked.push(index);
    items.push({ hash, signature, starkKey: job.publicKey });
  });
  let valid: boolean[];
  try {
    valid = verifyMany(items);
  } catch {
    valid = items.map((item) => {
      try {
        return verify(item.hash, item.signature, item.starkKey);
      } catch {
        return false;
      }
    });
  }
  const validity = new Map<number, boolean>();
  checked.forEach((index, n) => validity.set(index, valid[n] === true));
  return hashes.map((hash, index) => (typeof hash === 'bigint' ? { hash, valid: validity.get(index) ?? false } : hash));
}

/** Runs one job synchronously. A missing signature is simply invalid; nothing here throws on bad input. */
export function runJob(hasher: MessageHasher, verify: Verify, job: SignatureJob, knownHash?: bigint): SignatureResult {
  const hash = knownHash ?? hashOf(hasher, job);
  const sign = signatureOf(job);
  if (sign === undefined) return { hash, valid: false };
  let valid: boolean;
  try {
    valid = verify(hash, sign, job.publicKey);
  } catch {
    // SIGNING-NOTES pitfall 12: a verifier may throw on out-of-range values; that is "invalid".
    valid = false;
  }
  return { hash, valid };
}
