/**
 * Body of a signature-check worker: one hasher per thread (its Pedersen tables built once) and the
 * signer's verifier, which caches each account's decompressed key point (SIGNING-NOTES §3), so
 * after the first request of an account a check is one hash and one cached-point verification.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { getChain, type ChainName } from '../../core/index.ts';
import { createMessageHasher, signHash, starkKeyOf, verifySignature, verifySignatures, warmPedersen, type WithdrawHashScheme } from '../../exchange/signer/index.ts';
import { runJobs, type SignatureJob } from './jobs.ts';

interface WorkerSetup {
  readonly chain: ChainName;
  readonly withdrawHash: WithdrawHashScheme;
}

const setup = workerData as WorkerSetup;
const hasher = createMessageHasher(getChain(setup.chain), { withdrawHash: setup.withdrawHash });
warmPedersen();
// Build the generator's window tables before saying ready: the first verification would otherwise
// pay for them (seconds on a busy machine) while requests wait. A throwaway key does it.
const warmKey = 2n;
verifySignature(1n, signHash(1n, warmKey), starkKeyOf(warmKey));
parentPort?.postMessage({ ready: true });
parentPort?.on('message', (batch: { id: number; jobs: SignatureJob[] }) => {
  parentPort?.postMessage({ id: batch.id, results: runJobs(hasher, verifySignature, batch.jobs, verifySignatures) });
});
