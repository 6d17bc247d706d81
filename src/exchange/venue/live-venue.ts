/**
 * The live `Venue` (src/core/venue.ts) over the REST client, the WS stream and the signer: the
 * one adapter the engine talks to for LayerAkira and the embedded exchange alike.
 *
 * - start: login, ticker rules, steps, our fees and nonce, gas; then the stream: our fills,
 *   `bbo` and `trade` of the pair, `snap` into a local book, and the fee-token/STRK `bbo` when gas
 *   is paid in another token (its mid prices the conversion rate, SPEC §5).
 * - orders: order-sender (built from intents, signed or pre-signed, registered before sending,
 *   POSTed once; an unknown outcome is settled by querying the hash, SPEC §2).
 * - reports: execution reports merged with cumulative amounts (duplicates and reordering
 *   dropped); after every reconnect, and whenever a private frame could not be read, the engine
 *   is told it may have missed fills. Oddities read past are counted (`wireAnomalies()`).
 * - cancels and queued actions (cancel-all, increase-nonce, withdraw) live in account-actions:
 *   fast-sign cancels, and confirmation of the effect after a 200; `fail` reports reach the
 *   engine as alerts.
 */
import {
  MmError,
  getToken,
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
  type TokenBalance,
  type TokenInfo,
  type Venue,
  type VenueAlert,
  type VenueInfo,
  type VenueListener,
} from '../../core/index.ts';
import type { RateLimitCounter, RestClient, StepsSpec, VenueOrder } from '../client/index.ts';
import type { ExecutionReport, MarketStream, StreamHandlers, StreamTiming } from '../stream/index.ts';
import { WireAnomalyCounter, type WireAnomalyKind } from '../wire/anomalies.ts';
import { verifyCoreContract } from '../chain/index.ts';
import { addressToHex } from '../wire/fields.ts';
import { AccountActions, DEFAULT_CONFIRM, type ConfirmSettings, type WithdrawOutcome } from './account-actions.ts';
import { FastSignSession, type FastSignSigner } from './fast-sign-session.ts';
import { PendingReports, failReason, type ActionReport } from './queued-actions.ts';
import { GasTracker } from '../gas/index.ts';
import { MarketFeed, findFeeBook, type FeedStream } from './market-feed.ts';
import { listOpenOrders } from './open-orders.ts';
import { resolvePairSetup } from './pair-setup.ts';
import type { LocalBook } from '../book/index.ts';
import { OrderTracker, hashOfOrderId, orderIdOf } from './order-tracker.ts';
import type { BatchOrderSigner, VenueSigner } from './signer-port.ts';
import { createMessageHasher } from '../signer/index.ts';
import { OrderSender } from './order-sender.ts';

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
  /** Bounds of the cancel-all / nonce / withdraw confirmations. Default {@link DEFAULT_CONFIRM}. */
  readonly confirm?: ConfirmSettings;
  /**
   * STARKNET_RPC_URL: when set, `start()` first reads the core contract and refuses to start when
   * its fee recipient, the signer bound to the account or the chain id disagree with ours.
   */
  readonly starknetRpcUrl?: string;
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
  /** Signs fast-sign challenges: given, FAST_CANCEL is on (a key at start, cancels without signatures). */
  readonly fastSignSigner?: FastSignSigner;
  /** Counts oddities read past; default one of its own (see `wireAnomalies()`). */
  readonly anomalies?: WireAnomalyCounter;
  /** Counts the venue's 429 answers to the REST client (`rateLimited()`); the one the client reports to. Default: none (0). */
  readonly rateLimits?: RateLimitCounter;
  /**
   * The pair shares its account's connection (`AccountSession`): the WS channel its feed uses,
   * and `stop()` leaves the REST pool, the batch signer and the socket to the session (they serve
   * the other pairs too). A `fail` report that names none of this pair's orders is another
   * pair's: it only asks for a heal here, with no alert.
   */
  readonly shared?: { readonly stream: (handlers: StreamHandlers) => FeedStream };
}

const REPORT_RETENTION_MS = 15 * 60_000;

/** The live adapter of the Venue port. */
export class LiveVenue implements Venue {
  readonly #settings: LiveVenueSettings;
  readonly #deps: LiveVenueDeps;
  readonly #base: TokenInfo;
  readonly #quote: TokenInfo;
  readonly #feeToken: TokenInfo;
  readonly #tracker = new OrderTracker();
  #listener: VenueListener | undefined;
  #feed: MarketFeed | undefined;
  #gas: GasTracker | undefined;
  #rules: TickerRules | undefined;
  #steps: StepsSpec | undefined;
  #fees = { makerPbips: 0, takerPbips: 0 };
  #nonce = 0;
  #stopped = false;
  readonly #anomalies: WireAnomalyCounter;
  readonly #reports = new PendingReports();
  readonly #fastSign: FastSignSession | undefined;
  readonly #actions: AccountActions;
  readonly #orders: OrderSender;

  constructor(settings: LiveVenueSettings, deps: LiveVenueDeps) {
    this.#settings = settings;
    this.#deps = deps;
    this.#base = getToken(settings.chain, settings.pair.base);
    this.#quote = getToken(settings.chain, settings.pair.quote);
    this.#feeToken = getToken(settings.chain, settings.feeToken);
    this.#anomalies = deps.anomalies ?? new WireAnomalyCounter(deps.logger);
    // Cancel-all hashes are computed before sending, to catch the venue's report on them.
    const hasher = createMessageHasher(settings.chain);
    this.#fastSign =
      deps.fastSignSigner === undefined ? undefined : new FastSignSession({ rest: deps.rest, signer: deps.fastSignSigner, clock: deps.clock, logger: deps.logger });
    this.#actions = new AccountActions({
      account: settings.account,
      pair: settings.pair,
      base: this.#base,
      quote: this.#quote,
      ecosystemBook: settings.ecosystemBook,
      rest: deps.rest,
      signer: deps.signer,
      clock: deps.clock,
      rng: deps.rng,
      logger: deps.logger,
      tracker: this.#tracker,
      reports: this.#reports,
      confirm: settings.confirm ?? DEFAULT_CONFIRM,
      fastSign: this.#fastSign,
      hashCancelAll: (request) => hasher.cancelAll(request),
      gas: () => this.#requireGas(),
      steps: () => this.#requireSteps(),
      nonce: () => this.#nonce,
      onNonceRaised: (nonce) => this.#raiseNonce(nonce),
      alert: (alert) => this.#emit((l) => l.onVenueAlert?.(alert)),
      salt: () => this.#salt(),
      findOrder: (hash) => this.#findOrder(hash),
      takeCancelSignature: (orderId) => this.#orders.takeCancelSignature(orderId),
    });
    this.#orders = new OrderSender({
      account: settings.account,
      base: this.#base,
      quote: this.#quote,
      ecosystemBook: settings.ecosystemBook,
      feeRecipient: BigInt(settings.chain.feeRecipient),
      orderTtlS: settings.orderTtlS,
      presign: settings.presign ?? { maxEntries: 256, maxAgeMs: 20_000 },
      rest: deps.rest,
      signer: deps.signer,
      batchSigner: deps.batchSigner,
      clock: deps.clock,
      rng: deps.rng,
      logger: deps.logger,
      tracker: this.#tracker,
      gas: () => this.#requireGas(),
      rules: () => this.#requireRules(),
      tradeSteps: () => this.#tradeSteps(),
      fees: () => this.#fees,
      nonce: () => this.#nonce,
      salt: () => this.#salt(),
      findOrder: (hash) => this.#findOrder(hash),
      signCancel: (hash) => this.#actions.signCancel(hash),
      isFastCancel: () => this.#fastSign?.key() !== undefined,
      isStopped: () => this.#stopped,
      onStaleNonce: () => void this.fetchAccount().catch(() => undefined),
    });
  }

  /** Orders signed from now on carry `nonce`; the old pre-signed ones are dead. */
  #raiseNonce(nonce: number): void {
    if (nonce <= this.#nonce) return;
    this.#nonce = nonce;
    this.#orders.clearPresigned();
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
    const rpcUrl = this.#settings.starknetRpcUrl;
    if (rpcUrl !== undefined) {
      const view = await verifyCoreContract(rpcUrl, this.#settings.chain, this.#settings.account, this.#deps.signer.starkKey);
      logger.info({ feeRecipient: addressToHex(view.feeRecipient), nonce: Number(view.nonce) }, 'core contract agrees with our constants');
    }
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
      anomalies: (kind, field, detail) => this.#onStreamAnomaly(kind, field, detail),
      rest,
      clock: this.#deps.clock,
      rng: this.#deps.rng,
      logger,
      ...(this.#deps.shared === undefined ? {} : { stream: this.#deps.shared.stream }),
      ownRestingQty: (side, priceUnits) => this.#tracker.restingQty(side, priceUnits, this.#deps.clock.nowMs()),
      handlers: {
        onTopOfBook: (top) => this.#emit((l) => l.onTopOfBook(top)),
        onTrade: (trade) => this.#emit((l) => l.onTrade(trade)),
        onExecution: (report) => this.#onExecution(report),
        onFeeRate: (rate) => this.#gas?.onFeeBookRate(rate),
        onFeedStatus: (isUp) => this.#emit((l) => l.onFeedStatus(isUp)),
        // Fills sent while we were away are not replayed (MM-NOTES §4): heal from REST.
        onReconnected: () => this.#emit((l) => l.onResync('reconnected')),
        onPrivateReport: (report) => this.#onPrivateReport(report),
        onUnreadableFill: () => this.#emit((l) => l.onResync('missed-fills')),
      },
    });
    await this.#feed.start();
    await this.#fastSign?.start();
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
    this.#fastSign?.stop();
    this.#gas?.stop();
    await this.#feed?.stop();
    this.#orders.clearPresigned();
    if (this.#deps.shared !== undefined) return;
    await this.#deps.batchSigner?.close();
    await this.#deps.rest.close();
  }

  /** `BASE/QUOTE` and book of this venue. */
  get pair(): Pair {
    return this.#settings.pair;
  }

  /** True when the order (by hash) is one this venue sent, adopted or was told of. */
  tracksOrder(orderHash: bigint): boolean {
    return this.#tracker.has(orderIdOf(orderHash));
  }

  // ── orders ───────────────────────────────────────────────────────────────────────────────

  signOrder(intent: OrderIntent): Promise<SignedOrder> {
    return this.#orders.sign(intent);
  }

  prepareOrders(intents: readonly OrderIntent[]): void {
    if (!this.#stopped) this.#orders.prepare(intents);
  }

  submitOrder(order: SignedOrder): Promise<PlaceOutcome> {
    return this.#orders.submit(order);
  }

  async cancelOrder(orderId: string): Promise<CancelOutcome> {
    const hash = hashOfOrderId(orderId);
    if (hash === undefined) return { kind: 'rejected', reason: `EXCHANGE_BAD_REQUEST: ${orderId} is not an order hash` };
    return this.#actions.cancelOrder(orderId, hash);
  }

  /** Cancels every order of ours on this pair; `accepted` once the venue lists none of them. */
  cancelAll(): Promise<CancelOutcome> {
    return this.#actions.cancelAll();
  }

  /** Raises our nonce on chain; `accepted` once the venue's `user_info` shows it. */
  increaseNonce(): Promise<CancelOutcome> {
    return this.#actions.increaseNonce();
  }

  /**
   * Withdraws `amount` base units of `symbol` to `receiver` (default the trading account), gas
   * paid in FEE_TOKEN; `accepted` once paid out. Not part of the engine's port.
   */
  withdraw(symbol: string, amount: bigint, receiver?: bigint): Promise<WithdrawOutcome> {
    return this.#actions.withdraw(getToken(this.#settings.chain, symbol), amount, receiver);
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
    this.#raiseNonce(user.nonce);
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
    return this.#orders.presignStats();
  }

  /** Oddities in what the venue sent that were read past, by kind (`akira_mm_wire_anomalies_total`). */
  wireAnomalies(): ReadonlyMap<WireAnomalyKind, number> {
    return this.#anomalies.counts();
  }

  /**
   * 429 answers the venue gave the REST client so far (shared by every pair of one account
   * session: the venue limits per account). The notifier's 429 storm reads it.
   */
  rateLimited(): number {
    return this.#deps.rateLimits?.total() ?? 0;
  }

  /** Cancels sent with the fast-sign key and signed ones. */
  cancelStats(): AccountActions['stats'] {
    return this.#actions.stats;
  }

  /** Fast-sign keys issued, renewal failures and refusals (undefined when FAST_CANCEL is off). */
  fastSignStats(): FastSignSession['stats'] | undefined {
    return this.#fastSign?.stats;
  }

  /** Stream counters (reconnects, malformed frames …) for metrics. */
  streamStats(): MarketStream['stats'] | undefined {
    return this.#feed?.stats;
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────

  #onStreamAnomaly(kind: WireAnomalyKind, field: string, detail: string): void {
    this.#anomalies.sink(kind, field, detail);
    // A report whose status we cannot read still carried its fills; REST says where the order is.
    if (kind === 'unknown_status') this.#emit((l) => l.onResync('missed-fills'));
  }

  /**
   * A fail / settled / cancel-all report. One that an action is waiting for settles it; a `fail`
   * nobody waits for (a placement or a single cancel the venue dropped after its 200) becomes an
   * alert and a heal, since our view of that order is now wrong.
   */
  #onPrivateReport(report: ActionReport): void {
    if (this.#reports.deliver(report) || report.type !== 'fail') return;
    const hashes = [report.report.entityHash, report.report.requestHash].filter((hash): hash is bigint => hash !== undefined);
    const orderHash = hashes.find((hash) => this.#tracker.has(orderIdOf(hash)));
    if (orderHash === undefined && this.#deps.shared !== undefined) {
      // Another pair's request, most likely (that pair alerts); a heal here costs little.
      this.#emit((l) => l.onResync('missed-fills'));
      return;
    }
    const alert: VenueAlert = {
      kind: 'request-failed',
      action: orderHash === undefined ? 'unknown' : actionOfReport(report.report.reportType),
      requestHash: addressToHex(hashes[0] ?? 0n),
      orderId: orderHash === undefined ? undefined : orderIdOf(orderHash),
      reason: failReason(report.report),
      timeMs: this.#deps.clock.nowMs(),
    };
    this.#emit((l) => l.onVenueAlert?.(alert));
    this.#emit((l) => l.onResync('missed-fills'));
  }

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


/** The action a fail report's `report_type` names, as far as it says (types are not published). */
function actionOfReport(reportType: string): VenueAlert['action'] {
  const type = reportType.toUpperCase();
  if (type.includes('CANCEL_ALL')) return 'cancel-all';
  if (type.includes('CANCEL')) return 'cancel';
  if (type.includes('NONCE')) return 'increase-nonce';
  if (type.includes('WITHDRAW')) return 'withdraw';
  return 'place';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
