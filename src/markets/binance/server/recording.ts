/**
 * Recordings the replay server reads, as one stream of Binance messages in receive order:
 * - hftbacktest collector files (`<local stamp> <json>` per line, the stamp in ns, or in µs as NEXOUSDT's collector writes it, gzip or plain; the shared
 *   `binance-spot-hftbacktest/*.gz`): the raw messages, replayed with their own decimal text;
 * - akira-mm recordings (`data import --format binance` or `record --reference` output): depth,
 *   BBO, trade and snapshot records become the same messages, prices printed with Binance's 8
 *   decimal places.
 * The kind is told by the file's first bytes (our magic `AKIRAMM\x01`), not by its name. Several
 * files are one stream, in the order given (each `_20240809` file continues its `_20240808`).
 */
import { FLAG, KIND, LocalStampReader, MAGIC, SIDE_BUY, SIDE_SELL, readFileHead, readLines, readRecording, readRecordingHeader } from '../../../backtest/data/index.ts';
import { BinanceError } from '../errors.ts';
import { formatScaled } from '../decimals.ts';

/** A price level as Binance prints it: [price, quantity]. */
export type TextLevel = readonly [string, string];

/** A snapshot as `/api/v3/depth` serves it. */
export interface TextSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly TextLevel[];
  readonly asks: readonly TextLevel[];
}

/** One recorded message, ready to be served. Times are ms. */
export type ReplayEvent =
  | { readonly kind: 'depth'; readonly localMs: number; readonly eventMs: number; readonly firstUpdateId: number; readonly lastUpdateId: number; readonly bids: readonly TextLevel[]; readonly asks: readonly TextLevel[] }
  | { readonly kind: 'ticker'; readonly localMs: number; readonly updateId: number; readonly bid: string; readonly bidQty: string; readonly ask: string; readonly askQty: string }
  | { readonly kind: 'trade'; readonly localMs: number; readonly tradeId: number; readonly price: string; readonly qty: string; readonly tradeMs: number; readonly eventMs: number; readonly buyerIsMaker: boolean }
  | { readonly kind: 'snapshot'; readonly localMs: number; readonly lastUpdateId: number; readonly bids: readonly TextLevel[]; readonly asks: readonly TextLevel[] };

/** What a recording holds. */
export interface RecordingInfo {
  /** Upper case, e.g. ETHUSDT. */
  readonly symbol: string;
  /** Decimal places of the text (8 for Binance's own; the header's for ours). */
  readonly priceDecimals: number;
  readonly qtyDecimals: number;
}

/** Visits each event; a returned promise is awaited before the next one. Return `false` to stop early. */
export type EventVisitor = (event: ReplayEvent) => Promise<boolean | void> | boolean | void;

/** Counts of what a pass skipped, by reason. */
export type SkipCounts = Record<string, number>;

const MAGIC_BYTES = Array.from(MAGIC, (char) => char.charCodeAt(0));

/** True when the file starts with the akira-mm recording magic. */
function isAkiraRecording(path: string): boolean {
  const head = readFileHead(path, MAGIC_BYTES.length);
  return head.length === MAGIC_BYTES.length && head.every((byte, i) => byte === MAGIC_BYTES[i]);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function textLevels(value: unknown): TextLevel[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const levels: TextLevel[] = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') return undefined;
    levels.push([entry[0], entry[1]]);
  }
  return levels;
}

/**
 * A line's local stamp in ms, in the file's own unit (hftbacktest's files are in ns, the NEXOUSDT
 * collector's in µs: the first stamp decides, as `data import --time-unit auto` does). A first stamp
 * that is no date in any unit throws (the file is no recording); a later one out of range skips its line.
 */
function localMsOf(stamp: string, lineNo: number, stamps: LocalStampReader): number | undefined {
  if (stamps.resolvedUnit === undefined) return Number(stamps.toNs(stamp, lineNo) / 1_000_000n);
  try {
    return Number(stamps.toNs(stamp, lineNo) / 1_000_000n);
  } catch {
    return undefined;
  }
}

/** One hftbacktest line as an event; a string says why it was skipped. */
function parseCollectorLine(line: string, lineNo: number, stamps: LocalStampReader, symbol: { value: string | undefined }): ReplayEvent | string {
  const space = line.indexOf(' ');
  const stamp = space > 0 ? line.slice(0, space) : '';
  if (!/^\d{1,19}$/.test(stamp)) return 'no <local_ts_ns> prefix';
  const localMs = localMsOf(stamp, lineNo, stamps);
  if (localMs === undefined) return 'local timestamp outside 2009–2100';
  let message: unknown;
  try {
    message = JSON.parse(line.slice(space + 1));
  } catch {
    return 'malformed JSON';
  }
  if (!isObject(message)) return 'malformed JSON';
  if ('lastUpdateId' in message) {
    const bids = textLevels(message['bids']);
    const asks = textLevels(message['asks']);
    if (!isId(message['lastUpdateId']) || bids === undefined || asks === undefined) return 'malformed snapshot';
    return { kind: 'snapshot', localMs, lastUpdateId: message['lastUpdateId'], bids, asks };
  }
  const stream = message['stream'];
  const data = message['data'];
  if (typeof stream !== 'string' || !isObject(data)) return 'unknown message';
  const streamSymbol = stream.slice(0, Math.max(0, stream.indexOf('@'))).toUpperCase();
  symbol.value ??= streamSymbol;
  if (streamSymbol !== symbol.value) return `other symbol than ${symbol.value}`;
  const channel = stream.slice(stream.indexOf('@') + 1);
  if (channel.startsWith('depth')) {
    const bids = textLevels(data['b']);
    const asks = textLevels(data['a']);
    const { U, u, E } = data;
    if (bids === undefined || asks === undefined || !isId(U) || !isId(u) || !isId(E) || U > u) return 'malformed depth diff';
    return { kind: 'depth', localMs, eventMs: E, firstUpdateId: U, lastUpdateId: u, bids, asks };
  }
  if (channel === 'bookTicker') {
    const { u, b, B, a, A } = data;
    if (!isId(u) || typeof b !== 'string' || typeof B !== 'string' || typeof a !== 'string' || typeof A !== 'string') return 'malformed bookTicker';
    return { kind: 'ticker', localMs, updateId: u, bid: b, bidQty: B, ask: a, askQty: A };
  }
  if (channel === 'trade') {
    const { t, p, q, T, E, m } = data;
    if (!isId(t) || typeof p !== 'string' || typeof q !== 'string' || !isId(T) || !isId(E) || typeof m !== 'boolean') return 'malformed trade';
    return { kind: 'trade', localMs, tradeId: t, price: p, qty: q, tradeMs: T, eventMs: E, buyerIsMaker: m };
  }
  return `unserved stream ${channel}`;
}

/** A set of recording files read as one stream of Binance messages. */
export class RecordingSource {
  readonly #paths: readonly string[];
  readonly #akira: boolean;
  #info: RecordingInfo | undefined;
  /** Lines or records a pass could not use, by reason (the last pass's). */
  skipped: SkipCounts = {};

  /** @throws DataError `DATA_BAD_FILE` when a file cannot be opened; BinanceError `BINANCE_MALFORMED` when the files mix kinds. */
  constructor(paths: readonly string[]) {
    if (paths.length === 0) throw new BinanceError('BINANCE_MALFORMED', 'no recording given');
    const kinds = paths.map(isAkiraRecording);
    if (kinds.some((kind) => kind !== kinds[0])) throw new BinanceError('BINANCE_MALFORMED', 'the files mix akira-mm recordings and raw Binance lines: give one kind');
    this.#paths = paths;
    this.#akira = kinds[0] === true;
    if (this.#akira) {
      const headers = paths.map((path) => readRecordingHeader(path));
      const first = headers[0]!;
      if (headers.some((h) => h.symbol !== first.symbol || h.priceDecimals !== first.priceDecimals || h.qtyDecimals !== first.qtyDecimals)) {
        throw new BinanceError('BINANCE_MALFORMED', 'the recordings differ in symbol or decimals');
      }
      this.#info = { symbol: first.symbol.toUpperCase(), priceDecimals: first.priceDecimals, qtyDecimals: first.qtyDecimals };
    }
  }

  /** Symbol and decimals; known after the first event of a raw file has been read. */
  get info(): RecordingInfo | undefined {
    return this.#info;
  }

  /**
   * Reads every event in order (or until `visit` returns false).
   * @throws DataError / BinanceError for unreadable files.
   */
  async forEach(visit: EventVisitor): Promise<void> {
    this.skipped = {};
    const skip = (reason: string): void => {
      this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    };
    if (this.#akira) await this.#forEachRecord(visit, skip);
    else await this.#forEachLine(visit, skip);
  }

  async #forEachLine(visit: EventVisitor, skip: (reason: string) => void): Promise<void> {
    const symbol = { value: this.#info?.symbol };
    for (const path of this.#paths) {
      const stamps = new LocalStampReader(path, 'auto');
      let lineNo = 0;
      for await (const line of readLines(path)) {
        lineNo++;
        if (line.trim() === '') continue;
        const event = parseCollectorLine(line, lineNo, stamps, symbol);
        if (typeof event === 'string') {
          skip(event);
          continue;
        }
        this.#info ??= { symbol: symbol.value ?? '', priceDecimals: 8, qtyDecimals: 8 };
        if (event.kind === 'snapshot' && this.#info.symbol === '') continue;
        if ((await visit(event)) === false) return;
      }
    }
  }

  async #forEachRecord(visit: EventVisitor, skip: (reason: string) => void): Promise<void> {
    const info = this.#info as RecordingInfo;
    const price = (scaled: number): string => formatScaled(scaled, info.priceDecimals);
    const qty = (scaled: number): string => formatScaled(scaled, info.qtyDecimals);
    // Levels of the message being assembled (a diff or a snapshot end at the `endOfMessage` flag).
    let bids: TextLevel[] = [];
    let asks: TextLevel[] = [];
    let snapshotId: number | undefined;
    let stop = false;
    const StopReading = new Error('stop');
    for (const path of this.#paths) {
      try {
        await readRecording(path, async (record) => {
          if (stop) throw StopReading;
          let event: ReplayEvent | undefined;
          const hasIds = (record.flags & FLAG.hasSeq) !== 0;
          if (record.kind === KIND.clear) {
            snapshotId = hasIds ? record.seq : undefined;
            bids = [];
            asks = [];
            if ((record.flags & FLAG.endOfMessage) !== 0 && snapshotId !== undefined) {
              event = { kind: 'snapshot', localMs: record.localMs, lastUpdateId: snapshotId, bids, asks };
              snapshotId = undefined;
            }
          } else if (record.kind === KIND.depth) {
            (record.side === SIDE_BUY ? bids : asks).push([price(record.price), qty(record.qty)]);
            if ((record.flags & FLAG.endOfMessage) !== 0) {
              if ((record.flags & FLAG.snapshot) !== 0) {
                if (snapshotId === undefined) skip('snapshot without an update id');
                else event = { kind: 'snapshot', localMs: record.localMs, lastUpdateId: snapshotId, bids, asks };
                snapshotId = undefined;
              } else if (!hasIds || (record.flags & FLAG.hasAux1) === 0) {
                skip('depth message without update ids (not a Binance recording)');
              } else {
                event = { kind: 'depth', localMs: record.localMs, eventMs: Math.floor(record.exchMs), firstUpdateId: record.aux1, lastUpdateId: record.seq, bids, asks };
              }
              bids = [];
              asks = [];
            }
          } else if (record.kind === KIND.bbo) {
            if (hasIds) event = { kind: 'ticker', localMs: record.localMs, updateId: record.seq, bid: price(record.price), bidQty: qty(record.qty), ask: price(record.aux1), askQty: qty(record.aux2) };
            else skip('BBO without an update id');
          } else if (record.kind === KIND.trade) {
            const ms = Math.floor(record.exchMs);
            if (record.side === SIDE_BUY || record.side === SIDE_SELL) {
              event = { kind: 'trade', localMs: record.localMs, tradeId: hasIds ? record.seq : 0, price: price(record.price), qty: qty(record.qty), tradeMs: ms, eventMs: ms, buyerIsMaker: record.side === SIDE_SELL };
            } else skip('trade without an aggressor side');
          }
          if (event !== undefined && (await visit(event)) === false) stop = true;
        });
      } catch (error) {
        if (error === StopReading) return;
        throw error;
      }
      if (stop) return;
    }
  }
}
