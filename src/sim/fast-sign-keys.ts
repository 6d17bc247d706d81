/**
 * Fast-sign challenges and keys of one venue (docs/venue.md "fast cancels"): what the endpoints
 * (fast-sign.ts) and the cancel routes share, kept apart from the routes so the venue's context
 * can hold it without importing them.
 */
import type { Clock, Rng } from '../core/index.ts';
import { FAST_SIGN_VALID_HOURS, type FastSignChallenge } from '../exchange/client/fast-sign.ts';
import type { Session } from './auth.ts';

/** A challenge handed out and not yet answered. */
export interface Pending extends Session {
  readonly expirationTs: number;
}

interface IssuedKey extends Session {
  readonly expiresAtMs: number;
}

/** Challenges and keys of one venue. */
export class FastSignKeys {
  readonly #challenges = new Map<string, Pending>();
  readonly #keys = new Map<string, IssuedKey>();

  constructor(
    private readonly clock: Clock,
    private readonly rng: Rng,
  ) {}

  /** A challenge for this session, valid (as its key will be) for one hour from now. */
  issueChallenge(session: Session): FastSignChallenge {
    this.#prune();
    const msg = (this.rng.bigint(120) + 1n).toString();
    const expirationTs = Math.floor(this.clock.nowMs() / 1000) + FAST_SIGN_VALID_HOURS * 3600;
    this.#challenges.set(msg, { ...session, expirationTs });
    return { msg, expirationTs };
  }

  /** Consumes a challenge of this session; undefined when unknown, used, another's or expired. */
  takeChallenge(msg: string, session: Session): Pending | undefined {
    const found = this.#challenges.get(msg);
    if (found === undefined || found.account !== session.account) return undefined;
    this.#challenges.delete(msg);
    return found.expirationTs * 1000 > this.clock.nowMs() ? found : undefined;
  }

  /** A key for a verified challenge. */
  issueKey(pending: Pending): string {
    const key = this.rng.bigint(128).toString(16).padStart(32, '0');
    this.#keys.set(key, { account: pending.account, signer: pending.signer, expiresAtMs: pending.expirationTs * 1000 });
    return key;
  }

  /** The session a live key speaks for. */
  resolve(key: string): Session | undefined {
    const found = this.#keys.get(key);
    if (found === undefined || this.clock.nowMs() >= found.expiresAtMs) return undefined;
    return { account: found.account, signer: found.signer };
  }

  #prune(): void {
    const nowMs = this.clock.nowMs();
    for (const [msg, pending] of this.#challenges) if (pending.expirationTs * 1000 <= nowMs) this.#challenges.delete(msg);
    for (const [key, issued] of this.#keys) if (issued.expiresAtMs <= nowMs) this.#keys.delete(key);
  }
}
