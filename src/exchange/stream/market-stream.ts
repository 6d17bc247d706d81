/**
 * The WS connection (SPEC §4, REFERENCE §3) on `ws`: a listen key fetched before each connect and
 * prolonged every 25 min (SPEC §1: the sim's key lives 30), subscriptions acknowledged by id and
 * restored after every reconnect, malformed frames logged and skipped, and a watchdog that calls
 * the connection dead after 2 unanswered pings or 30 s without any inbound frame while something
 * is subscribed. Reconnects back off with jitter. After a reconnect, once every subscription is
 * back, `onReconnected` tells the owner that events (fills!) may have been missed meanwhile.
 */
import { WebSocket } from 'ws';
import { type Clock, type Logger, type Pair, type Rng, type Secret, type Timer, type ChainInfo } from '../../core/index.ts';
import { WireError, addressToHex } from '../wire/fields.ts';
import type { AnomalySink } from '../wire/anomalies.ts';
import { backoffDelayMs, type BackoffPolicy } from '../client/backoff.ts';
import { ExchangeError } from '../client/errors.ts';
import { parseFrame, subscriptionMessage, topicKey, type StreamEvent, type Topic } from './messages.ts';

/** Where listen keys come from (the REST client's `listenKey`). */
export interface ListenKeySource {
  listenKey(): Promise<Secret>;
}

/** What the stream tells its owner. Handlers must not throw (they are guarded anyway). */
export interface StreamHandlers {
  onEvent(event: StreamEvent): void;
  /** Connected with every subscription restored (true), or connection lost (false). */
  onStatus?(isUp: boolean): void;
  /** A reconnect completed: anything sent while we were away is lost. */
  onReconnected?(): void;
  /**
   * A private (fills) frame could not be read at all and was skipped: a fill may be lost, so the
   * owner should heal from REST now rather than at the next timer.
   */
  onUnreadableFill?(): void;
}

/** Timing of the stream; defaults in {@link DEFAULT_STREAM_TIMING}. */
export interface StreamTiming {
  /** Client ping period, ms. Default 15 000 (the sim pings as often, SPEC §4). */
  readonly pingIntervalMs?: number;
  /** Unanswered pings that kill the connection. Default 2. */
  readonly maxMissedPongs?: number;
  /** No inbound frame at all for this long while subscribed kills it, ms. Default 30 000. */
  readonly silenceTimeoutMs?: number;
  /** Wait for an ack, ms. Default 10 000. */
  readonly ackTimeoutMs?: number;
  /** Wait for the socket to open, ms. Default 10 000. */
  readonly connectTimeoutMs?: number;
  /** Listen-key prolongation period, ms. Default 25 min (SPEC §1). */
  readonly listenKeyRefreshMs?: number;
  /** Reconnect backoff. Default 500 ms doubling to 30 s, jittered. */
  readonly reconnect?: BackoffPolicy;
}

/** Defaults of {@link StreamTiming}. */
export const DEFAULT_STREAM_TIMING: Required<StreamTiming> = {
  pingIntervalMs: 15_000,
  maxMissedPongs: 2,
  silenceTimeoutMs: 30_000,
  ackTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  listenKeyRefreshMs: 25 * 60_000,
  reconnect: { baseMs: 500, maxMs: 30_000 },
};

/** Collaborators and settings of a {@link MarketStream}. */
export interface MarketStreamOptions {
  /** e.g. wss://api.layerakira.xyz/ws */
  readonly url: string;
  /** Signer public key, sent as `signer` (REFERENCE §3.1). */
  readonly signerKey: bigint;
  readonly chain: ChainInfo;
  readonly keys: ListenKeySource;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly handlers: StreamHandlers;
  /** Pair of one of our orders, for fills that do not name it. */
  readonly pairOfOrder?: (orderHash: bigint) => Pair | undefined;
  readonly defaultPair?: Pair;
  readonly timing?: StreamTiming;
  /** Where oddities read past are reported (and unreadable frames, by kind). */
  readonly anomalies?: AnomalySink;
}

interface PendingAck {
  /** "subscribe bbo:ETH-USDC:eco", for error messages. */
  readonly what: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: Timer;
}

/** One WS connection with its subscriptions, kept alive. */
export class MarketStream {
  readonly #options: MarketStreamOptions;
  readonly #timing: Required<StreamTiming>;
  readonly #topics = new Map<string, Topic>();
  readonly #pending = new Map<number, PendingAck>();
  #socket: WebSocket | undefined;
  #nextId = 1;
  #heartbeat: Timer | undefined;
  #keyRefresh: Timer | undefined;
  #reconnectTimer: Timer | undefined;
  #reconnectAttempt = 0;
  #lastInboundMs = 0;
  #missedPongs = 0;
  #isUp = false;
  #hasConnected = false;
  #stopped = false;
  /** Counters for metrics and tests. */
  readonly stats = { connects: 0, reconnects: 0, malformedFrames: 0, deadConnections: 0, pongs: 0 };

  constructor(options: MarketStreamOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_STREAM_TIMING, ...options.timing };
  }

  /**
   * Connects once and starts the listen-key timer. Later losses reconnect on their own.
   * @throws ExchangeError when the first connection (or its listen key) fails.
   */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#keyRefresh ??= this.#options.clock.setInterval(() => void this.#prolongKey(), this.#timing.listenKeyRefreshMs, { unref: true });
    try {
      await this.#connect();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Closes the socket and every timer; pending acks fail with `WS_CLOSED`. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#keyRefresh?.cancel();
    this.#keyRefresh = undefined;
    this.#reconnectTimer?.cancel();
    this.#reconnectTimer = undefined;
    const socket = this.#socket;
    this.#teardown('stopped');
    if (socket !== undefined && socket.readyState === WebSocket.OPEN) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000, 'client stop');
        const guard = this.#options.clock.setTimeout(() => {
          socket.terminate();
          resolve();
        }, 1_000);
        socket.once('close', () => guard.cancel());
      });
    }
  }

  /** True while connected with subscriptions restored. */
  isUp(): boolean {
    return this.#isUp;
  }

  /**
   * Adds a subscription (kept across reconnects) and, when connected, waits for its ack.
   * @throws ExchangeError `WS_SUBSCRIBE_FAILED` on an error ack or no ack in time.
   */
  async subscribe(topic: Topic): Promise<void> {
    this.#topics.set(topicKey(topic), topic);
    if (this.#socket?.readyState === WebSocket.OPEN) await this.#request(topic, 'subscribe');
  }

  /** Drops a subscription and, when connected, waits for its ack. */
  async unsubscribe(topic: Topic): Promise<void> {
    this.#topics.delete(topicKey(topic));
    if (this.#socket?.readyState === WebSocket.OPEN) await this.#request(topic, 'unsubscribe');
  }

  /** Closes the current socket as if it died (tests, and the owner's own staleness checks). */
  forceReconnect(reason: string): void {
    if (this.#socket !== undefined) this.#onDead(reason);
  }

  // ── connection ───────────────────────────────────────────────────────────────────────────

  async #connect(): Promise<void> {
    const key = await this.#options.keys.listenKey();
    const url = new URL(this.#options.url);
    url.searchParams.set('listenKey', key.reveal());
    url.searchParams.set('signer', addressToHex(this.#options.signerKey));
    const socket = new WebSocket(url.toString(), { handshakeTimeout: this.#timing.connectTimeoutMs });
    this.#socket = socket;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        if (this.#socket === socket) this.#socket = undefined;
        reject(new ExchangeError('EXCHANGE_NETWORK', `WS connect failed: ${error.message}`, { endpoint: 'WS connect', cause: error }));
      };
      socket.once('open', () => {
        socket.removeListener('error', fail);
        resolve();
      });
      socket.once('error', fail);
      socket.once('unexpected-response', (_request, response) => fail(new Error(`HTTP ${response.statusCode}`)));
    });
    this.stats.connects++;
    this.#lastInboundMs = this.#options.clock.nowMs();
    this.#missedPongs = 0;
    socket.on('message', (data, isBinary) => this.#onMessage(socket, data, isBinary));
    socket.on('ping', () => this.#touch(socket));
    socket.on('pong', () => {
      this.stats.pongs++;
      this.#touch(socket);
      this.#missedPongs = 0;
    });
    socket.on('close', (code) => {
      if (this.#socket === socket) this.#onDead(`closed with code ${code}`);
    });
    socket.on('error', (error) => {
      if (this.#socket === socket) this.#onDead(`socket error: ${error.message}`);
    });
    this.#heartbeat = this.#options.clock.setInterval(() => this.#checkHealth(socket), this.#timing.pingIntervalMs, { unref: true });
    try {
      await Promise.all([...this.#topics.values()].map((topic) => this.#request(topic, 'subscribe')));
    } catch (error) {
      // A subscription that will not come back is a dead connection: start over (unless the
      // socket already died, which is why the acks failed).
      if (this.#socket === socket) this.#onDead(`resubscribe failed: ${errorText(error)}`);
      throw error;
    }
    this.#reconnectAttempt = 0;
    const isReconnect = this.#hasConnected;
    this.#hasConnected = true;
    this.#setUp(true);
    if (isReconnect) {
      this.stats.reconnects++;
      this.#guard(() => this.#options.handlers.onReconnected?.());
    }
  }

  #touch(socket: WebSocket): void {
    if (socket === this.#socket) this.#lastInboundMs = this.#options.clock.nowMs();
  }

  #checkHealth(socket: WebSocket): void {
    if (socket !== this.#socket) return;
    const silentMs = this.#options.clock.nowMs() - this.#lastInboundMs;
    if (this.#missedPongs >= this.#timing.maxMissedPongs) {
      this.#onDead(`${this.#missedPongs} pings unanswered`);
      return;
    }
    if (this.#topics.size > 0 && silentMs >= this.#timing.silenceTimeoutMs) {
      this.#onDead(`silent for ${silentMs} ms`);
      return;
    }
    this.#missedPongs++;
    try {
      socket.ping();
    } catch {
      this.#onDead('ping failed');
    }
  }

  #onDead(reason: string): void {
    if (this.#stopped) return;
    this.stats.deadConnections++;
    this.#options.logger.warn({ reason }, 'WS connection lost; reconnecting');
    this.#teardown(reason);
    this.#scheduleReconnect();
  }

  #teardown(reason: string): void {
    const socket = this.#socket;
    this.#socket = undefined;
    this.#heartbeat?.cancel();
    this.#heartbeat = undefined;
    for (const [id, pending] of this.#pending) {
      pending.timer.cancel();
      pending.reject(new ExchangeError('WS_CLOSED', `connection closed (${reason}) before ack ${id}`, { endpoint: 'WS' }));
    }
    this.#pending.clear();
    if (socket !== undefined) {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (!this.#stopped) socket.terminate();
    }
    this.#setUp(false);
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#reconnectTimer !== undefined) return;
    const delayMs = backoffDelayMs(this.#reconnectAttempt++, this.#timing.reconnect, this.#options.rng);
    this.#reconnectTimer = this.#options.clock.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#stopped) return;
      this.#connect().catch((error: unknown) => {
        this.#options.logger.warn({ err: errorText(error) }, 'WS reconnect failed');
        if (this.#socket === undefined) this.#scheduleReconnect();
      });
    }, delayMs);
  }

  async #prolongKey(): Promise<void> {
    try {
      await this.#options.keys.listenKey();
    } catch (error) {
      this.#options.logger.warn({ err: errorText(error) }, 'listen key prolongation failed; the next reconnect fetches a new one');
    }
  }

  #setUp(isUp: boolean): void {
    if (this.#isUp === isUp) return;
    this.#isUp = isUp;
    this.#guard(() => this.#options.handlers.onStatus?.(isUp));
  }

  // ── frames ───────────────────────────────────────────────────────────────────────────────

  #request(topic: Topic, action: 'subscribe' | 'unsubscribe'): Promise<void> {
    const socket = this.#socket;
    if (socket === undefined || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ExchangeError('WS_CLOSED', `not connected for ${action} ${topicKey(topic)}`, { endpoint: 'WS' }));
    }
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      const timer = this.#options.clock.setTimeout(() => {
        this.#pending.delete(id);
        reject(new ExchangeError('WS_SUBSCRIBE_FAILED', `no ack for ${action} ${topicKey(topic)} in ${this.#timing.ackTimeoutMs} ms`, { endpoint: 'WS' }));
      }, this.#timing.ackTimeoutMs);
      this.#pending.set(id, { what: `${action} ${topicKey(topic)}`, resolve, reject, timer });
      socket.send(JSON.stringify(subscriptionMessage(topic, id, action)));
    });
  }

  #onMessage(socket: WebSocket, data: WebSocket.RawData, isBinary: boolean): void {
    if (socket !== this.#socket) return;
    this.#lastInboundMs = this.#options.clock.nowMs();
    const text = rawToText(data, isBinary);
    let frame;
    try {
      frame = parseFrame(text, {
        chain: this.#options.chain,
        receivedMs: this.#lastInboundMs,
        ...(this.#options.pairOfOrder === undefined ? {} : { pairOfOrder: this.#options.pairOfOrder }),
        ...(this.#options.defaultPair === undefined ? {} : { defaultPair: this.#options.defaultPair }),
        ...(this.#options.anomalies === undefined ? {} : { anomalies: this.#options.anomalies }),
      });
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      // A bad frame is the venue's bug, not a reason to drop the connection (or crash).
      this.stats.malformedFrames++;
      const isPrivate = looksPrivate(text);
      this.#options.anomalies?.(isPrivate ? 'unreadable_fill' : 'unreadable_frame', error.field, error.message);
      this.#options.logger.warn({ err: error.message, frame: text.length > 300 ? `${text.slice(0, 297)}...` : text }, 'malformed WS frame skipped');
      if (isPrivate) this.#guard(() => this.#options.handlers.onUnreadableFill?.());
      return;
    }
    if (frame.type === 'ack') {
      const pending = this.#pending.get(frame.id);
      if (pending === undefined) return;
      this.#pending.delete(frame.id);
      pending.timer.cancel();
      if (frame.ok) pending.resolve();
      else pending.reject(new ExchangeError('WS_SUBSCRIBE_FAILED', `${pending.what} refused: ${frame.error}`, { endpoint: 'WS', venueError: frame.error }));
      return;
    }
    this.#guard(() => this.#options.handlers.onEvent(frame.event));
  }

  #guard(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.#options.logger.error({ err: errorText(error) }, 'stream handler threw');
    }
  }
}

/** True when a frame that failed to parse was a private one (it may have carried a fill). */
function looksPrivate(text: string): boolean {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json !== 'object' || json === null) return false;
    const { stream, client, id } = json as Record<string, unknown>;
    if (id !== undefined && id !== null) return false;
    return (typeof stream === 'string' && stream.startsWith('fills')) || client !== undefined;
  } catch {
    // Not even JSON: it may have been anything, fills included.
    return true;
  }
}

function rawToText(data: WebSocket.RawData, isBinary: boolean): string {
  void isBinary; // binary frames are UTF-8 JSON too (REFERENCE §3.1)
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
