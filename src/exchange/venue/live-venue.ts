/**
 * The live `Venue` (src/core/venue.ts) over the REST client, the WS stream and the signer: the
 * one adapter the engine talks to for LayerAkira and the embedded exchange alike.
 *
 * - start: login, ticker rules, steps, our fees and nonce, gas; then the stream: our fills,
 *   `bbo` and `trade` of the pair, `snap` into a local book, and the fee-token/STRK `bbo` when gas
 *   is paid in another token (its mid prices the conversion rate, SPEC §5).
 * - orders: built from intents (order-builder), signed at once or taken from the pre-signed
 *   cache, registered before sending so a fill that beats the HTTP answer is known, POSTed once;
 *   an unknown outcome is settled by querying the hash (SPEC §2).
 * - reports: execution reports merged with cumulative amounts (duplicates and reordering
 *   dropped); after every reconnect the engine is told it may have missed fills.
 */
import {
  MmError,
  getToken,
  hasErrorCode,
  isTerminalStatus,
  type AccountState,
  type CancelOutcome,
  type ChainInfo,
  type Clock,
  type GasQuote,
  type Logger,
  type OrderIntent,
  type OrderReport,
  type Pair,
  type PlaceOutcome,
  type Rng,
  type SignedOrder,
  type SignerFailure,
  type TickerRules,
  type TokenBalance,
  type TokenInfo,
  type Venue,
  type VenueInfo,
  type VenueListener,
} from '../../core/index.ts';
import { ExchangeError, postResolved, type RestClient, type StepsSpec, type VenueOrder } from '../client/index.ts';
import type { ExecutionReport, MarketStream, StreamTiming } from '../stream/index.ts';
import { GasTracker } from '../gas/index.ts';
import { MarketFeed, findFeeBook } from './market-feed.ts';
import { listOpenOrders } from './open-orders.ts';
import { resolvePairSetup } from './pair-setup.ts';
import type { LocalBook } from '../book/index.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest } from '../wire/requests.ts';
import { buildOrderRequest, intentProblem, SIGN_SCHEME } from './order-builder.ts';
import { OrderTracker, hashOfOrderId, orderIdOf } from './order-tracker.ts';
import { PresignCache, type PresignValidity, type SignedRequest } from './presign-cache.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';

/** Settings of a live venue (from the pair's env file). */
export interface LiveVenueSettings {
  readonly chain: ChainInfo;
  /** TRADING_ACCOUNT. */
  readonly account: bigint;
  /** BASE / QUOTE. */
  readonly pair: Pair;
  /** ECOSYSTEM_BOOK. */
  readonly ecosystemBook: boolean;
  /** FEE_TOKEN, default STRK. */
  readonly feeToken: string;
  /** GAS_PRICE_MULTIPLIER, default 1.25. */
  readonly gasPriceMultiplier: number;
  /** GAS_REFRESH_S × 1000. */
  readonly gasRefreshMs: number;
  /** CONVERSION_MARGIN_BPS. */
  readonly conversionMarginBps: number;
  /** ORDER_TTL_S. */
  readonly orderTtlS: number;
  /** EXCHANGE_WS_URL. */
  readonly wsUrl: string;
  /** Keep a local book from `snap` deltas. Default true. */
  readonly keepBook?: boolean;
  /** Pre-signed orders kept, and how long one stays usable (ms). Default 256 and 20 000. */
  readonly presign?: { readonly maxEntries: number; readonly maxAgeMs: number };
  readonly streamTiming?: StreamTiming;
  /**
   * When no `bbo` event came for this long, read `/book/bbo` and pass it on, ms. The venue sends
   * `bbo` only on change, so a quiet book would otherwise look like a dead feed to the engine's
   * dead-man switch; a REST read proves the market state instead of assuming it. Also seeds the
   * top of book at start and after reconnects. Default 5 000; 0 disables.
   */
  readonly topOfBookRefreshMs?: number;
}

/** Collaborators of a live venue. */
export interface LiveVenueDeps {
  readonly rest: RestClient;
  readonly signer: VenueSigner;
  /** Optional worker pool for pre-signing bursts. */
  readonly batchSigner?: BatchOrderSigner;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
}

const REPORT_RETENTION_MS = 15 * 60_000;
const MAX_UNSENT_ORDERS = 1_000;

/** The live adapter of the Venue port. */
export class LiveVenue implements Venue {
  readonly #settings: LiveVenueSettings;
  readonly #deps: LiveVenueDeps;
  readonly #base: TokenInfo;
  readonly #quote: TokenInfo;
  readonly #feeToken: TokenInfo;
  readonly #tracker = new OrderTracker();
  /** Cancels signed ahead of need, by order id (single use). */
  readonly #cancelSignatures = new Map<string, SignedRequest<CancelRequest>>();
  readonly #presigned: PresignCache;
  /** Signed orders waiting for `submitOrder`, by order id. */
  readonly #signed = new Map<string, { readonly intent: OrderIntent; readonly signed: SignedRequest<OrderRequest> }>();
  /** Orders the signer refused or could not sign, by a local id: `submitOrder` rejects them. */
  readonly #unsigned = new Map<string, ReturnType<typeof signerFailure>>();
  #unsignedCount = 0;
  #listener: VenueListener | undefined;
  #feed: MarketFeed | undefined;
  #gas: GasTracker | undefined;
  #rules: TickerRules | undefined;
  #steps: StepsSpec | undefined;
  #fees = { makerPbips: 0, takerPbips: 0 };
  #nonce = 0;
  #presigning = false;
  #stopped = false;

  constructor(settings: LiveVenueSettings, deps: LiveVenueDeps) {
    this.#settings = settings;
    this.#deps = deps;
    this.#base = getToken(settings.chain, settings.pair.base);
    this.#quote = getToken(settings.chain, settings.pair.quote);
    this.#feeToken = getToken(settings.chain, settings.feeToken);
    this.#presigned = new PresignCache(settings.presign ?? { maxEntries: 256, maxAgeMs: 20_000 });
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────

  async start(listener: VenueListener): Promise<VenueInfo> {
    this.#listener = listener;
    this.#stopped = false;
    try {
      return await this.#start();
    } catch (error) {
      // Leave nothing running behind a failed start (timers, sockets, workers).
      await this.stop();
      throw error;
    }
  }

  async #start(): Promise<VenueInfo> {
    const { rest, logger } = this.#deps;
    await rest.login();
    const [specs, steps, user] = await Promise.all([rest.tickerSpecifications(), rest.stepsSpecifications(), rest.userInfo()]);
    const setup = resolvePairSetup({ specs, user, base: this.#base, quote: this.#quote, ecosystemBook: this.#settings.ecosystemBook });
    this.#rules = setup.rules;
    this.#steps = steps;
    this.#fees = { makerPbips: setup.makerPbips, takerPbips: setup.takerPbips };
    this.#nonce = user.nonce;
    const feeBook = findFeeBook(this.#settings.chain, this.#feeToken, specs);
    if (feeBook === undefined && this.#feeToken.symbol !== 'STRK') logger.info({ feeToken: this.#feeToken.symbol }, 'no fee-token/STRK book; conversion rate from /info/conversion_rate');
    this.#gas = new GasTracker({
      source: rest,
      clock: this.#deps.clock,
      logger,
      feeToken: this.#feeToken,
      quoteToken: this.#quote,
      multiplier: this.#settings.gasPriceMultiplier,
      refreshMs: this.#settings.gasRefreshMs,
      conversionMarginBps: this.#settings.conversionMarginBps,
      onQuote: (quote) => this.#emit((l) => l.onGasQuote(quote)),
    });
    await this.#gas.start();
    // Fails now, with the reason, when no conversion rate for the fee token can be had.
    this.#gas.gasFee(this.#tradeSteps());
    this.#feed = new MarketFeed({
      chain: this.#settings.chain,
      account: this.#settings.account,
      pair: this.#settings.pair,
      ecosystem: this.#settings.ecosystemBook,
      feeToken: this.#feeToken,
      feeBook,
      wsUrl: this.#settings.wsUrl,
      signerKey: this.#deps.signer.starkKey,
      keepBook: this.#settings.keepBook !== false,
      topOfBookRefreshMs: this.#settings.topOfBookRefreshMs ?? 5_000,
      ...(this.#settings.streamTiming === undefined ? {} : { streamTiming: this.#settings.streamTiming }),
      rest,
      clock: this.#deps.clock,
      rng: this.#deps.rng,
      logger,
      ownRestingQty: (side, priceUnits) => this.#tracker.restingQty(side, priceUnits),
      handlers: {
        onTopOfBook: (top) => this.#emit((l) => l.onTopOfBook(top)),
        onTrade: (trade) => this.#emit((l) => l.onTrade(trade)),
        onExecution: (report) => this.#onExecution(report),
        onFeeRate: (rate) => this.#gas?.onFeeBookRate(rate),
        onFeedStatus: (isUp) => this.#emit((l) => l.onFeedStatus(isUp)),
        // Fills sent while we were away are not replayed (MM-NOTES §4): heal from REST.
        onReconnected: () => this.#emit((l) => l.onResync('reconnected')),
      },
    });
    await this.#feed.start();
    logger.info({ pair: `${this.#base.symbol}/${this.#quote.symbol}`, nonce: this.#nonce, ...this.#fees }, 'live venue started');
    return {
      rules: this.#rules,
      makerFeePbips: this.#fees.makerPbips,
      takerFeePbips: this.#fees.takerPbips,
      // Cancels are off-chain and free on LayerAkira (REFERENCE §1.2 #17): no steps.
      steps: { trade: this.#tradeSteps(), cancel: 0, nonce: steps.nonce, withdraw: steps.withdraw },
    };
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#gas?.stop();
    await this.#feed?.stop();
    await this.#deps.batchSigner?.close();
    this.#presigned.clear();
    await this.#deps.rest.close();
  }

  // ── orders ───────────────────────────────────────────────────────────────────────────────

  async signOrder(intent: OrderIntent): Promise<SignedOrder> {
    const gas = this.#requireGas();
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
        if (this.#unsigned.size > MAX_UNSENT_ORDERS) this.#unsigned.delete(this.#unsigned.keys().next().value ?? orderId);
        return { orderId, intent };
      }
    }
    const orderId = orderIdOf(signed.hash);
    this.#signed.set(orderId, { intent, signed });
    // The engine may sign and then not send (it stopped quoting meanwhile): keep the map bounded.
    if (this.#signed.size > MAX_UNSENT_ORDERS) {
      const oldest = this.#signed.keys().next().value;
      if (oldest !== undefined) this.#signed.delete(oldest);
    }
    return { orderId, intent };
  }

  prepareOrders(intents: readonly OrderIntent[]): void {
    const batchSigner = this.#deps.batchSigner;
    // Without a worker pool, signing in advance would block the event loop as much as signing now.
    if (batchSigner === undefined || this.#presigning || this.#stopped || this.#gas?.quote() === undefined) return;
    const validity = this.#validity();
    const wanted = intents.filter((intent) => !this.#presigned.has(intent, validity) && intentProblem(intent, this.#requireRules()) === undefined);
    if (wanted.length === 0) return;
    let requests: OrderRequest[];
    try {
      requests = wanted.map((intent) => this.#build(intent));
    } catch (error) {
      this.#deps.logger.debug({ err: describe(error) }, 'cannot pre-sign now');
      return;
    }
    // Speculative orders the signing policy would refuse (a neighbour over the notional limit)
    // are not asked for: a refusal is a security event.
    const allowed = requests.map((request) => batchSigner.allows?.(request) ?? true);
    const [wantedAllowed, requestsAllowed] = [wanted.filter((_, i) => allowed[i]), requests.filter((_, i) => allowed[i])];
    if (requestsAllowed.length === 0) return;
    this.#presigning = true;
    const nowMs = this.#deps.clock.nowMs();
    batchSigner
      .signOrders(requestsAllowed)
      .then((signed) => signed.forEach((entry, index) => this.#presigned.put(wantedAllowed[index] as OrderIntent, entry, nowMs)))
      .catch((error: unknown) => this.#deps.logger.warn({ err: describe(error) }, 'pre-signing failed'))
      .finally(() => {
        this.#presigning = false;
      });
  }

  async submitOrder(order: SignedOrder): Promise<PlaceOutcome> {
    const unsigned = this.#unsigned.get(order.orderId);
    if (unsigned !== undefined) {
      this.#unsigned.delete(order.orderId);
      return { kind: 'rejected', orderId: order.orderId, ...unsigned };
    }
    const entry = this.#signed.get(order.orderId);
    if (entry === undefined) return { kind: 'rejected', orderId: order.orderId, reason: 'EXCHANGE_BAD_REQUEST: order was not signed by this venue' };
    this.#signed.delete(order.orderId);
    const problem = intentProblem(entry.intent, this.#requireRules());
    if (problem !== undefined) return { kind: 'rejected', orderId: order.orderId, reason: `EXCHANGE_BAD_REQUEST: ${problem}` };
    const hash = entry.signed.hash;
    this.#tracker.register(order.orderId, entry.intent, this.#deps.clock.nowMs());
    const outcome = await postResolved(
      () => this.#deps.rest.placeOrder(entry.signed.request),
      async () => (await this.#findOrder(hash)) !== undefined,
      { clock: this.#deps.clock, rng: this.#deps.rng },
    );
    switch (outcome.kind) {
      case 'accepted':
        this.#scheduleCancelSignature(order.orderId, hash);
        if (outcome.value !== undefined && outcome.value !== hash) {
          // Our hash is the id the engine and every later cancel use; a different one means the
          // signer and the venue disagree on the typed data, and cancels would miss.
          this.#deps.logger.error({ ours: order.orderId, venue: orderIdOf(outcome.value) }, 'venue returned a different order hash');
        }
        return { kind: 'accepted', orderId: order.orderId };
      case 'rejected':
        this.#tracker.forget(order.orderId);
        this.#afterRejection(outcome.error);
        return { kind: 'rejected', orderId: order.orderId, reason: reasonOf(outcome.error) };
      case 'unknown':
        return { kind: 'unknown', orderId: order.orderId, reason: reasonOf(outcome.error) };
    }
  }

  async cancelOrder(orderId: string): Promise<CancelOutcome> {
    const hash = hashOfOrderId(orderId);
    if (hash === undefined) return { kind: 'rejected', reason: `EXCHANGE_BAD_REQUEST: ${orderId} is not an order hash` };
    const { rest } = this.#deps;
    let signed: SignedRequest<CancelRequest>;
    try {
      signed = await this.#takeCancelSignature(orderId, hash);
    } catch (error) {
      return { kind: 'rejected', ...signerFailure(error) };
    }
    const outcome = await postResolved(
      () => rest.cancelOrder(signed.request),
      async () => {
        const found = await this.#findOrder(hash);
        return found !== undefined && (found.status === 'SCHEDULED_TO_CANCEL' || isTerminalStatus(found.status));
      },
      { clock: this.#deps.clock, rng: this.#deps.rng },
    );
    return toCancelOutcome(outcome);
  }

  /**
   * Signs the cancel of an order just placed, in idle time: a requote then pulls the old quote
   * without a signature in the hot path, where it would delay the new quote going out.
   */
  #scheduleCancelSignature(orderId: string, hash: bigint): void {
    this.#deps.clock.setTimeout(() => {
      if (this.#stopped || this.#cancelSignatures.has(orderId) || !this.#tracker.has(orderId)) return;
      this.#signCancel(hash).then(
        (signed) => {
          if (this.#stopped || !this.#tracker.has(orderId)) return;
          this.#cancelSignatures.set(orderId, signed);
          while (this.#cancelSignatures.size > MAX_UNSENT_ORDERS) {
            const oldest = this.#cancelSignatures.keys().next().value;
            if (oldest === undefined) break;
            this.#cancelSignatures.delete(oldest);
          }
        },
        // The cancel is signed again when it is needed.
        (error: unknown) => this.#deps.logger.warn({ err: describe(error) }, 'cannot sign a cancel ahead of need'),
      );
    }, 0, { unref: true });
  }

  async #takeCancelSignature(orderId: string, hash: bigint): Promise<SignedRequest<CancelRequest>> {
    const ready = this.#cancelSignatures.get(orderId);
    this.#cancelSignatures.delete(orderId);
    return ready ?? this.#signCancel(hash);
  }

  async #signCancel(hash: bigint): Promise<SignedRequest<CancelRequest>> {
    return this.#deps.signer.signCancel({ maker: this.#settings.account, orderHash: hash, salt: this.#salt(), signScheme: SIGN_SCHEME });
  }

  async cancelAll(): Promise<CancelOutcome> {
    const { signer, rest } = this.#deps;
    let signed: SignedRequest<CancelAllRequest>;
    try {
      signed = await signer.signCancelAll({
        maker: this.#settings.account,
        salt: this.#salt(),
        base: this.#base,
        quote: this.#quote,
        toEcosystemBook: this.#settings.ecosystemBook,
        signScheme: SIGN_SCHEME,
      });
    } catch (error) {
      return { kind: 'rejected', ...signerFailure(error) };
    }
    const outcome = await postResolved(
      () => rest.cancelAll(signed.request),
      async () => (await this.fetchOpenOrders()).length === 0,
      { clock: this.#deps.clock, rng: this.#deps.rng },
    );
    return toCancelOutcome(outcome);
  }

  async increaseNonce(): Promise<CancelOutcome> {
    const { signer, rest } = this.#deps;
    const gas = this.#requireGas();
    await gas.ensureFresh();
    let newNonce: number;
    try {
      // The venue's nonce, not only ours: another process may have raised it already.
      newNonce = Math.max((await rest.userInfo()).nonce, this.#nonce) + 1;
    } catch (error) {
      return { kind: 'rejected', reason: `nonce unknown, nothing sent: ${reasonOf(error)}` };
    }
    let signed: SignedRequest<IncreaseNonceRequest>;
    try {
      signed = await signer.signIncreaseNonce({
        maker: this.#settings.account,
        newNonce,
        salt: this.#salt(),
        gasFee: gas.gasFee(this.#requireSteps().nonce),
        signScheme: SIGN_SCHEME,
      });
    } catch (error) {
      return { kind: 'rejected', ...signerFailure(error) };
    }
    const outcome = await postResolved(
      () => rest.increaseNonce(signed.request),
      async () => (await rest.userInfo()).nonce >= newNonce,
      { clock: this.#deps.clock, rng: this.#deps.rng },
    );
    if (outcome.kind === 'accepted') {
      // Orders signed from now on must carry the new nonce; the old pre-signed ones are dead.
      this.#nonce = newNonce;
      this.#presigned.clear();
    }
    return toCancelOutcome(outcome);
  }

  // ── reads ────────────────────────────────────────────────────────────────────────────────

  async fetchOpenOrders(): Promise<OrderReport[]> {
    const orders = await listOpenOrders(this.#deps.rest, this.#settings.pair, this.#settings.ecosystemBook);
    const nowMs = this.#deps.clock.nowMs();
    const reports: OrderReport[] = [];
    for (const order of orders) {
      if (order.hash === undefined) {
        this.#deps.logger.error({ price: String(order.price) }, 'venue listed an open order without its hash; it cannot be tracked');
        continue;
      }
      reports.push(this.#tracker.onVenueOrder(orderIdOf(order.hash), order, nowMs));
    }
    this.#tracker.prune(nowMs, REPORT_RETENTION_MS);
    // Orders just learnt of (adopted at start, found by a heal) may sit at the top of the book.
    this.#feed?.emitTopFromBook(nowMs, true);
    return reports;
  }

  async fetchOrder(orderId: string): Promise<OrderReport | undefined> {
    const hash = hashOfOrderId(orderId);
    if (hash === undefined) return undefined;
    const order = await this.#findOrder(hash);
    return order === undefined ? undefined : this.#tracker.onVenueOrder(orderId, order, this.#deps.clock.nowMs());
  }

  async fetchAccount(): Promise<AccountState> {
    const user = await this.#deps.rest.userInfo();
    if (user.nonce > this.#nonce) {
      this.#nonce = user.nonce;
      this.#presigned.clear();
    }
    const balances = new Map<string, TokenBalance>();
    for (const [symbol, balance] of user.balances) balances.set(symbol, { total: balance.balance, locked: balance.locked });
    return { balances, nonce: user.nonce };
  }

  gasQuote(): GasQuote | undefined {
    return this.#gas?.quote();
  }

  /** The local book kept from `snap` (undefined when `keepBook` is off or before start). */
  book(): LocalBook | undefined {
    return this.#feed?.book();
  }

  /** Pre-signed orders waiting, and cache hits and misses, for metrics. */
  presignStats(): { readonly size: number; readonly hits: number; readonly misses: number; readonly stored: number } {
    return { size: this.#presigned.size, ...this.#presigned.stats };
  }

  /** Stream counters (reconnects, malformed frames …) for metrics. */
  streamStats(): MarketStream['stats'] | undefined {
    return this.#feed?.stats;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  #onExecution(report: ExecutionReport): void {
    const merged = this.#tracker.onExecution(report, this.#deps.clock.nowMs());
    if (merged !== undefined) this.#emit((l) => l.onOrderReport(merged));
    // Our resting size changed: the market's top without us may have too.
    if (merged !== undefined) this.#feed?.emitTopFromBook(report.receivedMs, true);
    if (report.status === 'FAILED_ROLLUP' || report.status === 'REIMBURSE') {
      // Settlement failed: fills counted from the stream may be undone; REST knows the truth.
      this.#emit((l) => l.onResync('missed-fills'));
    }
  }

  #build(intent: OrderIntent): OrderRequest {
    return buildOrderRequest(intent, {
      account: this.#settings.account,
      base: this.#base,
      quote: this.#quote,
      toEcosystemBook: this.#settings.ecosystemBook,
      feeRecipient: BigInt(this.#settings.chain.feeRecipient),
      makerPbips: this.#fees.makerPbips,
      takerPbips: this.#fees.takerPbips,
      nonce: this.#nonce,
      gasFee: this.#requireGas().gasFee(this.#tradeSteps()),
      nowMs: this.#deps.clock.nowMs(),
      ttlS: this.#settings.orderTtlS,
      salt: this.#salt(),
    });
  }

  #validity(): PresignValidity {
    const gas = this.#requireGas();
    return { nonce: this.#nonce, gasPrice: gas.quote()?.gasPriceUnits ?? 0n, rateR1: gas.feeRate()[1], nowMs: this.#deps.clock.nowMs() };
  }

  /** Reacts to rejections that say our state is stale. */
  #afterRejection(error: ExchangeError): void {
    switch (error.venueErrorName) {
      case 'WRONG_NONCE':
        this.#presigned.clear();
        void this.fetchAccount().catch(() => undefined);
        return;
      case 'WRONG_MAX_GAS_PRICE':
      case 'WRONG_CONVERSION_RATE':
        this.#presigned.clear();
        void this.#gas?.refresh();
        return;
      default:
        return;
    }
  }

  async #findOrder(hash: bigint): Promise<VenueOrder | undefined> {
    const rest = this.#deps.rest;
    return (await rest.order(hash, { active: true })) ?? (await rest.order(hash, { active: false }));
  }

  #tradeSteps(): number {
    const steps = this.#requireSteps();
    return this.#settings.ecosystemBook ? steps.swapEcosystem : steps.swapRouter;
  }

  #salt(): bigint {
    // 62 random bits, never 0: unique per request so identical orders get distinct hashes.
    return this.#deps.rng.bigint(62) + 1n;
  }

  #emit(deliver: (listener: VenueListener) => void): void {
    const listener = this.#listener;
    if (listener === undefined || this.#stopped) return;
    try {
      deliver(listener);
    } catch (error) {
      this.#deps.logger.error({ err: describe(error) }, 'venue listener threw');
    }
  }

  #requireGas(): GasTracker {
    if (this.#gas === undefined) throw new MmError('CORE_INVARIANT', 'live venue used before start()');
    return this.#gas;
  }

  #requireRules(): TickerRules {
    if (this.#rules === undefined) throw new MmError('CORE_INVARIANT', 'live venue used before start()');
    return this.#rules;
  }

  #requireSteps(): StepsSpec {
    if (this.#steps === undefined) throw new MmError('CORE_INVARIANT', 'live venue used before start()');
    return this.#steps;
  }
}


function reasonOf(error: unknown): string {
  if (error instanceof ExchangeError) return error.venueErrorName ?? error.venueError ?? `${error.code}: ${error.message}`;
  return describe(error);
}

function toCancelOutcome(outcome: { kind: 'accepted' } | { kind: 'rejected'; error: ExchangeError } | { kind: 'unknown'; error: unknown }): CancelOutcome {
  if (outcome.kind === 'accepted') return { kind: 'accepted' };
  return { kind: outcome.kind, reason: reasonOf(outcome.error) };
}


function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The rejection of a request the signer refused (`SIGNER_REFUSED`) or could not sign
 * (`SIGNER_UNAVAILABLE`); anything else is a bug and is thrown again.
 */
function signerFailure(error: unknown): { readonly reason: string; readonly signerError: SignerFailure } {
  if (hasErrorCode(error, 'SIGNER_REFUSED') || hasErrorCode(error, 'SIGNER_UNAVAILABLE')) return { reason: `${error.code}: ${error.message}`, signerError: error.code };
  throw error;
}
