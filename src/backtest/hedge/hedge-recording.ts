/**
 * A hedge market's recording (`backtest --hedge FILE`, the replay format `data import` writes),
 * read once into compact arrays: depth levels, snapshot clears and trades by exchange time, in
 * the recording's own ticks and lots. The backtest replays it beside the venue's recording on the
 * same clock, one exchange-time message at a time.
 */
import { parseUnits, type Side, type TickerRules } from '../../core/index.ts';
import { createRecordedEventSource, readRecordingHeader, type RecordingHeader } from '../data/index.ts';

const DEPTH = 0;
const CLEAR = 1;
const TRADE = 2;

/** A hedge recording in memory. */
export interface HedgeRecording {
  readonly header: RecordingHeader;
  /** Rules the ticks and lots are of: the recording's own tick and lot, its decimals. */
  readonly rules: TickerRules;
  readonly count: number;
  readonly timeMs: Float64Array;
  readonly kind: Uint8Array;
  /** 0 buy, 1 sell (trades: the aggressor; 2 when unknown). */
  readonly side: Uint8Array;
  readonly priceTicks: Float64Array;
  readonly qtyLots: Float64Array;
}

/** One event, for the replay. */
export type HedgeEvent =
  | { readonly kind: 'depth'; readonly side: Side; readonly priceTicks: number; readonly qtyLots: number }
  | { readonly kind: 'clear' }
  | { readonly kind: 'trade' };

/** The event at `index`. */
export function hedgeEventAt(recording: HedgeRecording, index: number): HedgeEvent {
  const kind = recording.kind[index];
  if (kind === CLEAR) return { kind: 'clear' };
  if (kind === TRADE) return { kind: 'trade' };
  return { kind: 'depth', side: recording.side[index] === 0 ? 'buy' : 'sell', priceTicks: recording.priceTicks[index] as number, qtyLots: recording.qtyLots[index] as number };
}

/**
 * Reads a hedge recording.
 * @throws DataError for an unreadable file.
 */
export async function loadHedgeRecording(paths: readonly string[]): Promise<HedgeRecording> {
  const header = readRecordingHeader(paths[0] as string);
  const rules: TickerRules = {
    base: header.base ?? header.symbol,
    quote: header.quote ?? 'QUOTE',
    isEcosystemBook: false,
    priceTick: parseUnits(header.tick === '0' ? '1' : header.tick, header.priceDecimals, { rounding: 'down' }),
    qtyStep: parseUnits(header.lot === '0' ? '1' : header.lot, header.qtyDecimals, { rounding: 'down' }),
    minQty: parseUnits(header.lot === '0' ? '1' : header.lot, header.qtyDecimals, { rounding: 'down' }),
    baseDecimals: header.qtyDecimals,
    quoteDecimals: header.priceDecimals,
  };
  const capacity = paths.reduce((sum, path) => sum + readRecordingHeader(path).records, 0);
  const timeMs = new Float64Array(capacity);
  const kind = new Uint8Array(capacity);
  const side = new Uint8Array(capacity);
  const priceTicks = new Float64Array(capacity);
  const qtyLots = new Float64Array(capacity);
  const at = { count: 0, nowMs: 0 };
  const push = (k: number, s: number, price: number, qty: number): undefined => {
    const i = at.count++;
    timeMs[i] = at.nowMs;
    kind[i] = k;
    side[i] = s;
    priceTicks[i] = price;
    qtyLots[i] = qty;
    return undefined;
  };
  await createRecordedEventSource(paths, rules).replay({
    advance: (ms) => {
      at.nowMs = ms;
      return undefined;
    },
    depth: (s, price, qty) => push(DEPTH, s === 'buy' ? 0 : 1, price, qty),
    clear: () => push(CLEAR, 0, 0, 0),
    trade: (aggressor, price, qty) => push(TRADE, aggressor === 'buy' ? 0 : aggressor === 'sell' ? 1 : 2, price, qty),
    gasPrice: () => undefined,
  });
  return { header, rules, count: at.count, timeMs, kind, side, priceTicks, qtyLots };
}
