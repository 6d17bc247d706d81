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
  assertValidRules,
  getToken,
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
  type TickerRules,
  type Timer,
  type TokenBalance,
  type TokenInfo,
  type Venue,
  type VenueInfo,
  type VenueListener,
} from '../../core/index.ts';
import { ExchangeError, postResolved, type PriceLevel, type RestClient, type StepsSpec, type TickerSpec, type VenueOrder } from '../client/index.ts';
import { BookSync, MarketStream, type StreamEvent, type StreamTiming } from '../stream/index.ts';
import { GasTracker, rateFromBookMid } from '../gas/index.ts';
import type { LocalBook } from '../book/index.ts';
import type { OrderRequest } from '../wire/requests.ts';
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

/** The fee-token/STRK book whose mid prices the conversion rate. */
interface FeeBook {
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
}

/** The live adapter of the Venue port. */
export class LiveVenue implements Venue {
  readonly #settings: LiveVenueSettings;
  readonly #deps: LiveVenueDeps;
  readonly #base: TokenInfo;
  readonly #quote: TokenInfo;
  readonly #feeToken: TokenInfo;
  readonly #tracker = new OrderTracker();
  readonly #presigned: PresignCache;
  /** Signed orders waiting for `submitOrder`, by order id. */
  readonly #signed = new Map<string, { readonly intent: OrderIntent; readonly signed: SignedRequest<OrderRequest> }>();
  #listener: VenueListener | undefined;
  #stream: MarketStream | undefined;
  #bookSync: BookSync | undefined;
  #gas: GasTracker | undefined;
  #rules: TickerRules | undefined;
  #steps: StepsSpec | undefined;
  #fees = { makerPbips: 0, takerPbips: 0 };
  #nonce = 0;
  #feeBook: FeeBook | undefined;
  #presigning = false;
  #stopped = false;
  #topTimer: Timer | undefined;
  #lastTopMs = 0;

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
    const spec = specs.find((s) => s.base === this.#base.symbol && s.quote === this.#quote.symbol && s.isEcosystemBook === this.#settings.ecosystemBook);
    if (spec === undefined) {
      throw new ExchangeError(
        'EXCHANGE_UNSUPPORTED_PAIR',
        `${this.#base.symbol}/${this.#quote.symbol} (${this.#settings.ecosystemBook ? 'ecosystem' : 'router'} book) is not in /info/ticker_specifications`,
        { endpoint: 'GET /info/ticker_specifications' },
      );
    }
    this.#rules = assertValidRules({
      base: this.#base.symbol,
      quote: this.#quote.symbol,
      isEcosystemBook: spec.isEcosystemBook,
      priceTick: spec.priceTick,
      qtyStep: spec.qtyStep,
      minQty: spec.minQty,
      baseDecimals: this.#base.decimals,
      quoteDecimals: this.#quote.decimals,
    });
    this.#steps = steps;
    const fees = user.fees.find((f) => f.base === this.#base.symbol && f.quote === this.#quote.symbol);
    if (fees === undefined) {
      throw new ExchangeError('EXCHANGE_UNSUPPORTED_PAIR', `/user/user_info lists no fees for ${this.#base.symbol}/${this.#quote.symbol}`, {
        endpoint: 'GET /user/user_info',
      });
    }
    this.#fees = { makerPbips: fees.makerPbips, takerPbips: fees.takerPbips };
    this.#nonce = user.nonce;
    this.#feeBook = this.#findFeeBook(specs);
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
    await this.#startStream();
    await this.#refreshTopOfBook();
    const refreshMs = this.#settings.topOfBookRefreshMs ?? 5_000;
    if (refreshMs > 0) {
      this.#topTimer = this.#deps.clock.setInterval(() => {
        if (this.#deps.clock.nowMs() - this.#lastTopMs >= refreshMs) void this.#refreshTopOfBook();
      }, refreshMs, { unref: true });
    }
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
    this.#topTimer?.cancel();
    this.#topTimer = undefined;
    this.#gas?.stop();
    this.#bookSync?.stop();
    await this.#stream?.stop();
    await this.#deps.batchSigner?.close();
    this.#presigned.clear();
    await this.#deps.rest.close();
  }

  // ── orders ───────────────────────────────────────────────────────────────────────────────

  async signOrder(intent: OrderIntent): Promise<SignedOrder> {
    const gas = this.#requireGas();
    if (gas.isStale()) await gas.ensureFresh();
    const signed = this.#presigned.take(intent, this.#validity()) ?? this.#deps.signer.signOrder(this.#build(intent));
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
    this.#presigning = true;
    const nowMs = this.#deps.clock.nowMs();
    batchSigner
      .signOrders(requests)
      .then((signed) => signed.forEach((entry, index) => this.#presigned.put(wanted[index] as OrderIntent, entry, nowMs)))
      .catch((error: unknown) => this.#deps.logger.warn({ err: describe(error) }, 'pre-signing failed'))
      .finally(() => {
        this.#presigning = false;
      });
  }

  async submitOrder(order: SignedOrder): Promise<PlaceOutcome> {
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
    const { signer, rest } = this.#deps;
    const signed = signer.signCancel({ maker: this.#settings.account, orderHash: hash, salt: this.#salt(), signScheme: SIGN_SCHEME });
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

  async cancelAll(): Promise<CancelOutcome> {
    const { signer, rest } = this.#deps;
    const signed = signer.signCancelAll({
      maker: this.#settings.account,
      salt: this.#salt(),
      base: this.#base,
      quote: this.#quote,
      toEcosystemBook: this.#settings.ecosystemBook,
      signScheme: SIGN_SCHEME,
    });
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
    const current = (await rest.userInfo()).nonce;
    const newNonce = Math.max(current, this.#nonce) + 1;
    const signed = signer.signIncreaseNonce({
      maker: this.#settings.account,
      newNonce,
      salt: this.#salt(),
      gasFee: gas.gasFee(this.#requireSteps().nonce),
      signScheme: SIGN_SCHEME,
    });
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
    const reports: OrderReport[] = [];
    const nowMs = this.#deps.clock.nowMs();
    let cursor: string | undefined;
    let offset = 0;
    for (let page = 0; page < 50; page++) {
      // Reduced mode always carries `hash` (REFERENCE §1.3); full mode may not.
      const result = await this.#deps.rest.orders({
        active: true,
        mode: 'reduced',
        limit: 20,
        offset,
        toEcosystemBook: this.#settings.ecosystemBook,
        ...(cursor === undefined ? {} : { cursor }),
      });
      for (const order of result.orders) {
        if (!this.#isOurBook(order) || isTerminalStatus(order.status)) continue;
        if (order.hash === undefined) {
          this.#deps.logger.error({ price: String(order.price) }, 'venue listed an open order without its hash; it cannot be tracked');
          continue;
        }
        reports.push(this.#tracker.onVenueOrder(orderIdOf(order.hash), order, nowMs));
      }
      if (result.orders.length + result.skipped < 20) break;
      if (result.cursor !== undefined) cursor = result.cursor;
      else offset += 20;
    }
    this.#tracker.prune(nowMs, REPORT_RETENTION_MS);
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
    return this.#bookSync?.book;
  }

  /** Pre-signed orders waiting, and cache hits and misses, for metrics. */
  presignStats(): { readonly size: number; readonly hits: number; readonly misses: number; readonly stored: number } {
    return { size: this.#presigned.size, ...this.#presigned.stats };
  }

  /** Stream counters (reconnects, malformed frames …) for metrics. */
  streamStats(): MarketStream['stats'] | undefined {
    return this.#stream?.stats;
  }

  // ── stream ───────────────────────────────────────────────────────────────────────────────

  async #startStream(): Promise<void> {
    const { rest, clock, rng, logger } = this.#deps;
    const pair = this.#settings.pair;
    const ecosystem = this.#settings.ecosystemBook;
    if (this.#settings.keepBook !== false) {
      this.#bookSync = new BookSync({ fetchSnapshot: () => rest.snapshot(pair, ecosystem), clock, rng, logger: logger.child({ book: `${pair.base}/${pair.quote}` }) });
    }
    this.#stream = new MarketStream({
      url: this.#settings.wsUrl,
      signerKey: this.#deps.signer.starkKey,
      chain: this.#settings.chain,
      keys: rest,
      clock,
      rng,
      logger,
      defaultPair: pair,
      handlers: {
        onEvent: (event) => this.#onEvent(event),
        onStatus: (isUp) => this.#emit((l) => l.onFeedStatus(isUp)),
        onReconnected: () => {
          this.#bookSync?.resync('reconnected');
          void this.#refreshTopOfBook();
          // Fills sent while we were away are not replayed (MM-NOTES §4): heal from REST.
          this.#emit((l) => l.onResync('reconnected'));
        },
      },
      ...(this.#settings.streamTiming === undefined ? {} : { timing: this.#settings.streamTiming }),
    });
    await this.#stream.start();
    await this.#stream.subscribe({ kind: 'fills', account: this.#settings.account });
    await this.#stream.subscribe({ kind: 'bbo', pair, ecosystem });
    await this.#stream.subscribe({ kind: 'trade', pair, ecosystem });
    if (this.#bookSync !== undefined) {
      await this.#stream.subscribe({ kind: 'snap', pair, ecosystem });
      this.#bookSync.resync('subscribed');
    }
    if (this.#feeBook !== undefined && !this.#isOurs({ pair: this.#feeBook.pair, ecosystem: this.#feeBook.ecosystem })) {
      await this.#stream.subscribe({ kind: 'bbo', pair: this.#feeBook.pair, ecosystem: this.#feeBook.ecosystem });
    }
  }

  #onEvent(event: StreamEvent): void {
    switch (event.type) {
      case 'bbo': {
        const mid = event.bid !== undefined && event.ask !== undefined ? (event.bid.price + event.ask.price) / 2n : undefined;
        if (this.#feeBook !== undefined && mid !== undefined && samePair(event.pair, this.#feeBook.pair) && event.ecosystem === this.#feeBook.ecosystem) {
          const rate = rateFromBookMid(this.#feeToken, this.#feeBook, mid);
          if (rate !== undefined) this.#gas?.onFeeBookRate(rate);
        }
        if (!this.#isOurs(event)) return;
        this.#emitTop(event.bid, event.ask, event.receivedMs);
        return;
      }
      case 'trade':
        if (!this.#isOurs(event)) return;
        this.#emit((l) => l.onTrade({ priceUnits: event.price, qtyUnits: event.baseQty, aggressor: event.isSellSide ? 'sell' : 'buy', timeMs: event.receivedMs }));
        return;
      case 'snap':
        if (this.#isOurs(event)) this.#bookSync?.onDelta(event.delta);
        return;
      case 'execution': {
        const report = event.report;
        if (!samePair(report.pair, this.#settings.pair)) return;
        const merged = this.#tracker.onExecution(report, this.#deps.clock.nowMs());
        if (merged !== undefined) this.#emit((l) => l.onOrderReport(merged));
        if (report.status === 'FAILED_ROLLUP' || report.status === 'REIMBURSE') {
          // Settlement failed: fills counted from the stream may be undone; REST knows the truth.
          this.#emit((l) => l.onResync('missed-fills'));
        }
        return;
      }
      case 'fail':
        this.#deps.logger.warn({ report: event.report.reportType, errorCode: event.report.errorCode, request: hex(event.report.requestHash) }, 'venue failed a request after accepting it');
        return;
      case 'rollup':
        this.#deps.logger.debug({ tx: hex(event.report.txHash), order: hex(event.report.orderHash) }, 'fill settled on chain');
        return;
      case 'cancel-all':
        this.#deps.logger.info({ ticker: hex(event.report.cancelTickerHash) }, 'cancel-all carried out');
        return;
    }
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  #emitTop(bid: PriceLevel | undefined, ask: PriceLevel | undefined, timeMs: number): void {
    this.#lastTopMs = this.#deps.clock.nowMs();
    this.#emit((l) => l.onTopOfBook({ bidPriceUnits: bid?.price, bidQtyUnits: bid?.qty ?? 0n, askPriceUnits: ask?.price, askQtyUnits: ask?.qty ?? 0n, timeMs }));
  }

  /** Reads `/book/bbo` and passes it on; a failure passes nothing (the dead-man switch decides). */
  async #refreshTopOfBook(): Promise<void> {
    try {
      const bbo = await this.#deps.rest.bbo(this.#settings.pair, this.#settings.ecosystemBook);
      if (!this.#stopped) this.#emitTop(bbo.bid, bbo.ask, this.#deps.clock.nowMs());
    } catch (error) {
      this.#deps.logger.warn({ err: describe(error) }, 'top of book refresh failed');
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

  #findFeeBook(specs: readonly TickerSpec[]): FeeBook | undefined {
    const fee = this.#feeToken;
    if (fee.symbol === 'STRK') return undefined;
    const strk = getToken(this.#settings.chain, 'STRK');
    const candidates = specs.filter(
      (s) => (s.base === 'STRK' && s.quote === fee.symbol) || (s.base === fee.symbol && s.quote === 'STRK'),
    );
    const spec = candidates.find((s) => s.isEcosystemBook) ?? candidates[0];
    if (spec === undefined) {
      this.#deps.logger.info({ feeToken: fee.symbol }, 'no fee-token/STRK book; conversion rate from /info/conversion_rate');
      return undefined;
    }
    const base = spec.base === 'STRK' ? strk : fee;
    const quote = spec.base === 'STRK' ? fee : strk;
    return { pair: { base: base.symbol, quote: quote.symbol }, ecosystem: spec.isEcosystemBook, base, quote };
  }

  #tradeSteps(): number {
    const steps = this.#requireSteps();
    return this.#settings.ecosystemBook ? steps.swapEcosystem : steps.swapRouter;
  }

  #isOurs(event: { pair: Pair; ecosystem: boolean }): boolean {
    return samePair(event.pair, this.#settings.pair) && event.ecosystem === this.#settings.ecosystemBook;
  }

  #isOurBook(order: VenueOrder): boolean {
    return order.base.symbol === this.#base.symbol && order.quote.symbol === this.#quote.symbol && order.isEcosystemBook === this.#settings.ecosystemBook;
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

function samePair(a: Pair, b: Pair): boolean {
  return a.base === b.base && a.quote === b.quote;
}

function reasonOf(error: unknown): string {
  if (error instanceof ExchangeError) return error.venueErrorName ?? error.venueError ?? `${error.code}: ${error.message}`;
  return describe(error);
}

function toCancelOutcome(outcome: { kind: 'accepted' } | { kind: 'rejected'; error: ExchangeError } | { kind: 'unknown'; error: unknown }): CancelOutcome {
  if (outcome.kind === 'accepted') return { kind: 'accepted' };
  return { kind: outcome.kind, reason: reasonOf(outcome.error) };
}

function hex(value: bigint | undefined): string | undefined {
  return value === undefined ? undefined : orderIdOf(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
