/**
 * The fast-sign key of FAST_CANCEL=on (docs/venue.md "fast cancels"): obtained at start, renewed
 * in the background before it expires (the venue issues it for one hour), dropped when the venue
 * refuses it. While there is no usable key, cancels are signed as usual: a missing key slows a
 * cancel down, it never stops one.
 */
import type { Clock, Logger, Secret, Timer } from '../../core/index.ts';
import type { FastSignChallenge, RestClient } from '../client/index.ts';
import type { StarkSignature } from '../wire/fields.ts';

/** Signs the fast-sign typed message of a challenge (the trading account's signer; a remote one answers later). */
export interface FastSignSigner {
  signFastSign(challenge: FastSignChallenge): StarkSignature | Promise<StarkSignature>;
}

/** Collaborators and timing of a {@link FastSignSession}. */
export interface FastSignSessionOptions {
  readonly rest: Pick<RestClient, 'requestFastSignKey' | 'issueFastSignKey'>;
  readonly signer: FastSignSigner;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Renew when the key has less than this left, ms. Default 10 min. */
  readonly renewBeforeMs?: number;
  /** Wait before trying again after a failed renewal, ms. Default 30 s. */
  readonly retryMs?: number;
}

interface HeldKey {
  readonly key: Secret;
  readonly expiresAtMs: number;
}

/** One account's fast-sign key. */
export class FastSignSession {
  readonly #options: FastSignSessionOptions;
  readonly #renewBeforeMs: number;
  #held: HeldKey | undefined;
  #renewing: Promise<void> | undefined;
  #retryTimer: Timer | undefined;
  #stopped = false;
  /** Keys obtained and renewal failures, for tests and logs. */
  readonly stats = { issued: 0, failures: 0, refused: 0 };

  constructor(options: FastSignSessionOptions) {
    this.#options = options;
    this.#renewBeforeMs = options.renewBeforeMs ?? 10 * 60_000;
  }

  /** Obtains the first key; a failure is logged and retried later, never thrown. */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#renew();
  }

  stop(): void {
    this.#stopped = true;
    this.#retryTimer?.cancel();
    this.#retryTimer = undefined;
    this.#held = undefined;
  }

  /** A key usable now, or undefined (sign instead). Starts a renewal when it runs low. */
  key(): Secret | undefined {
    const held = this.#held;
    const nowMs = this.#options.clock.nowMs();
    if (held !== undefined && held.expiresAtMs - nowMs < this.#renewBeforeMs) void this.#renew();
    // A key that expires within a few seconds may die on the way: do not use it.
    return held !== undefined && held.expiresAtMs - nowMs > 5_000 ? held.key : undefined;
  }

  /** The venue refused `key` (expired early, revoked): forget it and get a new one. */
  refused(key: Secret): void {
    if (this.#held?.key !== key) return;
    this.stats.refused++;
    this.#held = undefined;
    this.#options.logger.warn('venue refused the fast-sign key; cancels are signed until a new one is issued');
    void this.#renew();
  }

  #renew(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#renewing ??= this.#obtain().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #obtain(): Promise<void> {
    const { rest, signer, clock, logger } = this.#options;
    try {
      const challenge = await rest.requestFastSignKey();
      const key = await rest.issueFastSignKey(challenge.msg, await signer.signFastSign(challenge));
      if (this.#stopped) return;
      this.#held = { key, expiresAtMs: challenge.expirationTs * 1000 };
      this.stats.issued++;
      logger.info({ expiresAt: new Date(challenge.expirationTs * 1000).toISOString() }, 'fast-sign key issued; cancels go without a signature');
    } catch (error) {
      this.stats.failures++;
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not obtain a fast-sign key; cancels are signed');
      this.#retryTimer?.cancel();
      this.#retryTimer = clock.setTimeout(() => void this.#renew(), this.#options.retryMs ?? 30_000, { unref: true });
    }
  }
}
