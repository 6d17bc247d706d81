/**
 * The REST client: every endpoint of SPEC §2 (REFERENCE §1.2 rows 1–20) as a typed method over
 * one keep-alive pool. The request pipeline adds the JWT (no "Bearer", SPEC §2), re-logs in once
 * on a 401 and repeats the request, waits out 429s (suggested sleep + jitter), and retries GETs on
 * network errors and 5xx with jittered backoff. POSTs are never repeated after a network error or
 * a 5xx: the caller resolves them by the locally computed hash (`resolve.ts`).
 */
import { sleep, type ChainInfo, type Clock, type Logger, type Pair, type Rng, type TokenInfo, Secret, getToken } from '../../core/index.ts';
import { WireError, addressToHex, type StarkSignature } from '../wire/fields.ts';
import {
  formatCancelAllBody,
  formatCancelBody,
  formatIncreaseNonceBody,
  formatOrderBody,
  formatWithdrawBody,
  type CancelAllRequest,
  type CancelRequest,
  type IncreaseNonceRequest,
  type OrderRequest,
  type WithdrawRequest,
} from '../wire/requests.ts';
import { AuthSession, type LoginSigner } from './auth.ts';
import type { AnomalySink } from '../wire/anomalies.ts';
import { parseFastSignChallenge, type FastSignChallenge } from './fast-sign.ts';
import { backoffDelayMs, rateLimitDelayMs, type BackoffPolicy } from './backoff.ts';
import { openEnvelope } from './envelope.ts';
import type { RateLimitSink } from './rate-limits.ts';
import { ExchangeError } from './errors.ts';
import { UndiciTransport, type HttpOptions, type HttpTransport } from './http.ts';
import {
  parseBbo,
  parseConversionRate,
  parseFeltResult,
  parseGasPrice,
  parseOrdersPage,
  parseRouterDetails,
  parseSignatureResult,
  parseSnapshot,
  parseSteps,
  parseStringResult,
  parseTickerSpecs,
  parseUserInfo,
  parseVenueOrder,
  type Bbo,
  type BookSnapshot,
  type ConversionRate,
  type OrdersPage,
  type RouterDetails,
  type StepsSpec,
  type TickerSpec,
  type TokenPair,
  type UserInfo,
  type VenueOrder,
} from './responses.ts';

/** Retry limits; defaults in {@link DEFAULT_RETRY}. */
export interface RetryOptions {
  /** Total tries of a GET on network errors and 5xx. Default 4. */
  readonly getAttempts?: number;
  /** 429 waits before giving up (any method: a 429 was not processed). Default 3. */
  readonly rateLimitRetries?: number;
  /** Backoff of GET retries. Default 200 ms doubling to 5 s. */
  readonly backoff?: BackoffPolicy;
}

/** Defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Required<RetryOptions> = {
  getAttempts: 4,
  rateLimitRetries: 3,
  backoff: { baseMs: 200, maxMs: 5_000 },
};

/** Collaborators and settings of a {@link RestClient}. */
export interface RestClientOptions {
  /** e.g. https://api.layerakira.xyz or http://127.0.0.1:8080 */
  readonly baseUrl: string;
  readonly chain: ChainInfo;
  /** Trading account address. */
  readonly account: bigint;
  readonly signer: LoginSigner;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** Replaces the undici pool (tests). */
  readonly transport?: HttpTransport;
  readonly http?: HttpOptions;
  readonly retry?: RetryOptions;
  /** Where oddities read past are reported (issue 11 item 3); default: nowhere, still lenient. */
  readonly anomalies?: AnomalySink;
  /** Told of every 429 answer (`RateLimitCounter`); default: nowhere (they are still logged). */
  readonly rateLimits?: RateLimitSink;
}

/** `mode` of `/user/order(s)` (SPEC §1: 1 full, 2 reduced). */
export type OrderMode = 'full' | 'reduced';

/** Query of `/user/orders`. */
export interface OrdersQuery {
  /** Live resting orders (true) or history (false). */
  readonly active: boolean;
  readonly mode?: OrderMode;
  /** At most 20 (REFERENCE §1.2 #13). Default 20. */
  readonly limit?: number;
  readonly offset?: number;
  readonly cursor?: string;
  readonly toEcosystemBook?: boolean;
}

interface CallSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly auth: boolean;
}

/**
 * The typed REST API of one venue for one trading account. Every method rejects with an
 * {@link ExchangeError} (codes in `errors.ts`): `EXCHANGE_REJECTED` with the venue's §4 name,
 * `EXCHANGE_NOT_FOUND`, `EXCHANGE_UNAUTHORIZED`, `EXCHANGE_RATE_LIMITED`, `EXCHANGE_SERVER_ERROR`,
 * `EXCHANGE_NETWORK`, `EXCHANGE_MALFORMED` (raw body kept) or `EXCHANGE_BAD_REQUEST` (not sent).
 */
export class RestClient {
  readonly chain: ChainInfo;
  readonly account: bigint;
  readonly #transport: HttpTransport;
  readonly #signer: LoginSigner;
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #logger: Logger;
  readonly #retry: Required<RetryOptions>;
  readonly #session: AuthSession;
  readonly #anomalies: AnomalySink;
  readonly #rateLimits: RateLimitSink;

  constructor(options: RestClientOptions) {
    this.#anomalies = options.anomalies ?? (() => undefined);
    this.#rateLimits = options.rateLimits ?? (() => undefined);
    this.chain = options.chain;
    this.account = options.account;
    this.#transport = options.transport ?? new UndiciTransport(options.baseUrl, options.http);
    this.#signer = options.signer;
    this.#clock = options.clock;
    this.#rng = options.rng;
    this.#logger = options.logger;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#session = new AuthSession(() => this.#login());
  }

  /** Logs in now (otherwise the first authenticated call does). @throws ExchangeError */
  async login(): Promise<void> {
    await this.#session.token();
  }

  /** Closes the pool. Idempotent. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  // ── auth (#1, #2) ────────────────────────────────────────────────────────────────────────

  /** #1: the login challenge for our signer key and account, as the venue sent it. */
  requestSignData(): Promise<string | number> {
    return this.#call(
      {
        method: 'GET',
        path: '/sign/request_sign_data',
        query: { user: addressToHex(this.#signer.starkKey), account: addressToHex(this.account) },
        auth: false,
      },
      (result, rawText) => {
        // A numeric challenge above 2^53 loses digits in JSON.parse; read it from the text.
        if (typeof result === 'number' && !Number.isSafeInteger(result)) {
          const digits = /"result"\s*:\s*(\d+)/.exec(rawText)?.[1];
          if (digits === undefined) throw new WireError('result', 'unreadable numeric challenge');
          return digits;
        }
        parseFeltResult(result);
        return result as string | number;
      },
    );
  }

  /** #2: exchanges a signed challenge for a JWT. */
  auth(challenge: string | number, signature: StarkSignature): Promise<Secret> {
    return this.#call(
      { method: 'POST', path: '/sign/auth', body: { msg: challenge, signature: [signature.r.toString(), signature.s.toString()] }, auth: false },
      (result) => new Secret(parseStringResult(result)),
    );
  }

  /**
   * #21: a fast-sign challenge (JWT). Sent with `user` and `account` like akira-js
   * features/webLimitOrders `getFastSignCancelData`; python_akira sends neither.
   */
  requestFastSignKey(): Promise<FastSignChallenge> {
    return this.#get('/sign/request_fast_sign_key', { user: addressToHex(this.#signer.starkKey), account: addressToHex(this.account) }, parseFastSignChallenge);
  }

  /** #22: exchanges a signed fast-sign challenge for a key (JWT). */
  issueFastSignKey(msg: string, signature: StarkSignature): Promise<Secret> {
    return this.#post('/sign/issue_fast_sign_key', { msg, signature: [signature.r.toString(), signature.s.toString()] }, (result) => new Secret(parseStringResult(result)));
  }

  // ── market and account data (#3–#14) ─────────────────────────────────────────────────────

  /** #3: raw gas price, fri per step. */
  gasPrice(): Promise<bigint> {
    return this.#get('/gas/price', undefined, parseGasPrice);
  }

  /** #4: best bid and offer of a book. */
  bbo(pair: Pair, toEcosystemBook: boolean): Promise<Bbo> {
    const tokens = this.#tokens(pair);
    return this.#get('/book/bbo', bookQuery(pair, toEcosystemBook), (result) => parseBbo(result, tokens, this.#anomalies));
  }

  /** #5: book snapshot, `levels` deep (-1 = all). */
  snapshot(pair: Pair, toEcosystemBook: boolean, levels = -1): Promise<BookSnapshot> {
    const tokens = this.#tokens(pair);
    return this.#get('/book/snapshot', { ...bookQuery(pair, toEcosystemBook), levels: String(levels) }, (result) => parseSnapshot(result, tokens, this.#anomalies));
  }

  /** #6: nonce, balances and fees of our account. */
  userInfo(): Promise<UserInfo> {
    return this.#get('/user/user_info', { trading_account: addressToHex(this.account) }, (result) => parseUserInfo(result, this.chain, this.#anomalies));
  }

  /** #7: a listen key for the WS stream; calling again prolongs it (REFERENCE §3.1). */
  listenKey(): Promise<Secret> {
    return this.#get('/user/listen_key', undefined, (result) => new Secret(parseStringResult(result)));
  }

  /** #8: `[r0, r1]`, r0 STRK worth r1 of `token`; undefined when the venue answers `[]`. */
  conversionRate(token: string): Promise<ConversionRate | undefined> {
    const info = this.#token(token);
    return this.#get('/info/conversion_rate', { token }, (result) => parseConversionRate(result, info, this.#anomalies));
  }

  /** #9: gas steps per action (plural path, SPEC §1). */
  stepsSpecifications(): Promise<StepsSpec> {
    return this.#get('/info/steps_specifications', undefined, parseSteps);
  }

  /** #10: ticker rules of every book. */
  tickerSpecifications(): Promise<TickerSpec[]> {
    return this.#get('/info/ticker_specifications', undefined, parseTickerSpecs);
  }

  /** #11: router fees and signer. */
  routerDetails(): Promise<RouterDetails> {
    return this.#get('/info/router_details', undefined, parseRouterDetails);
  }

  /**
   * #12: one of our orders by hash; undefined on 404. `active` looks among live resting orders
   * (true) or the history (false).
   */
  async order(orderHash: bigint, options: { active: boolean; mode?: OrderMode }): Promise<VenueOrder | undefined> {
    return this.#optional(
      this.#get('/user/order', orderQuery(orderHash, this.account, options), (result) => parseVenueOrder(result, this.chain, 'result', this.#anomalies)),
    );
  }

  /** #13: a page of our orders, newest first. */
  orders(query: OrdersQuery): Promise<OrdersPage> {
    const params: Record<string, string> = {
      trading_account: addressToHex(this.account),
      mode: modeParam(query.mode),
      limit: String(Math.min(20, query.limit ?? 20)),
      offset: String(query.offset ?? 0),
      // akira-js getOrders puts the booleans as they are: true|false here, unlike /user/order (docs/venue.md).
      active: String(query.active),
    };
    if (query.cursor !== undefined) params.cursor = query.cursor;
    if (query.toEcosystemBook !== undefined) params.to_ecosystem_book = String(query.toEcosystemBook);
    return this.#get('/user/orders', params, (result) => parseOrdersPage(result, this.chain, this.#anomalies));
  }

  /** #14: a router's client's order; undefined on 404. */
  async orderRouter(orderHash: bigint, clientAccount: bigint, options: { active: boolean; mode?: OrderMode }): Promise<VenueOrder | undefined> {
    return this.#optional(
      this.#get('/user/order_router', orderQuery(orderHash, clientAccount, options), (result) => parseVenueOrder(result, this.chain, 'result', this.#anomalies)),
    );
  }

  // ── signed requests (#15–#20) ────────────────────────────────────────────────────────────

  /** #15: places a signed order; returns the venue's order hash. Never retried after sending. */
  async placeOrder(order: OrderRequest): Promise<bigint> {
    return this.#post('/place_order', formatOrderBody(requireSigned(order, 'place_order')), parseFeltResult);
  }

  /** #16: asks the router to sign an external order (router_sign left ["0","0"]). */
  async signExternalOrder(order: OrderRequest): Promise<StarkSignature> {
    return this.#post('/router/sign_external_order', formatOrderBody(requireSigned(order, 'router/sign_external_order')), parseSignatureResult);
  }

  /** #17: cancels one order; returns the cancel request's hash. */
  async cancelOrder(cancel: CancelRequest): Promise<bigint> {
    return this.#post('/cancel_order', formatCancelBody(requireSigned(cancel, 'cancel_order')), parseFeltResult);
  }

  /** #18: cancels every order of ours on a book (`/cancel_all`, SPEC §1). */
  async cancelAll(cancel: CancelAllRequest): Promise<bigint> {
    return this.#post('/cancel_all', formatCancelAllBody(requireSigned(cancel, 'cancel_all')), parseFeltResult);
  }

  /**
   * #17 with a fast-sign key instead of a signature: python_akira `cancel_order(…, fast_sign_key)`
   * sends `sign: ["0x0", "0x0"]` and the key. Never retried after sending, like any POST.
   */
  async cancelOrderFast(cancel: CancelRequest, fastSignKey: Secret): Promise<bigint> {
    return this.#post('/cancel_order', withFastSignKey(formatCancelBody(cancel), fastSignKey), parseFeltResult);
  }

  /** #18 with a fast-sign key (python_akira `cancel_all_orders(…, fast_sign_key)`). */
  async cancelAllFast(cancel: CancelAllRequest, fastSignKey: Secret): Promise<bigint> {
    return this.#post('/cancel_all', withFastSignKey(formatCancelAllBody(cancel), fastSignKey), parseFeltResult);
  }

  /** #19: requests a withdrawal; returns its hash. */
  async withdraw(withdraw: WithdrawRequest): Promise<bigint> {
    return this.#post('/withdraw', formatWithdrawBody(requireSigned(withdraw, 'withdraw')), parseFeltResult);
  }

  /** #20: raises our nonce on chain (kill switch); returns the request hash. */
  async increaseNonce(request: IncreaseNonceRequest): Promise<bigint> {
    return this.#post('/increase_nonce', formatIncreaseNonceBody(requireSigned(request, 'increase_nonce')), parseFeltResult);
  }

  // ── pipeline ─────────────────────────────────────────────────────────────────────────────

  async #login(): Promise<Secret> {
    try {
      const challenge = await this.requestSignData();
      const { signature } = await this.#signer.signLogin(BigInt(challenge));
      const jwt = await this.auth(challenge, signature);
      this.#logger.info({ account: addressToHex(this.account) }, 'logged in');
      return jwt;
    } catch (error) {
      if (error instanceof ExchangeError && error.code === 'EXCHANGE_NETWORK') throw error;
      throw new ExchangeError('EXCHANGE_UNAUTHORIZED', `login failed: ${error instanceof Error ? error.message : String(error)}`, {
        endpoint: 'login',
        cause: error,
        ...(error instanceof ExchangeError && error.venueError !== undefined ? { venueError: error.venueError } : {}),
      });
    }
  }

  #get<T>(path: string, query: Readonly<Record<string, string>> | undefined, parse: (result: unknown, rawText: string) => T): Promise<T> {
    return this.#call({ method: 'GET', path, ...(query === undefined ? {} : { query }), auth: true }, parse);
  }

  #post<T>(path: string, body: unknown, parse: (result: unknown) => T): Promise<T> {
    return this.#call({ method: 'POST', path, body, auth: true }, parse);
  }

  async #optional<T>(pending: Promise<T>): Promise<T | undefined> {
    try {
      return await pending;
    } catch (error) {
      if (error instanceof ExchangeError && error.code === 'EXCHANGE_NOT_FOUND') return undefined;
      throw error;
    }
  }

  async #call<T>(spec: CallSpec, parse: (result: unknown, rawText: string) => T): Promise<T> {
    const endpoint = `${spec.method} ${spec.path}`;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    let relogged = false;
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      const token = spec.auth ? await this.#session.token() : undefined;
      try {
        const response = await this.#transport.send({
          method: spec.method,
          path: spec.path,
          ...(spec.query === undefined ? {} : { query: spec.query }),
          ...(body === undefined ? {} : { body }),
          ...(token === undefined ? {} : { headers: { authorization: token.reveal() } }),
        });
        const result = openEnvelope(endpoint, response);
        try {
          return parse(result, response.text);
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
          throw new ExchangeError('EXCHANGE_MALFORMED', error.message, { endpoint, status: response.status, rawBody: response.text, cause: error });
        }
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        if (error.code === 'EXCHANGE_RATE_LIMITED') this.#rateLimits(endpoint);
        if (error.code === 'EXCHANGE_UNAUTHORIZED' && token !== undefined && !relogged) {
          // One fresh login, then the same request again: a 401 was not processed (SPEC §2).
          relogged = true;
          this.#logger.info({ endpoint }, '401: logging in again');
          await this.#session.invalidate(token);
          continue;
        }
        if (error.code === 'EXCHANGE_RATE_LIMITED' && rateLimited < this.#retry.rateLimitRetries) {
          const delayMs = rateLimitDelayMs(error.retryAfterMs, rateLimited, this.#retry.backoff, this.#rng);
          rateLimited++;
          this.#logger.warn({ endpoint, delayMs }, '429: waiting as the venue asks');
          await sleep(this.#clock, delayMs);
          continue;
        }
        const retryable = error.code === 'EXCHANGE_NETWORK' || error.code === 'EXCHANGE_SERVER_ERROR';
        if (spec.method === 'GET' && retryable && failures + 1 < this.#retry.getAttempts) {
          const delayMs = backoffDelayMs(failures, this.#retry.backoff, this.#rng);
          failures++;
          this.#logger.warn({ endpoint, code: error.code, delayMs, attempt: failures }, 'GET failed; retrying');
          await sleep(this.#clock, delayMs);
          continue;
        }
        throw error;
      }
    }
  }

  #token(symbol: string): TokenInfo {
    try {
      return getToken(this.chain, symbol);
    } catch (error) {
      throw new ExchangeError('EXCHANGE_BAD_REQUEST', error instanceof Error ? error.message : String(error), { endpoint: 'token', mayHaveReachedVenue: false });
    }
  }

  #tokens(pair: Pair): TokenPair {
    return { base: this.#token(pair.base), quote: this.#token(pair.quote) };
  }
}

/** akira-js getBBO/getSnapshot send `+to_ecosystem_book` (1|0), python_akira `int(bool)` (docs/venue.md). */
function bookQuery(pair: Pair, toEcosystemBook: boolean): Record<string, string> {
  return { base: pair.base, quote: pair.quote, to_ecosystem_book: toEcosystemBook ? '1' : '0' };
}

function modeParam(mode: OrderMode | undefined): string {
  return mode === 'reduced' ? '2' : '1';
}

/** `/user/order(_router)`: both SDKs send `active` as 1|0 here (akira-js getOrder, python_akira get_order). */
function orderQuery(orderHash: bigint, account: bigint, options: { active: boolean; mode?: OrderMode }): Record<string, string> {
  return {
    order_hash: addressToHex(orderHash),
    trading_account: addressToHex(account),
    mode: modeParam(options.mode),
    active: options.active ? '1' : '0',
  };
}

function withFastSignKey(body: Record<string, unknown>, key: Secret): Record<string, unknown> {
  return { ...body, sign: ['0x0', '0x0'], fast_sign_key: key.reveal() };
}

function requireSigned<T extends { readonly sign?: StarkSignature }>(request: T, what: string): T {
  if (request.sign === undefined) {
    throw new ExchangeError('EXCHANGE_BAD_REQUEST', 'request is not signed', { endpoint: `POST /${what}`, mayHaveReachedVenue: false });
  }
  return request;
}
