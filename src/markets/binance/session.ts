/**
 * Keeps one live stream connection to Binance: reconnects with seeded, jittered exponential
 * backoff after a loss, and replaces the connection before Binance's 24-hour limit (or when it
 * announces `serverShutdown`) without a gap: a standby connection is opened, its frames are
 * queued, and it takes over once the owner says its queue continues what the old connection
 * delivered (for the depth stream: its first diff has U ≤ the book's id + 1). The old connection
 * is closed only then, so the book never has to be rebuilt for a planned switch.
 */
import type { Clock, Logger, Rng, Timer } from '../../core/index.ts';
import { StreamConnection, type ConnectionHandlers, type ConnectionTiming } from './connection.ts';

/** A frame of the standby connection, waiting for the handover. */
export interface QueuedFrame {
  readonly text: string;
  readonly receivedMs: number;
}

/** Exponential backoff bounds, ms. */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Timing of a session. */
export interface SessionTiming extends ConnectionTiming {
  readonly reconnect: BackoffPolicy;
  /** Replace a connection this old, ms; 0 = never (then Binance's own 24 h close forces a resync). */
  readonly rolloverAfterMs: number;
  /** Switch to the standby after this long even if its frames do not yet continue the old ones, ms. */
  readonly handoverTimeoutMs: number;
}

/** What a session tells its owner. Only the active connection's frames reach `onText`, in order. */
export interface SessionHandlers {
  onText(text: string, receivedMs: number): void;
  /** A new connection is active after none was (first connect or reconnect): rebuild the book. */
  onConnected(isReconnect: boolean): void;
  /** The active connection was lost with no standby to take over; reconnecting. */
  onDisconnected(reason: string): void;
  /** A standby took over (planned or because the old one died during the overlap). */
  onHandover(planned: boolean): void;
  /** True when the queued standby frames continue what the active connection delivered. */
  canHandOver(queued: readonly QueuedFrame[]): boolean;
}

/** Most standby frames held while waiting for the handover. */
const MAX_QUEUED = 20_000;

/** Delay before retry number `attempt` (0 = first): uniform in [cap/2, cap], cap = min(max, base·2^attempt). */
export function backoffMs(attempt: number, policy: BackoffPolicy, rng: Rng): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(cap / 2 + rng.next() * (cap / 2));
}

/** One logical stream, kept alive across connections. */
export class StreamSession {
  readonly #url: string;
  readonly #clock: Clock;
  readonly #rng: Rng;
  readonly #logger: Logger;
  readonly #timing: SessionTiming;
  readonly #handlers: SessionHandlers;
  #active: StreamConnection | undefined;
  #standby: StreamConnection | undefined;
  #queue: QueuedFrame[] = [];
  #reconnectTimer: Timer | undefined;
  #rolloverTimer: Timer | undefined;
  #handoverTimer: Timer | undefined;
  #attempt = 0;
  #stopped = false;

  constructor(url: string, clock: Clock, rng: Rng, logger: Logger, timing: SessionTiming, handlers: SessionHandlers) {
    this.#url = url;
    this.#clock = clock;
    this.#rng = rng;
    this.#logger = logger;
    this.#timing = timing;
    this.#handlers = handlers;
  }

  /**
   * Opens the first connection.
   * @throws BinanceError `BINANCE_NETWORK` when it cannot be opened.
   */
  async start(): Promise<void> {
    this.#stopped = false;
    const connection = this.#connection();
    await connection.open();
    this.#activate(connection, false);
  }

  /** Closes every connection and timer; idempotent. */
  stop(): void {
    this.#stopped = true;
    for (const timer of [this.#reconnectTimer, this.#rolloverTimer, this.#handoverTimer]) timer?.cancel();
    this.#reconnectTimer = this.#rolloverTimer = this.#handoverTimer = undefined;
    this.#active?.close();
    this.#standby?.close();
    this.#active = this.#standby = undefined;
    this.#queue = [];
  }

  /** Opens a standby connection that takes over when it can; no-op while one is pending. */
  rollover(reason: string): void {
    if (this.#stopped || this.#standby !== undefined || this.#active === undefined) return;
    this.#rolloverTimer?.cancel();
    this.#rolloverTimer = undefined;
    this.#logger.info({ url: this.#url, reason }, 'opening a standby Binance connection');
    const standby = new StreamConnection(this.#url, this.#clock, this.#timing);
    standby.setHandlers({
      onText: (text, receivedMs) => {
        if (this.#standby !== standby) return;
        if (this.#queue.length >= MAX_QUEUED) this.#queue.shift();
        this.#queue.push({ text, receivedMs });
        this.#maybeHandOver();
      },
      onClosed: (why) => {
        if (this.#standby !== standby) return;
        this.#logger.warn({ reason: why }, 'standby connection lost before the handover');
        this.#dropStandby();
        this.#scheduleRollover(this.#timing.reconnect.maxMs);
      },
    });
    this.#standby = standby;
    standby.open().then(
      () => {
        if (this.#standby !== standby) return;
        standby.deliver();
        this.#handoverTimer = this.#clock.setTimeout(() => this.#handOver(true), this.#timing.handoverTimeoutMs, { unref: true });
      },
      (error: unknown) => {
        if (this.#standby !== standby) return;
        this.#logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'standby connection failed; trying again later');
        this.#dropStandby();
        this.#scheduleRollover(backoffMs(this.#attempt++, this.#timing.reconnect, this.#rng));
      },
    );
  }

  #connection(): StreamConnection {
    const connection = new StreamConnection(this.#url, this.#clock, this.#timing);
    connection.setHandlers(this.#activeHandlers(connection));
    return connection;
  }

  /** Frames of the active connection go to the owner; its end starts a reconnect (or a handover). */
  #activeHandlers(connection: StreamConnection): ConnectionHandlers {
    return {
      onText: (text, receivedMs) => {
        if (this.#active !== connection) return;
        this.#handlers.onText(text, receivedMs);
        this.#maybeHandOver();
      },
      onClosed: (reason) => {
        if (this.#active === connection) this.#onActiveLost(reason);
      },
    };
  }

  #activate(connection: StreamConnection, isReconnect: boolean): void {
    this.#active = connection;
    this.#attempt = 0;
    this.#scheduleRollover(this.#timing.rolloverAfterMs);
    this.#handlers.onConnected(isReconnect);
    connection.deliver();
  }

  #onActiveLost(reason: string): void {
    this.#active = undefined;
    if (this.#stopped) return;
    if (this.#standby?.isOpen() === true) {
      // The overlap saves us a reconnect; the owner's sequence check decides whether it was seamless.
      this.#handOver(false);
      return;
    }
    this.#dropStandby();
    this.#logger.warn({ url: this.#url, reason }, 'Binance connection lost; reconnecting');
    this.#handlers.onDisconnected(reason);
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#stopped || this.#reconnectTimer !== undefined) return;
    const delayMs = backoffMs(this.#attempt++, this.#timing.reconnect, this.#rng);
    this.#reconnectTimer = this.#clock.setTimeout(() => {
      this.#reconnectTimer = undefined;
      if (this.#stopped) return;
      const connection = this.#connection();
      connection.open().then(
        () => {
          if (this.#stopped) connection.close();
          else this.#activate(connection, true);
        },
        (error: unknown) => {
          this.#logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'Binance reconnect failed');
          this.#scheduleReconnect();
        },
      );
    }, delayMs);
  }

  #scheduleRollover(delayMs: number): void {
    this.#rolloverTimer?.cancel();
    this.#rolloverTimer = undefined;
    if (this.#stopped || this.#timing.rolloverAfterMs <= 0) return;
    this.#rolloverTimer = this.#clock.setTimeout(() => this.rollover('connection age limit ahead'), delayMs, { unref: true });
  }

  #maybeHandOver(): void {
    if (this.#standby?.isOpen() !== true || this.#queue.length === 0 || this.#active === undefined) return;
    if (this.#handlers.canHandOver(this.#queue)) this.#handOver(true);
  }

  #handOver(planned: boolean): void {
    const standby = this.#standby;
    if (standby === undefined || this.#stopped) return;
    this.#handoverTimer?.cancel();
    this.#handoverTimer = undefined;
    const old = this.#active;
    const queued = this.#queue;
    this.#standby = undefined;
    this.#queue = [];
    old?.close();
    this.#active = standby;
    this.#attempt = 0;
    // From now on the standby's frames flow straight through `onText`.
    standby.setHandlers(this.#activeHandlers(standby));
    this.#handlers.onHandover(planned);
    for (const frame of queued) this.#handlers.onText(frame.text, frame.receivedMs);
    this.#scheduleRollover(this.#timing.rolloverAfterMs);
  }

  #dropStandby(): void {
    this.#handoverTimer?.cancel();
    this.#handoverTimer = undefined;
    this.#standby?.close();
    this.#standby = undefined;
    this.#queue = [];
  }
}
