/**
 * Writes what a Binance reference feed takes in (its raw-market tap) as a recording in the
 * project format, with exactly the records `data import --format binance` writes for the
 * collector files: a CLEAR then the snapshot's levels each time the book is (re)built, every
 * applied diff (`seq` = u, `aux1` = U), every bookTicker as a BBO (`seq` = u) and every trade
 * (`seq` = t, side = aggressor). A replay — `akira-mm feed --data`, or a backtest's reference —
 * therefore rebuilds the same book the live client had, resyncs included.
 *
 * It joins the Binance client (src/markets) to the recording format (src/backtest/data), and a
 * market client imports only core, so the join lives with the CLI that wires them, as the venue
 * recorder's sink does (`record.ts`).
 */
import { FLAG, KIND, RecordingWriter, SIDE_BUY, SIDE_SELL, type RecordInput, type RecordingHeader } from '../backtest/data/index.ts';
import { splitSymbol } from '../core/index.ts';
import type { BinanceMarketObserver, BinanceScale, BinanceTrade, BookTicker, DepthDiff, DepthSnapshot, ScaledLevel } from '../markets/binance/index.ts';

/** Counts of what was recorded. */
export interface ReferenceRecordCounts {
  snapshots: number;
  depth: number;
  bbo: number;
  trades: number;
}

const toNs = (ms: number): bigint => BigInt(Math.round(ms * 1_000_000));

/** A tap that records a reference market; `close()` finishes the file. */
export class ReferenceRecorder implements BinanceMarketObserver {
  readonly counts: ReferenceRecordCounts = { snapshots: 0, depth: 0, bbo: 0, trades: 0 };
  readonly #path: string;
  readonly #symbol: string;
  readonly #scale: () => BinanceScale;
  #writer: RecordingWriter | undefined;
  #lastLocalNs = 0n;
  /** Exchange minus local time, from the last message carrying both (BBO and snapshots have none). */
  #offsetMs = 0;

  /**
   * @param scale the feed's parse scale, read when the first record is written (after the
   *   feed has read the symbol's rules).
   */
  constructor(path: string, symbol: string, scale: () => BinanceScale) {
    this.#path = path;
    this.#symbol = symbol.toUpperCase();
    this.#scale = scale;
  }

  onSnapshot(snapshot: DepthSnapshot): void {
    const levels: [ScaledLevel, number][] = [...snapshot.bids.filter((l) => l.qty > 0).map((l) => [l, SIDE_BUY] as [ScaledLevel, number]), ...snapshot.asks.filter((l) => l.qty > 0).map((l) => [l, SIDE_SELL] as [ScaledLevel, number])];
    const exchMs = snapshot.receivedMs + this.#offsetMs;
    const base = { flags: FLAG.exchTsEstimated, seq: snapshot.lastUpdateId } as const;
    this.#write({ kind: KIND.clear, ...base, flags: base.flags | (levels.length === 0 ? FLAG.endOfMessage : 0) }, exchMs, snapshot.receivedMs);
    levels.forEach(([level, side], i) =>
      this.#write({ kind: KIND.depth, side, ...base, flags: base.flags | FLAG.snapshot | (i === levels.length - 1 ? FLAG.endOfMessage : 0), price: level.price, qty: level.qty }, exchMs, snapshot.receivedMs),
    );
    this.counts.snapshots++;
  }

  onDiff(diff: DepthDiff): void {
    this.#offsetMs = diff.eventMs - diff.receivedMs;
    const levels: [ScaledLevel, number][] = [...diff.bids.map((l) => [l, SIDE_BUY] as [ScaledLevel, number]), ...diff.asks.map((l) => [l, SIDE_SELL] as [ScaledLevel, number])];
    levels.forEach(([level, side], i) => {
      this.#write(
        { kind: KIND.depth, side, flags: i === levels.length - 1 ? FLAG.endOfMessage : 0, seq: diff.lastUpdateId, aux1: diff.firstUpdateId, price: level.price, qty: level.qty },
        diff.eventMs,
        diff.receivedMs,
      );
      this.counts.depth++;
    });
  }

  onTicker(ticker: BookTicker): void {
    this.#write(
      { kind: KIND.bbo, flags: FLAG.endOfMessage | FLAG.exchTsEstimated, seq: ticker.updateId, price: ticker.bidPrice, qty: ticker.bidQty, aux1: ticker.askPrice, aux2: ticker.askQty },
      ticker.receivedMs + this.#offsetMs,
      ticker.receivedMs,
    );
    this.counts.bbo++;
  }

  onTrade(trade: BinanceTrade): void {
    this.#offsetMs = trade.eventMs - trade.receivedMs;
    // m = the buyer was the maker, so the aggressor sold.
    this.#write({ kind: KIND.trade, side: trade.buyerIsMaker ? SIDE_SELL : SIDE_BUY, flags: FLAG.endOfMessage, seq: trade.tradeId, price: trade.price, qty: trade.qty }, trade.tradeMs, trade.receivedMs);
    this.counts.trades++;
  }

  /** Finishes the file; undefined when nothing was recorded (no file is left then). Idempotent. */
  close(): RecordingHeader | undefined {
    return this.#writer?.close();
  }

  #write(record: Omit<RecordInput, 'exchNs' | 'localNs'>, exchMs: number, localMs: number): void {
    // Buffered diffs applied after their snapshot were received before it: local time never goes back.
    const localNs = toNs(localMs) < this.#lastLocalNs ? this.#lastLocalNs : toNs(localMs);
    this.#lastLocalNs = localNs;
    this.#writer ??= this.#open();
    this.#writer.append({ ...record, exchNs: toNs(exchMs), localNs } as RecordInput);
  }

  #open(): RecordingWriter {
    const scale = this.#scale();
    const assets = splitSymbol(this.#symbol);
    return new RecordingWriter(this.#path, {
      symbol: this.#symbol,
      source: 'binance',
      priceDecimals: scale.priceDecimals,
      qtyDecimals: scale.qtyDecimals,
      market: `binance:${this.#symbol}`,
      ...(assets === undefined ? {} : { base: assets.base, quote: assets.quote }),
    });
  }
}
