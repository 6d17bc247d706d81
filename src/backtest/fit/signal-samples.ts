/**
 * The signals along a recording, as `akira-mm fit` regresses them: the recording is streamed
 * once through the same `SignalSet` the engine quotes with (strategies/signals), fed as a
 * reference feed feeds it (the newer of the venue's own BBO and the rebuilt book's top, by update
 * id; the book's levels behind that top; every trade with its aggressor), and sampled on a grid
 * of time. Each sample pairs the directional signals now with the mid's move over the next
 * horizon, in bps: y = 10⁴ · (mid(t + h) / mid(t) − 1), mid(t + h) the last mid at or before t + h.
 */
import { OrderBook, type SignalSettings } from '../../core/index.ts';
import { ALPHA_SIGNALS, SignalSet, type SignalDepth, type SignalLevel, type SignalTop } from '../../../strategies/index.ts';
import { DataError, FLAG, KIND, SIDE_BUY, SIDE_SELL } from '../data/format.ts';
import { readRecording, readRecordingHeader } from '../data/reader.ts';

/** How the recording is sampled. */
export interface SampleOptions {
  /** The horizon of the move predicted, ms (> 0). */
  readonly horizonMs: number;
  /** One sample every this many ms of exchange time; 0 = after every book change. */
  readonly sampleMs: number;
}

/** The samples of one or more recordings, in time order. */
export interface SignalSamples {
  /** Exchange time of each sample, ms. */
  readonly timesMs: number[];
  /** One row per sample: the values of `ALPHA_SIGNALS`, in that order. */
  readonly features: number[][];
  /** The mid's move over the horizon after each sample, bps. */
  readonly movesBps: number[];
  /** Book changes and trades read. */
  readonly events: number;
}

interface MidPoint {
  readonly timeMs: number;
  readonly mid: number;
}

/**
 * Streams `paths` back to back (each file continuing the last) and returns the samples whose
 * horizon ends inside the data.
 * @throws DataError for an unreadable recording, or one whose decimals differ from the first's.
 */
export async function collectSignalSamples(paths: readonly string[], settings: SignalSettings, options: SampleOptions): Promise<SignalSamples> {
  if (!(options.horizonMs > 0)) throw new DataError('DATA_BAD_INPUT', `the horizon must be a positive number of ms, got ${options.horizonMs}`);
  const signals = new SignalSet(settings);
  const book = new OrderBook();
  const mids: MidPoint[] = [];
  const timesMs: number[] = [];
  const features: number[][] = [];
  let events = 0;
  let nowMs = Number.NEGATIVE_INFINITY;
  let nextSampleMs: number | undefined;
  let top: SignalTop | undefined;
  let topSeq = Number.NEGATIVE_INFINITY;
  let isBookChanged = false;
  let decimals: { readonly price: number; readonly qty: number } | undefined;

  const sample = (): void => {
    if (top === undefined) return;
    const values = signals.values(nowMs, depthBehind(top, book, settings.obiLevels, decimals ?? { price: 0, qty: 0 }));
    timesMs.push(nowMs);
    features.push(ALPHA_SIGNALS.map((name) => values[name]));
  };
  const onTop = (next: SignalTop | undefined, seq: number): void => {
    if (seq < topSeq) return;
    topSeq = seq;
    top = next;
    signals.onTop(nowMs, next);
    if (next !== undefined) mids.push({ timeMs: nowMs, mid: (next.bidPrice + next.askPrice) / 2 });
    events++;
    if (options.sampleMs === 0) sample();
  };

  for (const path of paths) {
    const header = readRecordingHeader(path);
    if (decimals !== undefined && (header.priceDecimals !== decimals.price || header.qtyDecimals !== decimals.qty)) {
      throw new DataError('DATA_BAD_INPUT', `${path}: prices ×10^${header.priceDecimals}, sizes ×10^${header.qtyDecimals}, unlike the first file's: give recordings of one market`);
    }
    const scale = { price: header.priceDecimals, qty: header.qtyDecimals };
    decimals = scale;
    await readRecording(path, (record) => {
      // Streams of one venue carry their own clocks: time never goes back (as the replay reads it).
      if (record.exchMs > nowMs) {
        // Grid samples due before this record's time see every event up to and at their own time, none after.
        while (nextSampleMs !== undefined && nextSampleMs < record.exchMs) {
          nowMs = nextSampleMs;
          sample();
          nextSampleMs += options.sampleMs;
        }
        nowMs = record.exchMs;
        if (options.sampleMs > 0) nextSampleMs ??= nowMs + options.sampleMs;
      }
      const seq = (record.flags & FLAG.hasSeq) !== 0 ? record.seq : Number.POSITIVE_INFINITY;
      if (record.kind === KIND.bbo) {
        onTop({ bidPrice: record.price / 10 ** scale.price, bidSize: record.qty / 10 ** scale.qty, askPrice: record.aux1 / 10 ** scale.price, askSize: record.aux2 / 10 ** scale.qty }, seq);
      } else if (record.kind === KIND.trade && (record.side === SIDE_BUY || record.side === SIDE_SELL)) {
        signals.onTrade(nowMs, record.qty / 10 ** scale.qty, record.side === SIDE_BUY ? 'buy' : 'sell');
        events++;
      } else if (record.kind === KIND.clear || record.kind === KIND.depth) {
        if (record.kind === KIND.clear) book.clear();
        else book.setLevel(record.side === SIDE_BUY ? 'buy' : 'sell', record.price, record.qty);
        isBookChanged = true;
        // A message is consistent only once all its levels are in (a diff can cross halfway).
        if ((record.flags & FLAG.endOfMessage) !== 0 && isBookChanged) {
          isBookChanged = false;
          onTop(topOfBook(book, scale), seq);
        }
      }
    });
  }
  return { ...withMoves(timesMs, features, mids, options.horizonMs), events };
}

/** The rebuilt book's top as numbers; undefined when a side is empty or the book is crossed. */
function topOfBook(book: OrderBook, scale: { readonly price: number; readonly qty: number }): SignalTop | undefined {
  const bid = book.bestBid();
  const ask = book.bestAsk();
  if (bid === undefined || ask === undefined || bid.priceTicks >= ask.priceTicks) return undefined;
  return { bidPrice: bid.priceTicks / 10 ** scale.price, bidSize: bid.qtyLots / 10 ** scale.qty, askPrice: ask.priceTicks / 10 ** scale.price, askSize: ask.qtyLots / 10 ** scale.qty };
}

/**
 * `levels` levels a side: the top (maybe newer than the book, from the venue's BBO) first, then
 * the book's levels behind it (those at or inside the top's price are older news and left out).
 */
function depthBehind(top: SignalTop, book: OrderBook, levels: number, scale: { readonly price: number; readonly qty: number }): SignalDepth {
  const priceScale = 10 ** scale.price;
  const qtyScale = 10 ** scale.qty;
  const side = (which: 'buy' | 'sell', price: number, qty: number): SignalLevel[] => {
    const out: SignalLevel[] = [{ price, qty }];
    // One more than needed: a level at the top's price is skipped.
    for (const level of book.levels(which, levels + 1)) {
      if (out.length >= levels) break;
      const levelPrice = level.priceTicks / priceScale;
      if (which === 'buy' ? levelPrice < price : levelPrice > price) out.push({ price: levelPrice, qty: level.qtyLots / qtyScale });
    }
    return out;
  };
  return { bids: side('buy', top.bidPrice, top.bidSize), asks: side('sell', top.askPrice, top.askSize) };
}

/** The samples whose horizon ends inside the data, each with the mid's move over it (bps). */
function withMoves(timesMs: readonly number[], features: readonly number[][], mids: readonly MidPoint[], horizonMs: number): Omit<SignalSamples, 'events'> {
  const out: Omit<SignalSamples, 'events'> = { timesMs: [], features: [], movesBps: [] };
  const lastMs = mids.length === 0 ? Number.NEGATIVE_INFINITY : (mids[mids.length - 1] as MidPoint).timeMs;
  let now = -1;
  let later = -1;
  for (let i = 0; i < timesMs.length; i++) {
    const t = timesMs[i] as number;
    if (t + horizonMs > lastMs) break;
    // Both cursors only move forward: the last mid at or before t, and at or before t + h.
    while (now + 1 < mids.length && (mids[now + 1] as MidPoint).timeMs <= t) now++;
    while (later + 1 < mids.length && (mids[later + 1] as MidPoint).timeMs <= t + horizonMs) later++;
    if (now < 0) continue;
    const from = (mids[now] as MidPoint).mid;
    const to = (mids[later] as MidPoint).mid;
    out.timesMs.push(t);
    out.features.push(features[i] as number[]);
    out.movesBps.push(10_000 * (to / from - 1));
  }
  return out;
}
