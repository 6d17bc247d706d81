/**
 * Body of a signing-pool worker: builds its own Signer (and Pedersen tables) once, then signs
 * batches of orders sent by the pool. The private key arrives once, over the worker's private
 * message port; it is never logged.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Secret, getChain, type ChainName } from '../../core/index.ts';
import type { OrderRequest } from '../wire/requests.ts';
import type { WithdrawHashScheme } from './hasher.ts';
import { warmGenerator } from './ecdsa.ts';
import { warmPedersen } from './pedersen.ts';
import { SigningPolicy, type SigningPolicySpec } from './policy.ts';
import { Signer } from './signer.ts';

interface WorkerSetup {
  readonly privateKey: string;
  readonly account: bigint;
  readonly chain: ChainName;
  readonly withdrawHash: WithdrawHashScheme;
  readonly policy: SigningPolicySpec | undefined;
}

const setup = workerData as WorkerSetup;
const signer = new Signer({
  privateKey: new Secret(setup.privateKey),
  account: setup.account,
  chain: getChain(setup.chain),
  withdrawHash: setup.withdrawHash,
  // The pool already checked and audited the batch; this is the same rule where the key is.
  ...(setup.policy === undefined ? {} : { policy: new SigningPolicy(setup.policy) }),
});
warmPedersen();
warmGenerator();
parentPort?.postMessage({ ready: true });
parentPort?.on('message', (job: { id: number; orders: OrderRequest[] }) => {
  try {
    parentPort?.postMessage({ id: job.id, signed: signer.signOrders(job.orders) });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
