/**
 * The market streams Binance derives from what the recording holds (web-socket-streams.md),
 * built only while someone listens to them:
 * - `<s>@depth` (1000 ms): the 100 ms diffs of each second merged into one event whose `U`..`u`
 *   span them, so its events chain exactly as Binance's do; a break in the recorded chain (a
 *   recording gap, a loop) ends the merged event early instead of hiding it;
 * - `<s>@depth<N>` and `<s>@depth<N>@100ms` (N = 5, 10, 20): the top N levels of the replayed
 *   book with its `lastUpdateId`, after every diff or at the end of every second;
 * - `<s>@aggTrade`: the aggregates the trade tape closes (`trade-tape.ts`: consecutive trades of one
 *   taker order summed), sent once the next message shows one closed, with the ids
 *   `/api/v3/aggTrades` answers.
 * A second ends when the first diff past it arrives (diffs come every 100 ms), not on a timer.
 */
import type { TextLevel, TextSnapshot } from './recording.ts';
import type { AggregateTrade } from './trade-tape.ts';
import { formatUnits8 } from './trading-format.ts';

/** Partial book depth levels Binance serves. */
export const PARTIAL_DEPTH_LEVELS = [5, 10, 20] as const;

/** One recorded diff as sent on `@depth@100ms`. */
export interface DiffEvent {
  readonly firstUpdateId: number;
  readonly lastUpdateId: number;
  readonly bids: readonly TextLevel[];
  readonly asks: readonly TextLevel[];
}

/** What the derived streams read and where they send. */
export interface DerivedStreamsContext {
  /** Lower case. */
  readonly stream: string;
  readonly symbol: string;
  readonly publish: (stream: string, payload: string) => void;
  readonly isSubscribed: (stream: string) => boolean;
  /** The replayed book's top `limit` levels; undefined while the recording's gap is unhealed. */
  readonly snapshot: (limit: number) => TextSnapshot | undefined;
}

interface MergedDiff {
  readonly firstUpdateId: number;
  lastUpdateId: number;
  readonly bids: Map<string, string>;
  readonly asks: Map<string, string>;
}

/** The derived streams of one replayed symbol. */
export class DerivedStreams {
  readonly #context: DerivedStreamsContext;
  #secondEndsMs = -Infinity;
  #merged: MergedDiff | undefined;

  constructor(context: DerivedStreamsContext) {
    this.#context = context;
  }

  /** Before a diff reaches the replayed book: ends the second when `nowMs` is past it. */
  beforeDepth(nowMs: number): void {
    if (nowMs < this.#secondEndsMs) return;
    this.#endSecond(nowMs);
    this.#secondEndsMs = (Math.floor(nowMs / 1_000) + 1) * 1_000;
  }

  /** After the replayed book took the diff. */
  afterDepth(diff: DiffEvent, nowMs: number): void {
    const { stream } = this.#context;
    for (const levels of PARTIAL_DEPTH_LEVELS) this.#publishPartial(`${stream}@depth${levels}@100ms`, levels);
    if (!this.#context.isSubscribed(`${stream}@depth`)) {
      this.#merged = undefined;
      return;
    }
    if (this.#merged !== undefined && diff.firstUpdateId !== this.#merged.lastUpdateId + 1) this.#publishMerged(nowMs);
    const merged = (this.#merged ??= { firstUpdateId: diff.firstUpdateId, lastUpdateId: diff.lastUpdateId, bids: new Map(), asks: new Map() });
    merged.lastUpdateId = diff.lastUpdateId;
    for (const [price, qty] of diff.bids) merged.bids.set(price, qty);
    for (const [price, qty] of diff.asks) merged.asks.set(price, qty);
  }

  /** Sends an aggregate the tape closed, to the `@aggTrade` subscribers. */
  publishAggregate(aggregate: AggregateTrade, nowMs: number): void {
    const { stream, symbol } = this.#context;
    if (!this.#context.isSubscribed(`${stream}@aggTrade`)) return;
    this.#context.publish(
      `${stream}@aggTrade`,
      JSON.stringify({ e: 'aggTrade', E: nowMs, s: symbol, a: aggregate.id, p: formatUnits8(aggregate.price), q: formatUnits8(aggregate.qty), f: aggregate.firstId, l: aggregate.lastId, T: aggregate.timeMs, m: aggregate.isBuyerMaker, M: true }),
    );
  }

  /** The second's merged diff and 1000 ms partial books. */
  #endSecond(nowMs: number): void {
    this.#publishMerged(nowMs);
    for (const levels of PARTIAL_DEPTH_LEVELS) this.#publishPartial(`${this.#context.stream}@depth${levels}`, levels);
  }

  #publishMerged(nowMs: number): void {
    const merged = this.#merged;
    if (merged === undefined) return;
    this.#merged = undefined;
    const levels = (map: Map<string, string>): string => JSON.stringify([...map]);
    this.#context.publish(
      `${this.#context.stream}@depth`,
      `{"e":"depthUpdate","E":${nowMs},"s":${JSON.stringify(this.#context.symbol)},"U":${merged.firstUpdateId},"u":${merged.lastUpdateId},"b":${levels(merged.bids)},"a":${levels(merged.asks)}}`,
    );
  }

  #publishPartial(name: string, levels: number): void {
    if (!this.#context.isSubscribed(name)) return;
    const book = this.#context.snapshot(levels);
    if (book === undefined) return;
    this.#context.publish(name, JSON.stringify({ lastUpdateId: book.lastUpdateId, bids: book.bids, asks: book.asks }));
  }
}
