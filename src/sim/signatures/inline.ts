/** Signature checks on the calling thread: for tests and small setups where threads cost more than they save. */
import type { ChainInfo } from '../../core/index.ts';
import { createMessageHasher, verifySignature, type WithdrawHashScheme } from '../../exchange/signer/index.ts';
import { runJob, type SignatureChecker, type SignatureJob, type SignatureResult } from './jobs.ts';

/** A checker that hashes and verifies synchronously (blocking the event loop ~2 ms per order). */
export function createInlineChecker(chain: ChainInfo, withdrawHash: WithdrawHashScheme): SignatureChecker {
  const hasher = createMessageHasher(chain, { withdrawHash });
  return {
    check: (job: SignatureJob): Promise<SignatureResult> => Promise.resolve(runJob(hasher, verifySignature, job)),
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
