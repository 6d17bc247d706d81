/**
 * The live venue's order path: intents built into requests (order-builder), signed at once or
 * taken from the pre-signed cache, registered before sending so a fill that beats the HTTP answer
 * is known, POSTed once; an unknown outcome is settled by querying the hash (SPEC §2). After a
 * placement the order's cancel is signed in idle time, unless fast cancels make that moot.
 */
import type { Clock, Logger, OrderIntent, PlaceOutcome, Rng, SignedOrder, TickerRules, TokenInfo } from '../../core/index.ts';
import { postResolved, type ExchangeError, type RestClient, type VenueOrder } from '../client/index.ts';
import type { GasTracker } from '../gas/index.ts';
import type { CancelRequest, OrderRequest } from '../wire/requests.ts';
import { reasonOf, signerFailure } from './account-actions.ts';
import { IdleSignerClosedError } from './idle-signer.ts';
import { buildOrderRequest, intentProblem } from './order-builder.ts';
import { orderIdOf, type OrderTracker } from './order-tracker.ts';
import { PresignCache, type PresignValidity, type SignedRequest } from './presign-cache.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';

/** Signed orders and cancels kept waiting at most (the engine may sign and never send). */
const MAX_UNSENT = 1_000;

/** What the order path needs from the live venue. */
export interface OrderSenderDeps {
  readonly account: bigint;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly ecosystemBook: boolean;
  readonly feeRecipient: bigint;
  readonly orderTtlS: number;
  /** Pre-signed orders kept, and how long one stays usable (ms). */
  readonly presign: { readonly maxEntries: number; readonly maxAgeMs: number };
  readonly rest: RestClient;
  readonly signer: VenueSigner;
  readonly batchSigner: BatchOrderSigner | undefined;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly tracker: OrderTracker;
  gas(): GasTracker;
  rules(): TickerRules;
  tradeSteps(): number;
  fees(): { readonly makerPbips: number; readonly takerPbips: number };
  nonce(): number;
  salt(): bigint;
  findOrder(hash: bigint): Promise<VenueOrder | undefined>;
  signCancel(hash: bigint): Promise<SignedRequest<CancelRequest>>;
  /** True while cancels go with a fast-sign key (no cancel to sign ahead). */
  isFastCancel(): boolean;
  isStopped(): boolean;
  /** The venue said WRONG_NONCE: re-read the account. */
  onStaleNonce(): void;
}

/** Signs, pre-signs and sends our orders. */
export class OrderSender {
  readonly #deps: OrderSenderDeps;
  readonly #presigned: PresignCache;
  /** Signed orders waiting for `submit`, by order id. */
  readonly #signed = new Map<string, { readonly intent: OrderIntent; readonly signed: SignedRequest<OrderRequest> }>();
  /** Cancels signed ahead of need, by order id (single use). */
  readonly #cancelSignatures = new Map<string, SignedRequest<CancelRequest>>();
  /** Orders the signer refused or could not sign, by a local id: `submit` rejects them. */
  readonly #unsigned = new Map<string, ReturnType<typeof signerFailure>>();
  #unsignedCount = 0;
  #presigning = false;

  constructor(deps: OrderSenderDeps) {
    this.#deps = deps;
    this.#presigned = new PresignCache(deps.presign);
  }

  async sign(intent: OrderIntent): Promise<SignedOrder> {
    const gas = this.#deps.gas();
    if (gas.isStale()) await gas.ensureFresh();
    let signed = this.#presigned.take(intent, this.#validity());
    if (signed === undefined) {
      try {
        signed = await this.#deps.signer.signOrder(this.#build(intent));
      } catch (error) {
        // A policy refusal or an unreachable remote signer: the engine sees a rejected order
        // (and backs off) instead of an exception in its quoting loop.
        const orderId = `unsigned-${++this.#unsignedCount}`;
        this.#unsigned.set(orderId, signerFailure(error));
        keepBounded(this.#unsigned);
        return { orderId, intent };
      }
    }
    const orderId = orderIdOf(signed.hash);
    this.#signed.set(orderId, { intent, signed });
    keepBounded(this.#signed);
    return { orderId, intent };
  }

  /** Signs these intents in idle time (worker pool or idle slices), for a later `sign` to take at once. */
  prepare(intents: readonly OrderIntent[]): void {
    const batchSigner = this.#deps.batchSigner;
    if (batchSigner === undefined || this.#presigning || this.#deps.gas().quote() === undefined) return;
    const validity = this.#validity();
    const wanted = intents.filter((intent) => !this.#presigned.has(intent, validity) && intentProblem(intent, this.#deps.rules()) === undefined);
    if (wanted.length === 0) return;
    let built: OrderRequest[];
    try {
      built = wanted.map((intent) => this.#build(intent));
    } catch (error) {
      this.#deps.logger.debug({ err: reasonOf(error) }, 'cannot pre-sign now');
      return;
    }
    // Speculative orders the signing policy would refuse (a neighbour over the notional limit)
    // are not asked for: a refusal is a security event.
    const allowed = built.map((request) => batchSigner.allows?.(request) ?? true);
    const intentsToSign = wanted.filter((_, i) => allowed[i]);
    const requests = built.filter((_, i) => allowed[i]);
    if (requests.length === 0) return;
    this.#presigning = true;
    const nowMs = this.#deps.clock.nowMs();
    batchSigner
      .signOrders(requests)
      .then((signed) => signed.forEach((entry, index) => this.#presigned.put(intentsToSign[index] as OrderIntent, entry, nowMs)))
      .catch((error: unknown) => {
        // A batch the stopping venue cut short is expected; anything else is worth a warning.
        if (error instanceof IdleSignerClosedError) this.#deps.logger.debug('pre-signing stopped with the venue');
        else this.#deps.logger.warn({ err: reasonOf(error) }, 'pre-signing failed');
      })
      .finally(() => {
        this.#presigning = false;
      });
  }

  async submit(order: SignedOrder): Promise<PlaceOutcome> {
    const unsigned = this.#unsigned.get(order.orderId);
    if (unsigned !== undefined) {
      this.#unsigned.delete(order.orderId);
      return { kind: 'rejected', orderId: order.orderId, ...unsigned };
    }
    const entry = this.#signed.get(order.orderId);
    if (entry === undefined) return { kind: 'rejected', orderId: order.orderId, reason: 'EXCHANGE_BAD_REQUEST: order was not signed by this venue' };
    this.#signed.delete(order.orderId);
    const problem = intentProblem(entry.intent, this.#deps.rules());
    if (problem !== undefined) return { kind: 'rejected', orderId: order.orderId, reason: `EXCHANGE_BAD_REQUEST: ${problem}` };
    const { tracker, rest, clock, rng, logger } = this.#deps;
    const hash = entry.signed.hash;
    tracker.register(order.orderId, entry.intent, clock.nowMs());
    const outcome = await postResolved(
      () => rest.placeOrder(entry.signed.request),
      async () => (await this.#deps.findOrder(hash)) !== undefined,
      { clock, rng },
    );
    switch (outcome.kind) {
      case 'accepted':
        this.#scheduleCancelSignature(order.orderId, hash);
        if (outcome.value !== undefined && outcome.value !== hash) {
          // Our hash is the id the engine and every later cancel use; a different one means the
          // signer and the venue disagree on the typed data, and cancels would miss.
          logger.error({ ours: order.orderId, venue: orderIdOf(outcome.value) }, 'venue returned a different order hash');
        }
        return { kind: 'accepted', orderId: order.orderId };
      case 'rejected':
        tracker.forget(order.orderId);
        this.#afterRejection(outcome.error);
        return { kind: 'rejected', orderId: order.orderId, reason: reasonOf(outcome.error) };
      case 'unknown':
        return { kind: 'unknown', orderId: order.orderId, reason: reasonOf(outcome.error) };
    }
  }

  /** The cancel signed ahead of time for this order, if any (single use). */
  takeCancelSignature(orderId: string): SignedRequest<CancelRequest> | undefined {
    const ready = this.#cancelSignatures.get(orderId);
    this.#cancelSignatures.delete(orderId);
    return ready;
  }

  /** Drops every pre-signed order (the nonce, gas price or rate they carry is stale). */
  clearPresigned(): void {
    this.#presigned.clear();
  }

  /** Pre-signed orders waiting, and cache hits and misses. */
  presignStats(): { readonly size: number; readonly hits: number; readonly misses: number; readonly stored: number } {
    return { size: this.#presigned.size, ...this.#presigned.stats };
  }

  /**
   * Signs the cancel of an order just placed, in idle time: a requote then pulls the old quote
   * without a signature in the hot path, where it would delay the new quote going out. Not
   * needed while a fast-sign key is held (such cancels carry no signature).
   */
  #scheduleCancelSignature(orderId: string, hash: bigint): void {
    if (this.#deps.isFastCancel()) return;
    this.#deps.clock.setTimeout(() => {
      if (this.#deps.isStopped() || this.#cancelSignatures.has(orderId) || !this.#deps.tracker.has(orderId)) return;
      this.#deps.signCancel(hash).then(
        (signed) => {
          if (this.#deps.isStopped() || !this.#deps.tracker.has(orderId)) return;
          this.#cancelSignatures.set(orderId, signed);
          keepBounded(this.#cancelSignatures);
        },
        // The cancel is signed again when it is needed.
        (error: unknown) => this.#deps.logger.warn({ err: reasonOf(error) }, 'cannot sign a cancel ahead of need'),
      );
    }, 0, { unref: true });
  }

  #build(intent: OrderIntent): OrderRequest {
    const deps = this.#deps;
    const fees = deps.fees();
    return buildOrderRequest(intent, {
      account: deps.account,
      base: deps.base,
      quote: deps.quote,
      toEcosystemBook: deps.ecosystemBook,
      feeRecipient: deps.feeRecipient,
      makerPbips: fees.makerPbips,
      takerPbips: fees.takerPbips,
      nonce: deps.nonce(),
      gasFee: deps.gas().gasFee(deps.tradeSteps()),
      nowMs: deps.clock.nowMs(),
      ttlS: deps.orderTtlS,
      salt: deps.salt(),
    });
  }

  #validity(): PresignValidity {
    const gas = this.#deps.gas();
    return { nonce: this.#deps.nonce(), gasPrice: gas.quote()?.gasPriceUnits ?? 0n, rateR1: gas.feeRate()[1], nowMs: this.#deps.clock.nowMs() };
  }

  /** Reacts to rejections that say our state is stale. */
  #afterRejection(error: ExchangeError): void {
    switch (error.venueErrorName) {
      case 'WRONG_NONCE':
        this.#presigned.clear();
        this.#deps.onStaleNonce();
        return;
      case 'WRONG_MAX_GAS_PRICE':
      case 'WRONG_CONVERSION_RATE':
        this.#presigned.clear();
        void this.#deps.gas().refresh();
        return;
      default:
        return;
    }
  }
}

/** Drops the oldest entries past {@link MAX_UNSENT} (maps keep insertion order). */
function keepBounded(map: Map<string, unknown>): void {
  while (map.size > MAX_UNSENT) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    map.delete(oldest);
  }
}
