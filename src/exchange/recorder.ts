/**
 * Records a venue's public market data for backtests: the pair's `snap` deltas (after a REST
 * snapshot), `trade` and `bbo` streams, and the gas price and conversion rate on a timer, into
 * the project's recording format (docs/data-format.md) through a sink. A sequence gap in `snap`
 * is recorded honestly: a CLEAR and a fresh snapshot, as a replay must rebuild the book too.
 */
import type { ChainInfo, Clock, Logger, Pair, Rng, Timer } from '../core/index.ts';
import type { RestClient, TickerSpec } from './client/index.ts';
import { MarketStream, type StreamEvent } from './stream/index.ts';
import type { BookLevelUnits } from './book/index.ts';

/** What one recorded record carries (the writer's input, without the format's imports). */
export interface RecordedEvent {
  readonly kind: 'depth' | 'trade' | 'bbo' | 'clear' | 'gasPrice' | 'conversionRate';
  readonly side?: 'buy' | 'sell';
  readonly snapshot?: boolean;
  readonly endOfMessage?: boolean;
  readonly exchMs: number;
  readonly localMs: number;
  readonly seq?: bigint;
  /** Scaled by the recording's price/qty steps (see {@link recordingScales}). */
  readonly price?: number;
  readonly qty?: number;
  readonly aux1?: number | bigint;
  readonly aux2?: number;
}

/** Where records go (the backtest's RecordingWriter behind an adapter). */
export interface RecordSink {
  write(event: RecordedEvent): void;
}

/** Decimal scales of a pair's recording: the powers of ten its tick and lot are made of. */
export interface RecordingScales {
  readonly priceDecimals: number;
  readonly qtyDecimals: number;
  /** Raw units per scaled unit. */
  readonly priceDivisor: bigint;
  readonly qtyDivisor: bigint;
}

function trailingZeros(value: bigint): number {
  let zeros = 0;
  let v = value;
  while (v > 0n && v % 10n === 0n) {
    v /= 10n;
    zeros++;
  }
  return zeros;
}

/** Scales that keep every size below 2^53 (an ETH amount in wei would not fit). */
export function recordingScales(spec: TickerSpec, baseDecimals: number, quoteDecimals: number): RecordingScales {
  const priceZeros = Math.min(trailingZeros(spec.priceTick), quoteDecimals);
  const qtyZeros = Math.min(trailingZeros(spec.qtyStep), baseDecimals);
  return {
    priceDecimals: quoteDecimals - priceZeros,
    qtyDecimals: baseDecimals - qtyZeros,
    priceDivisor: 10n ** BigInt(priceZeros),
    qtyDivisor: 10n ** BigInt(qtyZeros),
  };
}

export interface MarketRecorderOptions {
  readonly rest: RestClient;
  readonly wsUrl: string;
  readonly signerKey: bigint;
  readonly chain: ChainInfo;
  readonly pair: Pair;
  readonly ecosystem: boolean;
  readonly scales: RecordingScales;
  readonly sink: RecordSink;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  /** Gas price and conversion rate poll period; default 10 s. */
  readonly pollMs?: number;
}

/** Records until stopped. */
export class MarketRecorder {
  readonly #options: MarketRecorderOptions;
  readonly #stream: MarketStream;
  #lastMsgId: bigint | undefined;
  #resyncing = false;
  #poller: Timer | undefined;
  #stopped = false;
  /** Counts for the command's summary. */
  readonly counts = { depth: 0, trades: 0, bbo: 0, snapshots: 0, gaps: 0, gas: 0 };

  constructor(options: MarketRecorderOptions) {
    this.#options = options;
    this.#stream = new MarketStream({
      url: options.wsUrl,
      signerKey: options.signerKey,
      chain: options.chain,
      keys: options.rest,
      clock: options.clock,
      rng: options.rng,
      logger: options.logger,
      defaultPair: options.pair,
      handlers: {
        onEvent: (event) => this.#onEvent(event),
        onStatus: () => undefined,
        // Deltas sent while we were away are lost: start the book again from a snapshot.
        onReconnected: () => void this.#snapshot('reconnected'),
      },
    });
  }

  async start(): Promise<void> {
    const { pair, ecosystem } = this.#options;
    await this.#stream.start();
    await this.#stream.subscribe({ kind: 'snap', pair, ecosystem });
    await this.#stream.subscribe({ kind: 'trade', pair, ecosystem });
    await this.#stream.subscribe({ kind: 'bbo', pair, ecosystem });
    await this.#snapshot('start');
    await this.#poll();
    this.#poller = this.#options.clock.setInterval(() => void this.#poll(), this.#options.pollMs ?? 10_000, { unref: true });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#poller?.cancel();
    await this.#stream.stop();
  }

  #now(): number {
    return this.#options.clock.nowMs();
  }

  #price(raw: bigint): number {
    return Number(raw / this.#options.scales.priceDivisor);
  }

  #qty(raw: bigint): number {
    return Number(raw / this.#options.scales.qtyDivisor);
  }

  async #snapshot(reason: string): Promise<void> {
    if (this.#resyncing || this.#stopped) return;
    this.#resyncing = true;
    try {
      const book = await this.#options.rest.snapshot(this.#options.pair, this.#options.ecosystem);
      const now = this.#now();
      const { sink } = this.#options;
      sink.write({ kind: 'clear', exchMs: now, localMs: now, seq: book.msgId, endOfMessage: book.bids.length + book.asks.length === 0 });
      const levels: [BookLevelUnits, 'buy' | 'sell'][] = [...book.bids.map((l) => [l, 'buy'] as [BookLevelUnits, 'buy']), ...book.asks.map((l) => [l, 'sell'] as [BookLevelUnits, 'sell'])];
      levels.forEach(([level, side], i) =>
        sink.write({ kind: 'depth', side, snapshot: true, exchMs: now, localMs: now, seq: book.msgId, price: this.#price(level.price), qty: this.#qty(level.qty), endOfMessage: i === levels.length - 1 }),
      );
      this.#lastMsgId = book.msgId;
      this.counts.snapshots++;
      this.#options.logger.info({ reason, msgId: String(book.msgId), levels: levels.length }, 'book snapshot recorded');
    } catch (error) {
      this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'snapshot failed; deltas wait for the next one');
      this.#lastMsgId = undefined;
    } finally {
      this.#resyncing = false;
    }
  }

  async #poll(): Promise<void> {
    const { rest, sink, pair } = this.#options;
    try {
      const gas = await rest.gasPrice();
      const now = this.#now();
      sink.write({ kind: 'gasPrice', exchMs: now, localMs: now, aux1: gas });
      this.counts.gas++;
      const rate = pair.quote === 'STRK' ? undefined : await rest.conversionRate(pair.quote);
      if (rate !== undefined) {
        const [r0, r1] = rate;
        // Quote tokens per STRK, in the recording's price scale: r1 quote units buy r0 fri.
        const quotePerStrk = (r1 * 10n ** 18n) / (r0 === 0n ? 1n : r0);
        sink.write({ kind: 'conversionRate', exchMs: now, localMs: this.#now(), price: this.#price(quotePerStrk) });
      }
    } catch (error) {
      this.#options.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'gas or rate poll failed');
    }
  }

  #onEvent(event: StreamEvent): void {
    if (this.#stopped) return;
    const { sink } = this.#options;
    switch (event.type) {
      case 'snap': {
        const delta = event.delta;
        if (this.#lastMsgId === undefined || this.#resyncing) return;
        if (delta.msgIdEnd <= this.#lastMsgId) return; // already in the snapshot
        if (delta.msgIdStart !== this.#lastMsgId + 1n) {
          this.counts.gaps++;
          void this.#snapshot('sequence gap');
          return;
        }
        const levels = [...delta.bids.map((l) => [l, 'buy'] as const), ...delta.asks.map((l) => [l, 'sell'] as const)];
        levels.forEach(([level, side], i) => {
          sink.write({
            kind: 'depth',
            side,
            exchMs: event.timeMs,
            localMs: event.receivedMs,
            seq: delta.msgIdEnd,
            aux1: Number(delta.msgIdStart),
            price: this.#price(level.price),
            qty: this.#qty(level.qty),
            endOfMessage: i === levels.length - 1,
          });
          this.counts.depth++;
        });
        this.#lastMsgId = delta.msgIdEnd;
        return;
      }
      case 'trade':
        sink.write({ kind: 'trade', side: event.isSellSide ? 'sell' : 'buy', exchMs: event.timeMs, localMs: event.receivedMs, price: this.#price(event.price), qty: this.#qty(event.baseQty), endOfMessage: true });
        this.counts.trades++;
        return;
      case 'bbo':
        sink.write({
          kind: 'bbo',
          exchMs: event.timeMs,
          localMs: event.receivedMs,
          price: event.bid === undefined ? 0 : this.#price(event.bid.price),
          qty: event.bid === undefined ? 0 : this.#qty(event.bid.qty),
          aux1: event.ask === undefined ? 0 : this.#price(event.ask.price),
          aux2: event.ask === undefined ? 0 : this.#qty(event.ask.qty),
          endOfMessage: true,
        });
        this.counts.bbo++;
        return;
      default:
        return;
    }
  }
}
