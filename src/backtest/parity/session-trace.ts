/**
 * A session as `akira-mm parity` compares it: the orders sent (side, price, time), the venue's
 * acknowledgements (so the measured latency), the fills with their fees, read from the engine's
 * journal — a live or paper session's (`paper --journal FILE`, `run --journal FILE`) or the
 * backtest's, which the engine writes the same way. Amounts become numbers here (prices in quote
 * tokens per base token, sizes in base tokens): the comparison is a report, not the ledger.
 */
import { formatUnits, type Side } from '../../core/index.ts';
import { parseJournal, type JournalRecord } from '../../engine/index.ts';

/** One order as sent. */
export interface TraceOrder {
  readonly orderId: string;
  readonly side: Side;
  readonly price: number;
  readonly qty: number;
  readonly sentMs: number;
  /** When the venue answered (accepted or rejected); undefined when no answer is in the journal. */
  readonly ackMs: number | undefined;
  readonly accepted: boolean;
  /** When the order was known finished (filled, cancelled, expired); undefined while it rested at the end. */
  readonly doneMs: number | undefined;
}

/** One fill of ours. */
export interface TraceFill {
  readonly orderId: string;
  readonly side: Side;
  /** The venue's time of the fill, ms. */
  readonly timeMs: number;
  readonly price: number;
  readonly qty: number;
  /** Fee valued in quote tokens at the fill price. */
  readonly feeQuote: number;
  readonly maker: boolean;
}

/** A session read from its journal. */
export interface SessionTrace {
  /** `BASE/QUOTE`. */
  readonly pair: string;
  readonly orders: readonly TraceOrder[];
  readonly fills: readonly TraceFill[];
  /** From the session's first record to its last, ms. */
  readonly startMs: number;
  readonly endMs: number;
  /** Time from each order's intent to the venue's answer, ms, in the order sent. */
  readonly ackLatenciesMs: readonly number[];
  /** The venue's rules of the pair as the session's last start recorded them, decimal strings of tokens; absent in older journals. */
  readonly rules?: { readonly tick: string; readonly lot: string; readonly minQty: string };
  /** The funds the pair began quoting with after its last start, decimal strings of tokens; absent in older journals. */
  readonly funds?: { readonly base: string; readonly quote: string };
}

/** A journal that cannot be compared, with what does not fit. */
export class ParityInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParityInputError';
  }
}

/** Decimals of the pair's tokens in the journal's amounts. */
export interface TraceDecimals {
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

function units(text: string, decimals: number): number {
  return Number(BigInt(text)) / 10 ** decimals;
}

/** The pairs a journal holds records of (`BASE/QUOTE`, as written; '' for records without one). */
export function journalPairs(text: string): string[] {
  return [...new Set(parseJournal(text).map((record) => record.pair ?? ''))];
}

/**
 * Reads one pair's session from journal text.
 * @throws ParityInputError when the journal holds no records of `pair` (naming the pairs it
 *   holds), has no fill records at all while orders filled (written before journals kept fills),
 *   or is truncated: a torn last line, or no `stop` record after its last `start` (the session
 *   did not end cleanly, so its last fills may be missing).
 */
export function readSessionTrace(text: string, pair: string, decimals: TraceDecimals, what = 'journal'): SessionTrace {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const last = lines[lines.length - 1];
  if (last !== undefined) {
    try {
      JSON.parse(last);
    } catch {
      throw new ParityInputError(`${what} is truncated: its last line (line ${lines.length}) is torn, ${JSON.stringify(last.slice(0, 60))}; the session was killed mid-write and its last records are missing. Compare a session that stopped cleanly (Ctrl-C, --duration)`);
    }
  }
  const all = parseJournal(text);
  const pairs = [...new Set(all.map((record) => record.pair).filter((name): name is string => name !== undefined))];
  const records: JournalRecord[] = all.filter((record) => record.pair === undefined || record.pair === pair);
  if (records.length === 0 || (pairs.length > 0 && !pairs.includes(pair))) {
    throw new ParityInputError(`${what} holds no records of ${pair} (the pair file's BASE/QUOTE): it is a journal of ${pairs.length === 0 ? 'nothing' : pairs.join(', ')}; give the pair file of the session's pair`);
  }
  const starts = records.filter((record) => record.t === 'start');
  const lastStart = records.lastIndexOf(starts[starts.length - 1] as JournalRecord);
  if (starts.length === 0) throw new ParityInputError(`${what} has no start record of ${pair}: it is not a session's whole journal (a compacted crash journal keeps only open orders; keep a session's with paper --journal FILE)`);
  if (!records.slice(lastStart).some((record) => record.t === 'stop')) {
    const at = records[records.length - 1]?.timeMs;
    throw new ParityInputError(`${what} is truncated: no stop record after its last start (the last record is at ${at === undefined ? '?' : new Date(at).toISOString()}); the session did not end cleanly and its last fills may be missing`);
  }
  const sent = new Map<string, { side: Side; price: number; qty: number; sentMs: number; ackMs?: number; accepted: boolean; doneMs?: number }>();
  const fills: TraceFill[] = [];
  for (const record of records) {
    switch (record.t) {
      case 'intent':
        sent.set(record.orderId, { side: record.side, price: units(record.price, decimals.quoteDecimals), qty: units(record.qty, decimals.baseDecimals), sentMs: record.timeMs, accepted: false });
        break;
      case 'ack': {
        const order = sent.get(record.orderId);
        if (order !== undefined && order.ackMs === undefined) Object.assign(order, { ackMs: record.timeMs, accepted: record.outcome === 'accepted' });
        break;
      }
      case 'done': {
        const order = sent.get(record.orderId);
        if (order !== undefined && order.doneMs === undefined) order.doneMs = record.timeMs;
        break;
      }
      case 'fill':
        fills.push({
          orderId: record.orderId,
          side: record.side,
          timeMs: record.timeMs,
          price: units(record.price, decimals.quoteDecimals),
          qty: units(record.qty, decimals.baseDecimals),
          feeQuote: record.feeQuote,
          maker: record.maker,
        });
        break;
      default:
        break;
    }
  }
  const filledDone = records.some((record) => record.t === 'done' && (record.status === 'FILLED' || record.status === 'PARTIALLY_FILLED'));
  if (fills.length === 0 && filledDone) {
    throw new ParityInputError(`${what} has orders that filled but no fill records: it was written before journals kept fills (issue 32); record a new session`);
  }
  const orders: TraceOrder[] = [...sent].map(([orderId, order]) => ({ orderId, side: order.side, price: order.price, qty: order.qty, sentMs: order.sentMs, ackMs: order.ackMs, accepted: order.accepted, doneMs: order.doneMs }));
  const times = records.map((record) => record.timeMs);
  const start = records[lastStart];
  const rules =
    start?.t === 'start' && [start.tick, start.lot, start.minQty].every((text) => typeof text === 'string' && /^[1-9]\d*$/.test(text))
      ? { tick: formatUnits(BigInt(start.tick as string), decimals.quoteDecimals), lot: formatUnits(BigInt(start.lot as string), decimals.baseDecimals), minQty: formatUnits(BigInt(start.minQty as string), decimals.baseDecimals) }
      : undefined;
  const fundsRecord = records.slice(lastStart).find((record) => record.t === 'funds');
  const funds =
    fundsRecord?.t === 'funds' && [fundsRecord.base, fundsRecord.quote].every((text) => typeof text === 'string' && /^\d+$/.test(text))
      ? { base: formatUnits(BigInt(fundsRecord.base), decimals.baseDecimals), quote: formatUnits(BigInt(fundsRecord.quote), decimals.quoteDecimals) }
      : undefined;
  return {
    ...(rules === undefined ? {} : { rules }),
    ...(funds === undefined ? {} : { funds }),
    pair,
    orders,
    fills: fills.sort((a, b) => a.timeMs - b.timeMs),
    startMs: Math.min(...times),
    endMs: Math.max(...times),
    ackLatenciesMs: orders.filter((order) => order.ackMs !== undefined).map((order) => (order.ackMs as number) - order.sentMs),
  };
}

/** The median of a list (undefined when empty). */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
