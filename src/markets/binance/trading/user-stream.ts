/**
 * Own orders and fills from Binance's WebSocket API (web-socket-api.md "User Data Stream
 * requests"; the listenKey endpoints are gone): an Ed25519 key logs the session on
 * (`session.logon`) and subscribes with `userDataStream.subscribe`; an HMAC key subscribes with
 * `userDataStream.subscribe.signature`. Events arrive as `{"subscriptionId", "event"}` frames.
 * The connection answers Binance's pings (`ws` does), is presumed dead after a silence, and is
 * re-established with seeded, jittered backoff; the owner hears every loss and recovery, since
 * fills sent meanwhile reach it only through order queries.
 */
import { WebSocket } from 'ws';
import type { Clock, Logger, Rng, Timer } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';
import { backoffMs, type BackoffPolicy } from '../session.ts';
import { parseUserEvent, type UserEvent } from './messages.ts';
import { websocketPayload, type BinanceSigner } from './signer.ts';

/** Options of {@link BinanceUserStream}. */
export interface UserStreamOptions {
  /** The WebSocket API endpoint, e.g. wss://ws-api.binance.com:443/ws-api/v3. */
  readonly url: string;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly signer: BinanceSigner;
  /** The venue's time (our clock plus the measured offset). */
  readonly venueNowMs: () => number;
  readonly recvWindowMs: number;
  readonly onEvent: (event: UserEvent) => void;
  readonly onStatus: (isUp: boolean, reason: string) => void;
  /** Default: 10 s to connect and to answer a request. */
  readonly requestTimeoutMs?: number;
  /** No frame or ping for this long closes the connection (Binance pings every 20 s). Default 45 s. */
  readonly silenceTimeoutMs?: number;
  readonly reconnect?: BackoffPolicy;
}

interface Pending {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: Timer;
}

/** The user data stream of one API key. */
export class BinanceUserStream {
  readonly #options: UserStreamOptions;
  #socket: WebSocket | undefined;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #up = false;
  #stopped = false;
  #attempt = 0;
  #lastInboundMs = 0;
  #watchdog: Timer | undefined;
  #reconnectTimer: Timer | undefined;

  constructor(options: UserStreamOptions) {
    this.#options = options;
  }

  /** True while subscribed. */
  isUp(): boolean {
    return this.#up;
  }

  /**
   * Connects and subscribes.
   * @throws BinanceError `BINANCE_NETWORK` when the endpoint cannot be reached, `BINANCE_AUTH` when the key is refused.
   */
  async start(): Promise<void> {
    this.#stopped = false;
    await this.#connect();
  }

  /** Closes the socket and timers; idempotent. */
  stop(): void {
    this.#stopped = true;
    this.#reconnectTimer?.cancel();
    this.#reconnectTimer = undefined;
    this.#drop('stopped');
  }

  /** Drops the connection as if the network had (tests and chaos); it reconnects on its own. */
  dropForTest(): void {
    this.#socket?.terminate();
  }

  async #connect(): Promise<void> {
    const timeoutMs = this.#options.requestTimeoutMs ?? 10_000;
    const socket = new WebSocket(this.#options.url, { handshakeTimeout: timeoutMs, perMessageDeflate: false });
    this.#socket = socket;
    socket.on('message', (data) => this.#onFrame(socket, data.toString()));
    socket.on('ping', () => {
      this.#lastInboundMs = this.#options.clock.nowMs();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => reject(new BinanceError('BINANCE_NETWORK', `WebSocket API ${this.#options.url}: ${error.message}`, { cause: error })));
      socket.once('unexpected-response', (_request, response) => reject(new BinanceError('BINANCE_NETWORK', `WebSocket API ${this.#options.url}: HTTP ${response.statusCode}`)));
    }).catch((error: unknown) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      throw error;
    });
    socket.on('close', () => this.#onLost(socket, 'connection closed'));
    socket.on('error', (error) => this.#onLost(socket, `socket error: ${error.message}`));
    this.#lastInboundMs = this.#options.clock.nowMs();
    try {
      await this.#subscribe();
    } catch (error) {
      socket.removeAllListeners('close');
      socket.terminate();
      throw error;
    }
    this.#attempt = 0;
    this.#up = true;
    this.#startWatchdog();
    this.#options.onStatus(true, 'subscribed');
  }

  async #subscribe(): Promise<void> {
    const signer = this.#options.signer;
    const signed = (): Record<string, string | number> => {
      const params: Record<string, string | number> = { apiKey: signer.apiKey(), recvWindow: this.#options.recvWindowMs, timestamp: Math.floor(this.#options.venueNowMs()) };
      return { ...params, signature: signer.sign(websocketPayload(params)) };
    };
    if (signer.kind === 'ed25519') {
      await this.#request('session.logon', signed());
      await this.#request('userDataStream.subscribe', undefined);
    } else {
      await this.#request('userDataStream.subscribe.signature', signed());
    }
  }

  #request(method: string, params: Record<string, string | number> | undefined): Promise<unknown> {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) return Promise.reject(new BinanceError('BINANCE_NETWORK', `${method}: not connected`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = this.#options.clock.setTimeout(() => {
        this.#pending.delete(id);
        reject(new BinanceError('BINANCE_NETWORK', `${method}: no answer within ${this.#options.requestTimeoutMs ?? 10_000} ms`));
      }, this.#options.requestTimeoutMs ?? 10_000);
      this.#pending.set(id, { resolve, reject, timer });
      socket.send(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
    });
  }

  #onFrame(socket: WebSocket, text: string): void {
    if (socket !== this.#socket) return;
    this.#lastInboundMs = this.#options.clock.nowMs();
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.#options.logger.warn({ frame: text.slice(0, 200) }, 'malformed WebSocket API frame skipped');
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const message = frame as Record<string, unknown>;
    if ('event' in message) {
      this.#onEvent(message['event']);
      return;
    }
    const id = message['id'];
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (pending === undefined) return;
    this.#pending.delete(id as number);
    pending.timer.cancel();
    if (message['status'] === 200) {
      pending.resolve(message['result']);
      return;
    }
    const error = typeof message['error'] === 'object' && message['error'] !== null ? (message['error'] as { code?: unknown; msg?: unknown }) : {};
    const code = typeof error.code === 'number' ? error.code : undefined;
    const msg = typeof error.msg === 'string' ? error.msg : 'refused';
    const status = typeof message['status'] === 'number' ? message['status'] : 0;
    const isAuth = code === -1022 || code === -2014 || code === -2015 || status === 401;
    pending.reject(new BinanceError(isAuth ? 'BINANCE_AUTH' : 'BINANCE_REJECTED', `WebSocket API: ${msg}`, { status, venueMessage: msg, ...(code === undefined ? {} : { venueCode: code }) }));
  }

  #onEvent(payload: unknown): void {
    let event: UserEvent;
    try {
      event = parseUserEvent(payload);
    } catch (error) {
      // Skipped, not lost: an order whose report is unreadable is settled by query.
      this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'malformed user data event skipped');
      return;
    }
    if (event.type === 'terminated') {
      this.#options.logger.warn('Binance ended the user data subscription; subscribing again');
      this.#socket?.terminate();
      return;
    }
    if (event.type === 'other' && event.name === 'serverShutdown') {
      this.#socket?.terminate();
      return;
    }
    this.#options.onEvent(event);
  }

  #startWatchdog(): void {
    this.#watchdog?.cancel();
    const silenceMs = this.#options.silenceTimeoutMs ?? 45_000;
    this.#watchdog = this.#options.clock.setInterval(
      () => {
        if (this.#options.clock.nowMs() - this.#lastInboundMs >= silenceMs) this.#socket?.terminate();
      },
      Math.max(10, Math.floor(silenceMs / 3)),
      { unref: true },
    );
  }

  #onLost(socket: WebSocket, reason: string): void {
    if (socket !== this.#socket) return;
    this.#drop(reason);
    if (this.#stopped) return;
    this.#scheduleReconnect();
  }

  #drop(reason: string): void {
    this.#watchdog?.cancel();
    this.#watchdog = undefined;
    for (const pending of this.#pending.values()) {
      pending.timer.cancel();
      pending.reject(new BinanceError('BINANCE_NETWORK', `connection lost: ${reason}`));
    }
    this.#pending.clear();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket !== undefined) {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
    }
    if (this.#up) {
      this.#up = false;
      this.#options.onStatus(false, reason);
    }
  }

  #scheduleReconnect(): void {
    if (this.#reconnectTimer !== undefined || this.#stopped) return;
    const delayMs = backoffMs(this.#attempt++, this.#options.reconnect ?? { baseMs: 500, maxMs: 30_000 }, this.#options.rng);
    this.#options.logger.warn({ delayMs }, 'Binance user data stream lost; reconnecting');
    this.#reconnectTimer = this.#options.clock.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#stopped) return;
      this.#connect().catch((error: unknown) => {
        this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'user data stream reconnect failed');
        this.#drop('reconnect failed');
        this.#scheduleReconnect();
      });
    }, delayMs);
  }
}
