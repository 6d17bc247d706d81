/**
 * Binance's WebSocket API on loopback at `/ws-api/v3` (web-socket-api.md), for the accounts of
 * `--accounts FILE`:
 * - `ping`, `time`; `session.logon` (Ed25519 keys), `session.status`, `session.logout`,
 *   `session.subscriptions`;
 * - market data answered by the same {@link MarketService} as REST: `exchangeInfo`, `depth`,
 *   `trades.recent`, `trades.aggregate`, `avgPrice`, `klines`, `ticker.24hr`, `ticker.price`, `ticker.book`;
 * - `order.place`, `order.test`, `order.status`, `order.cancel`, `openOrders.status`,
 *   `openOrders.cancelAll`, `allOrders`, `myTrades`, `account.status`, `account.commission`,
 *   `account.rateLimits.orders`, answered by the same
 *   {@link TradingService} as REST, signed per request (`apiKey` + `signature`) or, on a
 *   logged-on session, with `timestamp` alone ("Session Authentication");
 * - `userDataStream.subscribe` (logged-on session), `userDataStream.subscribe.signature` (any
 *   key), `userDataStream.unsubscribe`; a subscribed connection gets its account's events as
 *   `{"subscriptionId","event"}`.
 * Every answer is `{"id","status","result"|"error","rateLimits"}`: REQUEST_WEIGHT shared with REST,
 * the account's ORDERS counts on placements; `returnRateLimits=false` (connection URL or request)
 * leaves them out; `timeUnit=MICROSECOND` in the URL puts every time of answers and events in µs.
 * A method the venue does not serve answers -1020 "This operation is not supported." Binance's
 * ping every 20 s, and a fault that drops every connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock, Logger, Timer } from '../../../core/index.ts';
import type { AccountSpec } from './accounts.ts';
import { dayTickerWeight, depthRequestWeight, topTickerWeight, type MarketService } from './market-service.ts';
import { isRefusal, mandatory, refuse, websocketParams, type Outcome, type Refusal, type RequestParams } from './order-requests.ts';
import type { RateLimitStatus, WeightMeter } from './rate-counters.ts';
import { answerInUnit, eventInUnit, parseTimeUnit, type TimeUnit } from './time-unit.ts';
import { checkTiming, isValidWebsocketSignature } from './trading-auth.ts';
import type { TradingService } from './trading-service.ts';

/** The path of the WebSocket API. */
export const WS_API_PATH = '/ws-api/v3';

interface Subscription {
  readonly apiKey: string;
  /** Made by `userDataStream.subscribe` (ends with `session.logout`), not by a signature. */
  readonly viaLogon: boolean;
}

interface Session {
  readonly socket: WebSocket;
  readonly connectedSinceMs: number;
  readonly returnRateLimits: boolean;
  readonly timeUnit: TimeUnit;
  loggedOn: { readonly account: AccountSpec; readonly sinceMs: number } | undefined;
  readonly subscriptions: Map<number, Subscription>;
  nextSubscriptionId: number;
}

type Params = Record<string, unknown>;
interface Answer {
  readonly status: number;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly msg: string; readonly data?: Record<string, unknown> };
  /** The ORDERS counts to report beside the weight (placements). */
  readonly orderLimits?: readonly RateLimitStatus[];
}

/** An account request: its weight and how the service answers it. */
interface AccountMethod {
  readonly weight: (params: RequestParams) => number;
  readonly run: (service: TradingService, account: AccountSpec, params: RequestParams) => Outcome;
}

const ACCOUNT_METHODS: Readonly<Record<string, AccountMethod>> = {
  'order.test': { weight: (params) => (params.get('computeCommissionRates') === 'true' ? 20 : 1), run: (service, account, params) => service.testOrder(account, params) },
  'order.status': { weight: () => 4, run: (service, account, params) => service.queryOrder(account, params) },
  'order.cancel': { weight: () => 1, run: (service, account, params) => service.cancelOrder(account, params) },
  'openOrders.status': { weight: (params) => (params.get('symbol') === undefined ? 80 : 6), run: (service, account, params) => service.openOrders(account, params) },
  'openOrders.cancelAll': { weight: () => 1, run: (service, account, params) => service.cancelAll(account, params) },
  allOrders: { weight: () => 20, run: (service, account, params) => service.allOrders(account, params) },
  myTrades: { weight: (params) => (params.get('orderId') === undefined ? 20 : 5), run: (service, account, params) => service.myTrades(account, params) },
  'account.status': { weight: () => 20, run: (service, account, params) => service.accountInfo(account, params) },
  'account.commission': { weight: () => 20, run: (service, account, params) => service.commission(account, params) },
  'account.rateLimits.orders': { weight: () => 40, run: (service, account) => service.orderCount(account) },
};

/** A market-data request: its weight and how the market service answers it (web-socket-api.md "Market data requests"). */
interface MarketMethod {
  readonly weight: (params: RequestParams) => number;
  readonly run: (market: MarketService, params: RequestParams) => Outcome | Promise<Outcome>;
}

const MARKET_METHODS: Readonly<Record<string, MarketMethod>> = {
  exchangeInfo: { weight: () => 20, run: (market, params) => market.exchangeInfo(params) },
  depth: { weight: depthRequestWeight, run: (market, params) => market.depth(params) },
  'trades.recent': { weight: () => 25, run: (market, params) => market.recentTrades(params) },
  'trades.aggregate': { weight: () => 4, run: (market, params) => market.aggregateTrades(params) },
  avgPrice: { weight: () => 2, run: (market, params) => market.averagePrice(params) },
  klines: { weight: () => 2, run: (market, params) => market.klines(params) },
  'ticker.24hr': { weight: dayTickerWeight, run: (market, params) => market.dayTicker(params) },
  'ticker.price': { weight: topTickerWeight, run: (market, params) => market.priceTicker(params) },
  'ticker.book': { weight: topTickerWeight, run: (market, params) => market.bookTicker(params) },
};

/** Weights of the methods answered here rather than by the service (web-socket-api.md). */
const METHOD_WEIGHTS: Readonly<Record<string, number>> = {
  ping: 1,
  time: 1,
  'session.logon': 2,
  'session.status': 2,
  'session.logout': 2,
  'session.subscriptions': 2,
  'userDataStream.subscribe': 2,
  'userDataStream.subscribe.signature': 2,
  'userDataStream.unsubscribe': 2,
  'order.place': 1,
};

const fromRefusal = (refusal: Refusal): Answer => ({ status: refusal.status, error: { code: refusal.code, msg: refusal.msg } });
const fromOutcome = (outcome: Outcome): Answer => (isRefusal(outcome) ? fromRefusal(outcome) : { status: 200, result: outcome.body });
const UNSUPPORTED: Answer = fromRefusal(refuse(-1020, 'This operation is not supported.'));

/** The WebSocket API server. */
export class WebSocketApi {
  readonly #wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  readonly #sessions = new Set<Session>();
  readonly #pinger: Timer;
  /** Events delivered to subscribers, for tests. */
  eventsSent = 0;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly service: TradingService,
    private readonly market: MarketService,
    private readonly weight: WeightMeter,
  ) {
    this.#pinger = clock.setInterval(() => {
      for (const session of this.#sessions) if (session.socket.readyState === WebSocket.OPEN) session.socket.ping(String(clock.nowMs()));
    }, 20_000, { unref: true });
  }

  /** Claims upgrades of `/ws-api/v3` (the server refused a bad `timeUnit` before). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): boolean {
    if (url.pathname !== WS_API_PATH) return false;
    const returnRateLimits = url.searchParams.get('returnRateLimits') !== 'false';
    const timeUnit = parseTimeUnit(url.searchParams.get('timeUnit') ?? undefined) ?? 'MILLISECOND';
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, returnRateLimits, timeUnit));
    return true;
  }

  /** Sends an account's event to every subscription of it. */
  publish(apiKey: string, event: Record<string, unknown>): void {
    for (const session of this.#sessions) {
      for (const [subscriptionId, subscription] of session.subscriptions) {
        if (subscription.apiKey !== apiKey || session.socket.readyState !== WebSocket.OPEN) continue;
        session.socket.send(JSON.stringify({ subscriptionId, event: eventInUnit(event, session.timeUnit) }));
        this.eventsSent++;
      }
    }
  }

  /** Subscriptions open now (tests). */
  subscriptionCount(): number {
    let count = 0;
    for (const session of this.#sessions) count += session.subscriptions.size;
    return count;
  }

  /** Cuts every connection without a close frame (a network drop). */
  dropAll(): void {
    for (const session of [...this.#sessions]) session.socket.terminate();
  }

  stop(): void {
    this.#pinger.cancel();
    this.dropAll();
    this.#wss.close();
  }

  #accept(socket: WebSocket, returnRateLimits: boolean, timeUnit: TimeUnit): void {
    // Web-socket-api.md "IP limits": connecting costs 2 weight.
    this.weight.tryUse(2);
    const session: Session = { socket, connectedSinceMs: Math.floor(this.clock.nowMs()), returnRateLimits, timeUnit, loggedOn: undefined, subscriptions: new Map(), nextSubscriptionId: 0 };
    this.#sessions.add(session);
    socket.on('message', (data, isBinary) => {
      this.#onRequest(session, isBinary ? '' : data.toString()).catch((error: unknown) => this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'WebSocket API request failed'));
    });
    socket.on('close', () => this.#sessions.delete(session));
    socket.on('error', () => socket.terminate());
  }

  async #onRequest(session: Session, text: string): Promise<void> {
    let request: Params;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      request = parsed as Params;
    } catch {
      session.socket.send(JSON.stringify({ id: null, status: 400, error: { code: -1000, msg: 'Invalid JSON' } }));
      return;
    }
    const id = request['id'] ?? null;
    const rawMethod = request['method'];
    const params = (typeof request['params'] === 'object' && request['params'] !== null ? request['params'] : {}) as Params;
    // Web-socket-api.md "Request format": method names may carry an explicit version prefix.
    const method = typeof rawMethod === 'string' ? rawMethod.replace(/^v3\//, '') : undefined;
    const answer = method === undefined ? fromRefusal(mandatory('method')) : await this.#metered(session, method, params);
    const wantsLimits = typeof params['returnRateLimits'] === 'boolean' ? params['returnRateLimits'] : session.returnRateLimits;
    const { orderLimits, result, ...rest } = answer;
    const rateLimits = [...(orderLimits ?? []), this.weight.status()];
    const shown = result === undefined ? {} : { result: answerInUnit(result, session.timeUnit) };
    if (session.socket.readyState !== WebSocket.OPEN) return;
    session.socket.send(JSON.stringify({ id, ...rest, ...shown, ...(wantsLimits ? { rateLimits } : {}) }));
  }

  /** Counts the method's weight (429 -1003 past the limit), then answers it. */
  async #metered(session: Session, method: string, params: Params): Promise<Answer> {
    const accountMethod = ACCOUNT_METHODS[method];
    const marketMethod = MARKET_METHODS[method];
    const methodWeight = METHOD_WEIGHTS[method];
    if (accountMethod === undefined && marketMethod === undefined && methodWeight === undefined) return UNSUPPORTED;
    const requestParams = websocketParams(params);
    const weight = accountMethod?.weight(requestParams) ?? marketMethod?.weight(requestParams) ?? methodWeight ?? 1;
    if (!this.weight.tryUse(weight)) {
      const now = Math.floor(this.clock.nowMs());
      const msg = `Too much request weight used; current limit is ${this.weight.limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`;
      return { status: 429, error: { code: -1003, msg, data: { serverTime: now, retryAfter: now + this.weight.retryAfterS() * 1000 } } };
    }
    if (marketMethod !== undefined) return fromOutcome(await marketMethod.run(this.market, requestParams));
    if (accountMethod !== undefined) {
      const account = this.#authorize(session, params);
      return 'code' in account ? fromRefusal(account) : fromOutcome(accountMethod.run(this.service, account, requestParams));
    }
    return this.#answer(session, method, params);
  }

  #answer(session: Session, method: string, params: Params): Answer {
    const now = Math.floor(this.clock.nowMs());
    switch (method) {
      case 'ping':
        return { status: 200, result: {} };
      case 'time':
        return { status: 200, result: { serverTime: now } };
      case 'order.place':
        return this.#place(session, params);
      case 'session.logon': {
        const account = this.#verify(params);
        if ('code' in account) return fromRefusal(account);
        if (account.publicKey === undefined) return fromRefusal(refuse(-4056, 'HMAC_SHA256 API key is not supported.'));
        session.loggedOn = { account, sinceMs: now };
        return { status: 200, result: this.#status(session) };
      }
      case 'session.status':
        return { status: 200, result: this.#status(session) };
      case 'session.logout':
        session.loggedOn = undefined;
        for (const [subscriptionId, subscription] of session.subscriptions) if (subscription.viaLogon) session.subscriptions.delete(subscriptionId);
        return { status: 200, result: this.#status(session) };
      case 'session.subscriptions':
        return { status: 200, result: [...session.subscriptions.keys()].map((subscriptionId) => ({ subscriptionId })) };
      case 'userDataStream.subscribe':
        if (session.loggedOn === undefined) return fromRefusal(refuse(-2015, 'Invalid API-key, IP, or permissions for action.', 401));
        return this.#subscribe(session, session.loggedOn.account.apiKey, true);
      case 'userDataStream.subscribe.signature': {
        const account = this.#verify(params);
        return 'code' in account ? fromRefusal(account) : this.#subscribe(session, account.apiKey, false);
      }
      case 'userDataStream.unsubscribe': {
        const wanted = params['subscriptionId'];
        if (typeof wanted === 'number') session.subscriptions.delete(wanted);
        else session.subscriptions.clear();
        return { status: 200, result: {} };
      }
      default:
        return UNSUPPORTED;
    }
  }

  /** `order.place`: checked and counted like a REST placement, the counts reported as `rateLimits`. */
  #place(session: Session, params: Params): Answer {
    const account = this.#authorize(session, params);
    if ('code' in account) return fromRefusal(account);
    const prepared = this.service.prepareOrder(account, websocketParams(params));
    if (isRefusal(prepared)) {
      if (!('retryAfterS' in prepared)) return fromRefusal(prepared);
      const now = Math.floor(this.clock.nowMs());
      return { status: 429, error: { code: prepared.code, msg: prepared.msg, data: { serverTime: now, retryAfter: now + prepared.retryAfterS * 1000 } } };
    }
    return { ...fromOutcome(this.service.executeOrder(account, prepared)), orderLimits: this.service.orders.status(prepared.counts) };
  }

  /** The `session.*` answer (web-socket-api.md "Query session status"). */
  #status(session: Session): Record<string, unknown> {
    return {
      apiKey: session.loggedOn?.account.apiKey ?? null,
      authorizedSince: session.loggedOn?.sinceMs ?? null,
      connectedSince: session.connectedSinceMs,
      returnRateLimits: session.returnRateLimits,
      serverTime: Math.floor(this.clock.nowMs()),
      userDataStream: session.subscriptions.size > 0,
    };
  }

  #subscribe(session: Session, apiKey: string, viaLogon: boolean): Answer {
    if ([...session.subscriptions.values()].some((subscription) => subscription.apiKey === apiKey)) return fromRefusal(refuse(-2035, 'User Data Stream subscription already active.'));
    const subscriptionId = session.nextSubscriptionId++;
    session.subscriptions.set(subscriptionId, { apiKey, viaLogon });
    this.logger.debug({ subscriptionId }, 'user data stream subscribed');
    return { status: 200, result: { subscriptionId } };
  }

  /**
   * The account a SIGNED request acts for: its own `apiKey` and `signature` when it carries them
   * (ad hoc), else the logged-on session's, with the `timestamp` still checked.
   */
  #authorize(session: Session, params: Params): AccountSpec | Refusal {
    if (params['apiKey'] !== undefined || params['signature'] !== undefined || session.loggedOn === undefined) return this.#verify(params);
    const timing = checkTiming(textOf(params['timestamp']), textOf(params['recvWindow']), this.clock);
    return timing ?? session.loggedOn.account;
  }

  /** The account of a signed request's params, or the refusal. */
  #verify(params: Params): AccountSpec | Refusal {
    const apiKey = params['apiKey'];
    const signature = params['signature'];
    if (typeof apiKey !== 'string') return mandatory('apiKey');
    if (typeof signature !== 'string') return mandatory('signature');
    const account = this.service.account(apiKey);
    if (account === undefined) return refuse(-2015, 'Invalid API-key, IP, or permissions for action.', 401);
    const timing = checkTiming(textOf(params['timestamp']), textOf(params['recvWindow']), this.clock);
    if (timing !== undefined) return timing;
    if (!isValidWebsocketSignature(account, params, signature)) return refuse(-1022, 'Signature for this request is not valid.');
    return account;
  }
}

const textOf = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));
