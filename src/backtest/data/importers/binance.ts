/**
 * Binance spot recordings as hftbacktest's collector writes them (../shared/data README §1): gzip
 * text, one `<local_ts_ns> <json>` per line, with the diff depth stream, a REST snapshot, trades
 * and bookTicker. The book is rebuilt with Binance's own procedure: diffs are buffered until a
 * snapshot arrives, diffs with u ≤ lastUpdateId are dropped, the first one applied must bridge
 * the snapshot (U ≤ L+1 ≤ u), and each later one must continue the chain (U = previous u + 1).
 * A broken chain stops the depth stream until the next snapshot, so the file never holds a book
 * that silently diverged. Files are one stream: pass them in time order (a file without a
 * snapshot continues the book of the one before). The collector writes the REST snapshot first,
 * before any stream message names the symbol: it is held until one does (or, if none ever does,
 * the file name gives the symbol). Local stamps are ns, µs or ms, per file (`time-unit.ts`).
 */
import { splitSymbol } from '../../../core/index.ts';
import { DataError, FLAG, KIND, SIDE_BUY, SIDE_SELL, decimalToScaled, type RecordInput } from '../format.ts';
import { RecordingWriter } from '../writer.ts';
import { basename } from 'node:path';
import { readLines } from './lines.ts';
import { SkipCounter, type ImportOptions, type ImportReport, type WarnSink } from './report.ts';
import { LocalStampReader } from './time-unit.ts';

/** Binance spot prices and sizes are strings with 8 decimals. */
const DECIMALS = 8;
/**
 * Diffs waiting for a snapshot are kept this long (local time, ns): a snapshot's `lastUpdateId`
 * is at most a REST round trip older than the line it arrives on, so it covers every diff received
 * before that, and a stream with no snapshot for hours costs a minute of diffs, not hours.
 */
const BUFFER_NS = 60_000_000_000n;

interface Level {
  readonly price: number;
  readonly qty: number;
}

interface Diff {
  localNs: bigint;
  readonly exchNs: bigint;
  readonly first: number;
  readonly last: number;
  readonly bids: Level[];
  readonly asks: Level[];
}

interface Snapshot {
  readonly localNs: bigint;
  readonly lastUpdateId: number;
  readonly bids: Level[];
  readonly asks: Level[];
  readonly where: string;
}

type BookState = { readonly kind: 'waiting' } | { readonly kind: 'synced'; lastUpdateId: number } | { readonly kind: 'lost' };

function parseLevels(value: unknown): Level[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: Level[] = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') return undefined;
    const price = decimalToScaled(entry[0], DECIMALS);
    const qty = decimalToScaled(entry[1], DECIMALS);
    if (price === undefined || qty === undefined || price === 0) return undefined;
    levels.push({ price, qty });
  }
  return levels;
}

/** Local time plus the measured offset, in whole ms like Binance's own times (it is an estimate). */
function estimateExchNs(localNs: bigint, offsetNs: bigint): bigint {
  const ns = localNs + offsetNs;
  return ns - (((ns % 1_000_000n) + 1_000_000n) % 1_000_000n);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** `nexousdt_20240723.dat.gz` → `NEXOUSDT`: the collector names its files `<symbol>_<date>`. */
export function symbolFromFileName(path: string): string | undefined {
  const match = /^([A-Za-z0-9]+)_\d{8}\b/.exec(basename(path));
  return match === null ? undefined : (match[1] as string).toUpperCase();
}

/**
 * Imports Binance files (in time order) into `out`.
 * @throws DataError when the files are out of order or nothing could be imported.
 */
export async function importBinance(paths: readonly string[], out: string, warn: WarnSink, options: ImportOptions = {}): Promise<ImportReport> {
  const skips = new SkipCounter(warn);
  let writer: RecordingWriter | undefined;
  let symbol: string | undefined;
  // Typed as the whole union: closures below change it, which TypeScript's narrowing cannot see.
  let state = { kind: 'waiting' } as BookState;
  let buffered: Diff[] = [];
  // A snapshot read before any stream message named the symbol (the collector's first line).
  let pending: Snapshot | undefined;
  // Diffs dropped from the buffer for age (BUFFER_NS) since the last snapshot: the next snapshot
  // covers them; if none comes, they were never bridged.
  let trimmed = 0;
  let lastLocalNs = -1n;
  // Exchange minus local clock, from the last message that carried both; BBO and snapshots have
  // no exchange time and get local time plus this offset (flagged as estimated).
  let offsetNs = 0n;

  const write = (record: RecordInput): void => (writer as RecordingWriter).append(record);

  const writeDiff = (diff: Diff): void => {
    const count = diff.bids.length + diff.asks.length;
    let n = 0;
    for (const [side, levels] of [[SIDE_BUY, diff.bids], [SIDE_SELL, diff.asks]] as const) {
      for (const level of levels) {
        n++;
        write({ kind: KIND.depth, side, flags: n === count ? FLAG.endOfMessage : 0, exchNs: diff.exchNs, localNs: diff.localNs, seq: diff.last, aux1: diff.first, price: level.price, qty: level.qty });
      }
    }
  };

  /** Applies a diff to a synced book, or loses sync on a gap. */
  const applyLive = (diff: Diff, where: string): void => {
    if (state.kind !== 'synced') return;
    if (diff.last <= state.lastUpdateId) {
      skips.skip('depth diff already in the snapshot', where);
      return;
    }
    if (diff.first > state.lastUpdateId + 1) {
      warn(`${where}: depth gap (expected U ≤ ${state.lastUpdateId + 1}, got U=${diff.first}); depth dropped until the next snapshot`);
      state = { kind: 'lost' };
      skips.skip('depth diff after a gap', where);
      return;
    }
    writeDiff(diff);
    state.lastUpdateId = diff.last;
  };

  const openWriter = (name: string): void => {
    symbol = name;
    writer = new RecordingWriter(out, { symbol, source: 'binance', priceDecimals: DECIMALS, qtyDecimals: DECIMALS, market: `binance:${symbol}`, ...(splitSymbol(symbol) ?? {}) });
  };

  /** Writes a snapshot (a clear, then its levels) and the buffered diffs that continue it. */
  const applySnapshot = ({ localNs, lastUpdateId, bids, asks, where }: Snapshot): void => {
    const exchNs = estimateExchNs(localNs, offsetNs);
    write({ kind: KIND.clear, flags: FLAG.exchTsEstimated, exchNs, localNs, seq: lastUpdateId });
    const sides = [[SIDE_BUY, bids.filter((l) => l.qty > 0)], [SIDE_SELL, asks.filter((l) => l.qty > 0)]] as const;
    const count = sides[0][1].length + sides[1][1].length;
    let n = 0;
    for (const [side, levels] of sides) {
      for (const level of levels) {
        n++;
        const flags = FLAG.snapshot | FLAG.exchTsEstimated | (n === count ? FLAG.endOfMessage : 0);
        write({ kind: KIND.depth, side, flags, exchNs, localNs, seq: lastUpdateId, price: level.price, qty: level.qty });
      }
    }
    state = { kind: 'synced', lastUpdateId };
    if (trimmed > 0) {
      const reason = 'depth diff over 60 s before a snapshot (the snapshot covers it)';
      skips.counts[reason] = (skips.counts[reason] ?? 0) + trimmed;
      trimmed = 0;
    }
    // Buffered diffs become usable now: they are written at the snapshot's receive time.
    const waiting = buffered;
    buffered = [];
    let bridged = false;
    for (const diff of waiting) {
      if (diff.last <= lastUpdateId) {
        skips.skip('depth diff already in the snapshot', where);
        continue;
      }
      if (!bridged && diff.first > lastUpdateId + 1) {
        warn(`${where}: snapshot ${lastUpdateId} does not reach the buffered diffs (first U=${diff.first}); depth dropped until the next snapshot`);
        state = { kind: 'lost' };
      }
      bridged = true;
      diff.localNs = localNs;
      if (state.kind === 'synced') applyLive(diff, where);
      else skips.skip('depth diff after a gap', where);
    }
  };

  try {
    for (const path of paths) {
      let lineNo = 0;
      let firstInFile = true;
      const stamps = new LocalStampReader(path, options.timeUnit ?? 'auto');
      for await (const line of readLines(path)) {
        lineNo++;
        skips.lines++;
        const where = `${path}:${lineNo}`;
        if (line.trim() === '') continue;
        const space = line.indexOf(' ');
        const stamp = space > 0 ? line.slice(0, space) : '';
        if (!/^\d{1,19}$/.test(stamp)) {
          skips.skip('malformed line (no <local_ts> prefix)', where);
          continue;
        }
        let localNs = stamps.toNs(stamp, lineNo);
        let message: unknown;
        try {
          message = JSON.parse(line.slice(space + 1));
        } catch {
          skips.skip('malformed JSON', where);
          continue;
        }
        if (!isRecord(message)) {
          skips.skip('malformed JSON', where, 'not an object');
          continue;
        }
        if (localNs < lastLocalNs) {
          if (firstInFile) throw new DataError('DATA_OUT_OF_ORDER', `${path} starts before the previous file ended: give the files in time order`);
          skips.skip('local time went back (kept at the previous time)', where);
          localNs = lastLocalNs;
        }
        firstInFile = false;

        // ── REST snapshot ──
        if ('lastUpdateId' in message) {
          const bids = parseLevels(message['bids']);
          const asks = parseLevels(message['asks']);
          const lastUpdateId = message['lastUpdateId'];
          if (bids === undefined || asks === undefined || !isId(lastUpdateId)) {
            skips.skip('malformed snapshot', where);
            continue;
          }
          lastLocalNs = localNs;
          const snapshot: Snapshot = { localNs, lastUpdateId, bids, asks, where };
          if (writer === undefined) pending = snapshot;
          else applySnapshot(snapshot);
          continue;
        }

        const stream = message['stream'];
        const data = message['data'];
        if (typeof stream !== 'string' || !isRecord(data)) {
          skips.skip('unknown message', where);
          continue;
        }
        const at = stream.indexOf('@');
        const streamSymbol = stream.slice(0, at).toUpperCase();
        const channel = stream.slice(at + 1);
        if (symbol === undefined) {
          openWriter(streamSymbol);
          if (pending !== undefined) {
            // The snapshot has no exchange time: estimate it from this message's, when it has one.
            if (isId(data['E'])) offsetNs = BigInt(data['E']) * 1_000_000n - localNs;
            applySnapshot(pending);
            pending = undefined;
          }
        } else if (streamSymbol !== symbol) {
          skips.skip(`other symbol than ${symbol}`, where, streamSymbol);
          continue;
        }

        if (channel.startsWith('depth')) {
          const bids = parseLevels(data['b']);
          const asks = parseLevels(data['a']);
          const first = data['U'];
          const last = data['u'];
          const eventMs = data['E'];
          if (bids === undefined || asks === undefined || !isId(first) || !isId(last) || !isId(eventMs) || first > last) {
            skips.skip('malformed depth diff', where);
            continue;
          }
          lastLocalNs = localNs;
          const exchNs = BigInt(eventMs) * 1_000_000n;
          offsetNs = exchNs - localNs;
          const diff: Diff = { localNs, exchNs, first, last, bids, asks };
          if (state.kind === 'synced') applyLive(diff, where);
          else {
            buffered.push(diff);
            let stale = 0;
            while (stale < buffered.length && (buffered[stale] as Diff).localNs < localNs - BUFFER_NS) stale++;
            if (stale > 0) {
              trimmed += stale;
              buffered = buffered.slice(stale);
            }
          }
        } else if (channel === 'trade') {
          const price = typeof data['p'] === 'string' ? decimalToScaled(data['p'], DECIMALS) : undefined;
          const qty = typeof data['q'] === 'string' ? decimalToScaled(data['q'], DECIMALS) : undefined;
          const tradeMs = data['T'];
          const id = data['t'];
          const buyerIsMaker = data['m'];
          if (price === undefined || qty === undefined || !isId(tradeMs) || !isId(id) || typeof buyerIsMaker !== 'boolean') {
            skips.skip('malformed trade', where);
            continue;
          }
          lastLocalNs = localNs;
          const exchNs = BigInt(tradeMs) * 1_000_000n;
          offsetNs = exchNs - localNs;
          // m = the buyer was the maker, so the aggressor sold.
          write({ kind: KIND.trade, side: buyerIsMaker ? SIDE_SELL : SIDE_BUY, flags: FLAG.endOfMessage, exchNs, localNs, seq: id, price, qty });
        } else if (channel === 'bookTicker') {
          const bid = typeof data['b'] === 'string' ? decimalToScaled(data['b'], DECIMALS) : undefined;
          const bidQty = typeof data['B'] === 'string' ? decimalToScaled(data['B'], DECIMALS) : undefined;
          const ask = typeof data['a'] === 'string' ? decimalToScaled(data['a'], DECIMALS) : undefined;
          const askQty = typeof data['A'] === 'string' ? decimalToScaled(data['A'], DECIMALS) : undefined;
          const id = data['u'];
          if (bid === undefined || bidQty === undefined || ask === undefined || askQty === undefined || !isId(id)) {
            skips.skip('malformed bookTicker', where);
            continue;
          }
          lastLocalNs = localNs;
          write({
            kind: KIND.bbo,
            flags: FLAG.endOfMessage | FLAG.exchTsEstimated,
            exchNs: estimateExchNs(localNs, offsetNs),
            localNs,
            seq: id,
            price: bid,
            qty: bidQty,
            aux1: ask,
            aux2: askQty,
          });
        } else {
          skips.skip('unknown stream', where, stream);
        }
      }
    }
    if (pending !== undefined) {
      // Only a snapshot and no stream message: the file name is the one place left naming the symbol.
      const name = symbolFromFileName(paths[0] ?? '');
      if (name === undefined) throw new DataError('DATA_BAD_INPUT', `${pending.where}: a snapshot but no stream message, and the file name does not give the symbol (<symbol>_<yyyymmdd>…)`);
      openWriter(name);
      applySnapshot(pending);
    }
  } catch (error) {
    writer?.abort();
    throw error;
  }
  const neverBridged = buffered.length + trimmed;
  if (neverBridged > 0) {
    skips.counts['depth diff never bridged by a snapshot'] = neverBridged;
    const hint = state.kind === 'waiting' ? ' (no snapshot at all: a file without one continues the file before it, so import them together, in time order)' : '';
    warn(`${neverBridged} depth diffs arrived without a usable snapshot and were dropped${hint}`);
  }
  if (writer === undefined) throw new DataError('DATA_BAD_INPUT', `no Binance stream message found in ${paths.join(', ')}`);
  const header = writer.close();
  return { format: 'binance', lines: skips.lines, records: header.records, skipped: skips.counts, header };
}
