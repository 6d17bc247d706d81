/**
 * Pre-signing on the event loop, one order per turn: what the daemon uses instead of signing
 * worker threads (RELIABILITY.md "Lean daemon"). A worker thread costs ~30 MB of RSS (its own
 * V8 isolate, module graph and 8.8 MB of curve tables) for work worth ~0.4 ms per order; signed
 * in slices between events, the same pre-signing keeps signatures off the tick-to-wire path while
 * a market event waits behind at most one signature.
 */
import type { Clock } from '../../core/index.ts';
import type { SigningPolicy } from '../signer/policy.ts';
import type { OrderRequest } from '../wire/requests.ts';
import type { SignedRequest } from './presign-cache.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';

/** A batch cut short because the venue is stopping: expected at shutdown, not a failure. */
export class IdleSignerClosedError extends Error {
  constructor() {
    super('idle signer is closed');
    this.name = 'IdleSignerClosedError';
  }
}

/** Signs a batch one order per event-loop turn (a zero-delay timer between orders). */
export class IdleOrderSigner implements BatchOrderSigner {
  #closed = false;

  constructor(
    private readonly signer: VenueSigner,
    private readonly clock: Clock,
    /** The in-process signer's policy, when it has one. */
    private readonly policy?: Pick<SigningPolicy, 'allowsOrder'>,
  ) {}

  /** @throws IdleSignerClosedError once closed (pending batches stop at their next order). */
  async signOrders(orders: OrderRequest[]): Promise<SignedRequest<OrderRequest>[]> {
    const signed: SignedRequest<OrderRequest>[] = [];
    for (const order of orders) {
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, 0, { unref: true }));
      if (this.#closed) throw new IdleSignerClosedError();
      signed.push(await this.signer.signOrder(order));
    }
    return signed;
  }

  /** True when the key holder's policy would sign this order (speculative pre-signing skips the others). */
  allows(order: OrderRequest): boolean {
    return this.policy?.allowsOrder(order) ?? true;
  }

  close(): void {
    this.#closed = true;
  }
}
