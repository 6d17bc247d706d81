/**
 * The fast-sign endpoints (docs/venue.md "fast cancels"; python_akira HttpClient.py `query_fast_sign_key`,
 * akira-js features/webLimitOrders `getFastSignCancelData` / `issueFastSignKey`):
 *
 * - `GET /sign/request_fast_sign_key` (JWT; akira-js also sends `user` and `account`, which must
 *   then be the session's, compared as numbers) → `{msg, expiration_ts}`, a one-use challenge.
 * - `POST /sign/issue_fast_sign_key {msg, signature}` (JWT) → a key, once the signature of the
 *   fast-sign typed message verifies against the session's signer.
 * - `POST /cancel_order` and `/cancel_all` with `fast_sign_key` need no signature while the key
 *   lives (until `expiration_ts`, one hour, as the signed text says).
 */
import { fastSignMessageHash } from '../exchange/client/fast-sign.ts';
import { verifySignature } from '../exchange/signer/index.ts';
import { FieldReader, WireError } from '../exchange/wire/fields.ts';
import type { Session } from './auth.ts';
import type { VenueContext } from './context.ts';
import type { FastSignKeys } from './fast-sign-keys.ts';
import { HttpError, type Route, type RouteContext } from './http.ts';
import { feltParam } from './query.ts';

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
