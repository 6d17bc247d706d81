/**
 * Plays a recording as Binance's live market: messages go out at the recorded pace divided by
 * `speed` (or as fast as the sockets drain with `max`), on the injected clock, and the server's
 * own copy of the book follows every diff it sends, so `/api/v3/depth` at any moment is what
 * Binance would answer then: a snapshot whose `lastUpdateId` is at or ahead of the stream, which a
 * client bridges exactly as documented. Before the stream reaches the recorded REST snapshot,
 * that snapshot is served (the recording's diffs up to it are already inside it).
 *
 * Event times (`E`, and a trade's `T` the same distance before it) are the replay clock's time
 * of sending: the replay is a live market now, so a client's exchange-time checks hold.
 *
 * Looping starts the recording again with every id (update ids, trade ids) moved past the
 * previous pass, so ids never go back; the jump is a gap to any client, which resyncs from a
 * fresh snapshot of the restarted book.
 */
import { sleep, type Clock, type Logger } from '../../../core/index.ts';
import { formatScaled, parseScaled, type BinanceScale } from '../decimals.ts';
import { DepthSync } from '../depth-sync.ts';
import { BinanceError } from '../errors.ts';
import { DerivedStreams } from './derived-streams.ts';
import { TradeTape } from './trade-tape.ts';
import type { DepthDiff, DepthSnapshot, ScaledLevel } from '../messages.ts';
import type { RecordingSource, ReplayEvent, TextLevel, TextSnapshot } from './recording.ts';

/** `max`, or a multiple of the recorded pace (1 = as recorded). */
export type ReplaySpeed = number | 'max';

/** Settings of a {@link Replayer}. */
export interface ReplayerOptions {
  readonly source: RecordingSource;
  readonly clock: Clock;
  readonly speed: ReplaySpeed;
  /** Start again at the end (true), or end. */
  readonly loop: boolean;
  readonly logger: Logger;
  /** Sends a payload (JSON text) to the subscribers of `stream` (lower-case stream name). */
  readonly publish: (stream: string, payload: string) => void;
  /** Bytes waiting in the subscribers' sockets, so `max` speed never outruns them. */
  readonly queuedBytes: () => number;
  /** True while someone listens to `stream` (the derived streams are built only then); default never. */
  readonly isSubscribed?: (stream: string) => boolean;
}

/** Counters of a replay. */
export interface ReplayStats {
  /** Passes started (1 on the first). */
  loops: number;
  depth: number;
  tickers: number;
  trades: number;
  /** Diffs the recording itself could not chain (its gaps): the server's book waits for its next snapshot. */
  gaps: number;
}

/** Events handed out at `max` speed before the replay yields to the sockets. */
const MAX_SPEED_BATCH = 256;
/** Socket backlog at which `max` speed waits. */
const MAX_QUEUED_BYTES = 4 << 20;
/** Ids skipped, and recorded time waited, between two passes of a looped recording. */
const LOOP_ID_GAP = 1_000;
const LOOP_PAUSE_MS = 1_000;

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** The replay of one recording. */
export class Replayer {
  readonly #options: ReplayerOptions;
  readonly #book = new DepthSync();
  readonly stats: ReplayStats = { loops: 0, depth: 0, tickers: 0, trades: 0, gaps: 0 };
  /** The trades replayed so far, as the market-data requests read them. */
  readonly tape = new TradeTape();
  #symbol = '';
  #lower = '';
  #scale: BinanceScale = { priceDecimals: 8, qtyDecimals: 8 };
  #firstSnapshot: (ReplayEvent & { kind: 'snapshot' }) | undefined;
  #tickSize = '0.00000001';
  #stepSize = '0.00000001';
  #started = false;
  #stopped = false;
  #blockedOnClock = false;
  #idleWaiters: (() => void)[] = [];
  #finish: () => void = () => undefined;
  #derived: DerivedStreams | undefined;
  // Per-pass shifts (0 on the first pass) and the spans that set them.
  #idShift = 0;
  #tradeShift = 0;
  readonly #span = { minId: Infinity, maxId: -Infinity, minTrade: Infinity, maxTrade: -Infinity };
  /** Resolves when the recording has ended (never with `loop`) or the replay is stopped. */
  readonly done: Promise<void>;

  constructor(options: ReplayerOptions) {
    this.#options = options;
    this.done = new Promise((resolve) => {
      this.#finish = resolve;
    });
  }

  /** Upper case, e.g. ETHUSDT (after `prepare`). */
  get symbol(): string {
    return this.#symbol;
  }

  /** Tick and step sizes as exchangeInfo prints them, from the recorded snapshot's levels. */
  get rules(): { readonly tickSize: string; readonly stepSize: string } {
    return { tickSize: this.#tickSize, stepSize: this.#stepSize };
  }

  /** True once the first subscriber started the clock. */
  get isStarted(): boolean {
    return this.#started;
  }

  /**
   * Finds the recording's first REST snapshot and builds the server's book from it.
   * @throws BinanceError `BINANCE_MALFORMED` when the recording holds no snapshot.
   */
  async prepare(): Promise<void> {
    const source = this.#options.source;
    await source.forEach((event) => {
      if (event.kind !== 'snapshot') return true;
      this.#firstSnapshot = event;
      return false;
    });
    const info = source.info;
    if (this.#firstSnapshot === undefined || info === undefined || info.symbol === '') {
      throw new BinanceError('BINANCE_MALFORMED', 'the recording holds no depth snapshot (lastUpdateId): /api/v3/depth could not be served');
    }
    this.#symbol = info.symbol;
    this.#lower = info.symbol.toLowerCase();
    this.#scale = { priceDecimals: info.priceDecimals, qtyDecimals: info.qtyDecimals };
    const snapshot = this.#parseSnapshot(this.#firstSnapshot);
    let tick = 0;
    let step = 0;
    for (const level of [...snapshot.bids, ...snapshot.asks]) {
      tick = gcd(tick, level.price);
      if (level.qty > 0) step = gcd(step, level.qty);
    }
    if (tick > 0) this.#tickSize = formatScaled(tick, info.priceDecimals);
    if (step > 0) this.#stepSize = formatScaled(step, info.qtyDecimals);
    this.#book.applySnapshot(snapshot);
    this.#derived = new DerivedStreams({
      stream: this.#lower,
      symbol: this.#symbol,
      publish: this.#options.publish,
      isSubscribed: this.#options.isSubscribed ?? (() => false),
      snapshot: (limit) => this.snapshot(limit),
    });
  }

  /** Starts the clock of the replay (the first subscriber does); idempotent. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    void this.#run().catch((error: unknown) => {
      this.#options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'replay failed');
      this.stop();
    });
  }

  /** Stops the replay; `done` resolves. Idempotent. */
  stop(): void {
    this.#stopped = true;
    this.#finish();
    this.#wakeIdle();
  }

  /** Decimals of the book's integer prices and quantities. */
  get scale(): BinanceScale {
    return this.#scale;
  }

  /**
   * Up to `limit` levels of one side of the live book, best first, in the integers of `scale`;
   * undefined while the recording's own gap is unhealed. What a taker order matches against.
   */
  bookLevels(side: 'buy' | 'sell', limit: number): ScaledLevel[] | undefined {
    if (this.#book.state !== 'synced') return undefined;
    return this.#book.book.levels(side, limit).map((level) => ({ price: level.priceTicks, qty: level.qtyLots }));
  }

  /** The book as `/api/v3/depth` serves it now; undefined while the recording's own gap is unhealed. */
  snapshot(limit: number): TextSnapshot | undefined {
    if (this.#book.state !== 'synced') return undefined;
    const { priceDecimals, qtyDecimals } = this.#scale;
    const text = (side: 'buy' | 'sell'): TextLevel[] =>
      this.#book.book.levels(side, limit).map((level) => [formatScaled(level.priceTicks, priceDecimals), formatScaled(level.qtyLots, qtyDecimals)] as const);
    return { lastUpdateId: this.#book.lastUpdateId, bids: text('buy'), asks: text('sell') };
  }

  /** Resolves when the replay waits for the clock (everything due has been sent) or has ended. */
  whenIdle(): Promise<void> {
    if (this.#blockedOnClock || this.#stopped || !this.#started) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  async #run(): Promise<void> {
    const { clock, source, speed } = this.#options;
    const startMs = clock.nowMs();
    let passOffsetMs = 0;
    let replayedMs = 0;
    while (!this.#stopped) {
      this.stats.loops++;
      if (this.stats.loops > 1) this.#restartPass();
      let firstLocalMs: number | undefined;
      let sinceYield = 0;
      await source.forEach(async (event) => {
        if (this.#stopped) return false;
        firstLocalMs ??= event.localMs;
        replayedMs = passOffsetMs + Math.max(0, event.localMs - firstLocalMs);
        if (speed === 'max') {
          if (++sinceYield >= MAX_SPEED_BATCH) {
            sinceYield = 0;
            await this.#yieldToSockets();
          }
        } else {
          const dueMs = startMs + replayedMs / speed;
          if (dueMs > clock.nowMs()) await this.#sleepUntil(dueMs);
        }
        if (this.#stopped) return false;
        this.#emit(event);
        return true;
      });
      this.#closeAggregate(Math.floor(clock.nowMs()));
      if (!this.#options.loop) break;
      passOffsetMs = replayedMs + LOOP_PAUSE_MS;
    }
    this.stop();
  }

  async #sleepUntil(dueMs: number): Promise<void> {
    this.#blockedOnClock = true;
    this.#wakeIdle();
    await new Promise<void>((resolve) => {
      this.#options.clock.setTimeout(() => {
        // Cleared when the clock fires, not when this function resumes: a `whenIdle()` asked right
        // after the clock moved must wait for the events now due.
        this.#blockedOnClock = false;
        resolve();
      }, dueMs - this.#options.clock.nowMs());
    });
  }

  async #yieldToSockets(): Promise<void> {
    do {
      await sleep(this.#options.clock, this.#options.queuedBytes() > MAX_QUEUED_BYTES ? 5 : 0);
    } while (!this.#stopped && this.#options.queuedBytes() > MAX_QUEUED_BYTES);
  }

  #wakeIdle(): void {
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** Moves ids past the previous pass and puts the book back at the first snapshot. */
  #restartPass(): void {
    const span = this.#span;
    this.#idShift += span.maxId - span.minId + LOOP_ID_GAP;
    if (span.maxTrade >= span.minTrade) this.#tradeShift += span.maxTrade - span.minTrade + LOOP_ID_GAP;
    this.#book.reset();
    this.#book.applySnapshot(this.#parseSnapshot(this.#firstSnapshot as ReplayEvent & { kind: 'snapshot' }));
    this.#options.logger.info({ pass: this.stats.loops, idShift: this.#idShift }, 'recording restarts (clients resync)');
  }

  #emit(event: ReplayEvent): void {
    const span = this.#span;
    const nowMs = Math.floor(this.#options.clock.nowMs());
    const derived = this.#derived;
    if (event.kind !== 'trade') this.#closeAggregate(nowMs);
    switch (event.kind) {
      case 'depth': {
        span.minId = Math.min(span.minId, event.firstUpdateId);
        span.maxId = Math.max(span.maxId, event.lastUpdateId);
        const diff: DepthDiff = {
          firstUpdateId: event.firstUpdateId + this.#idShift,
          lastUpdateId: event.lastUpdateId + this.#idShift,
          eventMs: nowMs,
          bids: this.#parseLevels(event.bids),
          asks: this.#parseLevels(event.asks),
          receivedMs: event.localMs,
        };
        derived?.beforeDepth(nowMs);
        if (this.#book.onDiff(diff) === 'gap') this.stats.gaps++;
        this.stats.depth++;
        this.#options.publish(
          `${this.#lower}@depth@100ms`,
          `{"e":"depthUpdate","E":${diff.eventMs},"s":${JSON.stringify(this.#symbol)},"U":${diff.firstUpdateId},"u":${diff.lastUpdateId},"b":${JSON.stringify(event.bids)},"a":${JSON.stringify(event.asks)}}`,
        );
        derived?.afterDepth({ firstUpdateId: diff.firstUpdateId, lastUpdateId: diff.lastUpdateId, bids: event.bids, asks: event.asks }, nowMs);
        return;
      }
      case 'ticker':
        span.minId = Math.min(span.minId, event.updateId);
        span.maxId = Math.max(span.maxId, event.updateId);
        this.stats.tickers++;
        this.#options.publish(`${this.#lower}@bookTicker`, JSON.stringify({ u: event.updateId + this.#idShift, s: this.#symbol, b: event.bid, B: event.bidQty, a: event.ask, A: event.askQty }));
        return;
      case 'trade': {
        span.minTrade = Math.min(span.minTrade, event.tradeId);
        span.maxTrade = Math.max(span.maxTrade, event.tradeId);
        this.stats.trades++;
        const trade = { tradeId: event.tradeId + this.#tradeShift, price: event.price, qty: event.qty, tradeMs: nowMs - Math.max(0, event.eventMs - event.tradeMs), recordedTradeMs: event.tradeMs, buyerIsMaker: event.buyerIsMaker };
        this.#options.publish(
          `${this.#lower}@trade`,
          JSON.stringify({
            e: 'trade',
            E: nowMs,
            s: this.#symbol,
            t: trade.tradeId,
            p: trade.price,
            q: trade.qty,
            T: trade.tradeMs,
            m: trade.buyerIsMaker,
            M: true,
          }),
        );
        const closed = this.tape.add(trade);
        if (closed !== undefined) derived?.publishAggregate(closed, nowMs);
        return;
      }
      case 'snapshot':
        span.minId = Math.min(span.minId, event.lastUpdateId);
        span.maxId = Math.max(span.maxId, event.lastUpdateId);
        // A REST answer in the recording, not a stream message: it only heals the server's own book.
        this.#book.applySnapshot(this.#parseSnapshot(event));
        return;
    }
  }

  /** Closes the tape's open aggregate and sends it to the `@aggTrade` subscribers. */
  #closeAggregate(nowMs: number): void {
    const closed = this.tape.flush();
    if (closed !== undefined) this.#derived?.publishAggregate(closed, nowMs);
  }

  #parseSnapshot(event: ReplayEvent & { kind: 'snapshot' }): DepthSnapshot {
    return { lastUpdateId: event.lastUpdateId + this.#idShift, bids: this.#parseLevels(event.bids), asks: this.#parseLevels(event.asks), receivedMs: event.localMs };
  }

  #parseLevels(levels: readonly TextLevel[]): ScaledLevel[] {
    const { priceDecimals, qtyDecimals } = this.#scale;
    const result: ScaledLevel[] = [];
    for (const [priceText, qtyText] of levels) {
      const price = parseScaled(priceText, priceDecimals);
      const qty = parseScaled(qtyText, qtyDecimals);
      if (price !== undefined && qty !== undefined && price > 0) result.push({ price, qty });
    }
    return result;
  }
}
