/**
 * The reference half of `akira-mm record`: which market to record (`--reference`, else the pair
 * file's `REFERENCE`), where to (`--reference-out`, else the venue file's name with `.reference`
 * before its extension), and the running feed whose raw-market tap writes the recording.
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { PairConfig } from '../config/index.ts';
import { REFERENCE_KEYS } from '../config/index.ts';
import type { Clock, Logger, Rng } from '../core/index.ts';
import type { RecordingHeader } from '../backtest/data/index.ts';
import { BinanceReferenceFeed } from '../markets/binance/index.ts';
import { UsageError } from './io.ts';
import { ReferenceRecorder } from './reference-recorder.ts';

/** What to record, resolved from flags and the pair file. */
export interface ReferenceTarget {
  /** Upper case, e.g. ETHUSDT (Binance is the only reference venue so far). */
  readonly symbol: string;
  readonly wsUrl: string;
  readonly restUrl: string;
  readonly out: string;
}

/** The reference flags of `record`. */
export interface ReferenceFlags {
  readonly reference?: string | undefined;
  readonly 'reference-out'?: string | undefined;
  readonly 'reference-ws-url'?: string | undefined;
  readonly 'reference-rest-url'?: string | undefined;
}

/** eth.data → eth.reference.data (beside the venue recording). */
export function referenceOutPath(venueOut: string): string {
  const extension = extname(venueOut);
  return join(dirname(venueOut), `${basename(venueOut, extension)}.reference${extension === '' ? '.data' : extension}`);
}

function parseFlag<T>(flag: string, raw: string | undefined, parse: (raw: string) => { ok: true; value: T } | { ok: false; allowed: string }): T | undefined {
  if (raw === undefined) return undefined;
  const result = parse(raw);
  if (!result.ok) throw new UsageError(`--${flag} ${raw}: expected ${result.allowed}`);
  return result.value;
}

/**
 * The reference to record, or undefined when there is none (`--reference off`, or no flag and no
 * `REFERENCE` in the pair file).
 * @throws UsageError naming a bad flag.
 */
export function resolveReferenceTarget(flags: ReferenceFlags, config: PairConfig | undefined, venueOut: string, cwd: string): ReferenceTarget | undefined {
  const fromFlag = parseFlag('reference', flags.reference, REFERENCE_KEYS.REFERENCE.parse);
  const market = flags.reference === undefined ? config?.reference.market : fromFlag;
  if (market === undefined) return undefined;
  const wsUrl = parseFlag('reference-ws-url', flags['reference-ws-url'], REFERENCE_KEYS.REFERENCE_WS_URL.parse) ?? config?.reference.wsUrl ?? (REFERENCE_KEYS.REFERENCE_WS_URL.default as string);
  const restUrl = parseFlag('reference-rest-url', flags['reference-rest-url'], REFERENCE_KEYS.REFERENCE_REST_URL.parse) ?? config?.reference.restUrl ?? (REFERENCE_KEYS.REFERENCE_REST_URL.default as string);
  const out = resolve(cwd, flags['reference-out'] ?? (config === undefined ? venueOut : referenceOutPath(venueOut)));
  return { symbol: market.symbol, wsUrl, restUrl, out };
}

/** A reference being recorded. */
export interface ReferenceRecording {
  /** Stops the feed and finishes the file; returns the summary printed by `record`. */
  stop(): Promise<Record<string, unknown>>;
}

/**
 * Starts the feed with the recorder on its tap.
 * @throws UsageError when Binance does not list the symbol or cannot be reached.
 */
export async function startReferenceRecording(target: ReferenceTarget, deps: { clock: Clock; rng: Rng; logger: Logger }): Promise<ReferenceRecording> {
  const holder: { feed?: BinanceReferenceFeed } = {};
  // The recorder opens its file at the first record, once the feed knows the symbol's scale.
  const recorder = new ReferenceRecorder(target.out, target.symbol, () => holder.feed?.scale ?? { priceDecimals: 8, qtyDecimals: 8 });
  const running = new BinanceReferenceFeed({ symbol: target.symbol, wsUrl: target.wsUrl, restUrl: target.restUrl, clock: deps.clock, rng: deps.rng.fork('reference'), logger: deps.logger, observer: recorder });
  holder.feed = running;
  try {
    await running.start({ onTop: () => undefined, onTrade: () => undefined, onStatus: (status) => deps.logger.info({ state: status.state, reason: status.reason }, 'reference feed') });
  } catch (error) {
    recorder.close();
    throw new UsageError(`--reference binance:${target.symbol}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    stop: async () => {
      await running.stop();
      const header: RecordingHeader | undefined = recorder.close();
      const counters = running.status().counters;
      return { out: target.out, market: `binance:${target.symbol}`, records: header?.records ?? 0, ...recorder.counts, resyncs: counters.resyncs, gaps: counters.gaps, tick: header?.tick, lot: header?.lot };
    },
  };
}
