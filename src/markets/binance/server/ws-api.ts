/**
 * Binance's WebSocket API on loopback at `/ws-api/v3`, as much of it as a hedging client needs
 * (web-socket-api.md): `session.logon` (Ed25519 keys), `userDataStream.subscribe` on a logged-on
 * session, `userDataStream.subscribe.signature` (any key), `userDataStream.unsubscribe`,
 * `session.status`, `ping` and `time`, each answered `{"id","status","result"}` or with an error
 * object; a subscribed connection gets its account's events as `{"subscriptionId","event"}`.
 * Binance's ping every 20 s, the signature and timestamp checks of `trading-auth.ts`, and a fault
 * that drops every connection.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock, Logger, Timer } from '../../../core/index.ts';
import { websocketPayload } from '../trading/signer.ts';
import type { AccountSpec } from './accounts.ts';
import { checkTiming, isValidSignature } from './trading-auth.ts';

/** The path of the WebSocket API. */
export const WS_API_PATH = '/ws-api/v3';

interface Session {
  readonly socket: WebSocket;
  loggedOn: AccountSpec | undefined;
  /** Subscriptions: id → API key. */
  readonly subscriptions: Map<number, string>;
  nextSubscriptionId: number;
}

type Params = Record<string, unknown>;
type Answer = { readonly status: number; readonly result?: unknown; readonly error?: { readonly code: number; readonly msg: string } };

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
    private readonly accounts: (apiKey: string) => AccountSpec | undefined,
  ) {
    this.#pinger = clock.setInterval(() => {
      for (const session of this.#sessions) if (session.socket.readyState === WebSocket.OPEN) session.socket.ping(String(clock.nowMs()));
    }, 20_000, { unref: true });
  }

  /** Claims upgrades of `/ws-api/v3`. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): boolean {
    if (url.pathname !== WS_API_PATH) return false;
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
    return true;
  }

  /** Sends an account's event to every subscription of it. */
  publish(apiKey: string, event: Record<string, unknown>): void {
    for (const session of this.#sessions) {
      for (const [subscriptionId, key] of session.subscriptions) {
        if (key !== apiKey || session.socket.readyState !== WebSocket.OPEN) continue;
        session.socket.send(JSON.stringify({ subscriptionId, event }));
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

  #accept(socket: WebSocket): void {
    const session: Session = { socket, loggedOn: undefined, subscriptions: new Map(), nextSubscriptionId: 0 };
    this.#sessions.add(session);
    socket.on('message', (data, isBinary) => this.#onRequest(session, isBinary ? '' : data.toString()));
    socket.on('close', () => this.#sessions.delete(session));
    socket.on('error', () => socket.terminate());
  }

  #onRequest(session: Session, text: string): void {
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
    const method = request['method'];
    const params = (typeof request['params'] === 'object' && request['params'] !== null ? request['params'] : {}) as Params;
    const answer = typeof method === 'string' ? this.#answer(session, method, params) : { status: 400, error: { code: -1102, msg: "Mandatory parameter 'method' was not sent, was empty/null, or malformed." } };
    session.socket.send(JSON.stringify({ id, ...answer }));
  }

  #answer(session: Session, method: string, params: Params): Answer {
    switch (method) {
      case 'ping':
        return { status: 200, result: {} };
      case 'time':
        return { status: 200, result: { serverTime: Math.floor(this.clock.nowMs()) } };
      case 'session.logon': {
        const account = this.#verify(params);
        if ('status' in account) return account;
        if (account.publicKey === undefined) return { status: 400, error: { code: -4056, msg: 'HMAC_SHA256 API key is not supported.' } };
        session.loggedOn = account;
        return { status: 200, result: { apiKey: account.apiKey, authorizedSince: Math.floor(this.clock.nowMs()), connectedSince: Math.floor(this.clock.nowMs()), returnRateLimits: false, serverTime: Math.floor(this.clock.nowMs()), userDataStream: session.subscriptions.size > 0 } };
      }
      case 'session.status':
        return { status: 200, result: { apiKey: session.loggedOn?.apiKey ?? null, serverTime: Math.floor(this.clock.nowMs()), userDataStream: session.subscriptions.size > 0 } };
      case 'userDataStream.subscribe': {
        if (session.loggedOn === undefined) return { status: 401, error: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };
        return this.#subscribe(session, session.loggedOn.apiKey);
      }
      case 'userDataStream.subscribe.signature': {
        const account = this.#verify(params);
        if ('status' in account) return account;
        return this.#subscribe(session, account.apiKey);
      }
      case 'userDataStream.unsubscribe': {
        const wanted = params['subscriptionId'];
        if (typeof wanted === 'number') session.subscriptions.delete(wanted);
        else session.subscriptions.clear();
        return { status: 200, result: {} };
      }
      default:
        return { status: 400, error: { code: -1100, msg: `Unknown method ${method}` } };
    }
  }

  #subscribe(session: Session, apiKey: string): Answer {
    if ([...session.subscriptions.values()].includes(apiKey)) return { status: 400, error: { code: -2010, msg: 'User Data Stream subscription already active.' } };
    const subscriptionId = session.nextSubscriptionId++;
    session.subscriptions.set(subscriptionId, apiKey);
    this.logger.debug({ subscriptionId }, 'user data stream subscribed');
    return { status: 200, result: { subscriptionId } };
  }

  /** The account of a signed request's params, or the refusal. */
  #verify(params: Params): AccountSpec | Answer {
    const apiKey = params['apiKey'];
    const signature = params['signature'];
    if (typeof apiKey !== 'string') return { status: 400, error: { code: -1102, msg: "Mandatory parameter 'apiKey' was not sent, was empty/null, or malformed." } };
    if (typeof signature !== 'string') return { status: 400, error: { code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." } };
    const account = this.accounts(apiKey);
    if (account === undefined) return { status: 401, error: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };
    const timestamp = params['timestamp'];
    const recvWindow = params['recvWindow'];
    const timing = checkTiming(timestamp === undefined ? undefined : String(timestamp), recvWindow === undefined ? undefined : String(recvWindow), this.clock);
    if (timing !== undefined) return { status: timing.status, error: { code: timing.code, msg: timing.msg } };
    const fields: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(params)) if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
    if (!isValidSignature(account, websocketPayload(fields), signature)) return { status: 400, error: { code: -1022, msg: 'Signature for this request is not valid.' } };
    return account;
  }
}
