/**
 * Binance's WebSocket market streams as its docs describe them (web-socket-streams.md), on
 * loopback: raw streams at `/ws/<stream>` (payload only; `/ws/<name>` without `@`, as ccxt.pro
 * opens `/ws/0`, `/ws/1` … and then subscribes, is a raw connection with no stream yet), combined
 * streams at `/stream?streams=<a>/<b>` (`{"stream","data"}` envelopes), `timeUnit=MICROSECOND` in
 * the URL for event times in µs, live `SUBSCRIBE`, `UNSUBSCRIBE`,
 * `LIST_SUBSCRIPTIONS`, `SET_PROPERTY`/`GET_PROPERTY combined` with their replies and documented
 * error messages, and the same rules a client must live with:
 * - a ping every 20 s whose pong (with the ping's payload) must come within a minute;
 * - at most 5 incoming messages (JSON, ping or pong frames) per second, else code 1008;
 * - at most 1024 streams per connection, 300 connection attempts per 5 minutes;
 * - every connection closed at the 24-hour mark; `serverShutdown` announced before a shutdown.
 * All timing runs on the injected clock, so a test can live through a day in milliseconds.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Clock, Logger, Timer } from '../../../core/index.ts';
import { refuseUpgrade } from './http-server.ts';
import { eventInUnit, parseTimeUnit, type TimeUnit } from './time-unit.ts';
import { STREAM_NAME, answerRequest, unservedStreamMessage } from './stream-requests.ts';

/** Limits and timing of the hub; defaults in {@link DEFAULT_HUB_LIMITS}. */
export interface HubLimits {
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  readonly maxConnectionAgeMs: number;
  readonly maxIncomingPerSecond: number;
  readonly maxStreams: number;
  readonly maxConnectsPer5Min: number;
}

/** Binance spot's documented values. */
export const DEFAULT_HUB_LIMITS: HubLimits = {
  pingIntervalMs: 20_000,
  pongTimeoutMs: 60_000,
  maxConnectionAgeMs: 24 * 3_600_000,
  maxIncomingPerSecond: 5,
  maxStreams: 1024,
  maxConnectsPer5Min: 300,
};

/** Counters of the hub. */
export interface HubStats {
  connectionsOpen: number;
  connectionsTotal: number;
  framesSent: number;
  /** Connections closed by a rule (pong timeout, rate limit, 24 h). */
  closedByRule: number;
}

interface Client {
  readonly socket: WebSocket;
  readonly timeUnit: TimeUnit;
  combined: boolean;
  readonly streams: Set<string>;
  /** When the oldest unanswered ping was sent, and its payload. */
  unansweredSinceMs: number | undefined;
  pingPayload: string;
  /** Receive times of recent incoming messages (the 5-per-second rule). */
  readonly recent: number[];
  readonly ageTimer: Timer;
}


/**
 * The streams a raw path names: `/ws/<stream>`, or none for `/ws` and `/ws/<name>` without `@`
 * (ccxt.pro's `/ws/<index>`, ccxt js/src/pro/binance.js `stream()`, then `SUBSCRIBE`).
 */
function rawStreams(path: string): string[] {
  const name = path.length > 4 ? decodeURIComponent(path.slice(4)) : '';
  return name.includes('@') ? [name] : [];
}

/** The WebSocket side of the server. */
export class StreamHub {
  readonly stats: HubStats = { connectionsOpen: 0, connectionsTotal: 0, framesSent: 0, closedByRule: 0 };
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #limits: HubLimits;
  readonly #onSubscribe: (streams: readonly string[]) => void;
  readonly #wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  readonly #clients = new Set<Client>();
  readonly #subscribers = new Map<string, Set<Client>>();
  readonly #connects: number[] = [];
  readonly #pinger: Timer;
  /** Test and chaos hooks: depth messages still to withhold (the server's book moves on regardless). */
  dropDepthMessages = 0;
  /** The streams served; every well-formed name until {@link serveOnly} says which. */
  #isServed: (name: string) => boolean = () => true;

  constructor(clock: Clock, logger: Logger, limits: Partial<HubLimits>, onSubscribe: (streams: readonly string[]) => void) {
    this.#clock = clock;
    this.#logger = logger;
    this.#limits = { ...DEFAULT_HUB_LIMITS, ...limits };
    this.#onSubscribe = onSubscribe;
    this.#pinger = clock.setInterval(() => this.#pingAll(), this.#limits.pingIntervalMs, { unref: true });
  }

  /** Serves only the streams `isServed` accepts: others are refused at connect (400) and in SUBSCRIBE. */
  serveOnly(isServed: (name: string) => boolean): void {
    this.#isServed = isServed;
  }

  /** True while some connection listens to `stream`. */
  isSubscribed(stream: string): boolean {
    return (this.#subscribers.get(stream)?.size ?? 0) > 0;
  }

  /** Takes an HTTP upgrade for `/ws…` or `/stream…`; false when the path is not ours. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): boolean {
    const path = url.pathname;
    const isRaw = path === '/ws' || path.startsWith('/ws/');
    const isCombined = path === '/stream' || path === '/stream/';
    if (!isRaw && !isCombined) return false;
    const now = this.#clock.nowMs();
    while (this.#connects.length > 0 && (this.#connects[0] as number) <= now - 300_000) this.#connects.shift();
    if (this.#connects.length >= this.#limits.maxConnectsPer5Min) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 60\r\nConnection: close\r\n\r\n');
      return true;
    }
    this.#connects.push(now);
    const streams = isRaw ? rawStreams(path) : (url.searchParams.get('streams') ?? '').split('/').filter((name) => name !== '');
    const unserved = streams.find((name) => !STREAM_NAME.test(name) || !this.#isServed(name));
    if (streams.length > this.#limits.maxStreams || unserved !== undefined) {
      refuseUpgrade(socket, '400 Bad Request', { code: 2, msg: unserved === undefined ? `Invalid request: a connection listens to at most ${this.#limits.maxStreams} streams` : unservedStreamMessage(unserved) });
      return true;
    }
    const timeUnit = parseTimeUnit(url.searchParams.get('timeUnit') ?? undefined) ?? 'MILLISECOND';
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, isCombined, streams, timeUnit));
    return true;
  }

  /** Sends `payload` to the subscribers of `stream`. */
  publish(stream: string, payload: string): void {
    const subscribers = this.#subscribers.get(stream);
    if (subscribers === undefined || subscribers.size === 0) return;
    // Only the diff streams: a withheld diff is the gap the fault is for (partial books carry no chain).
    if (this.dropDepthMessages > 0 && (stream.endsWith('@depth@100ms') || stream.endsWith('@depth'))) {
      this.dropDepthMessages--;
      return;
    }
    // Each form built once per message, and the µs one only when a client asked for it.
    let micros: string | undefined;
    let combined: string | undefined;
    let combinedMicros: string | undefined;
    const envelope = (text: string): string => `{"stream":${JSON.stringify(stream)},"data":${text}}`;
    for (const client of subscribers) {
      let data = payload;
      if (client.timeUnit !== 'MILLISECOND') data = micros ??= JSON.stringify(eventInUnit(JSON.parse(payload), client.timeUnit));
      if (!client.combined) {
        this.#send(client, data);
        continue;
      }
      this.#send(client, client.timeUnit === 'MILLISECOND' ? (combined ??= envelope(data)) : (combinedMicros ??= envelope(data)));
    }
  }

  /** Sends a frame as is to every connection (tests: malformed frames). */
  injectFrame(text: string): void {
    for (const client of this.#clients) this.#send(client, text);
  }

  /** Announces `serverShutdown` to every connection, then closes them after `graceMs`. */
  announceShutdown(graceMs: number): void {
    const eventMs = this.#clock.nowMs();
    const data = `{"e":"serverShutdown","E":${eventMs}}`;
    const clients = [...this.#clients];
    for (const client of clients) this.#send(client, client.combined ? `{"stream":"!serverShutdown","data":${data}}` : data);
    this.#clock.setTimeout(() => {
      for (const client of clients) client.socket.close(1001, 'server shutdown');
    }, graceMs);
  }

  /** Connections whose last ping is not answered yet (tests wait for 0 before moving the clock on). */
  awaitingPong(): number {
    let count = 0;
    for (const client of this.#clients) if (client.unansweredSinceMs !== undefined) count++;
    return count;
  }

  /** Bytes waiting in every socket. */
  queuedBytes(): number {
    let total = 0;
    for (const client of this.#clients) total += client.socket.bufferedAmount;
    return total;
  }

  /** Cuts every connection without a close frame (a network drop). */
  dropAll(): void {
    for (const client of [...this.#clients]) client.socket.terminate();
  }

  /** Closes every connection with a close frame; `stop` also ends the timers. */
  closeAll(code: number, reason: string): void {
    for (const client of [...this.#clients]) client.socket.close(code, reason);
  }

  stop(): void {
    this.#pinger.cancel();
    for (const client of [...this.#clients]) {
      client.ageTimer.cancel();
      client.socket.terminate();
    }
    this.#wss.close();
  }

  #accept(socket: WebSocket, combined: boolean, streams: readonly string[], timeUnit: TimeUnit): void {
    const client: Client = {
      socket,
      timeUnit,
      combined,
      streams: new Set(),
      unansweredSinceMs: undefined,
      pingPayload: '',
      recent: [],
      ageTimer: this.#clock.setTimeout(() => this.#closeByRule(client, 1001, 'connection lifetime of 24 hours reached'), this.#limits.maxConnectionAgeMs, { unref: true }),
    };
    this.#clients.add(client);
    this.stats.connectionsOpen++;
    this.stats.connectionsTotal++;
    socket.on('message', (data, isBinary) => {
      if (!this.#countIncoming(client)) return;
      this.#onRequest(client, isBinary ? '' : data.toString());
    });
    socket.on('ping', () => void this.#countIncoming(client));
    socket.on('pong', (payload) => {
      if (!this.#countIncoming(client)) return;
      // Only the answer to our ping counts; an unsolicited pong does not keep a connection alive.
      if (payload.toString() === client.pingPayload) client.unansweredSinceMs = undefined;
    });
    socket.on('close', () => this.#forget(client));
    socket.on('error', () => socket.terminate());
    this.#subscribe(client, streams);
  }

  #forget(client: Client): void {
    if (!this.#clients.delete(client)) return;
    client.ageTimer.cancel();
    this.stats.connectionsOpen--;
    for (const stream of client.streams) this.#subscribers.get(stream)?.delete(client);
  }

  #send(client: Client, text: string): void {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    client.socket.send(text);
    this.stats.framesSent++;
  }

  #closeByRule(client: Client, code: number, reason: string): void {
    if (!this.#clients.has(client)) return;
    this.stats.closedByRule++;
    this.#logger.info({ code, reason }, 'stream connection closed by rule');
    client.socket.close(code, reason);
    // Whatever the peer does, the connection is gone for the hub.
    this.#forget(client);
  }

  /** The 5-messages-per-second rule; false when the connection was closed for it. */
  #countIncoming(client: Client): boolean {
    const now = this.#clock.nowMs();
    client.recent.push(now);
    while ((client.recent[0] as number) <= now - 1_000) client.recent.shift();
    if (client.recent.length <= this.#limits.maxIncomingPerSecond) return true;
    this.#closeByRule(client, 1008, 'Too many requests');
    return false;
  }

  #pingAll(): void {
    const now = this.#clock.nowMs();
    for (const client of [...this.#clients]) {
      if (client.unansweredSinceMs !== undefined && now - client.unansweredSinceMs >= this.#limits.pongTimeoutMs) {
        this.#closeByRule(client, 1008, 'pong timeout');
        client.socket.terminate();
        continue;
      }
      client.unansweredSinceMs ??= now;
      client.pingPayload = String(now);
      if (client.socket.readyState === WebSocket.OPEN) client.socket.ping(client.pingPayload);
    }
  }

  #subscribe(client: Client, streams: readonly string[]): boolean {
    if (client.streams.size + streams.filter((name) => !client.streams.has(name)).length > this.#limits.maxStreams) return false;
    for (const stream of streams) {
      client.streams.add(stream);
      let set = this.#subscribers.get(stream);
      if (set === undefined) this.#subscribers.set(stream, (set = new Set()));
      set.add(client);
    }
    if (streams.length > 0) this.#onSubscribe(streams);
    return true;
  }

  #reply(client: Client, body: Record<string, unknown>): void {
    this.#send(client, JSON.stringify(body));
  }

  /** One JSON request, answered as Binance documents. */
  #onRequest(client: Client, text: string): void {
    const reply = answerRequest(text, {
      combined: client.combined,
      streams: client.streams,
      maxStreams: this.#limits.maxStreams,
      isServed: (name) => this.#isServed(name),
      subscribe: (names) => this.#subscribe(client, names),
      unsubscribe: (names) => {
        for (const name of names) {
          client.streams.delete(name);
          this.#subscribers.get(name)?.delete(client);
        }
      },
      setCombined: (combined) => {
        client.combined = combined;
      },
    });
    this.#reply(client, reply);
  }
}
