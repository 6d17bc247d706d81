/**
 * The replay's inner loop: the records of a chunk, decoded field by field (only the fields the
 * replay reads; `decodeRecord` has the layout), as calls of a `RecordedEventHandler` at exchange
 * time. The loop is synchronous and stops only where the handler returned a promise: the caller
 * awaits it and resumes. An `await` inside the loop itself kept the whole loop a resumable async
 * body, a quarter slower per record, though almost no record needs one.
 */
import type { Side } from '../../core/index.ts';
import type { RecordedEventHandler } from './events.ts';
import { DataError, KIND, RECORD_BYTES, SIDE_BUY, SIDE_SELL, nsHalvesToMs } from './format.ts';
import { readExactFields, type RecordChunk } from './reader.ts';
import type { RecordingScale } from './scale.ts';

const TWO_32 = 4_294_967_296;

/** Feeds chunks of records to a handler; one per replay, across files and passes. */
export class RecordDispatcher {
  /** Events delivered (venue BBO records and conversion rates are not events of the replay). */
  events = 0;
  /** What the handler returned, to be awaited before `dispatch` resumes. */
  pending: Promise<void> | undefined;
  // Fields, not closure variables: V8 boxes a double held in a closure on every write, and these
  // change on every record.
  /** Latest exchange time announced (shifted by the pass offset), ms. */
  private lastMs = Number.NEGATIVE_INFINITY;
  /** Added to the recorded times of the current pass, so that a pass starts after the last ended. */
  private offsetMs = 0;
  private firstMs = 0;
  private hasFirst = false;
  /** The raw time halves of the last record read; -1: none yet in this file and pass. */
  private hi = -1;
  private lo = -1;
  private path = '';
  private priceMultiply = 1;
  private priceDivide = 1;
  private qtyMultiply = 1;
  private qtyDivide = 1;
  private fractionalLots = false;

  constructor(private readonly handler: RecordedEventHandler) {}

  /** A new pass over the files begins: its times continue after the last one's. */
  startPass(): void {
    if (this.hasFirst) this.offsetMs = this.lastMs + 1 - this.firstMs;
  }

  /** The chunks that follow are of this file, scaled so. */
  startFile(path: string, scale: RecordingScale): void {
    this.path = path;
    this.priceMultiply = scale.price.multiply;
    this.priceDivide = scale.price.divide;
    this.qtyMultiply = scale.qty.multiply;
    this.qtyDivide = scale.qty.divide;
    this.fractionalLots = scale.fractionalLots === true;
    this.hi = -1;
  }

  /**
   * Delivers the chunk's records from `from` on. Returns -1 once the chunk is done, or the index
   * to resume at after awaiting `pending`.
   * @throws DataError for a record off the tick or lot, or of an unknown kind.
   */
  dispatch(chunk: RecordChunk, from: number): number {
    const { u32, i32 } = chunk;
    const handler = this.handler;
    for (let i = from; i < chunk.count; i++) {
      const w = i * 16;
      const w0 = u32[w] as number;
      const kind = w0 & 0xff;
      if (kind === KIND.bbo || kind === KIND.conversionRate) continue;
      // The records of one venue message share their time: only a new time is converted (a
      // division per record otherwise) and may move the clock.
      const hi = u32[w + 3] as number;
      const lo = u32[w + 2] as number;
      if (hi !== this.hi || lo !== this.lo) {
        this.hi = hi;
        this.lo = lo;
        const exchMs = nsHalvesToMs(hi, lo);
        if (!this.hasFirst) {
          this.firstMs = exchMs;
          this.hasFirst = true;
        }
        const shifted = exchMs + this.offsetMs;
        if (shifted > this.lastMs) {
          this.lastMs = shifted;
          const moving = handler.advance(shifted);
          if (moving !== undefined) {
            // Resumed at this record, whose time is taken now: it goes straight to its event.
            this.pending = moving;
            return i;
          }
        }
      }
      let result: Promise<void> | undefined;
      if (kind === KIND.depth) {
        const side: Side = ((w0 >>> 8) & 0xff) === SIDE_BUY ? 'buy' : 'sell';
        const price = (i32[w + 9] as number) * TWO_32 + (u32[w + 8] as number);
        const qty = (i32[w + 11] as number) * TWO_32 + (u32[w + 10] as number);
        this.events++;
        result = handler.depth(side, this.toTicks(price, chunk.first + i), this.toLots(qty, chunk.first + i));
      } else if (kind === KIND.trade) {
        const sideByte = (w0 >>> 8) & 0xff;
        const aggressor: Side | undefined = sideByte === SIDE_BUY ? 'buy' : sideByte === SIDE_SELL ? 'sell' : undefined;
        const price = (i32[w + 9] as number) * TWO_32 + (u32[w + 8] as number);
        const qty = (i32[w + 11] as number) * TWO_32 + (u32[w + 10] as number);
        this.events++;
        result = handler.trade(aggressor, this.toTicks(price, chunk.first + i), this.toLots(qty, chunk.first + i));
      } else if (kind === KIND.clear) {
        this.events++;
        result = handler.clear();
      } else if (kind === KIND.gasPrice) {
        this.events++;
        result = handler.gasPrice(readExactFields({ bytes: chunk.bytes, offset: i * RECORD_BYTES }).aux1);
      } else {
        throw new DataError('DATA_BAD_RECORD', `${this.path}: record ${chunk.first + i} has unknown kind ${kind}`);
      }
      if (result !== undefined) {
        this.pending = result;
        return i + 1;
      }
    }
    return -1;
  }

  // A quotient of integers below 2^53 is whole exactly when the division is exact (a remainder
  // of at least 1/divide outweighs the rounding), so no floating-point `%`, which is a C call.

  private toTicks(value: number, index: number): number {
    const ticks = (value * this.priceMultiply) / this.priceDivide;
    if (!Number.isInteger(ticks)) throw new DataError('DATA_RULES_MISMATCH', `${this.path}: record ${index} price ${value} is off the tick`);
    return ticks;
  }

  private toLots(value: number, index: number): number {
    const lots = (value * this.qtyMultiply) / this.qtyDivide;
    if (!this.fractionalLots && !Number.isInteger(lots)) throw new DataError('DATA_RULES_MISMATCH', `${this.path}: record ${index} size ${value} is off the lot`);
    return lots;
  }
}
