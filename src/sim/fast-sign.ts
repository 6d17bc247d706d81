/**
 * Fast-sign keys (docs/venue.md "fast cancels"; python_akira HttpClient.py `query_fast_sign_key`,
 * akira-js features/webLimitOrders `getFastSignCancelData` / `issueFastSignKey`):
 *
 * - `GET /sign/request_fast_sign_key` (JWT; akira-js also sends `user` and `account`, which must
 *   then be the session's, compared as numbers) → `{msg, expiration_ts}`, a one-use challenge.
 * - `POST /sign/issue_fast_sign_key {msg, signature}` (JWT) → a key, once the signature of the
 *   fast-sign typed message verifies against the session's signer.
 * - `POST /cancel_order` and `/cancel_all` with `fast_sign_key` need no signature while the key
 *   lives (until `expiration_ts`, one hour, as the signed text says).
 */
import type { Clock, Rng } from '../core/index.ts';
import { FAST_SIGN_VALID_HOURS, fastSignMessageHash, type FastSignChallenge } from '../exchange/client/fast-sign.ts';
import { verifySignature } from '../exchange/signer/index.ts';
import { FieldReader, WireError } from '../exchange/wire/fields.ts';
import type { Session } from './auth.ts';
import type { VenueContext } from './context.ts';
import { HttpError, type Route, type RouteContext } from './http.ts';
import { feltParam } from './query.ts';

interface Pending extends Session {
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

function sessionOf(context: RouteContext): Session {
  if (context.session === undefined) throw new HttpError(401, 'Auth header required');
  return context.session;
}

/** `user`/`account`, when sent (akira-js does), must be the session's own. */
function checkOptionalIdentity(context: RouteContext, session: Session): void {
  if (context.query.has('user') && feltParam(context.query, 'user') !== session.signer) throw new HttpError(400, 'Wrong account');
  if (context.query.has('account') && feltParam(context.query, 'account') !== session.account) throw new HttpError(400, 'Wrong account');
}

/** The two fast-sign endpoints. */
export function fastSignRoutes(venue: VenueContext, keys: FastSignKeys): Array<[string, Route]> {
  const request: Route = {
    method: 'GET',
    auth: true,
    handle: (context) => {
      const session = sessionOf(context);
      checkOptionalIdentity(context, session);
      const challenge = keys.issueChallenge(session);
      return { msg: challenge.msg, expiration_ts: challenge.expirationTs };
    },
  };
  const issue: Route = {
    method: 'POST',
    auth: true,
    handle: (context) => {
      const session = sessionOf(context);
      const { body } = context;
      let msg: string;
      let signature;
      try {
        const reader = FieldReader.root(body);
        const raw = reader.raw('msg');
        msg = typeof raw === 'number' ? String(raw) : reader.string('msg');
        signature = reader.signature('signature');
      } catch (error) {
        if (error instanceof WireError) throw new HttpError(400, `Invalid msg or signature parameter (${error.message})`);
        throw error;
      }
      const pending = keys.takeChallenge(msg, session);
      if (pending === undefined) throw new HttpError(400, 'Invalid msg or signature parameter (unknown, used or expired challenge)');
      const hash = fastSignMessageHash(venue.chain, session.account, { msg, expirationTs: pending.expirationTs });
      if (!verifySignature(hash, signature, session.signer)) throw new HttpError(400, 'Invalid signature');
      return keys.issueKey(pending);
    },
  };
  return [
    ['/sign/request_fast_sign_key', request],
    ['/sign/issue_fast_sign_key', issue],
  ];
}
