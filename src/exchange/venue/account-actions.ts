/**
 * The live venue's cancels and queued account actions (SPEC §5, issue 11 items 4–5):
 *
 * - cancel one order: with the fast-sign key when FAST_CANCEL holds one (no signature), else
 *   signed; a refused key falls back to a signed cancel at once.
 * - cancel-all, increase-nonce, withdraw: after the 200, the effect is confirmed within a bound
 *   (our orders gone from `/user/orders`; `user_info` nonce raised; the balance paid out or the
 *   settled report), a `fail` report ends the wait as `rejected`, and no effect in time is
 *   `unconfirmed`. Cancel-all is sent once more halfway; a nonce increase failed for its gas
 *   price is sent once more with fresh gas; a withdraw is never repeated (it moves money).
 *
 * Every failure after acceptance also goes to the engine as a {@link VenueAlert}.
 */
import {
  hasErrorCode,
  isTerminalStatus,
  type CancelOutcome,
  type Clock,
  type Logger,
  type Pair,
  type Rng,
  type SignerFailure,
  type TokenInfo,
  type VenueAction,
  type VenueAlert,
} from '../../core/index.ts';
import { ExchangeError, postResolved, type PostOutcome, type RestClient, type StepsSpec, type VenueOrder } from '../client/index.ts';
import type { GasTracker } from '../gas/index.ts';
import { addressToHex } from '../wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, WithdrawRequest } from '../wire/requests.ts';
import type { FastSignSession } from './fast-sign-session.ts';
import { listOpenOrders } from './open-orders.ts';
import { SIGN_SCHEME } from './order-builder.ts';
import { orderIdOf, type OrderTracker } from './order-tracker.ts';
import type { SignedRequest } from './presign-cache.ts';
import { ActionWaiters, confirmEffect, type ConfirmTiming, type Confirmation, type PendingReports } from './queued-actions.ts';
import type { VenueSigner } from './signer-port.ts';

/** Bounds of the confirmations; defaults in {@link DEFAULT_CONFIRM}. */
export interface ConfirmSettings {
  /** Cancel-all: our orders gone. Default 5 s, reads from 100 ms doubling to 1 s. */
  readonly cancelAll: ConfirmTiming;
  /** Increase-nonce: `user_info` nonce raised (queued for a rollup). Default 60 s, reads up to 5 s apart. */
  readonly nonce: ConfirmTiming;
  /** Withdraw: paid out (settled report or balance). Default 120 s, reads up to 10 s apart. */
  readonly withdraw: ConfirmTiming;
}

/** Defaults of {@link ConfirmSettings}. */
export const DEFAULT_CONFIRM: ConfirmSettings = {
  cancelAll: { boundMs: 5_000, firstPollMs: 100, maxPollMs: 1_000 },
  nonce: { boundMs: 60_000, firstPollMs: 250, maxPollMs: 5_000 },
  withdraw: { boundMs: 120_000, firstPollMs: 500, maxPollMs: 10_000 },
};

/** A withdraw's outcome and the request's hash (to follow it on chain). */
export type WithdrawOutcome = CancelOutcome & { readonly requestHash?: string };

/** What the actions need from the live venue. */
export interface AccountActionsDeps {
  readonly account: bigint;
  readonly pair: Pair;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly ecosystemBook: boolean;
  readonly rest: RestClient;
  readonly signer: VenueSigner;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly tracker: OrderTracker;
  readonly reports: PendingReports;
  readonly confirm: ConfirmSettings;
  readonly fastSign: FastSignSession | undefined;
  /** The SNIP-12 hash of a cancel-all (to wait for its report before sending it). */
  hashCancelAll(request: CancelAllRequest): bigint;
  gas(): GasTracker;
  steps(): StepsSpec;
  /** Our nonce as we sign it; raised by a confirmed increase. */
  nonce(): number;
  onNonceRaised(nonce: number): void;
  alert(alert: VenueAlert): void;
  salt(): bigint;
  findOrder(hash: bigint): Promise<VenueOrder | undefined>;
  /** A cancel signed in idle time for this order, if any (single use). */
  takeCancelSignature(orderId: string): SignedRequest<CancelRequest> | undefined;
}

/** Cancels and queued account actions of one live venue. */
export class AccountActions {
  readonly #deps: AccountActionsDeps;
  /** Cancels (single and all) sent with the fast-sign key, and signed ones. */
  readonly stats = { fastCancels: 0, signedCancels: 0 };

  constructor(deps: AccountActionsDeps) {
    this.#deps = deps;
  }

  /** Cancels one order (fast-sign key when held, else signed). */
  async cancelOrder(orderId: string, hash: bigint): Promise<CancelOutcome> {
    const { rest } = this.#deps;
    const lookup = async (): Promise<boolean> => {
      const found = await this.#deps.findOrder(hash);
      return found !== undefined && (found.status === 'SCHEDULED_TO_CANCEL' || isTerminalStatus(found.status));
    };
    const fastKey = this.#deps.fastSign?.key();
    if (fastKey !== undefined) {
      const request: CancelRequest = { maker: this.#deps.account, orderHash: hash, salt: this.#deps.salt(), signScheme: SIGN_SCHEME };
      this.stats.fastCancels++;
      const outcome = await this.#post(() => rest.cancelOrderFast(request, fastKey), lookup);
      if (!isRefusedKey(outcome)) return toCancelOutcome(outcome);
      this.#deps.fastSign?.refused(fastKey);
    }
    let signed: SignedRequest<CancelRequest>;
    try {
      signed = this.#deps.takeCancelSignature(orderId) ?? (await this.signCancel(hash));
    } catch (error) {
      return { kind: 'rejected', ...signerFailure(error) };
    }
    this.stats.signedCancels++;
    return toCancelOutcome(await this.#post(() => rest.cancelOrder(signed.request), lookup));
  }

  /** A signed cancel of `hash` (also done ahead of time by the venue). */
  async signCancel(hash: bigint): Promise<SignedRequest<CancelRequest>> {
    return this.#deps.signer.signCancel({ maker: this.#deps.account, orderHash: hash, salt: this.#deps.salt(), signScheme: SIGN_SCHEME });
  }

  /** Cancels every order of ours on the pair and confirms they are gone. */
  async cancelAll(): Promise<CancelOutcome> {
    const { tracker, rest, pair, ecosystemBook } = this.#deps;
    const mark = tracker.sendMark();
    const waiters = new ActionWaiters(this.#deps.reports);
    let sent: PostOutcome<bigint>;
    try {
      sent = await this.#sendCancelAll(waiters);
    } catch (error) {
      waiters.stop();
      return { kind: 'rejected', ...signerFailure(error) };
    }
    if (sent.kind !== 'accepted' || sent.value === undefined) {
      waiters.stop();
      return toCancelOutcome(sent);
    }
    // Done when every order still listed was sent after the cancel-all (the engine may requote meanwhile).
    const isDone = async (): Promise<boolean> =>
      (await listOpenOrders(rest, pair, ecosystemBook)).every((order) => order.hash !== undefined && tracker.sentAfter(orderIdOf(order.hash), mark));
    const confirmation = await confirmEffect({
      clock: this.#deps.clock,
      timing: this.#deps.confirm.cancelAll,
      isDone,
      report: waiters.report,
      onHalfway: async () => {
        this.#deps.logger.warn('cancel-all not confirmed yet; sending it again');
        // A signer lost meanwhile: the first one may still take effect; the confirmation decides.
        await this.#sendCancelAll(waiters).catch((error: unknown) => this.#deps.logger.warn({ err: reasonOf(error) }, 'cancel-all not sent again'));
      },
    });
    waiters.stop();
    return this.#finish('cancel-all', sent.value, confirmation);
  }

  /** The on-chain kill switch, confirmed by the venue's nonce. */
  async increaseNonce(): Promise<CancelOutcome> {
    let attempt = await this.#increaseNonceOnce();
    if (attempt.kind === 'sent' && attempt.confirmation.kind === 'failed' && attempt.confirmation.reason === 'WRONG_MAX_GAS_PRICE') {
      // The gas price rose past our maximum while it was queued: once more at today's price.
      this.#deps.logger.warn('nonce increase failed on its gas price; sending it again with fresh gas');
      await this.#deps.gas().refresh();
      attempt = await this.#increaseNonceOnce();
    }
    return attempt.kind === 'not-sent' ? attempt.outcome : this.#finish('increase-nonce', attempt.hash, attempt.confirmation);
  }

  /**
   * Withdraws `amount` base units of `token` to `receiver` (default: the account), paying gas in
   * the fee token, and confirms the payout. Never sent twice.
   */
  async withdraw(token: TokenInfo, amount: bigint, receiver: bigint = this.#deps.account): Promise<WithdrawOutcome> {
    const { rest, signer } = this.#deps;
    const gas = this.#deps.gas();
    await gas.ensureFresh();
    let before: bigint;
    try {
      before = (await rest.userInfo()).balances.get(token.symbol)?.balance ?? 0n;
    } catch (error) {
      return { kind: 'rejected', reason: `balance unknown, nothing sent: ${reasonOf(error)}` };
    }
    let signed: SignedRequest<WithdrawRequest>;
    try {
      signed = await signer.signWithdraw({
        maker: this.#deps.account,
        token,
        amount,
        salt: this.#deps.salt(),
        receiver,
        gasFee: gas.gasFee(this.#deps.steps().withdraw),
        signScheme: SIGN_SCHEME,
      });
    } catch (error) {
      return { kind: 'rejected', ...signerFailure(error) };
    }
    const waiter = this.#deps.reports.wait(signed.hash);
    const outcome = await this.#post(() => rest.withdraw(signed.request), async () => undefined);
    if (outcome.kind !== 'accepted') {
      waiter.stop();
      return { ...toCancelOutcome(outcome), requestHash: addressToHex(signed.hash) };
    }
    let isSettled = false;
    void waiter.report.then((report) => {
      isSettled = report.type === 'rollup';
    });
    // The venue's settled report, or the balance paid out when no report comes.
    const isDone = async (): Promise<boolean> => isSettled || ((await rest.userInfo()).balances.get(token.symbol)?.balance ?? 0n) <= before - amount;
    const result = await this.#finish('withdraw', signed.hash, await confirmEffect({ clock: this.#deps.clock, timing: this.#deps.confirm.withdraw, isDone, report: waiter.report }));
    waiter.stop();
    return { ...result, requestHash: addressToHex(signed.hash) };
  }

  async #increaseNonceOnce(): Promise<{ kind: 'not-sent'; outcome: CancelOutcome } | { kind: 'sent'; hash: bigint; confirmation: Confirmation }> {
    const { signer, rest } = this.#deps;
    const gas = this.#deps.gas();
    await gas.ensureFresh();
    let newNonce: number;
    try {
      // The venue's nonce, not only ours: another process may have raised it already.
      newNonce = Math.max((await rest.userInfo()).nonce, this.#deps.nonce()) + 1;
    } catch (error) {
      return { kind: 'not-sent', outcome: { kind: 'rejected', reason: `nonce unknown, nothing sent: ${reasonOf(error)}` } };
    }
    let signed: SignedRequest<IncreaseNonceRequest>;
    try {
      signed = await signer.signIncreaseNonce({
        maker: this.#deps.account,
        newNonce,
        salt: this.#deps.salt(),
        gasFee: gas.gasFee(this.#deps.steps().nonce),
        signScheme: SIGN_SCHEME,
      });
    } catch (error) {
      return { kind: 'not-sent', outcome: { kind: 'rejected', ...signerFailure(error) } };
    }
    const isRaised = async (): Promise<boolean> => (await rest.userInfo()).nonce >= newNonce;
    const waiter = this.#deps.reports.wait(signed.hash);
    const outcome = await this.#post(() => rest.increaseNonce(signed.request), isRaised);
    if (outcome.kind !== 'accepted') {
      waiter.stop();
      return { kind: 'not-sent', outcome: toCancelOutcome(outcome) };
    }
    // Orders signed from now on must carry the new nonce, whatever the confirmation says.
    this.#deps.onNonceRaised(newNonce);
    const confirmation = await confirmEffect({ clock: this.#deps.clock, timing: this.#deps.confirm.nonce, isDone: isRaised, report: waiter.report });
    waiter.stop();
    return { kind: 'sent', hash: signed.hash, confirmation };
  }

  /** Sends one cancel-all (fast key when held), waiting for its report; `value` is its hash. */
  async #sendCancelAll(waiters: ActionWaiters): Promise<PostOutcome<bigint>> {
    const { rest } = this.#deps;
    const request: CancelAllRequest = {
      maker: this.#deps.account,
      salt: this.#deps.salt(),
      base: this.#deps.base,
      quote: this.#deps.quote,
      toEcosystemBook: this.#deps.ecosystemBook,
      signScheme: SIGN_SCHEME,
    };
    const hash = this.#deps.hashCancelAll(request);
    waiters.add(hash);
    const noLookup = async (): Promise<undefined> => undefined;
    const fastKey = this.#deps.fastSign?.key();
    if (fastKey !== undefined) {
      this.stats.fastCancels++;
      const outcome = await this.#post(() => rest.cancelAllFast(request, fastKey), noLookup);
      if (!isRefusedKey(outcome)) return withHash(outcome, hash);
      this.#deps.fastSign?.refused(fastKey);
    }
    const signed = await this.#deps.signer.signCancelAll(request);
    this.stats.signedCancels++;
    // An unreadable answer still means the venue may have it: the confirmation decides.
    return withHash(await this.#post(() => rest.cancelAll(signed.request), noLookup), hash);
  }

  /** Turns a confirmation into the port's outcome, alerting the engine when it is not good. */
  #finish(action: VenueAction, hash: bigint, confirmation: Confirmation): CancelOutcome {
    const requestHash = addressToHex(hash);
    const timeMs = this.#deps.clock.nowMs();
    switch (confirmation.kind) {
      case 'confirmed':
        return { kind: 'accepted' };
      case 'failed':
        this.#deps.logger.error({ action, requestHash, reason: confirmation.reason }, 'venue failed the request after accepting it');
        this.#deps.alert({ kind: 'request-failed', action, requestHash, orderId: undefined, reason: confirmation.reason, timeMs });
        return { kind: 'rejected', reason: `failed after acceptance: ${confirmation.reason}` };
      case 'timeout': {
        const reason = `${action} accepted but its effect did not show within the bound`;
        this.#deps.logger.error({ action, requestHash }, reason);
        this.#deps.alert({ kind: 'action-unconfirmed', action, requestHash, reason, timeMs });
        return { kind: 'unconfirmed', reason };
      }
    }
  }

  #post<T>(send: () => Promise<T>, lookup: () => Promise<boolean | undefined>): Promise<PostOutcome<T>> {
    return postResolved(send, lookup, { clock: this.#deps.clock, rng: this.#deps.rng });
  }
}

/** The outcome of a request whose hash we computed: `value` is that hash. */
function withHash(outcome: PostOutcome<bigint>, hash: bigint): PostOutcome<bigint> {
  return outcome.kind === 'accepted' ? { kind: 'accepted', value: hash } : outcome;
}

/** A fast-signed request the venue refused for its key (then we sign and send again). */
function isRefusedKey<T>(outcome: PostOutcome<T>): boolean {
  return outcome.kind === 'rejected' && outcome.error.venueErrorName === 'FAILED_SIGN_CHECK';
}

/** The reason text of an error: the venue's §4 name when it gave one. */
export function reasonOf(error: unknown): string {
  if (error instanceof ExchangeError) return error.venueErrorName ?? error.venueError ?? `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The rejection of a request the signer refused (`SIGNER_REFUSED`) or could not sign
 * (`SIGNER_UNAVAILABLE`): nothing was sent. Anything else is a bug and is thrown again.
 */
export function signerFailure(error: unknown): { readonly reason: string; readonly signerError: SignerFailure } {
  if (hasErrorCode(error, 'SIGNER_REFUSED') || hasErrorCode(error, 'SIGNER_UNAVAILABLE')) return { reason: `${error.code}: ${error.message}`, signerError: error.code };
  throw error;
}

/** The port's outcome of a POST. */
export function toCancelOutcome(outcome: PostOutcome<unknown>): CancelOutcome {
  if (outcome.kind === 'accepted') return { kind: 'accepted' };
  return { kind: outcome.kind, reason: reasonOf(outcome.error) };
}
