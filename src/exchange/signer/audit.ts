/**
 * The audit trail of refused signatures: each refusal is logged as a security event (level
 * error, `event: "security"`) and counted by kind, which the daemon exports as
 * `akira_mm_signing_refused_total{kind}`. A refusal means something asked the key holder for a
 * signature the configuration forbids: a bug, a bad config, or a compromised process.
 */
import type { Logger } from '../../core/index.ts';
import { REFUSAL_KINDS, type Refusal, type RefusalKind, type SignedKind } from './refusal.ts';

/** Called on every refusal (metrics counters subscribe here). */
export type RefusalListener = (kind: RefusalKind, request: string) => void;

/** Counts and logs refusals. */
export class SigningAudit {
  readonly #logger: Logger | undefined;
  readonly #counts = new Map<RefusalKind, number>(REFUSAL_KINDS.map((kind) => [kind, 0]));
  readonly #listeners = new Set<RefusalListener>();

  /** @param logger where security events go; none = count only. */
  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  /** Records one refusal of a `request` (a {@link SignedKind}, or what a remote client sent). */
  refused(request: SignedKind | string, refusal: Refusal): void {
    this.#counts.set(refusal.kind, (this.#counts.get(refusal.kind) ?? 0) + 1);
    this.#logger?.error({ event: 'security', refusal: refusal.kind, request, reason: refusal.reason }, 'signing refused by the signing policy');
    for (const listener of this.#listeners) listener(refusal.kind, request);
  }

  /** Refusals so far, by kind (every kind present, zeros included). */
  counts(): ReadonlyMap<RefusalKind, number> {
    return this.#counts;
  }

  /** Subscribes to refusals; returns the unsubscribe function. */
  onRefused(listener: RefusalListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
