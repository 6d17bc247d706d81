/**
 * The top of book rebuilt from a recording's depth records, after each venue message that changed
 * the book: what `akira-mm data bbo` prints and what the tests compare with the venue's own BBO.
 * Prices and sizes stay scaled integers (exact); the book is keyed by them directly.
 */
import { OrderBook } from '../../core/index.ts';
import { FLAG, KIND, SIDE_BUY, nsToWholeMs, type RecordingHeader } from './format.ts';
import { readExactFields, readRecording, type ReadOptions } from './reader.ts';

/** The rebuilt top after one book change (scaled integers; a missing side is undefined). */
export interface TopRow {
  /** Exchange time of the change, whole ms. */
  readonly exchMs: bigint;
  /** The venue's sequence id after the change, when the format has one. */
  readonly updateId: number | undefined;
  readonly bid: number | undefined;
  readonly bidQty: number;
  readonly ask: number | undefined;
  readonly askQty: number;
}

/** A venue BBO record of the recording (Binance bookTicker), for comparisons. */
export interface VenueTop {
  readonly updateId: number | undefined;
  readonly bid: number;
  readonly bidQty: number;
  readonly ask: number;
  readonly askQty: number;
}

/**
 * Streams the recording, calling `onTop` after every message that changed the book (a returned
 * promise is awaited before reading on) and `onVenueTop` for every BBO record. Returns the header.
 */
export async function replayTopOfBook(
  path: string,
  onTop: (row: TopRow) => Promise<void> | void,
  onVenueTop?: (top: VenueTop) => void,
  options: ReadOptions = {},
): Promise<RecordingHeader> {
  const book = new OrderBook();
  let changed = false;
  return readRecording(
    path,
    (record, _index, raw) => {
      if (record.kind === KIND.bbo) {
        onVenueTop?.({
          updateId: (record.flags & FLAG.hasSeq) !== 0 ? record.seq : undefined,
          bid: record.price,
          bidQty: record.qty,
          ask: record.aux1,
          askQty: record.aux2,
        });
        return;
      }
      if (record.kind === KIND.clear) {
        book.clear();
        changed = true;
      } else if (record.kind === KIND.depth) {
        book.setLevel(record.side === SIDE_BUY ? 'buy' : 'sell', record.price, record.qty);
        changed = true;
      } else {
        return;
      }
      // A message is only consistent once all its levels are in (a diff can cross halfway).
      if (!changed || (record.flags & FLAG.endOfMessage) === 0) return;
      changed = false;
      const bid = book.bestBid();
      const ask = book.bestAsk();
      return onTop({
        exchMs: nsToWholeMs(readExactFields(raw).exchNs),
        updateId: (record.flags & FLAG.hasSeq) !== 0 ? record.seq : undefined,
        bid: bid?.priceTicks,
        bidQty: bid?.qtyLots ?? 0,
        ask: ask?.priceTicks,
        askQty: ask?.qtyLots ?? 0,
      });
    },
    options,
  );
}
