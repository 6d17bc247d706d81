/**
 * The reference market of a backtest (`backtest --reference FILE`): a recording of a deep market
 * replayed on the session's clock beside the venue's recording, as the same `ReferenceFeed` port
 * the live Binance client implements, so FAIR_PRICE=reference|blend, the basis and the reference
 * pauses backtest unchanged. Each recorded message reaches the feed `latencyMs` after its
 * exchange time (its own latency, apart from the venue feed's). Like the live client it reports a
 * top only while its book is two-sided and not crossed, and it goes `stale` (reason `no-data`)
 * when nothing arrived for `staleAfterMs`, `synchronised` again with the next message.
 */
import type { ManualClock, ReferenceFeed, ReferenceListener, ReferenceState, ReferenceStatus, ReferenceTop, Side, Timer } from '../../core/index.ts';
import type { EventScheduler } from '../scheduler.ts';
import type { HedgeRecording } from '../hedge/hedge-recording.ts';
import { REPLAY_COUNTERS, RecordedBook, RecordingCursor, topChanged } from '../hedge/recorded-book.ts';

/** Settings of a replayed reference. */
export interface ReplayReferenceOptions {
  readonly recording: HedgeRecording;
  readonly clock: ManualClock;
  readonly scheduler: EventScheduler;
  /** From the reference's exchange time to the feed, ms. */
  readonly latencyMs: number;
  /** No message for this long: `stale` (REFERENCE_STALE_MS); 0 = never. */
  readonly staleAfterMs: number;
  /** `<venue>:<SYMBOL>`; default `binance:` + the recording's symbol. */
  readonly market?: string;
}

const KIND_TRADE = 2;
const AGGRESSORS: readonly (Side | undefined)[] = ['buy', 'sell', undefined];

/** A recorded reference market as a `ReferenceFeed`. */
export class ReplayReferenceFeed implements ReferenceFeed {
  readonly market: string;
  readonly #options: ReplayReferenceOptions;
  readonly #book: RecordedBook;
  readonly #cursor: RecordingCursor;
  #listener: ReferenceListener | undefined;
  #state: ReferenceState = 'stopped';
  #reason: ReferenceStatus['reason'] = 'stopped';
  #sinceMs = 0;
  #lastUpdateMs: number | undefined;
  #lastTop: ReferenceTop | undefined;
  #staleTimer: Timer | undefined;
  /** Messages applied, and times the book had to be rebuilt after having been usable. */
  #frames = 0;
  #resyncs = 0;

  constructor(options: ReplayReferenceOptions) {
    this.#options = options;
    this.market = options.market ?? `binance:${options.recording.header.symbol.toUpperCase()}`;
    this.#book = new RecordedBook(options.recording);
    this.#cursor = new RecordingCursor(options.recording);
  }

  /** Schedules the recorded messages up to `timeMs` (exchange time) for delivery after the latency. */
  scheduleUpTo(timeMs: number): void {
    const { scheduler, latencyMs } = this.#options;
    this.#cursor.scheduleUpTo(timeMs, (at, first, end) => scheduler.atOrder(at + latencyMs, () => this.#apply(first, end, at)));
  }

  async start(listener: ReferenceListener): Promise<void> {
    this.#listener = listener;
    this.#setState('resyncing', 'starting');
  }

  async stop(): Promise<void> {
    this.#staleTimer?.cancel();
    this.#staleTimer = undefined;
    this.#setState('stopped', 'stopped');
    this.#listener = undefined;
  }

  top(): ReferenceTop | undefined {
    return this.#state === 'synchronised' ? this.#lastTop : undefined;
  }

  depth(maxLevels: number): ReturnType<ReferenceFeed['depth']> {
    return this.#state === 'synchronised' ? this.#book.depth(maxLevels, this.#options.clock.nowMs()) : undefined;
  }

  status(): ReferenceStatus {
    return {
      market: this.market,
      state: this.#state,
      reason: this.#reason,
      sinceMs: this.#sinceMs,
      lastUpdateMs: this.#lastUpdateMs,
      mid: this.top() === undefined ? undefined : ((this.#lastTop as ReferenceTop).bidPrice + (this.#lastTop as ReferenceTop).askPrice) / 2,
      counters: { ...REPLAY_COUNTERS, frames: this.#frames, resyncs: this.#resyncs },
    };
  }

  /** One recorded message [first, end) arrives: book, top, trades, then freshness. */
  #apply(first: number, end: number, exchangeMs: number): void {
    if (this.#state === 'stopped') return;
    const nowMs = this.#options.clock.nowMs();
    this.#frames++;
    this.#lastUpdateMs = nowMs;
    this.#book.apply(first, end);
    const top = this.#book.top(nowMs);
    if (top === undefined) {
      // An unusable book (one-sided or crossed) before the first usable one is still the start.
      if (this.#state === 'synchronised') this.#resyncs++;
      this.#lastTop = undefined;
      this.#setState('resyncing', this.#reason === 'starting' ? 'starting' : 'crossed-book');
    } else {
      const changed = topChanged(this.#lastTop, top);
      if (changed) this.#lastTop = top;
      this.#setState('synchronised', undefined);
      if (changed) this.#listener?.onTop(top);
    }
    this.#emitTrades(first, end, exchangeMs, nowMs);
    this.#armStaleTimer();
  }

  #emitTrades(first: number, end: number, exchangeMs: number, nowMs: number): void {
    const recording = this.#options.recording;
    for (let i = first; i < end; i++) {
      if (recording.kind[i] !== KIND_TRADE) continue;
      const aggressor = AGGRESSORS[recording.side[i] as number];
      if (aggressor === undefined) continue;
      this.#listener?.onTrade({ price: this.#book.price(recording.priceTicks[i] as number), qty: this.#book.qty(recording.qtyLots[i] as number), aggressor, tradeId: i, exchangeMs, receivedMs: nowMs });
    }
  }

  /** One timer per stale period: when it fires early (data came since), it re-arms for the rest. */
  #armStaleTimer(): void {
    const staleAfterMs = this.#options.staleAfterMs;
    if (staleAfterMs <= 0 || this.#staleTimer !== undefined) return;
    const check = (): void => {
      this.#staleTimer = undefined;
      if (this.#state === 'stopped' || this.#lastUpdateMs === undefined) return;
      const quietMs = this.#options.clock.nowMs() - this.#lastUpdateMs;
      if (quietMs >= staleAfterMs) this.#setState('stale', 'no-data');
      else this.#staleTimer = this.#options.clock.setTimeout(check, staleAfterMs - quietMs);
    };
    this.#staleTimer = this.#options.clock.setTimeout(check, staleAfterMs);
  }

  #setState(state: ReferenceState, reason: ReferenceStatus['reason']): void {
    if (state === this.#state && reason === this.#reason) return;
    this.#state = state;
    this.#reason = reason;
    this.#sinceMs = this.#options.clock.nowMs();
    this.#listener?.onStatus(this.status());
  }
}
