/**
 * The book of a recorded deep market (`--hedge FILE`, `--reference FILE`) as the replay rebuilds
 * it: recorded messages applied one exchange-time message at a time, read back as the
 * `ReferenceFeed` port's top and depth in the market's own units. Both the replayed hedge venue
 * and the replayed reference feed keep one.
 */
import { OrderBook, type ReferenceDepth, type ReferenceTop, type Side } from '../../core/index.ts';
import { hedgeEventAt, type HedgeRecording } from './hedge-recording.ts';

/** A recorded market's book and its conversions from ticks and lots. */
export class RecordedBook {
  readonly book = new OrderBook();
  readonly #tick: number;
  readonly #priceScale: number;
  readonly #lot: number;
  readonly #qtyScale: number;

  constructor(private readonly recording: HedgeRecording) {
    const rules = recording.rules;
    this.#tick = Number(rules.priceTick);
    this.#priceScale = 10 ** rules.quoteDecimals;
    this.#lot = Number(rules.qtyStep);
    this.#qtyScale = 10 ** rules.baseDecimals;
  }

  /** Applies recorded events [first, end) (one exchange-time message). */
  apply(first: number, end: number): void {
    for (let i = first; i < end; i++) {
      const event = hedgeEventAt(this.recording, i);
      if (event.kind === 'clear') this.book.clear();
      else if (event.kind === 'depth') this.book.setLevel(event.side, event.priceTicks, event.qtyLots);
    }
  }

  /** Price of `ticks` in quote per base. */
  price(ticks: number): number {
    return (ticks * this.#tick) / this.#priceScale;
  }

  /** Size of `lots` in base. */
  qty(lots: number): number {
    return (lots * this.#lot) / this.#qtyScale;
  }

  /** The usable top (both sides, not crossed) at `nowMs`, or undefined. */
  top(nowMs: number): ReferenceTop | undefined {
    const bid = this.book.bestBid();
    const ask = this.book.bestAsk();
    if (bid === undefined || ask === undefined || bid.priceTicks >= ask.priceTicks) return undefined;
    return { bidPrice: this.price(bid.priceTicks), bidQty: this.qty(bid.qtyLots), askPrice: this.price(ask.priceTicks), askQty: this.qty(ask.qtyLots), updateId: 0, source: 'book', receivedMs: nowMs, exchangeMs: nowMs };
  }

  /** Up to `maxLevels` levels a side while the top is usable. */
  depth(maxLevels: number, nowMs: number): ReferenceDepth | undefined {
    if (this.top(nowMs) === undefined) return undefined;
    const side = (which: Side) => this.book.levels(which, maxLevels).map((level) => ({ price: this.price(level.priceTicks), qty: this.qty(level.qtyLots) }));
    return { bids: side('buy'), asks: side('sell'), updateId: 0, receivedMs: nowMs };
  }
}

/** True when two tops differ in a price or a size (a new top to report). */
export function topChanged(last: ReferenceTop | undefined, top: ReferenceTop): boolean {
  return last === undefined || last.bidPrice !== top.bidPrice || last.askPrice !== top.askPrice || last.bidQty !== top.bidQty || last.askQty !== top.askQty;
}

/** Counters of a replayed feed: nothing of a network happens in a replay. */
export const REPLAY_COUNTERS = { frames: 0, malformedFrames: 0, resyncs: 0, gaps: 0, crossedBooks: 0, snapshots: 0, reconnects: 0, rollovers: 0 } as const;

/**
 * Walks a recording in exchange-time messages: `scheduleUpTo(t)` hands each message with time ≤ t
 * (all records sharing one time) to `schedule(timeMs, first, end)` once, in order.
 */
export class RecordingCursor {
  #next = 0;

  constructor(private readonly recording: HedgeRecording) {}

  scheduleUpTo(timeMs: number, schedule: (atMs: number, first: number, end: number) => void): void {
    const recording = this.recording;
    while (this.#next < recording.count && (recording.timeMs[this.#next] as number) <= timeMs) {
      const first = this.#next;
      const at = recording.timeMs[first] as number;
      let end = first;
      while (end < recording.count && recording.timeMs[end] === at) end++;
      this.#next = end;
      schedule(at, first, end);
    }
  }
}
