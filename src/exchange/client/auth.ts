/**
 * The login session (SPEC §2, REFERENCE §2.1): challenge from `/sign/request_sign_data`, signed
 * with the JWT typed message, exchanged at `/sign/auth` for a JWT kept as a {@link Secret}. One
 * login at a time: concurrent callers share it. A 401 invalidates only the token it was sent
 * with, so a burst of 401s causes one re-login, not one each.
 */
import { Secret } from '../../core/index.ts';
import type { StarkSignature } from '../wire/fields.ts';

/** What login needs from the signer (the signer module's `Signer` satisfies it). */
export interface LoginSigner {
  /** Public key of the signer bound to the account. */
  readonly starkKey: bigint;
  /** Signs the JWT typed message of REFERENCE §2.1 for this challenge (a remote signer answers later). */
  signLogin(challenge: bigint): { readonly signature: StarkSignature } | Promise<{ readonly signature: StarkSignature }>;
}

/** Obtains a fresh JWT; supplied by the REST client. */
export type LoginFlow = () => Promise<Secret>;

/** Holds the JWT and serialises logins. */
export class AuthSession {
  readonly #login: LoginFlow;
  #current: Promise<Secret> | undefined;

  constructor(login: LoginFlow) {
    this.#login = login;
  }

  /** The current JWT, logging in first when there is none. */
  token(): Promise<Secret> {
    if (this.#current === undefined) {
      const pending = this.#login();
      this.#current = pending;
      // A failed login must not stick: the next caller tries again.
      pending.catch(() => {
        if (this.#current === pending) this.#current = undefined;
      });
    }
    return this.#current;
  }

  /** Forgets `token` (the one a 401 answered) unless a newer one already replaced it. */
  async invalidate(token: Secret): Promise<void> {
    const current = this.#current;
    if (current === undefined) return;
    const value = await current.catch(() => undefined);
    if (value === token && this.#current === current) this.#current = undefined;
  }

  /** True once a JWT is held. */
  hasToken(): boolean {
    return this.#current !== undefined;
  }
}
