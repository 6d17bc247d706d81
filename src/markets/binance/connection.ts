/**
 * One WebSocket to a Binance stream endpoint. Binance pings every 20 s and drops a connection
 * that has not answered within a minute (web-socket-streams.md); `ws` answers every ping with a
 * pong carrying the same payload on its own. A connection that stays silent (no data and no
 * ping) for `silenceTimeoutMs` is presumed dead and closed, so a half-open TCP connection cannot
 * hold the feed in a state that looks alive.
 */
import { WebSocket } from 'ws';
import type { Clock, Timer } from '../../core/index.ts';
import { BinanceError } from './errors.ts';

/** What a connection reports to its owner. */
export interface ConnectionHandlers {
  /** A text frame, with its receive time on the injected clock. */
  onText(text: string, receivedMs: number): void;
  /** The connection ended without `close()` being called. */
  onClosed(reason: string): void;
}

/** Timing of a connection. */
export interface ConnectionTiming {
  /** Wait for the socket to open, ms. */
  readonly connectTimeoutMs: number;
  /** No inbound frame (data or ping) for this long closes it, ms. */
  readonly silenceTimeoutMs: number;
}

/** A single socket; reconnecting is the owner's job. */
export class StreamConnection {
  readonly #url: string;
  readonly #clock: Clock;
  readonly #timing: ConnectionTiming;
  #handlers: ConnectionHandlers = { onText: () => undefined, onClosed: () => undefined };
  #socket: WebSocket | undefined;
  #watchdog: Timer | undefined;
  #lastInboundMs = 0;
  #closed = false;
  /** Frames that arrived before the owner was ready for them (`deliver()`): they may share a TCP read with the handshake. */
  #held: { text: string; receivedMs: number }[] | undefined = [];
  /** When the socket opened, ms on the injected clock. */
  openedMs = 0;

  constructor(url: string, clock: Clock, timing: ConnectionTiming) {
    this.#url = url;
    this.#clock = clock;
    this.#timing = timing;
  }

  /** Where frames and the end go from now on (a standby is re-pointed when it takes over). */
  setHandlers(handlers: ConnectionHandlers): void {
    this.#handlers = handlers;
  }

  /**
   * Opens the socket.
   * @throws BinanceError `BINANCE_NETWORK` when it cannot (refused, HTTP error, timeout).
   */
  async open(): Promise<void> {
    const socket = new WebSocket(this.#url, { handshakeTimeout: this.#timing.connectTimeoutMs, perMessageDeflate: false });
    this.#socket = socket;
    // Listening before `open` resolves: frames parsed in the same turn as the handshake are kept.
    socket.on('message', (data) => {
      if (this.#closed) return;
      const receivedMs = this.#clock.nowMs();
      this.#lastInboundMs = receivedMs;
      const text = rawToText(data);
      if (this.#held === undefined) this.#handlers.onText(text, receivedMs);
      else this.#held.push({ text, receivedMs });
    });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(new BinanceError('BINANCE_NETWORK', `WS connect to ${this.#url} failed: ${error.message}`, { cause: error }));
      };
      socket.once('open', () => {
        socket.removeAllListeners('error');
        socket.removeAllListeners('unexpected-response');
        resolve();
      });
      socket.once('error', fail);
      socket.once('unexpected-response', (_request, response) => fail(new Error(`HTTP ${response.statusCode}`)));
    });
    if (this.#closed) {
      socket.terminate();
      throw new BinanceError('BINANCE_NETWORK', 'connection closed while opening');
    }
    this.openedMs = this.#clock.nowMs();
    this.#lastInboundMs = this.openedMs;
    socket.on('ping', () => {
      this.#lastInboundMs = this.#clock.nowMs();
    });
    socket.on('close', (code, reason) => this.#end(`closed by the server (code ${code}${reason.length > 0 ? `, ${reason.toString()}` : ''})`));
    socket.on('error', (error) => this.#end(`socket error: ${error.message}`));
    const checkEveryMs = Math.max(1, Math.floor(this.#timing.silenceTimeoutMs / 3));
    this.#watchdog = this.#clock.setInterval(
      () => {
        const silentMs = this.#clock.nowMs() - this.#lastInboundMs;
        if (silentMs >= this.#timing.silenceTimeoutMs) this.#end(`silent for ${silentMs} ms`);
      },
      checkEveryMs,
      { unref: true },
    );
  }

  /** Starts handing frames to `onText`, first those that arrived before. */
  deliver(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const frame of held ?? []) {
      if (this.#closed) return;
      this.#handlers.onText(frame.text, frame.receivedMs);
    }
  }

  /** Closes the socket without telling `onClosed`; idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#release();
  }

  /** True while the socket is open and not closed by us. */
  isOpen(): boolean {
    return !this.#closed && this.#socket?.readyState === WebSocket.OPEN;
  }

  #end(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#release();
    this.#handlers.onClosed(reason);
  }

  #release(): void {
    this.#watchdog?.cancel();
    this.#watchdog = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket === undefined) return;
    socket.removeAllListeners();
    socket.on('error', () => undefined);
    if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'client closing');
    else socket.terminate();
    // A peer that never answers the close handshake must not keep the socket (and the process) alive.
    const guard = this.#clock.setTimeout(() => socket.terminate(), 1_000, { unref: true });
    socket.once('close', () => guard.cancel());
  }
}

function rawToText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
