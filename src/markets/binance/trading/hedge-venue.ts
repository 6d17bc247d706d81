/**
 * Binance spot as a {@link HedgeVenue}: signed REST for orders, queries and balances
 * (`rest.ts`, behind the rate limiter), the WebSocket API's user data stream for own fills
 * (`user-stream.ts`), the symbol's filters applied before anything is sent (`rules.ts`). Every
 * order carries its `newClientOrderId`; an order whose answer was lost is never sent again by
 * this class: its caller queries it by that id. Amounts are 8-decimal integers.
 *
 * Why not Binance's official connector `@binance/spot` (v32.0.4, `@binance/common` 2.4.9): its
 * `sendRequest` stamps every signed request with `Date.now()` (`getTimestamp`), so neither a
 * measured server-time offset nor an injected clock can reach the signature; and on a 429/418 it
 * throws `TooManyRequestsError`/`RateLimitBanError` without the `Retry-After` header, which the
 * limits here must honour. It also brings axios and a console logger beside the undici and pino
 * the project already uses. What it gets right (never retrying a POST, exposing the weight
 * headers) is done here too.
 */
import {
  MmError,
  formatUnits,
  type Clock,
  type HedgeBalances,
  type HedgeOrderRequest,
  type HedgeOrderState,
  type HedgePlaceOutcome,
  type HedgeQueryOutcome,
  type HedgeRejectReason,
  type HedgeRules,
  type HedgeVenue,
  type HedgeVenueListener,
  type HedgeVenueStatus,
  type Logger,
  type Rng,
  type Timer,
} from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';
import { parseAccount, parseOrder, type OrderSnapshot, type OrderTrade, type UserEvent } from './messages.ts';
import { RateLimiter } from './rate-limiter.ts';
import { BinanceTradingRest } from './rest.ts';
import { BINANCE_DECIMALS, lotRules, parseHedgeRules, parseRateLimits } from './rules.ts';
import { BinanceSigner, type BinanceCredentials } from './signer.ts';
import { BinanceUserStream } from './user-stream.ts';

/** Binance's trading hosts. */
export const BINANCE_TRADING_REST_URL = 'https://api.binance.com';
export const BINANCE_WS_API_URL = 'wss://ws-api.binance.com:443/ws-api/v3';

/** Options of {@link BinanceHedgeVenue}. */
export interface BinanceHedgeVenueOptions {
  readonly symbol: string;
  readonly restUrl: string;
  /** WebSocket API endpoint (user data stream). */
  readonly wsApiUrl: string;
  readonly credentials: BinanceCredentials;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** Default 5 000 ms. */
  readonly recvWindowMs?: number;
  /** REST timeouts, ms. Default 10 000. */
  readonly timeoutMs?: number;
  /** Re-measure the clock offset this often, ms. Default 10 minutes. */
  readonly timeSyncEveryMs?: number;
}

/** Our view of one hedge order: the highest cumulative amounts seen, and its trades by id. */
interface TrackedOrder {
  state: HedgeOrderState;
  readonly tradeIds: Set<number>;
  /** Commission, base and quote of the trades seen one by one. */
  commissionUnits: bigint;
  tradeQtyUnits: bigint;
  tradeQuoteUnits: bigint;
}

/** Binance spot, hedging. */
export class BinanceHedgeVenue implements HedgeVenue {
  readonly market: string;
  readonly #options: BinanceHedgeVenueOptions;
  readonly #symbol: string;
  readonly #limiter: RateLimiter;
  readonly #rest: BinanceTradingRest;
  readonly #stream: BinanceUserStream;
  readonly #orders = new Map<string, TrackedOrder>();
  #listener: HedgeVenueListener | undefined;
  #rules: HedgeRules | undefined;
  #takerCommission = 0.001;
  #syncTimer: Timer | undefined;

  /** @throws BinanceError `BINANCE_AUTH` for unusable credentials, `BINANCE_HTTP` for a bad URL. */
  constructor(options: BinanceHedgeVenueOptions) {
    this.#options = options;
    this.#symbol = options.symbol.toUpperCase();
    this.market = `binance:${this.#symbol}`;
    const signer = new BinanceSigner(options.credentials);
    const recvWindowMs = options.recvWindowMs ?? 5_000;
    this.#limiter = new RateLimiter(() => this.#rest.venueNowMs());
    this.#rest = new BinanceTradingRest({ baseUrl: options.restUrl, clock: options.clock, logger: options.logger, signer, limiter: this.#limiter, recvWindowMs, timeoutMs: options.timeoutMs ?? 10_000 });
    this.#stream = new BinanceUserStream({
      url: options.wsApiUrl,
      clock: options.clock,
      rng: options.rng,
      logger: options.logger,
      signer,
      venueNowMs: () => this.#rest.venueNowMs(),
      recvWindowMs,
      onEvent: (event) => this.#onUserEvent(event),
      onStatus: (isUp, reason) => this.#listener?.onStreamStatus(isUp, reason),
    });
  }

  /** The rules read at start. @throws Error before `start()`. */
  get rules(): HedgeRules {
    if (this.#rules === undefined) throw new Error('BinanceHedgeVenue.rules before start()');
    return this.#rules;
  }

  async start(listener: HedgeVenueListener): Promise<HedgeRules> {
    this.#listener = listener;
    await this.#rest.syncTime();
    const info = await this.#rest.request('GET', '/api/v3/exchangeInfo', [['symbol', this.#symbol]], { weight: 20, orders: 0 }, false);
    this.#limiter.setRules(parseRateLimits(info.body));
    const rules = parseHedgeRules(info.body, this.#symbol);
    if (rules.status !== 'TRADING') throw new BinanceError('BINANCE_REJECTED', `${this.#symbol} is not trading on Binance (status ${rules.status})`);
    const account = parseAccount((await this.#rest.request('GET', '/api/v3/account', [['omitZeroBalances', 'false']], { weight: 20, orders: 0 }, true)).body);
    if (!account.canTrade) throw new BinanceError('BINANCE_AUTH', 'the Binance account may not trade (canTrade=false)');
    if (account.takerCommission !== undefined) this.#takerCommission = account.takerCommission;
    this.#rules = { ...rules, takerFeeE8: BigInt(Math.round(this.#takerCommission * 1e8)) };
    await this.#stream.start();
    const everyMs = this.#options.timeSyncEveryMs ?? 600_000;
    this.#syncTimer = this.#options.clock.setInterval(() => void this.#rest.syncTime().catch(() => undefined), everyMs, { unref: true });
    this.#options.logger.info({ market: this.market, offsetMs: this.#rest.offsetMs, stream: this.#stream.isUp() }, 'hedge venue ready');
    return this.#rules;
  }

  async stop(): Promise<void> {
    this.#syncTimer?.cancel();
    this.#syncTimer = undefined;
    this.#stream.stop();
    await this.#rest.close();
  }

  async placeOrder(request: HedgeOrderRequest): Promise<HedgePlaceOutcome> {
    const rules = this.rules;
    checkOrder(request, rules);
    const params: [string, string][] = [
      ['symbol', this.#symbol],
      ['side', request.side === 'buy' ? 'BUY' : 'SELL'],
      ['type', request.type === 'market' ? 'MARKET' : 'LIMIT'],
    ];
    if (request.type === 'ioc') params.push(['timeInForce', 'IOC'], ['price', formatUnits(request.limitPriceUnits ?? 0n, BINANCE_DECIMALS)]);
    params.push(['quantity', formatUnits(request.qtyUnits, BINANCE_DECIMALS)], ['newClientOrderId', request.clientOrderId], ['newOrderRespType', 'FULL']);
    try {
      const answer = await this.#rest.request('POST', '/api/v3/order', params, { weight: 1, orders: 1 }, true);
      return { kind: 'accepted', order: this.#absorb(parseOrder(answer.body, 'POST /api/v3/order')) };
    } catch (error) {
      if (!(error instanceof BinanceError)) throw error;
      if (error.code === 'BINANCE_UNKNOWN_OUTCOME' || error.code === 'BINANCE_NETWORK' || error.code === 'BINANCE_MALFORMED' || error.code === 'BINANCE_HTTP') {
        return { kind: 'unknown', message: error.message };
      }
      return { kind: 'rejected', reason: rejectReason(error), message: error.message, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) };
    }
  }

  async queryOrder(clientOrderId: string): Promise<HedgeQueryOutcome> {
    try {
      const answer = await this.#rest.request('GET', '/api/v3/order', [['symbol', this.#symbol], ['origClientOrderId', clientOrderId]], { weight: 4, orders: 0 }, true);
      return { kind: 'found', order: this.#absorb(parseOrder(answer.body, 'GET /api/v3/order')) };
    } catch (error) {
      if (error instanceof BinanceError && error.code === 'BINANCE_REJECTED' && error.venueCode === -2013) return { kind: 'not-found' };
      throw error;
    }
  }

  async balances(): Promise<HedgeBalances> {
    const rules = this.rules;
    const answer = await this.#rest.request('GET', '/api/v3/account', [['omitZeroBalances', 'false']], { weight: 20, orders: 0 }, true);
    const account = parseAccount(answer.body);
    const base = account.balances.get(rules.base) ?? { free: 0n, locked: 0n };
    const quote = account.balances.get(rules.quote) ?? { free: 0n, locked: 0n };
    return { baseFree: base.free, baseLocked: base.locked, quoteFree: quote.free, quoteLocked: quote.locked, timeMs: this.#options.clock.nowMs() };
  }

  status(): HedgeVenueStatus {
    return { streamUp: this.#stream.isUp(), ...this.#limiter.usage(), blockedUntilMs: this.#limiter.blockedUntilMs(), clockOffsetMs: this.#rest.offsetMs };
  }

  /** Drops the user data stream as a network fault would (chaos and tests); it reconnects on its own. */
  dropStreamForTest(): void {
    this.#stream.dropForTest();
  }

  #onUserEvent(event: UserEvent): void {
    if (event.type !== 'execution' || event.report.symbol !== this.#symbol) return;
    const report = event.report;
    this.#absorb({
      symbol: report.symbol,
      orderId: report.orderId,
      clientOrderId: report.clientOrderId,
      side: report.side,
      status: report.status,
      type: '',
      qtyUnits: report.qtyUnits,
      executedQtyUnits: report.executedQtyUnits,
      executedQuoteUnits: report.executedQuoteUnits,
      timeMs: report.eventMs,
      trades: report.trade === undefined ? [] : [report.trade],
    });
  }

  /** Merges an answer or a report into what we know of the order (cumulative amounts only grow), and tells the listener. */
  #absorb(snapshot: OrderSnapshot): HedgeOrderState {
    let tracked = this.#orders.get(snapshot.clientOrderId);
    if (tracked === undefined) {
      tracked = { state: this.#state(snapshot, 0n), tradeIds: new Set(), commissionUnits: 0n, tradeQtyUnits: 0n, tradeQuoteUnits: 0n };
      this.#orders.set(snapshot.clientOrderId, tracked);
    }
    for (const trade of snapshot.trades) this.#addTrade(tracked, trade);
    const previous = tracked.state;
    const grew = snapshot.executedQtyUnits > previous.executedQtyUnits;
    const executedQtyUnits = grew ? snapshot.executedQtyUnits : previous.executedQtyUnits;
    const executedQuoteUnits = grew ? snapshot.executedQuoteUnits : previous.executedQuoteUnits;
    // A later answer may be older than what the stream told (reordered): a final status never goes back.
    const status = isFinal(previous.status) && !isFinal(snapshot.status) ? previous.status : snapshot.status;
    const commission = this.#commissionOf(tracked, executedQtyUnits, executedQuoteUnits, snapshot.side);
    tracked.state = { ...previous, venueOrderId: String(snapshot.orderId), status, qtyUnits: snapshot.qtyUnits, executedQtyUnits, executedQuoteUnits, commissionUnits: commission, timeMs: snapshot.timeMs || this.#options.clock.nowMs() };
    this.#listener?.onOrder(tracked.state);
    return tracked.state;
  }

  #state(snapshot: OrderSnapshot, commissionUnits: bigint): HedgeOrderState {
    const rules = this.rules;
    return {
      clientOrderId: snapshot.clientOrderId,
      venueOrderId: String(snapshot.orderId),
      side: snapshot.side,
      status: snapshot.status,
      qtyUnits: snapshot.qtyUnits,
      executedQtyUnits: 0n,
      executedQuoteUnits: 0n,
      commissionUnits,
      commissionAsset: snapshot.side === 'buy' ? rules.base : rules.quote,
      timeMs: snapshot.timeMs,
    };
  }

  #addTrade(tracked: TrackedOrder, trade: OrderTrade): void {
    if (tracked.tradeIds.has(trade.tradeId)) return;
    tracked.tradeIds.add(trade.tradeId);
    tracked.commissionUnits += trade.commissionUnits;
    tracked.tradeQtyUnits += trade.qtyUnits;
    tracked.tradeQuoteUnits += trade.quoteUnits;
  }

  /**
   * The commission of what executed: the trades' own, plus the account's taker rate (rounded up,
   * as the venue rounds) on any executed part no trade was seen for (an order known only from a
   * query reports no commission).
   */
  #commissionOf(tracked: TrackedOrder, executedQtyUnits: bigint, executedQuoteUnits: bigint, side: 'buy' | 'sell'): bigint {
    const unseen = side === 'buy' ? executedQtyUnits - tracked.tradeQtyUnits : executedQuoteUnits - tracked.tradeQuoteUnits;
    if (unseen <= 0n) return tracked.commissionUnits;
    const rateScaled = BigInt(Math.round(this.#takerCommission * 1e8));
    return tracked.commissionUnits + (unseen * rateScaled + 99_999_999n) / 100_000_000n;
  }
}

function isFinal(status: HedgeOrderState['status']): boolean {
  return status === 'FILLED' || status === 'CANCELED' || status === 'REJECTED' || status === 'EXPIRED' || status === 'EXPIRED_IN_MATCH';
}

/**
 * The filters, checked before sending: a hedge that breaks one is a bug of its caller (which fits
 * quantities with `fitHedgeQuantity`), never something to learn from a -1013.
 * @throws MmError `HEDGE_INVALID_ORDER`.
 */
export function checkOrder(request: HedgeOrderRequest, rules: HedgeRules): void {
  const fail = (why: string): never => {
    throw new MmError('HEDGE_INVALID_ORDER', `hedge ${request.clientOrderId}: ${why}`);
  };
  if (!/^[a-zA-Z0-9_-]{1,36}$/.test(request.clientOrderId)) fail('the client order id must be 1–36 letters, digits, - or _');
  const lot = lotRules(rules, request.type);
  if (request.qtyUnits <= 0n || request.qtyUnits % lot.step !== 0n) fail(`quantity ${formatUnits(request.qtyUnits, rules.baseDecimals)} is not a positive multiple of the step ${formatUnits(lot.step, rules.baseDecimals)}`);
  if (request.qtyUnits < lot.min || (lot.max > 0n && request.qtyUnits > lot.max)) fail(`quantity ${formatUnits(request.qtyUnits, rules.baseDecimals)} is outside [${formatUnits(lot.min, rules.baseDecimals)}, ${formatUnits(lot.max, rules.baseDecimals)}]`);
  if (request.type === 'ioc') {
    const price = request.limitPriceUnits ?? 0n;
    if (price <= 0n || (rules.priceTick > 0n && price % rules.priceTick !== 0n)) fail(`limit price ${formatUnits(price, rules.quoteDecimals)} is not a positive multiple of the tick`);
    if ((rules.minPrice > 0n && price < rules.minPrice) || (rules.maxPrice > 0n && price > rules.maxPrice)) fail('limit price outside PRICE_FILTER');
  }
}

/** The port's reason for a refusal. Binance distinguishes -2010's causes only by its message. */
function rejectReason(error: BinanceError): HedgeRejectReason {
  if (error.code === 'BINANCE_RATE_LIMITED') return 'rate-limited';
  if (error.code === 'BINANCE_AUTH') return 'auth';
  switch (error.venueCode) {
    case -1021:
      return 'timestamp';
    case -1013:
      return 'filter';
    case -1015:
      return 'rate-limited';
    case -2010: {
      const message = (error.venueMessage ?? '').toLowerCase();
      if (message.includes('insufficient balance')) return 'insufficient-balance';
      if (message.includes('duplicate order')) return 'duplicate';
      if (message.includes('market is closed')) return 'market-closed';
      return 'other';
    }
    default:
      return 'other';
  }
}
