/**
 * The signed, state-changing endpoints (REFERENCE §1.2 rows 15–20). Each request goes:
 * the account's rate limit (429) → the SDKs' wire forms (400) → parse (400 naming the field) →
 * maker is the logged-in account → state-free checks (422) → hash and verify the signature off
 * the event loop (FAILED_SIGN_CHECK; a live `fast_sign_key` of the account replaces the signature
 * on cancels) → in arrival order, stateful checks and queueing (SPEC §5: 200 = accepted). A
 * refused request is never queued.
 */
import { signHash } from '../exchange/signer/index.ts';
import { addressToHex, feltToHex } from '../exchange/wire/fields.ts';
import {
  parseCancelAllBody,
  parseCancelBody,
  parseIncreaseNonceBody,
  parseOrderBody,
  parseWithdrawBody,
} from '../exchange/wire/requests.ts';
import type { SimAccount } from './accounts.ts';
import type { VenueContext } from './context.ts';
import { reject } from './errors.ts';
import { HttpError, type Route, type RouteContext } from './http.ts';
import { rateLimitText } from './rate-limit.ts';
import { checkWireForms, type BodyKind } from './wire-forms.ts';
import type { SignatureJob } from './signatures/jobs.ts';
import { checkGasFee, checkOrderStatic, checkSignScheme, type ValidationContext } from './validate.ts';

/** The validation context at this instant. */
export function validationContext(venue: VenueContext): ValidationContext {
  return {
    chain: venue.chain,
    settings: venue.settings,
    markets: venue.engine.markets,
    nowMs: venue.clock.nowMs(),
    gasPriceFri: venue.prices.gasPriceFri(),
    conversionRate: (token) => venue.prices.conversionRate(token),
  };
}

function makerAccount(venue: VenueContext, context: RouteContext, maker: bigint): SimAccount {
  if (context.session?.account !== maker) {
    throw reject('NOT_THIS_CLIENT_ORDER', `maker ${feltToHex(maker)} is not the logged-in account`);
  }
  const account = venue.accounts.get(maker);
  if (account === undefined) throw reject('WRONG_INPUT', `unknown account ${feltToHex(maker)}`);
  return account;
}

/**
 * Runs one signed request through the pipeline. `prepare` parses and checks without state and
 * returns the job to verify plus the step that accepts it; the step runs in arrival order.
 */
async function signedRequest(
  venue: VenueContext,
  context: RouteContext,
  kind: BodyKind,
  prepare: () => { job: SignatureJob; accept: (hash: bigint) => void; isPreAuthorized?: boolean },
): Promise<string> {
  const account = context.session?.account;
  const waitMs = account === undefined ? undefined : venue.rateLimiter.take(account);
  if (waitMs !== undefined) throw new HttpError(429, rateLimitText(waitMs));
  checkWireForms(context.body, kind);
  const ticket = venue.sequencer.take();
  let isQueuedForStep = false;
  try {
    const { job, accept, isPreAuthorized } = prepare();
    const { hash, valid } = await venue.checker.check(job);
    if (!valid && isPreAuthorized !== true) throw reject('FAILED_SIGN_CHECK', `signature does not match hash ${feltToHex(hash)} for the account's key`);
    isQueuedForStep = true;
    await venue.sequencer.run(ticket, () => accept(hash));
    return addressToHex(hash);
  } finally {
    if (!isQueuedForStep) venue.sequencer.abandon(ticket);
  }
}

/**
 * True when the body carries a `fast_sign_key` that is live and was issued to the maker; a key
 * that is sent but dead or someone else's is refused outright (FAILED_SIGN_CHECK), since its
 * zero signature can never verify.
 */
function hasLiveFastSignKey(venue: VenueContext, context: RouteContext, maker: bigint): boolean {
  const body = context.body as Record<string, unknown>;
  const key = body['fast_sign_key'];
  if (key === undefined || key === null) return false;
  const session = typeof key === 'string' ? venue.fastSign.resolve(key) : undefined;
  if (session === undefined || session.account !== maker) throw reject('FAILED_SIGN_CHECK', 'fast_sign_key is unknown, expired or not this account\'s');
  return true;
}

function withoutSignature<T extends { readonly sign?: unknown }>(request: T): T {
  const { sign, ...rest } = request;
  void sign;
  return rest as T;
}

function post(handle: (context: RouteContext) => Promise<unknown>): Route {
  return { method: 'POST', auth: true, handle };
}

/** Routes of this file by path (both cancel-all spellings, SPEC §1). */
export function actionRoutes(venue: VenueContext): Array<[string, Route]> {
  const placeOrder = post((context) =>
    signedRequest(venue, context, 'order', () => {
      const request = parseOrderBody(context.body, venue.chain);
      const account = makerAccount(venue, context, request.maker);
      const market = checkOrderStatic(request, validationContext(venue));
      return {
        job: { kind: 'order', request, publicKey: account.publicKey },
        accept: (hash) => void venue.engine.acceptOrder(request, hash, market),
      };
    }),
  );
  const cancelOrder = post((context) =>
    signedRequest(venue, context, 'cancel', () => {
      const parsed = parseCancelBody(context.body);
      const account = makerAccount(venue, context, parsed.maker);
      checkSignScheme(parsed.signScheme);
      const isPreAuthorized = hasLiveFastSignKey(venue, context, parsed.maker);
      // With a fast-sign key the venue only hashes the request: no signature to verify.
      const request = isPreAuthorized ? withoutSignature(parsed) : parsed;
      return { job: { kind: 'cancel', request, publicKey: account.publicKey }, accept: (hash) => venue.engine.acceptCancel(request, hash), isPreAuthorized };
    }),
  );
  const cancelAll = post((context) =>
    signedRequest(venue, context, 'cancel-all', () => {
      const parsed = parseCancelAllBody(context.body, venue.chain);
      const account = makerAccount(venue, context, parsed.maker);
      checkSignScheme(parsed.signScheme);
      const isPreAuthorized = hasLiveFastSignKey(venue, context, parsed.maker);
      const request = isPreAuthorized ? withoutSignature(parsed) : parsed;
      return { job: { kind: 'cancel-all', request, publicKey: account.publicKey }, accept: (hash) => venue.engine.acceptCancelAll(request, hash), isPreAuthorized };
    }),
  );
  const withdraw = post((context) =>
    signedRequest(venue, context, 'withdraw', () => {
      const request = parseWithdrawBody(context.body, venue.chain);
      const account = makerAccount(venue, context, request.maker);
      checkSignScheme(request.signScheme);
      checkGasFee(request.gasFee, venue.settings.steps.withdraw, validationContext(venue), 'gas_fee');
      return { job: { kind: 'withdraw', request, publicKey: account.publicKey }, accept: (hash) => venue.engine.acceptWithdraw(request, hash) };
    }),
  );
  const increaseNonce = post((context) =>
    signedRequest(venue, context, 'increase-nonce', () => {
      const request = parseIncreaseNonceBody(context.body, venue.chain);
      const account = makerAccount(venue, context, request.maker);
      checkSignScheme(request.signScheme);
      checkGasFee(request.gasFee, venue.settings.steps.nonce, validationContext(venue), 'gas_fee');
      return {
        job: { kind: 'increase-nonce', request, publicKey: account.publicKey },
        accept: (hash) => venue.engine.acceptIncreaseNonce(request, hash),
      };
    }),
  );
  // The router co-signs an external order: we hash it like any order and sign with its key.
  const signExternal = post(async (context) => {
    const request = parseOrderBody(context.body, venue.chain);
    const { hash } = await venue.checker.check({ kind: 'order', request, publicKey: 0n });
    const signature = signHash(hash, venue.routerPrivateKey);
    return [feltToHex(signature.r), feltToHex(signature.s)];
  });
  return [
    ['/place_order', placeOrder],
    ['/router/sign_external_order', signExternal],
    ['/cancel_order', cancelOrder],
    ['/cancel_all', cancelAll],
    ['/cancel_all_orders', cancelAll],
    ['/withdraw', withdraw],
    ['/increase_nonce', increaseNonce],
  ];
}
